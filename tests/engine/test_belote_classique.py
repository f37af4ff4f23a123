"""Belote classique: every worked example of the rule texts and every rule of
docs/rules.md for the game, each option both ways."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core import OptionError, RuleError
from engine.games.belote_classique import BeloteClassique
from engine.games.belote_common import SUIT_CONTRACTS, announcement_key

GAME = BeloteClassique()


def hand(**fields: Any) -> dict[str, Any]:
    """A hearts contract taken by A, 92-70, with whatever the test changes."""
    base: dict[str, Any] = {"taker": "A", "contract": "hearts", "points": {"A": 92, "B": 70}}
    base.update(fields)
    return {key: value for key, value in base.items() if value is not ...}


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
    item = {"kind": kind, "high": high}
    if suit:
        item["suit"] = suit
    return item


# -- the game ------------------------------------------------------------------------


def test_the_game_is_played_at_four_in_teams_a_and_b() -> None:
    assert GAME.code == "belote_classique"
    assert GAME.players_per_table == 4
    assert GAME.sides == ("A", "B")


def test_options_are_those_of_decisions_with_the_default_first() -> None:
    assert {spec.name: spec.choices for spec in GAME.option_specs} == {
        "threshold": ("totals", "card_points"),
        "tie": ("litige", "dedans", "made"),
        "capot_value": (250, 252),
        "belote_when_dedans": ("keep", "defence"),
        "announcement_tie": ("nobody", "first_in_play"),
        "announcements": ("on", "off"),
        "rounding": ("none", "nearest_ten"),
    }


def test_an_unknown_option_or_a_value_not_allowed_is_refused() -> None:
    with pytest.raises(OptionError):
        GAME.resolve_options({"split_rounding": "down"})
    with pytest.raises(OptionError):
        GAME.resolve_options({"capot_value": "252"})
    with pytest.raises(OptionError):
        GAME.resolve_options({"capot_value": 252.0})


def test_card_values_make_62_in_trump_and_30_in_a_plain_suit_so_162_with_dix_de_der() -> None:
    trump = GAME.card_values["trump"]
    plain = GAME.card_values["plain"]
    assert (trump["J"], trump["9"], trump["A"], trump["10"], trump["K"], trump["Q"], trump["8"], trump["7"]) == (
        20, 14, 11, 10, 4, 3, 0, 0,
    )  # fmt: skip
    assert (plain["A"], plain["10"], plain["K"], plain["Q"], plain["J"], plain["9"]) == (11, 10, 4, 3, 2, 0)
    assert sum(trump.values()) == 62
    assert sum(plain.values()) == 30
    assert sum(trump.values()) + 3 * sum(plain.values()) + 10 == 162


# -- worked examples -----------------------------------------------------------------


def test_engine_api_example_adds_belote_and_the_unbeaten_tierce() -> None:
    h = {
        "taker": "A",
        "contract": "hearts",
        "points": {"A": 102, "B": 60},
        "capot": None,
        "belote": ["A"],
        "announcements": {"A": [{"kind": "tierce", "high": "K"}], "B": []},
        "reserve_in": 0,
        "cancelled": False,
    }
    assert result(h) == {"scores": {"A": 142, "B": 60}, "outcome": "made", "reserve_out": 0}


def test_taker_with_more_points_than_the_defence_scores_its_own_total() -> None:
    assert result(hand(points={"A": 92, "B": 70})) == {
        "scores": {"A": 92, "B": 70},
        "outcome": "made",
        "reserve_out": 0,
    }


def test_taker_with_82_or_more_of_162_makes_it_and_with_less_goes_dedans() -> None:
    assert result(hand(points={"A": 82, "B": 80}))["outcome"] == "made"
    assert result(hand(points={"A": 80, "B": 82})) == {
        "scores": {"A": 0, "B": 162},
        "outcome": "dedans",
        "reserve_out": 0,
    }


def test_the_defence_can_take_the_contract_too() -> None:
    assert scores(hand(taker="B", points={"A": 70, "B": 92})) == (70, 92)
    assert scores(hand(taker="B", points={"A": 92, "B": 70})) == (162, 0)


def test_capot_scores_250_that_is_a_bonus_of_88() -> None:
    assert scores(hand(points={"A": 162, "B": 0}, capot="A")) == (250, 0)


def test_capot_with_belote_scores_270_or_272_with_capot_value_252() -> None:
    h = hand(points={"A": 162, "B": 0}, capot="A", belote=["A"])
    assert scores(h) == (270, 0)
    assert scores(h, capot_value=252) == (272, 0)


def test_capot_adds_the_capot_teams_announcements() -> None:
    h = hand(points={"A": 162, "B": 0}, capot="A", announcements={"A": [ann("cinquante", "A")], "B": []})
    assert scores(h) == (300, 0)


def test_defence_capot_against_the_taker_scores_250_plus_all_announcements() -> None:
    h = hand(points={"A": 0, "B": 162}, capot="B", announcements={"A": [], "B": [ann("tierce", "Q")]})
    assert result(h) == {"scores": {"A": 0, "B": 270}, "outcome": "dedans", "reserve_out": 0}
    taker_best = hand(points={"A": 0, "B": 162}, capot="B", announcements={"A": [ann("cent", "A")], "B": []})
    assert scores(taker_best) == (0, 350)
    assert scores(taker_best, capot_value=252) == (0, 352)


def test_all_162_without_capot_is_a_trick_of_blank_cards_to_the_other_team() -> None:
    assert scores(hand(points={"A": 162, "B": 0})) == (162, 0)


# -- contract test -------------------------------------------------------------------


def test_the_contract_test_counts_belote_with_the_totals_rule() -> None:
    # REFERENCE test vector 3: taker 75 + belote 20 = 95 against 87.
    h = hand(points={"A": 75, "B": 87}, belote=["A"])
    assert result(h) == {"scores": {"A": 95, "B": 87}, "outcome": "made", "reserve_out": 0}


def test_card_points_threshold_ignores_belote_so_75_goes_dedans_and_keeps_its_belote() -> None:
    h = hand(points={"A": 75, "B": 87}, belote=["A"])
    assert result(h, threshold="card_points") == {"scores": {"A": 20, "B": 162}, "outcome": "dedans", "reserve_out": 0}


def test_card_points_threshold_needs_more_than_half_that_is_82_of_162() -> None:
    defence_announces = {"A": [], "B": [ann("carre", "J")]}
    made = hand(points={"A": 82, "B": 80}, announcements=defence_announces)
    assert result(made, threshold="card_points")["outcome"] == "made"
    assert result(made, threshold="totals")["outcome"] == "dedans"
    tie = hand(points={"A": 81, "B": 81}, announcements=defence_announces)
    assert result(tie, threshold="card_points")["outcome"] == "litige"


def test_the_contract_test_counts_the_announcements_that_score() -> None:
    h = hand(points={"A": 72, "B": 90}, announcements={"A": [ann("tierce", "A")], "B": []})
    assert result(h)["scores"] == {"A": 92, "B": 90}


def test_taker_must_score_strictly_more_than_the_defence() -> None:
    # 71 + tierce 20 = 91 against 91: equal is not more.
    h = hand(points={"A": 71, "B": 91}, announcements={"A": [ann("tierce", "A")], "B": []})
    assert result(h)["outcome"] == "litige"


# -- dedans --------------------------------------------------------------------------


def test_dedans_defence_scores_162_plus_its_announcements() -> None:
    h = hand(points={"A": 60, "B": 102}, announcements={"A": [], "B": [ann("tierce", "K")]})
    assert scores(h) == (0, 182)


def test_dedans_takers_best_announcements_go_to_the_defence() -> None:
    h = hand(points={"A": 50, "B": 112}, announcements={"A": [ann("tierce", "A"), ann("tierce", "K")], "B": []})
    # 50 + 40 = 90 < 112: dedans, and the taker's 40 go to the defence.
    assert scores(h) == (0, 202)


def test_dedans_the_losing_sides_combinations_count_for_nobody() -> None:
    h = hand(
        points={"A": 60, "B": 102},
        announcements={"A": [ann("tierce", "K"), ann("tierce", "Q")], "B": [ann("cinquante", "10")]},
    )
    # B's cinquante is the best: B scores its 50; A's two tierces count for nobody.
    assert scores(h) == (0, 212)


def test_dedans_belote_stays_with_the_taker_that_held_it() -> None:
    h = hand(points={"A": 60, "B": 102}, belote=["A"])
    assert scores(h) == (20, 162)


def test_dedans_belote_goes_to_the_defence_with_belote_when_dedans_defence() -> None:
    h = hand(points={"A": 60, "B": 102}, belote=["A"])
    assert scores(h, belote_when_dedans="defence") == (0, 182)


def test_dedans_the_defences_own_belote_stays_with_the_defence() -> None:
    h = hand(points={"A": 60, "B": 102}, belote=["B"])
    assert scores(h) == (0, 182)
    assert scores(h, belote_when_dedans="defence") == (0, 182)


# -- litige --------------------------------------------------------------------------


def test_taker_equal_to_defence_opens_a_litige_held_for_the_next_winner() -> None:
    # REFERENCE test vector 2: 81-81, then the next taker wins 100-62 and scores 181.
    first = result(hand(points={"A": 81, "B": 81}))
    assert first == {"scores": {"A": 0, "B": 81}, "outcome": "litige", "reserve_out": 81}
    second = result(hand(taker="B", points={"A": 62, "B": 100}), carry=first["reserve_out"])
    assert second == {"scores": {"A": 62, "B": 181}, "outcome": "made", "reserve_out": 0}


def test_litige_reserve_goes_to_the_defence_when_the_next_taker_is_dedans() -> None:
    assert scores(hand(points={"A": 70, "B": 92}), carry=81) == (0, 243)


def test_litige_reserve_goes_to_the_taker_when_it_makes_the_next_contract() -> None:
    assert scores(hand(points={"A": 92, "B": 70}), carry=81) == (173, 70)


def test_litige_holds_the_takers_whole_total_with_belote_and_announcements() -> None:
    # 61 + belote 20 + tierce 20 = 101 against 101.
    h = hand(points={"A": 61, "B": 101}, belote=["A"], announcements={"A": [ann("tierce", "9")], "B": []})
    assert result(h) == {"scores": {"A": 0, "B": 101}, "outcome": "litige", "reserve_out": 101}


def test_a_litige_after_a_litige_grows_the_reserve_and_its_defence_scores_only_its_own() -> None:
    first = result(hand(points={"A": 81, "B": 81}))
    second = result(hand(taker="B", points={"A": 81, "B": 81}), carry=first["reserve_out"])
    assert second == {"scores": {"A": 81, "B": 0}, "outcome": "litige", "reserve_out": 162}


def test_a_cancelled_donne_passes_the_reserve_on_untouched_and_scores_nothing() -> None:
    assert result({"cancelled": True}, carry=81) == {
        "scores": {"A": 0, "B": 0},
        "outcome": "cancelled",
        "reserve_out": 81,
    }


def test_reserve_in_on_the_hand_is_brought_in_when_no_carry_is_passed() -> None:
    assert scores(hand(reserve_in=81)) == (173, 70)
    assert result({"cancelled": True, "reserve_in": 40})["reserve_out"] == 40


def test_the_carry_passed_by_the_partie_overrides_reserve_in() -> None:
    assert scores(hand(reserve_in=81), carry=100) == (192, 70)


def test_tie_dedans_scores_a_tie_as_a_failed_contract() -> None:
    assert result(hand(points={"A": 81, "B": 81}), tie="dedans") == {
        "scores": {"A": 0, "B": 162},
        "outcome": "dedans",
        "reserve_out": 0,
    }


def test_tie_made_scores_a_tie_as_a_made_contract() -> None:
    assert result(hand(points={"A": 81, "B": 81}), tie="made") == {
        "scores": {"A": 81, "B": 81},
        "outcome": "made",
        "reserve_out": 0,
    }


def test_with_tie_dedans_a_pending_reserve_goes_to_the_defence() -> None:
    assert scores(hand(points={"A": 81, "B": 81}), carry=50, tie="dedans") == (0, 212)


# -- announcements -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("announcement", "points"),
    [
        (ann("tierce", "A"), 20),
        (ann("cinquante", "A"), 50),
        (ann("cent", "A"), 100),
        (ann("carre", "J"), 200),
        (ann("carre", "9"), 150),
        (ann("carre", "A"), 100),
        (ann("carre", "10"), 100),
        (ann("carre", "K"), 100),
        (ann("carre", "Q"), 100),
        (ann("carre", "8"), 0),
    ],
)
def test_announcements_are_worth_their_table_value(announcement: dict[str, str], points: int) -> None:
    h = hand(points={"A": 92, "B": 70}, announcements={"A": [announcement], "B": []})
    assert scores(h) == (92 + points, 70)


def test_a_carre_of_sevens_is_refused_since_it_cancels_the_donne() -> None:
    h = hand(announcements={"A": [ann("carre", "7")], "B": []})
    assert ("announcements.A.0.high", "carre_of_sevens") in codes(h)


def test_only_the_team_with_the_best_announcement_scores_and_it_scores_all_of_its_own() -> None:
    h = hand(
        points={"A": 92, "B": 70},
        announcements={"A": [ann("cinquante", "K"), ann("tierce", "9")], "B": [ann("tierce", "A")]},
    )
    assert scores(h) == (162, 70)


def test_the_best_is_the_single_strongest_combination_not_a_teams_sum() -> None:
    h = hand(
        points={"A": 92, "B": 70},
        announcements={
            "A": [ann("cinquante", "10")],
            "B": [ann("tierce", "A"), ann("tierce", "K"), ann("tierce", "Q")],
        },
    )
    # B's three tierces add up to 60, but A's cinquante is the strongest single one.
    assert scores(h) == (142, 70)


def test_at_equal_points_the_higher_top_card_wins_so_a_cent_to_the_ace_beats_a_carre_of_kings() -> None:
    # The two cannot meet in one donne (the cent holds a king), so compare them directly.
    hearts = SUIT_CONTRACTS["hearts"]
    assert announcement_key(ann("cent", "A"), hearts) > announcement_key(ann("carre", "K"), hearts)
    assert announcement_key(ann("carre", "K"), hearts) > announcement_key(ann("cent", "Q", "hearts"), hearts)
    # At equal height, the trump sequence beats the carré; another suit's does not.
    assert announcement_key(ann("cent", "K", "hearts"), hearts) > announcement_key(ann("carre", "K"), hearts)
    assert announcement_key(ann("cent", "K", "clubs"), hearts) == announcement_key(ann("carre", "K"), hearts)


def test_a_carre_of_kings_beats_a_carre_of_queens() -> None:
    h = hand(points={"A": 92, "B": 70}, announcements={"A": [ann("carre", "K")], "B": [ann("carre", "Q")]})
    assert scores(h) == (192, 70)


def test_a_cent_to_the_king_beats_a_longer_cent_to_the_queen() -> None:
    # "un Cent Roi/Dame/Valet/10/9 est supérieur à un Cent Dame/Valet/10/9/8/7"
    h = hand(points={"A": 92, "B": 70}, announcements={"A": [ann("cent", "K")], "B": [ann("cent", "Q")]})
    assert scores(h) == (192, 70)


def test_a_carre_of_jacks_beats_a_carre_of_nines_on_points() -> None:
    h = hand(points={"A": 92, "B": 70}, announcements={"A": [ann("carre", "J")], "B": [ann("carre", "9")]})
    assert scores(h) == (292, 70)


def test_at_equal_height_a_sequence_in_the_trump_suit_wins() -> None:
    h = hand(
        points={"A": 92, "B": 70},
        announcements={"A": [ann("tierce", "K", "spades")], "B": [ann("tierce", "K", "hearts")]},
    )
    assert scores(h) == (92, 90)


def test_still_equal_announcements_score_for_nobody() -> None:
    h = hand(
        points={"A": 92, "B": 70},
        announcements={"A": [ann("tierce", "K", "spades")], "B": [ann("tierce", "K", "clubs")]},
        order="B",
    )
    assert scores(h) == (92, 70)


def test_first_in_play_gives_a_tie_to_the_team_that_announced_first() -> None:
    h = hand(
        points={"A": 92, "B": 70},
        announcements={"A": [ann("tierce", "K", "spades"), ann("tierce", "9", "clubs")], "B": [ann("tierce", "K")]},
        order="A",
    )
    assert scores(h, announcement_tie="first_in_play") == (132, 70)
    assert scores({**h, "order": "B"}, announcement_tie="first_in_play") == (92, 90)


def test_first_in_play_needs_the_order_field_only_when_the_best_are_equal() -> None:
    tied = hand(announcements={"A": [ann("tierce", "K")], "B": [ann("tierce", "K")]})
    assert codes(tied, announcement_tie="first_in_play") == [("order", "order_required")]
    assert codes(tied, announcement_tie="nobody") == []
    untied = hand(announcements={"A": [ann("tierce", "A")], "B": [ann("tierce", "K")]})
    assert codes(untied, announcement_tie="first_in_play") == []


def test_announcements_off_ignores_the_announcements_given() -> None:
    h = hand(points={"A": 72, "B": 90}, announcements={"A": [ann("carre", "J")], "B": []})
    assert result(h, announcements="off") == {"scores": {"A": 0, "B": 162}, "outcome": "dedans", "reserve_out": 0}
    assert scores(h, announcements="on") == (272, 90)


def test_announcements_off_still_refuses_a_malformed_announcement() -> None:
    h = hand(announcements={"A": [{"kind": "quinte", "high": "A"}], "B": []})
    assert ("announcements.A.0.kind", "invalid_choice") in codes(h, announcements="off")


def test_belote_rebelote_is_worth_20_to_the_team_holding_trump_king_and_queen() -> None:
    assert scores(hand(points={"A": 92, "B": 70}, belote=["B"])) == (92, 90)


# -- rounding ------------------------------------------------------------------------


def test_nearest_ten_rounds_five_up() -> None:
    # 85 -> 90, 77 -> 80; 84 -> 80, 78 -> 80.
    assert scores(hand(points={"A": 85, "B": 77}), rounding="nearest_ten") == (90, 80)
    assert scores(hand(points={"A": 84, "B": 78}), rounding="nearest_ten") == (80, 80)
    assert scores(hand(points={"A": 84, "B": 78}), rounding="none") == (84, 78)


def test_nearest_ten_rounds_the_litige_reserve_as_it_is_held() -> None:
    assert result(hand(points={"A": 81, "B": 81}), rounding="nearest_ten") == {
        "scores": {"A": 0, "B": 80},
        "outcome": "litige",
        "reserve_out": 80,
    }


# -- cancelled donnes ----------------------------------------------------------------


def test_a_carre_de_sept_or_an_all_pass_is_recorded_as_a_cancelled_donne_scoring_nothing() -> None:
    assert codes({"cancelled": True}) == []
    assert result({"cancelled": True}) == {"scores": {"A": 0, "B": 0}, "outcome": "cancelled", "reserve_out": 0}


def test_a_cancelled_donne_needs_no_points() -> None:
    assert codes({"cancelled": True, "taker": "A", "contract": "spades"}) == []
    assert codes({"cancelled": True, "taker": "C"}) == [("taker", "invalid_choice")]


# -- validation ----------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, [], "hand", 5, True, 1.5])
def test_a_hand_that_is_not_an_object_is_refused_not_raised(value: Any) -> None:
    assert codes(value) == [("", "not_an_object")]


def test_taker_contract_and_points_are_required() -> None:
    assert codes({}) == [("taker", "required"), ("contract", "required"), ("points", "required")]


def test_an_unknown_field_is_refused_so_a_typo_never_passes() -> None:
    assert codes(hand(belotte=["A"])) == [("belotte", "unknown_field")]
    assert ("points.C", "unknown_field") in codes(hand(points={"A": 92, "B": 70, "C": 0}))


def test_belote_classique_has_no_sans_atout() -> None:
    assert codes(hand(contract="sans_atout")) == [("contract", "invalid_choice")]


def test_taker_must_be_a_or_b() -> None:
    assert codes(hand(taker="C")) == [("taker", "invalid_choice")]
    assert codes(hand(taker=0)) == [("taker", "invalid_choice")]


def test_card_points_must_add_up_to_162() -> None:
    assert codes(hand(points={"A": 92, "B": 60})) == [("points", "points_sum")]


def test_one_point_and_161_points_are_impossible_but_11_is_an_ace() -> None:
    assert codes(hand(points={"A": 161, "B": 1})) == [
        ("points.A", "impossible_points"),
        ("points.B", "impossible_points"),
    ]
    assert codes(hand(points={"A": 151, "B": 11})) == []


@pytest.mark.parametrize("bad", [True, 92.0, "92", None, [92]])
def test_card_points_must_be_whole_numbers_not_booleans_or_floats(bad: Any) -> None:
    problems = codes(hand(points={"A": bad, "B": 70}))
    assert problems and problems[0][0] == "points.A"


def test_card_points_are_between_0_and_162() -> None:
    assert codes(hand(points={"A": 172, "B": -10})) == [("points.A", "out_of_range"), ("points.B", "out_of_range")]


def test_capot_needs_162_against_0() -> None:
    assert codes(hand(points={"A": 152, "B": 10}, capot="A")) == [("capot", "capot_points")]
    assert codes(hand(points={"A": 162, "B": 0}, capot="B")) == [("capot", "capot_points")]


def test_belote_is_for_at_most_one_team_in_a_suit_contract() -> None:
    assert codes(hand(belote=["A", "B"])) == [("belote", "too_many_belotes")]
    assert codes(hand(belote=["X"])) == [("belote.0", "invalid_choice")]
    assert codes(hand(belote="A")) == [("belote", "not_a_list")]


def test_a_belote_is_refused_when_the_other_team_announced_its_king_or_queen() -> None:
    assert codes(hand(belote=["A"], announcements={"A": [], "B": [ann("carre", "K")]})) == [
        ("belote", "belote_conflict")
    ]
    assert codes(hand(belote=["A"], announcements={"A": [], "B": [ann("tierce", "A", "hearts")]})) == [
        ("belote", "belote_conflict")
    ]
    # Its own carré of kings, or a sequence in another suit, is no conflict.
    assert (
        codes(hand(belote=["A"], announcements={"A": [ann("carre", "K")], "B": [ann("tierce", "10", "clubs")]})) == []
    )


def test_announcements_report_each_problem_with_its_dotted_path() -> None:
    h = hand(announcements={"A": [{"kind": "tierce"}], "B": [{"kind": "quinte", "high": "X", "colour": "red"}]})
    assert codes(h) == [
        ("announcements.A.0.high", "required"),
        ("announcements.B.0.colour", "unknown_field"),
        ("announcements.B.0.kind", "invalid_choice"),
        ("announcements.B.0.high", "invalid_choice"),
    ]


def test_a_cent_needs_five_cards_so_its_top_card_is_at_least_a_jack() -> None:
    assert codes(hand(announcements={"A": [ann("cent", "10")], "B": []})) == [
        ("announcements.A.0.high", "impossible_height")
    ]
    assert codes(hand(announcements={"A": [ann("cent", "J")], "B": []})) == []
    assert codes(hand(announcements={"A": [ann("tierce", "8")], "B": []})) == [
        ("announcements.A.0.high", "impossible_height")
    ]


def test_a_carre_takes_no_suit() -> None:
    assert codes(hand(announcements={"A": [ann("carre", "K", "hearts")], "B": []})) == [
        ("announcements.A.0.suit", "suit_on_carre")
    ]


def test_a_card_cannot_be_announced_by_both_teams() -> None:
    h = hand(announcements={"A": [ann("carre", "K")], "B": [ann("carre", "K")]})
    assert codes(h) == [("announcements.B.0", "card_announced_twice")]
    seq = hand(announcements={"A": [ann("tierce", "A", "clubs")], "B": [ann("tierce", "Q", "clubs")]})
    assert codes(seq) == [("announcements.B.0", "card_announced_twice")]


def test_a_team_cannot_announce_more_cards_than_its_16() -> None:
    carres = [ann("carre", rank) for rank in ("A", "K", "Q", "J", "10")]
    assert ("announcements.A", "too_many_cards_announced") in codes(hand(announcements={"A": carres, "B": []}))


def test_both_teams_may_declare_and_only_the_best_scores() -> None:
    h = hand(announcements={"A": [ann("tierce", "A")], "B": [ann("tierce", "K")]})
    assert codes(h) == []


def test_reserve_in_and_cancelled_and_order_are_checked() -> None:
    assert codes(hand(reserve_in=-1)) == [("reserve_in", "out_of_range")]
    assert codes(hand(reserve_in=True)) == [("reserve_in", "not_an_integer")]
    assert codes(hand(cancelled="yes")) == [("cancelled", "not_a_boolean")]
    assert codes(hand(order="C")) == [("order", "invalid_choice")]


def test_every_problem_is_reported_not_just_the_first() -> None:
    h = {"taker": "Z", "contract": "trefle", "points": {"A": "x"}, "capot": "C", "extra": 1}
    assert codes(h) == [
        ("extra", "unknown_field"),
        ("taker", "invalid_choice"),
        ("contract", "invalid_choice"),
        ("points.A", "not_an_integer"),
        ("points.B", "required"),
        ("capot", "invalid_choice"),
    ]


def test_errors_carry_a_translatable_english_template_and_their_parameters() -> None:
    [error] = GAME.validate(hand(points={"A": 92, "B": 60}), GAME.resolve_options({}))
    assert isinstance(error, RuleError)
    assert "{total}" in error.template
    assert error.to_json() == {
        "field": "points",
        "code": "points_sum",
        "message": error.template.format(**error.params),
    }
    assert "162" in error.message


# -- random hands --------------------------------------------------------------------


def test_random_hands_are_valid_under_every_option_and_repeat_with_the_seed() -> None:
    first = [GAME.random_hand(random.Random(7)) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    rng = random.Random(11)
    hands = [GAME.random_hand(rng) for _ in range(3000)]
    for options in ({}, {"announcement_tie": "first_in_play"}, {"announcements": "off"}):
        resolved = GAME.resolve_options(options)
        assert all(GAME.validate(h, resolved) == [] for h in hands)


def test_random_hands_look_like_real_play() -> None:
    rng = random.Random(3)
    hands = [GAME.random_hand(rng) for _ in range(5000)]
    resolved = GAME.resolve_options({})
    outcomes = [GAME.score(h, resolved).outcome for h in hands]
    assert 0.6 < outcomes.count("made") / len(hands) < 0.9
    assert outcomes.count("dedans") > 0 and outcomes.count("cancelled") > 0 and outcomes.count("litige") > 0
    assert any(h.get("capot") for h in hands)
    assert any(h.get("belote") for h in hands)
    assert any(h.get("announcements") for h in hands)
