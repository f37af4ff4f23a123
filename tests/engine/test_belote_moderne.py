"""Belote moderne: the sans atout and tout atout contracts, their totals, multipliers,
belotes and capots, on top of everything belote classique does."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.games.belote_common import SANS_ATOUT, TOUT_ATOUT, announcement_key
from engine.games.belote_moderne import BeloteModerne

GAME = BeloteModerne()


def hand(contract: str, a: int, b: int, **fields: Any) -> dict[str, Any]:
    """A hand taken by A unless the test says otherwise."""
    return {"taker": "A", "contract": contract, "points": {"A": a, "B": b}, **fields}


def result(h: dict[str, Any], carry: int = 0, **options: Any) -> dict[str, Any]:
    resolved = GAME.resolve_options(options)
    assert GAME.validate(h, resolved) == []
    return GAME.result_json(GAME.score(h, resolved, carry))


def scores(h: dict[str, Any], carry: int = 0, **options: Any) -> tuple[int, int]:
    out = result(h, carry, **options)["scores"]
    return out["A"], out["B"]


def codes(h: Any, **options: Any) -> list[tuple[str, str]]:
    return [(e.field, e.code) for e in GAME.validate(h, GAME.resolve_options(options))]


def ann(kind: str, high: str, suit: str | None = None) -> dict[str, str]:
    return {"kind": kind, "high": high, **({"suit": suit} if suit else {})}


def test_the_game_is_belote_moderne_with_the_options_of_belote_classique() -> None:
    assert GAME.code == "belote_moderne"
    assert GAME.sides == ("A", "B")
    assert GAME.players_per_table == 4
    assert [spec.name for spec in GAME.option_specs] == [
        "threshold",
        "tie",
        "capot_value",
        "belote_when_dedans",
        "announcement_tie",
        "announcements",
        "rounding",
    ]


def test_contracts_are_the_four_suits_sans_atout_and_tout_atout() -> None:
    assert set(GAME.contracts) == {"clubs", "diamonds", "hearts", "spades", "sans_atout", "tout_atout"}
    assert codes(hand("misere", 80, 82)) == [("contract", "invalid_choice")]


def test_sans_atout_cards_keep_their_plain_value_130_in_all() -> None:
    plain = GAME.card_values["plain"]
    assert 4 * sum(plain.values()) + 10 == SANS_ATOUT.total == 130


def test_tout_atout_cards_take_their_trump_value_258_in_all() -> None:
    trump = GAME.card_values["trump"]
    assert 4 * sum(trump.values()) + 10 == TOUT_ATOUT.total == 258


# -- multipliers ---------------------------------------------------------------------


def test_a_suit_contract_scores_as_in_belote_classique() -> None:
    assert scores(hand("spades", 92, 70, belote=["A"])) == (112, 70)


def test_sans_atout_doubles_everything_the_teams_score() -> None:
    h = hand("sans_atout", 80, 50, announcements={"A": [ann("tierce", "A")], "B": []})
    assert scores(h) == ((80 + 20) * 2, 50 * 2)


def test_tout_atout_triples_cards_and_belote() -> None:
    # REFERENCE vector: taker 140 + one belote against 118 -> 480 / 354.
    assert result(hand("tout_atout", 140, 118, belote=["A"])) == {
        "scores": {"A": 480, "B": 354},
        "outcome": "made",
        "reserve_out": 0,
    }


def test_tout_atout_triples_the_announcements() -> None:
    h = hand("tout_atout", 140, 118, announcements={"A": [], "B": [ann("cinquante", "A", "hearts")]})
    # 140 against 118 + 50 = 168: dedans, the defence scores (258 + 50) x 3.
    assert scores(h) == (0, 924)


def test_sans_atout_dedans_gives_the_defence_260() -> None:
    # REFERENCE vector: SA 60-70 -> the defence scores 130 x 2.
    assert result(hand("sans_atout", 60, 70)) == {"scores": {"A": 0, "B": 260}, "outcome": "dedans", "reserve_out": 0}


def test_sans_atout_litige_holds_the_reserve_already_multiplied() -> None:
    # REFERENCE vector: SA 65-65 -> the defence scores 130, 130 held.
    assert result(hand("sans_atout", 65, 65)) == {"scores": {"A": 0, "B": 130}, "outcome": "litige", "reserve_out": 130}


def test_a_multiplied_reserve_is_added_as_it_is_to_the_next_winner() -> None:
    held = result(hand("tout_atout", 129, 129))["reserve_out"]
    assert held == 387
    # The next donne at a suit, made: the reserve is not multiplied again.
    assert scores(hand("hearts", 92, 70), carry=held) == (92 + 387, 70)
    # A next donne at sans atout does not double it either.
    assert scores(hand("sans_atout", 80, 50), carry=held) == (160 + 387, 100)


def test_a_dedans_keeps_the_takers_belote_multiplied() -> None:
    h = hand("tout_atout", 100, 158, belote=["A", "A"])
    assert scores(h) == (120, 774)
    assert scores(h, belote_when_dedans="defence") == (0, 894)


def test_rounding_applies_to_the_multiplied_score() -> None:
    # 67 x 2 = 134 -> 130; 63 x 2 = 126 -> 130.
    assert scores(hand("sans_atout", 67, 63), rounding="nearest_ten") == (130, 130)
    assert scores(hand("sans_atout", 67, 63)) == (134, 126)


# -- capot ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "total", "capot_250", "capot_252"),
    [("clubs", 162, 250, 252), ("sans_atout", 130, 218 * 2, 220 * 2), ("tout_atout", 258, 346 * 3, 348 * 3)],
)
def test_capot_scores_the_contract_total_plus_88_or_plus_90_then_the_multiplier(
    contract: str, total: int, capot_250: int, capot_252: int
) -> None:
    h = hand(contract, total, 0, capot="A")
    assert scores(h) == (capot_250, 0)
    assert scores(h, capot_value=252) == (capot_252, 0)


def test_a_defence_capot_in_sans_atout_scores_218_doubled() -> None:
    assert scores(hand("sans_atout", 0, 130, capot="B")) == (0, 436)


def test_capot_needs_the_contracts_whole_total() -> None:
    assert codes(hand("sans_atout", 162, 0, capot="A")) == [("points.A", "out_of_range")]
    assert codes(hand("tout_atout", 248, 10, capot="A")) == [("capot", "capot_points")]


# -- contract test -------------------------------------------------------------------


def test_card_points_threshold_is_66_of_130_in_sans_atout() -> None:
    assert result(hand("sans_atout", 66, 64), threshold="card_points")["outcome"] == "made"
    assert result(hand("sans_atout", 65, 65), threshold="card_points")["outcome"] == "litige"
    assert result(hand("sans_atout", 64, 66), threshold="card_points")["outcome"] == "dedans"


def test_card_points_threshold_is_130_of_258_in_tout_atout() -> None:
    defence_belotes = {"belote": ["B", "B"]}
    assert result(hand("tout_atout", 130, 128, **defence_belotes), threshold="card_points")["outcome"] == "made"
    assert result(hand("tout_atout", 130, 128, **defence_belotes), threshold="totals")["outcome"] == "dedans"
    assert result(hand("tout_atout", 129, 129), threshold="card_points")["outcome"] == "litige"


def test_tie_options_apply_in_every_contract() -> None:
    assert scores(hand("sans_atout", 65, 65), tie="dedans") == (0, 260)
    assert scores(hand("sans_atout", 65, 65), tie="made") == (130, 130)


# -- belote --------------------------------------------------------------------------


def test_there_is_no_belote_in_sans_atout() -> None:
    assert codes(hand("sans_atout", 80, 50, belote=["A"])) == [("belote", "belote_in_sans_atout")]


def test_tout_atout_allows_up_to_four_belotes_80_points_before_multiplying() -> None:
    assert scores(hand("tout_atout", 140, 118, belote=["A", "A", "B", "A"])) == ((140 + 60) * 3, (118 + 20) * 3)
    assert scores(hand("tout_atout", 258, 0, capot="A", belote=["A"] * 4)) == ((346 + 80) * 3, 0)
    assert codes(hand("tout_atout", 140, 118, belote=["A"] * 5)) == [("belote", "too_many_belotes")]


def test_a_suit_contract_allows_one_belote() -> None:
    assert codes(hand("hearts", 92, 70, belote=["A", "A"])) == [("belote", "too_many_belotes")]


def test_tout_atout_belotes_need_kings_and_queens_the_other_team_does_not_show() -> None:
    carre = {"A": [ann("carre", "K")], "B": []}
    assert codes(hand("tout_atout", 140, 118, belote=["B"], announcements=carre)) == [("belote", "belote_conflict")]
    assert codes(hand("tout_atout", 140, 118, belote=["A", "A"], announcements=carre)) == []
    sequences = {"A": [ann("tierce", "A", "hearts"), ann("tierce", "K", "spades")], "B": []}
    assert codes(hand("tout_atout", 140, 118, belote=["B", "B"], announcements=sequences)) == []
    assert codes(hand("tout_atout", 140, 118, belote=["B", "B", "B"], announcements=sequences)) == [
        ("belote", "belote_conflict")
    ]


# -- announcements -------------------------------------------------------------------


def test_in_tout_atout_every_sequence_is_in_trump() -> None:
    assert announcement_key(ann("tierce", "K"), TOUT_ATOUT) == announcement_key(ann("tierce", "K", "clubs"), TOUT_ATOUT)
    assert announcement_key(ann("cent", "K"), TOUT_ATOUT) > announcement_key(ann("carre", "K"), TOUT_ATOUT)


def test_in_sans_atout_no_sequence_is_in_trump_so_equal_ones_score_for_nobody() -> None:
    h = hand(
        "sans_atout",
        80,
        50,
        announcements={"A": [ann("tierce", "K", "hearts")], "B": [ann("tierce", "K", "clubs")]},
    )
    assert scores(h) == (160, 100)
    assert scores({**h, "order": "B"}, announcement_tie="first_in_play") == (160, 140)


# -- validation ----------------------------------------------------------------------


def test_card_points_must_add_up_to_the_contracts_total() -> None:
    assert codes(hand("sans_atout", 92, 70)) == [("points", "points_sum")]
    assert codes(hand("tout_atout", 92, 70)) == [("points", "points_sum")]
    assert codes(hand("sans_atout", 80, 50)) == []
    assert codes(hand("tout_atout", 140, 118)) == []


def test_without_a_sound_contract_the_points_must_still_add_up_to_one_contracts_total() -> None:
    h = {"taker": "C", "contract": "misere", "points": {"A": 100, "B": 70}}
    assert codes(h) == [("taker", "invalid_choice"), ("contract", "invalid_choice"), ("points", "points_sum")]
    [*_, error] = GAME.validate(h, GAME.resolve_options({}))
    assert error.message == (
        "The two teams' card points must add up to the contract's total (130, 162, 258), dix de der included, not 170."
    )
    # 130 is sans atout's total, 258 tout atout's: either may be the contract meant.
    assert codes({**h, "points": {"A": 100, "B": 30}}) == [("taker", "invalid_choice"), ("contract", "invalid_choice")]
    assert codes({**h, "points": {"A": 259, "B": 0}})[-1] == ("points.A", "out_of_range")


@pytest.mark.parametrize(
    ("contract", "impossible"),
    [("sans_atout", (1, 129)), ("tout_atout", (1, 2, 5, 253, 256, 257))],
)
def test_point_totals_no_tricks_can_make_are_refused(contract: str, impossible: tuple[int, ...]) -> None:
    total = GAME.contracts[contract].total
    for value in impossible:
        assert ("points.A", "impossible_points") in codes(hand(contract, value, total - value))
    assert codes(hand(contract, 3, total - 3)) == []


# -- partie and random hands ---------------------------------------------------------


def test_a_partie_goes_to_1501_by_default_and_a_tournament_chooses_501_to_3001() -> None:
    assert GAME.default_target == 1501
    assert GAME.target_range == (501, 3001)


def test_random_hands_use_every_contract_and_are_valid() -> None:
    rng = random.Random(5)
    hands = [GAME.random_hand(rng) for _ in range(4000)]
    resolved = GAME.resolve_options({"announcement_tie": "first_in_play"})
    assert all(GAME.validate(h, resolved) == [] for h in hands)
    contracts = {h.get("contract") for h in hands}
    assert {"sans_atout", "tout_atout", "hearts"} <= contracts
    assert any(len(h.get("belote", [])) > 1 for h in hands)
