"""Belote contrée: every example and sentence of the game's rules (docs/rules.md), each
option both ways, the validation of the bid, the coinche and the rest, and the partie."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import engine
from engine.core import OptionError, RuleError
from engine.games.belote_contree import BeloteContree
from engine.match import End, default_end, play
from tests.engine.test_belote_properties import (
    CARRE,
    JSON,
    OTHER,
    SETTINGS,
    VALUE,
    announcements,
    assert_the_quick_pass_agrees,
    best,
    near_misses,
    quick_pass_hands,
)

GAME = BeloteContree()


def hand(**fields: Any) -> dict[str, Any]:
    """A bid of 110 at hearts by A, made 113 to 49, with whatever the test changes."""
    base: dict[str, Any] = {"taker": "A", "bid": 110, "contract": "hearts", "points": {"A": 113, "B": 49}}
    base.update(fields)
    return {key: value for key, value in base.items() if value is not ...}


def pts(a: int, b: int) -> dict[str, int]:
    return {"A": a, "B": b}


def result(h: dict[str, Any], carry: int = 0, **options: Any) -> dict[str, Any]:
    resolved = GAME.resolve_options(options)
    assert GAME.validate(h, resolved) == []
    return GAME.result_json(GAME.score(h, resolved, carry))


def scores(h: dict[str, Any], carry: int = 0, **options: Any) -> tuple[int, int]:
    out = result(h, carry, **options)["scores"]
    return out["A"], out["B"]


def outcome(h: dict[str, Any], **options: Any) -> str:
    out: str = result(h, **options)["outcome"]
    return out


def codes(h: Any, **options: Any) -> list[tuple[str, str]]:
    return [(e.field, e.code) for e in GAME.validate(h, GAME.resolve_options(options))]


def ann(kind: str, high: str, suit: str | None = None) -> dict[str, str]:
    return {"kind": kind, "high": high, **({"suit": suit} if suit else {})}


# -- the game ------------------------------------------------------------------------


def test_the_game_is_registered_and_played_at_four_in_teams_a_and_b() -> None:
    assert isinstance(engine.get_game("belote_contree"), BeloteContree)
    assert GAME.code == "belote_contree"
    assert GAME.players_per_table == 4
    assert GAME.sides == ("A", "B")


def test_options_have_their_default_first() -> None:
    assert {spec.name: spec.choices for spec in GAME.option_specs} == {
        "marque": ("faits_et_contrat", "contrat_seul", "faits_seuls"),
        "coinche_marque": ("forfait", "points_faits"),
        "chute": (160, 162),
        "capot_value": (250, 252, 162),
        "belote_counts": ("yes", "no"),
        "announcements": ("off", "on"),
        "announcement_tie": ("nobody", "first_in_play"),
        "capot_failed": (410, 500),
        "defence_capot": (160, 250),
        "belote_multiplied": ("no", "yes"),
        "tie": ("dedans", "litige", "made"),
        "rounding": ("nearest_ten", "none"),
        "max_bid": (160, 180, "none"),
        "sans_atout_tout_atout": ("off", "on"),
    }


def test_the_options_of_belote_classique_that_contree_does_not_have_are_refused() -> None:
    for name, value in (("threshold", "totals"), ("belote_when_dedans", "keep")):
        with pytest.raises(OptionError):
            GAME.resolve_options({name: value})
    with pytest.raises(OptionError):
        GAME.resolve_options({"max_bid": "160"})
    with pytest.raises(OptionError):
        GAME.resolve_options({"coinche": 2})


def test_cards_are_belote_classiques_and_sans_atout_and_tout_atout_are_rescaled_to_162() -> None:
    values = GAME.card_values
    assert sum(values["trump"].values()) + 3 * sum(values["plain"].values()) + 10 == 162
    assert values["sans_atout"] == {"A": 19, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
    assert values["tout_atout"] == {"J": 13, "9": 9, "A": 6, "10": 5, "K": 3, "Q": 2, "8": 0, "7": 0}
    assert 4 * sum(values["sans_atout"].values()) + 10 == 162
    assert 4 * sum(values["tout_atout"].values()) + 10 == 162
    assert {contract.total for contract in GAME.contracts.values()} == {162}


# -- the worked examples -------------------------------------------------------------


def test_bid_110_made_with_113_against_49_scores_220_to_50() -> None:
    # 113 + 110 = 223, rounded to 220; 49 rounded to 50.
    assert result(hand()) == {"scores": {"A": 220, "B": 50}, "outcome": "made", "reserve_out": 0}


def test_the_engine_api_example_hand_scores_220_to_50() -> None:
    h = {
        "taker": "A",
        "bid": 110,
        "contract": "hearts",
        "coinche": 0,
        "points": {"A": 113, "B": 49},
        "capot": None,
        "belote": [],
        "announcements": {"A": [], "B": []},
    }
    assert result(h) == {"scores": {"A": 220, "B": 50}, "outcome": "made", "reserve_out": 0}


def test_bid_120_made_with_130_against_32_coinche_scores_560_and_surcoinche_1120() -> None:
    made = hand(bid=120, points=pts(130, 32))
    assert scores({**made, "coinche": 1}) == (560, 0)
    assert scores({**made, "coinche": 2}) == (1120, 0)


def test_bid_120_failed_with_110_against_52_scores_0_to_280() -> None:
    assert result(hand(bid=120, points=pts(110, 52))) == {
        "scores": {"A": 0, "B": 280},
        "outcome": "dedans",
        "reserve_out": 0,
    }


def test_the_defence_can_be_the_taker_too() -> None:
    assert scores(hand(taker="B", points=pts(49, 113))) == (50, 220)
    assert scores(hand(taker="B", bid=120, points=pts(52, 110))) == (280, 0)


# -- made or failed ------------------------------------------------------------------


def test_the_taker_must_reach_the_bid() -> None:
    # 100 is more than the defence's 62 but short of 110.
    assert scores(hand(points=pts(100, 62))) == (0, 270)
    assert outcome(hand(points=pts(110, 52))) == "made"


def test_the_taker_must_also_score_strictly_more_than_the_defence() -> None:
    # A bid of 80 reached with 80 still fails against 82.
    assert result(hand(bid=80, points=pts(80, 82)))["outcome"] == "dedans"
    assert result(hand(bid=80, points=pts(82, 80)))["outcome"] == "made"


def test_belote_counts_toward_the_bid_and_stays_with_its_team() -> None:
    # 92 + belote 20 = 112 reaches 110: made, 92 + 20 + 110 = 222.
    h = hand(points=pts(92, 70), belote=["A"])
    assert result(h) == {"scores": {"A": 220, "B": 70}, "outcome": "made", "reserve_out": 0}


def test_belote_counts_no_leaves_belote_out_of_the_contract_but_scores_it() -> None:
    h = hand(points=pts(92, 70), belote=["A"])
    assert result(h, belote_counts="no") == {"scores": {"A": 20, "B": 270}, "outcome": "dedans", "reserve_out": 0}
    # Made without it, the belote is still the holder's.
    assert scores(hand(points=pts(113, 49), belote=["B"]), belote_counts="no") == (220, 70)


def test_the_defences_belote_counts_against_the_taker() -> None:
    # 90 reaches 90 but the defence has 72 + 20 = 92.
    assert outcome(hand(bid=90, points=pts(90, 72), belote=["B"])) == "dedans"
    assert outcome(hand(bid=90, points=pts(90, 72), belote=["B"]), belote_counts="no") == "made"


def test_rounding_never_makes_a_contract() -> None:
    # 106 would round to 110, but 106 does not reach 110.
    assert outcome(hand(points=pts(106, 56))) == "dedans"


# -- made, not coinché: marque --------------------------------------------------------


def test_marque_faits_et_contrat_scores_the_takers_total_and_the_bid() -> None:
    assert scores(hand(belote=["A"]), rounding="none", marque="faits_et_contrat") == (243, 49)


def test_marque_contrat_seul_scores_the_bid_and_each_side_only_its_bonuses() -> None:
    assert scores(hand(), marque="contrat_seul") == (110, 0)
    assert scores(hand(belote=["A"]), marque="contrat_seul") == (130, 0)
    assert scores(hand(belote=["B"]), marque="contrat_seul") == (110, 20)


def test_marque_faits_seuls_scores_each_side_its_own_total() -> None:
    assert scores(hand(), marque="faits_seuls") == (110, 50)
    assert scores(hand(), marque="faits_seuls", rounding="none") == (113, 49)


def test_marque_contrat_seul_does_not_change_a_failed_or_coinched_contract() -> None:
    assert scores(hand(bid=120, points=pts(110, 52)), marque="contrat_seul") == (0, 280)
    assert scores(hand(bid=120, points=pts(130, 32), coinche=1), marque="contrat_seul") == (560, 0)


# -- failed ---------------------------------------------------------------------------


def test_a_failed_taker_keeps_only_its_belote() -> None:
    # 80 + 20 = 100 does not reach 120: B scores 160 + 120.
    assert scores(hand(bid=120, points=pts(80, 82), belote=["A"])) == (20, 280)


def test_a_failed_contract_gives_the_defence_its_own_belote_too() -> None:
    assert scores(hand(bid=120, points=pts(100, 62), belote=["B"])) == (0, 300)


def test_a_failed_capot_bid_gives_the_defence_410_or_500_with_capot_failed() -> None:
    h = hand(bid="capot", points=pts(152, 10))
    assert result(h) == {"scores": {"A": 0, "B": 410}, "outcome": "dedans", "reserve_out": 0}
    assert scores(h, capot_failed=500) == (0, 500)


def test_a_defence_that_took_every_trick_scores_160_or_250_plus_the_bid() -> None:
    h = hand(bid=100, points=pts(0, 162), capot="B")
    assert scores(h) == (0, 260)
    assert scores(h, defence_capot=250) == (0, 350)
    # Against a capot bid: 250 + 250 with defence_capot 250, never less than capot_failed.
    capot_bid = hand(bid="capot", points=pts(0, 162), capot="B")
    assert scores(capot_bid) == (0, 410)
    assert scores(capot_bid, defence_capot=250) == (0, 500)
    assert scores(capot_bid, capot_failed=500) == (0, 500)


# -- coinche --------------------------------------------------------------------------


def test_a_failed_coinched_contract_gives_the_defence_the_lump_sum_times_2_or_4() -> None:
    failed = hand(bid=120, points=pts(110, 52))
    assert scores({**failed, "coinche": 1}) == (0, 560)
    assert scores({**failed, "coinche": 2}) == (0, 1120)


def test_under_a_coinche_the_defences_own_points_of_a_made_contract_are_lost() -> None:
    assert scores(hand(points=pts(113, 49), coinche=1)) == (540, 0)


def test_the_winners_belote_is_added_after_the_multiplier_unless_belote_multiplied() -> None:
    h = hand(bid=120, points=pts(130, 32), coinche=1, belote=["A"])
    assert scores(h) == (580, 0)
    assert scores(h, belote_multiplied="yes") == (600, 0)
    surcoinche = {**h, "coinche": 2}
    assert scores(surcoinche) == (1140, 0)
    assert scores(surcoinche, belote_multiplied="yes") == (1200, 0)


def test_the_losers_belote_is_never_multiplied() -> None:
    made = hand(bid=120, points=pts(130, 32), coinche=2, belote=["B"])
    assert scores(made, belote_multiplied="yes") == (1120, 20)
    failed = hand(bid=120, points=pts(90, 72), coinche=1, belote=["A"])
    assert scores(failed) == (20, 560)
    assert scores(failed, belote_multiplied="yes") == (20, 560)


def test_a_failed_coinche_doubles_the_defences_own_belote_only_with_belote_multiplied() -> None:
    failed = hand(bid=120, points=pts(100, 62), coinche=1, belote=["B"])
    assert scores(failed) == (0, 580)
    assert scores(failed, belote_multiplied="yes") == (0, 600)


def test_a_capot_made_under_a_coinche_puts_its_value_in_place_of_the_160() -> None:
    h = hand(bid=80, points=pts(162, 0), capot="A", coinche=1)
    assert scores(h) == (660, 0)
    # The bracket holds the federation's fixed 250, whatever capot_value gives the cards.
    assert scores(h, capot_value=252, rounding="none") == (660, 0)
    assert scores(h, capot_value=252) == (660, 0)
    # No capot bonus: the lump sum stays (160 + 80) x 2.
    assert scores(h, capot_value=162) == (480, 0)


def test_a_capot_bid_under_a_coinche() -> None:
    made = hand(bid="capot", points=pts(162, 0), capot="A", coinche=1)
    assert scores(made) == (1000, 0)
    assert scores({**made, "coinche": 2}) == (2000, 0)
    failed = hand(bid="capot", points=pts(152, 10), coinche=1)
    assert scores(failed) == (0, 820)
    assert scores(failed, capot_failed=500) == (0, 1000)


# -- capot ----------------------------------------------------------------------------


def test_a_capot_that_was_not_bid_counts_250_card_points_and_the_bid() -> None:
    h = hand(bid=80, points=pts(162, 0), capot="A")
    assert result(h) == {"scores": {"A": 330, "B": 0}, "outcome": "made", "reserve_out": 0}
    assert scores(h, capot_value=252, rounding="none") == (332, 0)
    # capot_value 162: no bonus for a capot nobody bid.
    assert scores(h, capot_value=162) == (240, 0)


def test_a_capot_bid_made_scores_500_whatever_an_unbid_capot_is_worth() -> None:
    h = hand(bid="capot", points=pts(162, 0), capot="A")
    assert result(h) == {"scores": {"A": 500, "B": 0}, "outcome": "made", "reserve_out": 0}
    assert scores(h, capot_value=162) == (500, 0)
    assert scores(h, capot_value=252, rounding="none") == (502, 0)


def test_a_capot_bid_needs_every_trick_not_just_every_point() -> None:
    # 162 to 0 without the capot field: the defence took a trick of blank cards.
    assert scores(hand(bid="capot", points=pts(162, 0))) == (0, 410)


def test_the_defences_belote_survives_a_capot() -> None:
    assert scores(hand(bid=80, points=pts(162, 0), capot="A", belote=["B"])) == (330, 20)


def test_a_capot_team_takes_the_other_teams_announcements() -> None:
    announced = {"A": [], "B": [ann("cinquante", "A")]}
    h = hand(bid=80, points=pts(162, 0), capot="A", announcements=announced)
    assert scores(h, announcements="on") == (380, 0)
    failed = hand(bid=100, points=pts(0, 162), capot="B", announcements={"A": [ann("cent", "A")], "B": []})
    assert scores(failed, announcements="on") == (0, 360)


# -- tie --------------------------------------------------------------------------------


def test_a_tie_of_totals_fails_by_default() -> None:
    assert result(hand(bid=80, points=pts(81, 81))) == {
        "scores": {"A": 0, "B": 240},
        "outcome": "dedans",
        "reserve_out": 0,
    }


def test_tie_made_counts_a_tie_as_made() -> None:
    assert result(hand(bid=80, points=pts(81, 81)), tie="made", rounding="none") == {
        "scores": {"A": 161, "B": 81},
        "outcome": "made",
        "reserve_out": 0,
    }


def test_tie_litige_scores_the_defence_its_total_and_holds_the_takers_rounded() -> None:
    tie = hand(bid=80, points=pts(81, 81))
    assert result(tie, tie="litige") == {"scores": {"A": 0, "B": 80}, "outcome": "litige", "reserve_out": 80}
    assert result(tie, tie="litige", rounding="none") == {
        "scores": {"A": 0, "B": 81},
        "outcome": "litige",
        "reserve_out": 81,
    }


def test_a_litige_reserve_goes_to_the_winner_of_the_next_donne() -> None:
    assert scores(hand(), carry=80, tie="litige") == (300, 50)
    assert scores(hand(bid=120, points=pts(110, 52)), carry=80, tie="litige") == (0, 360)
    # A second litige adds its taker's total to the reserve.
    assert result(hand(taker="B", bid=80, points=pts(81, 81)), carry=80, tie="litige")["reserve_out"] == 160


def test_a_litige_holds_the_takers_belote_only_when_belote_counts() -> None:
    # 71 + 20 = 91 against 91: the federation's own "91-91".
    tie = hand(bid=90, points=pts(71, 91), belote=["A"])
    assert result(tie, tie="litige", rounding="none") == {
        "scores": {"A": 0, "B": 91},
        "outcome": "litige",
        "reserve_out": 91,
    }
    # Not counted, the belote is no part of the tie and stays with A at once.
    tie_without = hand(bid=80, points=pts(81, 81), belote=["A"])
    assert result(tie_without, tie="litige", belote_counts="no", rounding="none") == {
        "scores": {"A": 20, "B": 81},
        "outcome": "litige",
        "reserve_out": 81,
    }


def test_a_coinched_litige_multiplies_both_sides() -> None:
    tie = hand(bid=80, points=pts(81, 81), coinche=1)
    assert result(tie, tie="litige", rounding="none") == {
        "scores": {"A": 0, "B": 162},
        "outcome": "litige",
        "reserve_out": 162,
    }


# -- the litige, sentence by sentence (docs/rules.md, belote contrée, "A litige") --------


def test_a_litige_scores_neither_the_bid_nor_the_160_even_coinched() -> None:
    tie = hand(bid=80, points=pts(81, 81))
    assert result(tie, tie="litige", rounding="none")["scores"] == {"A": 0, "B": 81}
    # Coinché, it is the totals that are doubled, not a (160 + 80) x 2 lump sum.
    assert result({**tie, "coinche": 1}, tie="litige", rounding="none")["scores"] == {"A": 0, "B": 162}


def test_a_coinched_litige_is_rounded_after_the_multiplier_the_reserve_on_its_own() -> None:
    coinched = hand(bid=80, points=pts(81, 81), coinche=1)
    assert result(coinched, tie="litige") == {"scores": {"A": 0, "B": 160}, "outcome": "litige", "reserve_out": 160}
    surcoinched = {**coinched, "coinche": 2}
    assert result(surcoinched, tie="litige") == {"scores": {"A": 0, "B": 320}, "outcome": "litige", "reserve_out": 320}


def test_a_litige_holds_the_takers_announcements_multiplied_with_the_rest() -> None:
    # 71 + a tierce (20) = 91 against 91.
    tie = hand(bid=90, points=pts(71, 91), announcements={"A": [{"kind": "tierce", "high": "K"}], "B": []})
    assert result(tie, tie="litige", announcements="on", rounding="none")["reserve_out"] == 91
    assert result({**tie, "coinche": 1}, tie="litige", announcements="on", rounding="none")["reserve_out"] == 182


def test_under_a_coinche_a_litiges_belotes_are_multiplied_only_with_belote_multiplied() -> None:
    # The taker's belote, held with its total: 71 + 20 = 91 against 91.
    taker_belote = hand(bid=90, points=pts(71, 91), belote=["A"], coinche=1)
    held = {
        multiplied: result(taker_belote, tie="litige", rounding="none", belote_multiplied=multiplied)["reserve_out"]
        for multiplied in ("no", "yes")
    }
    assert held == {"no": 71 * 2 + 20, "yes": (71 + 20) * 2}
    # The defence's belote, scored at once: 91 against 71 + 20.
    defence_belote = hand(bid=90, points=pts(91, 71), belote=["B"], coinche=1)
    scored = {
        multiplied: scores(defence_belote, tie="litige", rounding="none", belote_multiplied=multiplied)
        for multiplied in ("no", "yes")
    }
    assert scored == {"no": (0, 71 * 2 + 20), "yes": (0, (71 + 20) * 2)}


def test_a_taker_belote_that_does_not_count_is_scored_at_once_never_multiplied() -> None:
    tie = hand(bid=80, points=pts(81, 81), belote=["A"], coinche=1)
    assert result(tie, tie="litige", belote_counts="no", belote_multiplied="yes", rounding="none") == {
        "scores": {"A": 20, "B": 162},
        "outcome": "litige",
        "reserve_out": 162,
    }


def test_a_reserve_is_paid_as_it_was_held_after_the_rounding_and_never_multiplied() -> None:
    # Coinché and made, then coinché and failed: the lump sum doubles, the 80 brought in does not.
    assert scores(hand(coinche=1), carry=80, tie="litige") == ((160 + 110) * 2 + 80, 0)
    assert scores(hand(bid=120, points=pts(110, 52), coinche=1), carry=80, tie="litige") == (0, (160 + 120) * 2 + 80)
    # Added after this donne's rounding: 223 rounds to 220, then the 85 comes in whole.
    assert scores(hand(), carry=85, tie="litige") == (220 + 85, 50)


def test_a_litige_after_a_litige_pays_nobody_and_adds_to_the_reserve() -> None:
    again = hand(taker="B", bid=80, points=pts(81, 81))
    assert result(again, carry=80, tie="litige") == {
        "scores": {"A": 80, "B": 0},
        "outcome": "litige",
        "reserve_out": 160,
    }


def test_marque_does_not_change_a_litige() -> None:
    # 91 against 71 + the defence's belote.
    tie = hand(bid=90, points=pts(91, 71), belote=["B"])
    results = {
        marque: result(tie, tie="litige", marque=marque)
        for marque in ("faits_et_contrat", "contrat_seul", "faits_seuls")
    }
    assert len({repr(each) for each in results.values()}) == 1
    assert results["contrat_seul"] == {"scores": {"A": 0, "B": 90}, "outcome": "litige", "reserve_out": 90}


def test_a_capot_bid_has_no_litige() -> None:
    # Not every trick: a capot bid fails, whatever the totals.
    assert outcome(hand(bid="capot", points=pts(81, 81)), tie="litige") == "dedans"


def test_a_reserve_still_held_when_the_partie_ends_is_lost() -> None:
    partie = play(GAME, [hand(), hand(bid=80, points=pts(81, 81))], {"donnes": 2}, {"tie": "litige"})
    assert partie.finished and partie.totals == (220, 50 + 80)
    assert partie.reserve_lost == 80 and partie.reserve == 0


def test_a_tie_short_of_the_bid_fails_whatever_the_tie_option() -> None:
    for tie in ("dedans", "litige", "made"):
        assert outcome(hand(bid=90, points=pts(81, 81)), tie=tie) == "dedans"


def test_a_reserve_brought_in_needs_the_litige_rule() -> None:
    assert codes(hand(reserve_in=80)) == [("reserve_in", "reserve_without_litige")]
    assert codes(hand(reserve_in=80), tie="litige") == []
    assert codes(hand(reserve_in=0)) == []
    assert codes(hand(reserve_in=-10), tie="litige") == [("reserve_in", "out_of_range")]


# -- rounding -------------------------------------------------------------------------


def test_each_side_is_rounded_on_its_own_to_the_nearest_ten_five_up() -> None:
    # 105 + 100 = 205 -> 210 and 57 -> 60: a donne can total 270.
    assert scores(hand(bid=100, points=pts(105, 57))) == (210, 60)
    # 101 + 100 = 201 -> 200 and 61 -> 60.
    assert scores(hand(bid=100, points=pts(101, 61))) == (200, 60)


def test_rounding_none_keeps_the_points_as_they_are() -> None:
    assert scores(hand(), rounding="none") == (223, 49)


# -- announcements --------------------------------------------------------------------


def test_announcements_are_refused_while_they_are_not_played() -> None:
    announced = hand(announcements={"A": [ann("tierce", "A")], "B": []})
    assert codes(announced) == [("announcements", "announcements_off")]
    assert codes(announced, announcements="on") == []
    assert codes(hand(announcements={"A": [], "B": []})) == []


def test_announcements_count_toward_the_contract_when_played() -> None:
    # 92 + tierce 20 = 112 reaches 110.
    h = hand(points=pts(92, 70), announcements={"A": [ann("tierce", "A")], "B": []})
    assert scores(h, announcements="on") == (220, 70)


def test_a_failed_contract_gives_the_defence_the_announcements_of_both() -> None:
    h = hand(bid=140, points=pts(100, 62), announcements={"A": [ann("tierce", "A")], "B": []})
    assert scores(h, announcements="on") == (0, 320)


def test_under_a_coinche_the_announcements_go_inside_the_bracket() -> None:
    h = hand(bid=100, points=pts(113, 49), coinche=1, announcements={"A": [ann("cinquante", "A")], "B": []})
    assert scores(h, announcements="on") == (620, 0)


def test_only_the_best_announcement_scores_as_in_belote_classique() -> None:
    h = hand(points=pts(113, 49), announcements={"A": [ann("tierce", "K")], "B": [ann("tierce", "A")]})
    assert scores(h, announcements="on") == (220, 70)


def test_announcement_tie_first_in_play_needs_and_follows_the_order() -> None:
    tied = hand(
        points=pts(113, 49),
        announcements={"A": [ann("tierce", "K", "spades")], "B": [ann("tierce", "K", "clubs")]},
    )
    assert scores(tied, announcements="on") == (220, 50)
    assert codes(tied, announcements="on", announcement_tie="first_in_play") == [("order", "order_required")]
    assert scores({**tied, "order": "B"}, announcements="on", announcement_tie="first_in_play") == (220, 70)


# -- max_bid and the bid ----------------------------------------------------------------


def test_bids_go_from_80_to_160_in_tens_or_capot() -> None:
    for bid in (80, 90, 150, 160, "capot"):
        assert codes(hand(bid=bid, points=pts(162, 0), capot="A")) == []
    assert codes(hand(bid=70)) == [("bid", "out_of_range")]
    assert codes(hand(bid=170)) == [("bid", "out_of_range")]
    assert codes(hand(bid=115)) == [("bid", "bid_not_in_tens")]


def test_max_bid_180_allows_170_and_180() -> None:
    assert codes(hand(bid=180, points=pts(162, 0)), max_bid=180) == []
    assert codes(hand(bid=190), max_bid=180) == [("bid", "out_of_range")]


def test_max_bid_none_sets_no_maximum() -> None:
    assert codes(hand(bid=250), max_bid="none") == []
    assert codes(hand(bid=70), max_bid="none") == [("bid", "out_of_range")]
    # A bid above 162 can still be made with a capot and belote.
    assert scores(hand(bid=260, points=pts(162, 0), capot="A", belote=["A"]), max_bid="none") == (530, 0)


@pytest.mark.parametrize("bid", ["Capot", "110", 110.0, True, None, [110], {"bid": 110}])
def test_a_bid_that_is_neither_a_whole_number_nor_capot_is_refused(bid: Any) -> None:
    expected = [("bid", "required")] if bid is None else [("bid", "invalid_bid")]
    assert codes(hand(bid=bid)) == expected


def test_coinche_is_0_1_or_2_and_may_be_left_out() -> None:
    for coinche in (0, 1, 2, None):
        assert codes(hand(coinche=coinche)) == []
    assert codes(hand(coinche=3)) == [("coinche", "out_of_range")]
    assert codes(hand(coinche=-1)) == [("coinche", "out_of_range")]
    assert codes(hand(coinche=True)) == [("coinche", "not_an_integer")]
    assert codes(hand(coinche="1")) == [("coinche", "not_an_integer")]


# -- sans atout and tout atout --------------------------------------------------------


def test_sans_atout_and_tout_atout_need_the_option() -> None:
    for contract in ("sans_atout", "tout_atout"):
        assert codes(hand(contract=contract)) == [("contract", "contract_not_played")]
        assert codes(hand(contract=contract), sans_atout_tout_atout="on") == []
    assert codes(hand(contract="misere"), sans_atout_tout_atout="on") == [("contract", "invalid_choice")]


def test_sans_atout_and_tout_atout_score_like_a_suit_with_no_multiplier() -> None:
    for contract in ("sans_atout", "tout_atout"):
        assert scores(hand(contract=contract), sans_atout_tout_atout="on") == (220, 50)
        assert scores(hand(contract=contract, bid=120, points=pts(130, 32), coinche=1), sans_atout_tout_atout="on") == (
            560,
            0,
        )


def test_no_belote_in_sans_atout_and_up_to_four_in_tout_atout() -> None:
    on: dict[str, Any] = {"sans_atout_tout_atout": "on"}
    assert codes(hand(contract="sans_atout", belote=["A"]), **on) == [("belote", "belote_in_sans_atout")]
    assert codes(hand(contract="tout_atout", belote=["A", "B", "A", "B"]), **on) == []
    assert codes(hand(contract="tout_atout", belote=["A"] * 5), **on) == [("belote", "too_many_belotes")]
    # Two belotes of A count toward its contract: 80 + 40 = 120.
    assert scores(hand(contract="tout_atout", bid=120, points=pts(80, 82), belote=["A", "A"]), **on) == (240, 80)


# -- the other fields -------------------------------------------------------------------


def test_taker_bid_contract_and_points_are_required() -> None:
    assert codes({}) == [
        ("taker", "required"),
        ("contract", "required"),
        ("bid", "required"),
        ("points", "required"),
    ]


def test_every_problem_of_a_hand_is_reported() -> None:
    h = {"taker": "Z", "bid": 125, "contract": "trefle", "coinche": 3, "points": pts(100, 70), "capote": "A"}
    assert codes(h) == [
        ("capote", "unknown_field"),
        ("taker", "invalid_choice"),
        ("contract", "invalid_choice"),
        ("bid", "bid_not_in_tens"),
        ("coinche", "out_of_range"),
        ("points", "points_sum"),
    ]


def test_points_are_checked_as_in_belote_classique() -> None:
    assert codes(hand(points=pts(100, 70))) == [("points", "points_sum")]
    assert codes(hand(points=pts(161, 1))) == [("points.A", "impossible_points"), ("points.B", "impossible_points")]
    assert codes(hand(points=pts(163, -1))) == [("points.A", "out_of_range"), ("points.B", "out_of_range")]
    assert codes(hand(points={"A": 113.0, "B": 49})) == [("points.A", "not_an_integer")]
    assert codes(hand(points=pts(152, 10), capot="A")) == [("capot", "capot_points")]


def test_one_belote_at_most_in_a_suit_contract() -> None:
    assert codes(hand(belote=["A", "B"])) == [("belote", "too_many_belotes")]
    assert codes(hand(belote=["C"])) == [("belote.0", "invalid_choice")]


def test_a_cancelled_donne_needs_no_bid_and_scores_nothing() -> None:
    assert codes({"cancelled": True}) == []
    assert result({"cancelled": True}, carry=80, tie="litige") == {
        "scores": {"A": 0, "B": 0},
        "outcome": "cancelled",
        "reserve_out": 80,
    }
    assert codes({"cancelled": True, "bid": 85}) == [("bid", "bid_not_in_tens")]


def test_errors_carry_english_templates_with_their_parameters() -> None:
    [error] = GAME.validate(hand(bid=115), GAME.resolve_options({}))
    assert error.template == "Bids go up in tens: {value} is not one."
    assert error.to_json() == {
        "field": "bid",
        "code": "bid_not_in_tens",
        "message": "Bids go up in tens: 115 is not one.",
    }


# -- the partie ---------------------------------------------------------------------------


def test_a_contree_partie_goes_to_2000_by_default() -> None:
    assert GAME.default_target == 2000
    assert default_end(engine.GAMES["belote_contree"], by_target=True) == End(target=2000)
    assert default_end(engine.GAMES["belote_contree"]) == End(donnes=12)


def test_a_partie_ends_when_a_team_passes_2000() -> None:
    surcoinche = hand(bid=160, points=pts(162, 0), capot="A", coinche=2)
    # (250 + 160) x 4 = 1640 a donne.
    finished = play(GAME, [surcoinche, surcoinche], {"target": 2000})
    assert finished.finished and finished.winner == "A" and finished.totals == (3280, 0)


def test_a_partie_carries_a_litige_reserve_to_the_next_winner() -> None:
    partie = play(GAME, [hand(bid=80, points=pts(81, 81)), hand()], {"donnes": 2}, {"tie": "litige"})
    assert [(s.scores, s.reserve_out) for s in partie.scores] == [((0, 80), 80), ((300, 50), 0)]


# -- random hands -----------------------------------------------------------------------


def test_random_hands_are_valid_under_any_options_and_repeat_with_the_seed() -> None:
    assert GAME.random_hand(random.Random(5)) == GAME.random_hand(random.Random(5))
    rng = random.Random(13)
    hands = [GAME.random_hand(rng) for _ in range(2000)]
    for options in ({}, {"announcements": "on", "announcement_tie": "first_in_play"}, {"tie": "litige"}):
        resolved = GAME.resolve_options(options)
        assert all(GAME.validate(h, resolved) == [] for h in hands)


def test_random_hands_look_like_a_concours() -> None:
    rng = random.Random(3)
    hands = [GAME.random_hand(rng) for _ in range(5000)]
    resolved = GAME.resolve_options({})
    outcomes = [GAME.score(h, resolved).outcome for h in hands]
    assert 0.65 < outcomes.count("made") / len(hands) < 0.9
    assert outcomes.count("dedans") > 0 and outcomes.count("cancelled") > 0
    assert {h.get("coinche") for h in hands} == {None, 1, 2}
    assert any(h.get("bid") == "capot" for h in hands)
    assert any(h.get("capot") for h in hands) and any(h.get("belote") for h in hands)


# -- properties (hypothesis) ---------------------------------------------------------------
#
# The expected scores are worked out here from the rules as docs/rules.md states them,
# apart from the engine's code.


@st.composite
def any_options(draw: st.DrawFn) -> dict[str, Any]:
    return {spec.name: draw(st.sampled_from(spec.choices)) for spec in GAME.option_specs}


@st.composite
def valid_hands(draw: st.DrawFn, opts: dict[str, Any]) -> dict[str, Any]:
    """A hand the options allow; one in four is moved to a tie of totals when it can be."""
    resolved = GAME.resolve_options(opts)
    contracts = GAME.allowed_contracts(resolved)
    contract = contracts[draw(st.sampled_from(sorted(contracts)))]
    taker = draw(st.sampled_from(("A", "B")))
    top = 260 if opts["max_bid"] == "none" else opts["max_bid"]
    bid = draw(st.sampled_from([*range(80, top + 1, 10), "capot"]))
    h: dict[str, Any] = {"taker": taker, "bid": bid, "contract": contract.name}
    coinche = draw(st.sampled_from((None, 0, 1, 2)))
    if coinche is not None:
        h["coinche"] = coinche
    capot = draw(st.sampled_from((None, None, None, None, "A", "B")))
    if capot:
        h["points"] = {capot: 162, OTHER[capot]: 0}
        h["capot"] = capot
    else:
        a = draw(st.integers(0, 162).filter(lambda x: x not in (1, 161)))
        h["points"] = {"A": a, "B": 162 - a}
    belote: list[str] = draw(st.lists(st.sampled_from(("A", "B")), max_size=contract.max_belote))
    given_empty: bool = draw(st.booleans())
    if belote or given_empty:
        h["belote"] = belote
    if opts["announcements"] == "on":
        h["announcements"] = {team: draw(st.lists(announcements(), max_size=2)) for team in ("A", "B")}
        h["order"] = draw(st.sampled_from(("A", "B")))
    elif not capot and draw(st.integers(0, 3)) == 0:
        # Equal totals: the taker's card points plus its counted belote match the defence's.
        counted = opts["belote_counts"] == "yes"
        bonus = {team: 20 * belote.count(team) if counted else 0 for team in ("A", "B")}
        cards, odd = divmod(162 - bonus[taker] + bonus[OTHER[taker]], 2)
        if not odd and 0 <= cards <= 162:
            h["points"] = {taker: cards, OTHER[taker]: 162 - cards}
    if opts["tie"] == "litige":
        h["reserve_in"] = draw(st.sampled_from((0, 0, 80, 160, 85)))
    assume(GAME.validate(h, resolved) == [])
    return h


def sides(h: dict[str, Any], opts: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Each team's card points, belote and announcements as the rules count them."""
    capot_bid = h["bid"] == "capot"
    capot_cards = 250 if capot_bid and opts["capot_value"] == 162 else opts["capot_value"]
    capot = h.get("capot")
    parts = {
        team: {
            "cards": (capot_cards if capot == team else 0) if capot else h["points"][team],
            "belote": 20 * h.get("belote", []).count(team),
            "announcements": 0,
        }
        for team in ("A", "B")
    }
    if opts["announcements"] == "on":
        contract = GAME.contracts[h["contract"]]
        keys = {team: best(h["announcements"][team], contract) for team in ("A", "B")}
        holder = None
        if keys["A"] is not None and (keys["B"] is None or keys["A"] > keys["B"]):
            holder = "A"
        elif keys["B"] is not None and (keys["A"] is None or keys["B"] > keys["A"]):
            holder = "B"
        elif keys["A"] is not None and opts["announcement_tie"] == "first_in_play":
            holder = h["order"]
        if holder:
            parts[holder]["announcements"] = sum(
                CARRE[i["high"]] if i["kind"] == "carre" else VALUE[i["kind"]] for i in h["announcements"][holder]
            )
    if capot:
        parts[capot]["announcements"] += parts[OTHER[capot]]["announcements"]
        parts[OTHER[capot]]["announcements"] = 0
    return parts


def expected(h: dict[str, Any], opts: dict[str, Any]) -> dict[str, Any]:
    """The result the rules give, worked out step by step."""
    taker, defence = h["taker"], OTHER[h["taker"]]
    parts = sides(h, opts)
    k = (1, 2, 4)[h.get("coinche") or 0]
    bid = 250 if h["bid"] == "capot" else h["bid"]
    capot = h.get("capot")
    counted = opts["belote_counts"] == "yes"
    total = {team: p["cards"] + p["announcements"] + (p["belote"] if counted else 0) for team, p in parts.items()}
    if h["bid"] == "capot":
        outcome = "made" if capot == taker else "dedans"
    elif total[taker] >= bid and total[taker] > total[defence]:
        outcome = "made"
    elif total[taker] >= bid and total[taker] == total[defence]:
        outcome = opts["tie"]
    else:
        outcome = "dedans"
    belote_k = k if opts["belote_multiplied"] == "yes" else 1
    announced = parts["A"]["announcements"] + parts["B"]["announcements"]
    held = 0
    score: dict[str, int] = {}
    # What the bid adds: nothing under faits_seuls, except a capot bid's 250.
    contract = bid if opts["marque"] != "faits_seuls" or h["bid"] == "capot" else 0
    if outcome == "made" and (k == 1 or opts["coinche_marque"] == "points_faits"):
        # Not coinché; or coinché with points_faits: the taker's made score (its belote
        # apart) multiplied, the defence's as it is.
        own = {team: sum(p.values()) for team, p in parts.items()}
        if opts["marque"] == "contrat_seul":
            score = {team: p["belote"] + p["announcements"] for team, p in parts.items()}
            score[taker] += contract
        else:
            score = {taker: own[taker] + contract, defence: own[defence]}
        belote = parts[taker]["belote"]
        score[taker] = (score[taker] - belote) * k + belote * belote_k
    elif outcome == "made":
        # The lump sum: the federation's fixed 160, 250 for a capot with a bonus.
        base = 250 if capot == taker and parts[taker]["cards"] > 162 else 160
        score[taker] = (base + contract + announced) * k + parts[taker]["belote"] * belote_k
        score[defence] = parts[defence]["belote"]
    elif outcome == "dedans":
        base = max(opts["chute"], opts["defence_capot"]) if capot == defence else opts["chute"]
        stake = max(base + contract, opts["capot_failed"]) if h["bid"] == "capot" else base + contract
        score[defence] = (stake + announced) * k + parts[defence]["belote"] * belote_k
        score[taker] = parts[taker]["belote"]
    else:
        p_t, p_d = parts[taker], parts[defence]
        score[defence] = (p_d["cards"] + p_d["announcements"]) * k + p_d["belote"] * belote_k
        held = (p_t["cards"] + p_t["announcements"]) * k + (p_t["belote"] * belote_k if counted else 0)
        score[taker] = 0 if counted else p_t["belote"]
    if opts["rounding"] == "nearest_ten":
        score = {team: (points + 5) // 10 * 10 for team, points in score.items()}
        held = (held + 5) // 10 * 10
    reserve = h.get("reserve_in", 0)
    if outcome == "made":
        score[taker] += reserve
    elif outcome == "dedans":
        score[defence] += reserve
    reserve_out = reserve + held if outcome == "litige" else 0
    return {"scores": {"A": score["A"], "B": score["B"]}, "outcome": outcome, "reserve_out": reserve_out}


@SETTINGS
@given(data=st.data())
def test_every_valid_hand_scores_as_the_rules_work_it_out(data: st.DataObject) -> None:
    opts = data.draw(any_options())
    h = data.draw(valid_hands(opts))
    assert result(h, **opts) == expected(h, opts)


@SETTINGS
@given(data=st.data())
def test_a_made_contract_scores_the_defence_at_most_its_own_total_and_under_a_lump_sum_only_its_belote(
    data: st.DataObject,
) -> None:
    opts = data.draw(any_options())
    h = data.draw(valid_hands(opts))
    out = result(h, **opts)
    assume(out["outcome"] == "made")
    defence = OTHER[h["taker"]]
    own = sides(h, opts)[defence]
    rounded = opts["rounding"] == "nearest_ten"
    ceiling = sum(own.values())
    if h.get("coinche") and opts["coinche_marque"] == "forfait":
        ceiling = own["belote"]
    assert out["scores"][defence] <= ((ceiling + 5) // 10 * 10 if rounded else ceiling)
    if opts["marque"] == "faits_et_contrat" and opts["belote_counts"] == "yes":
        assert out["scores"][h["taker"]] > out["scores"][defence]


@SETTINGS
@given(data=st.data())
def test_scores_are_multiples_of_ten_when_rounding(data: st.DataObject) -> None:
    opts = {**data.draw(any_options()), "rounding": "nearest_ten"}
    h = data.draw(valid_hands(opts))
    assume(h.get("reserve_in", 0) % 10 == 0)
    out = result(h, **opts)
    assert all(points % 10 == 0 for points in out["scores"].values())
    assert out["reserve_out"] % 10 == 0


@SETTINGS
@given(data=st.data())
def test_the_same_hand_always_scores_the_same_and_is_left_alone(data: st.DataObject) -> None:
    opts = data.draw(any_options())
    h = data.draw(valid_hands(opts))
    before = copy.deepcopy(h)
    first = result(h, **opts)
    assert result(copy.deepcopy(h), **opts) == first == result(h, **opts)
    assert h == before
    assert all(type(points) is int and points >= 0 for points in first["scores"].values())


FIELDS = tuple(sorted(GAME.hand_fields))


@st.composite
def broken_hands(draw: st.DrawFn, opts: dict[str, Any]) -> dict[str, Any]:
    """A valid hand with one thing surely wrong."""
    h = copy.deepcopy(draw(valid_hands(opts)))
    how = draw(st.sampled_from(("unknown", "missing", "sum", "bid", "coinche", "taker", "points", "capot", "belote")))
    if how == "unknown":
        h[draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in FIELDS))] = draw(JSON)
    elif how == "missing":
        del h[draw(st.sampled_from(("taker", "bid", "contract", "points")))]
    elif how == "sum":
        h.pop("capot", None)
        h["points"]["A"] += draw(st.integers(1, 20))
    elif how == "bid":
        h["bid"] = draw(JSON.filter(lambda v: v is not None and v != "capot" and not (type(v) is int and v % 10 == 0)))
    elif how == "coinche":
        h["coinche"] = draw(JSON.filter(lambda v: (v is not None and v not in (0, 1, 2)) or type(v) is bool))
    elif how == "taker":
        h["taker"] = draw(JSON.filter(lambda v: v not in ("A", "B", None)))
    elif how == "points":
        h["points"]["B"] = draw(JSON.filter(lambda v: type(v) is not int))
    elif how == "capot":
        h["capot"] = draw(JSON.filter(lambda v: v not in ("A", "B", None)))
    else:
        h["belote"] = ["A"] * 5
    return h


@SETTINGS
@given(data=st.data())
def test_every_refused_hand_names_the_fields_at_fault(data: st.DataObject) -> None:
    opts = data.draw(any_options())
    h = data.draw(broken_hands(opts))
    errors = GAME.validate(h, GAME.resolve_options(opts))
    assert errors
    for error in errors:
        # An unknown field is named whole (it may hold dots: "." or "a.b"); a known one
        # may be followed by the place inside it ("points.A").
        assert error.field in h or error.field.split(".")[0] in FIELDS
        assert error.code and error.message


@SETTINGS
@given(value=JSON | st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=11), data=st.data())
def test_validation_never_raises_on_junk(value: Any, data: st.DataObject) -> None:
    errors = GAME.validate(value, GAME.resolve_options(data.draw(any_options())))
    assert all(isinstance(error, RuleError) for error in errors)
    for error in errors:
        error.to_json()


@SETTINGS
@given(data=st.data())
def test_the_quick_pass_accepts_only_what_the_field_by_field_checks_accept(data: st.DataObject) -> None:
    opts = data.draw(any_options())
    assert_the_quick_pass_agrees(GAME, data.draw(quick_pass_hands(valid_hands(opts))), GAME.resolve_options(opts))


def test_the_quick_pass_refuses_every_near_miss_the_field_by_field_checks_refuse() -> None:
    plain = [
        hand(),
        hand(taker="B", bid="capot", coinche=2, points=pts(0, 162), capot="B", belote=["A"]),
        hand(bid=80, coinche=0, points=pts(81, 81), announcements={"A": [], "B": []}),
        hand(bid=160, contract="tout_atout", points=pts(100, 62), belote=["A", "B", "B"]),
    ]
    option_sets: tuple[dict[str, Any], ...] = (
        {},
        {"max_bid": 180},
        {"max_bid": "none"},
        {"sans_atout_tout_atout": "on", "announcements": "on", "tie": "litige"},
    )
    for options in option_sets:
        resolved = GAME.resolve_options(options)
        for h in plain:
            for variant in [h, *near_misses(h)]:
                assert_the_quick_pass_agrees(GAME, variant, resolved)
