"""Belote contrée: the readings other scorers use (issue 27), each with its worked numbers.

`chute` (the base of a fall), `coinche_marque` (a made coinche: the lump sum or the
points made), `marque: faits_seuls` as a whole reading, the capot under a coinche, and
the federation's capot (252 made, 250 coinché). docs/rules.md, "Belote contrée".
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.games.belote_contree import BeloteContree

GAME = BeloteContree()


def pts(a: int, b: int) -> dict[str, int]:
    return {"A": a, "B": b}


def hand(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"taker": "A", "bid": 120, "contract": "hearts", "points": pts(130, 32)}
    base.update(fields)
    return base


def scores(h: dict[str, Any], **options: Any) -> tuple[int, int]:
    resolved = GAME.resolve_options(options)
    assert GAME.validate(h, resolved) == []
    out = GAME.result_json(GAME.score(h, resolved))["scores"]
    return out["A"], out["B"]


# -- chute: 160 | 162 ------------------------------------------------------------------


def test_chute_162_gives_the_defence_162_plus_the_bid_on_a_fall() -> None:
    failed = hand(points=pts(110, 52))
    assert scores(failed, chute=162, rounding="none") == (0, 282)
    assert scores({**failed, "coinche": 1}, chute=162, rounding="none") == (0, 564)
    # The default: 160 + 120.
    assert scores(failed, rounding="none") == (0, 280)
    assert scores({**failed, "coinche": 1}, rounding="none") == (0, 560)


def test_chute_162_shows_through_the_rounding_only_under_a_surcoinche() -> None:
    failed = hand(points=pts(110, 52))
    assert scores(failed, chute=162) == (0, 280)
    # 4 x (162 + 120) = 1128, rounded up.
    assert scores({**failed, "coinche": 2}, chute=162) == (0, 1130)


def test_chute_does_not_change_a_made_contract_nor_the_lump_sum_of_a_made_coinche() -> None:
    assert scores(hand(), chute=162, rounding="none") == (250, 32)
    assert scores(hand(coinche=1), chute=162, rounding="none") == (560, 0)


def test_a_capoted_taker_falls_by_the_chute_unless_defence_capot_is_250() -> None:
    capoted = hand(bid=100, points=pts(0, 162), capot="B")
    assert scores(capoted, chute=162, rounding="none") == (0, 262)
    assert scores(capoted, chute=162, defence_capot=250, rounding="none") == (0, 350)


def test_a_failed_capot_bid_with_chute_162_gives_162_plus_250() -> None:
    assert scores(hand(bid="capot", points=pts(152, 10)), chute=162, rounding="none") == (0, 412)


# -- coinche_marque: forfait | points_faits ------------------------------------------------


def test_points_faits_multiplies_the_takers_total_and_bid_and_the_defence_keeps_its_own() -> None:
    assert scores(hand(coinche=1), coinche_marque="points_faits", rounding="none") == (500, 32)
    assert scores(hand(coinche=2), coinche_marque="points_faits", rounding="none") == (1000, 32)
    # Rounded as every score: the defence's 32 to 30.
    assert scores(hand(coinche=1), coinche_marque="points_faits") == (500, 30)
    # The lump sum, by default: (160 + 120) x 2, the defence nothing.
    assert scores(hand(coinche=1), rounding="none") == (560, 0)


def test_points_faits_gives_a_failed_coinche_the_chute_and_the_bid_multiplied() -> None:
    failed = hand(points=pts(110, 52), coinche=1)
    assert scores(failed, coinche_marque="points_faits", rounding="none") == (0, 560)
    assert scores(failed, coinche_marque="points_faits", chute=162, rounding="none") == (0, 564)


def test_points_faits_keeps_the_takers_belote_outside_the_multiplier_unless_belote_multiplied() -> None:
    h = hand(coinche=1, belote=["A"])
    assert scores(h, coinche_marque="points_faits", rounding="none") == (520, 32)
    assert scores(h, coinche_marque="points_faits", belote_multiplied="yes", rounding="none") == (540, 32)
    # The defence's belote stays in its own total.
    defence_belote = hand(points=pts(130, 32), coinche=1, belote=["B"])
    assert scores(defence_belote, coinche_marque="points_faits", rounding="none") == (500, 52)


def test_points_faits_multiplies_the_takers_own_announcements_and_the_defence_keeps_its_own() -> None:
    announced = {"A": [{"kind": "tierce", "high": "K"}], "B": [{"kind": "tierce", "high": "Q"}]}
    h = hand(coinche=1, announcements=announced)
    # A's tierce to the king beats B's: (130 + 20 + 120) x 2; B has no scoring announcement.
    assert scores(h, coinche_marque="points_faits", announcements="on", rounding="none") == (540, 32)


def test_a_scoreit_sheet_reproduces_under_its_reading() -> None:
    counter = {"coinche_marque": "points_faits", "chute": 162, "rounding": "none", "capot_value": 252}
    # Bid 120, 130 made: 250 / 32; bid 100 by B, 120 made: 42 / 220.
    assert scores(hand(), **counter) == (250, 32)
    assert scores(hand(taker="B", bid=100, points=pts(42, 120)), **counter) == (42, 220)
    # B bids 120, makes 110 with belote: 120 + 110 + 20.
    assert scores(hand(taker="B", points=pts(52, 110), belote=["B"]), **counter) == (52, 250)
    # Failed: 162 + the bid; the fallen taker keeps its belote.
    assert scores(hand(points=pts(110, 52)), **counter) == (0, 282)
    assert scores(hand(bid=140, points=pts(110, 52), belote=["A"]), **counter) == (20, 302)
    # An unbid capot: 252 + the bid.
    assert scores(hand(bid=140, points=pts(162, 0), capot="A"), **counter) == (392, 0)
    # Coinché and surcoinché, made and failed.
    assert scores(hand(coinche=1), **counter) == (500, 32)
    assert scores(hand(coinche=2), **counter) == (1000, 32)
    assert scores(hand(taker="B", points=pts(52, 110), coinche=1), **counter) == (564, 0)
    assert scores(hand(taker="B", points=pts(52, 110), coinche=2), **counter) == (1128, 0)


# -- marque: faits_seuls, the whole reading ---------------------------------------------


def test_faits_seuls_made_scores_each_side_its_own_total() -> None:
    assert scores(hand(bid=80, points=pts(90, 72)), marque="faits_seuls", rounding="none") == (90, 72)
    assert scores(hand(bid=80, points=pts(89, 73)), marque="faits_seuls") == (90, 70)


def test_faits_seuls_made_and_coinched_scores_160_times_k_and_no_bid() -> None:
    assert scores(hand(bid=80, points=pts(90, 72), coinche=1), marque="faits_seuls") == (320, 0)
    assert scores(hand(bid=80, points=pts(90, 72), coinche=2), marque="faits_seuls") == (640, 0)


def test_faits_seuls_failed_gives_the_defence_the_chute_flat() -> None:
    assert scores(hand(bid=140, points=pts(90, 72)), marque="faits_seuls") == (0, 160)
    assert scores(hand(bid=140, points=pts(90, 72), coinche=1), marque="faits_seuls") == (0, 320)
    assert scores(hand(bid=140, points=pts(90, 72)), marque="faits_seuls", chute=162, rounding="none") == (0, 162)


def test_faits_seuls_defence_taking_every_trick_scores_250_flat_with_defence_capot_250() -> None:
    capoted = hand(bid=100, points=pts(0, 162), capot="B")
    assert scores(capoted, marque="faits_seuls", defence_capot=250) == (0, 250)
    assert scores({**capoted, "coinche": 1}, marque="faits_seuls", defence_capot=250) == (0, 500)
    assert scores(capoted, marque="faits_seuls") == (0, 160)


def test_faits_seuls_keeps_a_capot_bids_250_as_the_counters_do() -> None:
    made = hand(bid="capot", points=pts(162, 0), capot="A")
    assert scores(made, marque="faits_seuls") == (500, 0)
    assert scores({**made, "coinche": 1}, marque="faits_seuls") == (1000, 0)
    failed = hand(bid="capot", points=pts(152, 10))
    assert scores(failed, marque="faits_seuls", capot_failed=500) == (0, 500)
    assert scores(failed, marque="faits_seuls") == (0, 410)
    # An unbid capot: the taker's own total, 250.
    assert scores(hand(bid=80, points=pts(162, 0), capot="A"), marque="faits_seuls") == (250, 0)


def test_faits_seuls_with_points_faits_multiplies_the_takers_own_total() -> None:
    h = hand(bid=80, points=pts(90, 72), coinche=1)
    assert scores(h, marque="faits_seuls", coinche_marque="points_faits", rounding="none") == (180, 72)


# -- the capot under a coinche ----------------------------------------------------------


@pytest.mark.parametrize("capot_value", [250, 252])
def test_a_coinched_capot_puts_the_federations_250_in_the_bracket_whatever_capot_value(capot_value: int) -> None:
    capot = hand(bid=100, points=pts(162, 0), capot="A")
    assert scores({**capot, "coinche": 2}, capot_value=capot_value) == (1400, 0)
    assert scores({**capot, "coinche": 1}, capot_value=capot_value, rounding="none") == (700, 0)


def test_under_points_faits_a_coinched_capot_multiplies_the_sides_own_total() -> None:
    capot = hand(bid=100, points=pts(162, 0), capot="A")
    assert scores({**capot, "coinche": 2}, capot_value=252, coinche_marque="points_faits") == (1410, 0)
    assert scores({**capot, "coinche": 1}, capot_value=252, coinche_marque="points_faits", rounding="none") == (
        704,
        0,
    )
    assert scores({**capot, "coinche": 1}, coinche_marque="points_faits", rounding="none") == (700, 0)


def test_the_federations_capot_252_made_and_250_coinched() -> None:
    capot = hand(bid=100, points=pts(162, 0), capot="A")
    assert scores(capot, capot_value=252, rounding="none") == (352, 0)
    assert scores({**capot, "coinche": 1}, capot_value=252, rounding="none") == (700, 0)
