"""Belote à 3: the five worked examples of the rule text as written, every rule of
docs/rules.md for the game, each option both ways, and every validation rule."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import OptionError
from engine.games import announcements
from engine.games.belote_a_trois import BeloteATrois

GAME = BeloteATrois()


def hand(**fields: Any) -> dict[str, Any]:
    """Player 0 takes at spades, 57-46-40 (example 1), with whatever the test changes."""
    base: dict[str, Any] = {"taker": 0, "contract": "spades", "points": [57, 46, 40]}
    base.update(fields)
    return {key: value for key, value in base.items() if value is not ...}


def result(h: dict[str, Any], **options: Any) -> dict[str, Any]:
    resolved = GAME.resolve_options(options)
    assert GAME.validate(h, resolved) == []
    return GAME.result_json(GAME.score(h, resolved))


def scores(h: dict[str, Any], **options: Any) -> list[Any]:
    return list(result(h, **options)["scores"])


def codes(h: Any, **options: Any) -> list[tuple[str, str]]:
    return [(e.field, e.code) for e in GAME.validate(h, GAME.resolve_options(options))]


def ann(kind: str, high: str, suit: str | None = None) -> dict[str, str]:
    item = {"kind": kind, "high": high}
    if suit is not None:
        item["suit"] = suit
    return item


# -- the five worked examples, as written (A = 0, B = 1, C = 2) -------------------------------


def test_example_1_taker_with_more_than_each_makes_and_everyone_scores_their_points() -> None:
    assert result(hand(points=[57, 46, 40])) == {"scores": [57, 46, 40], "outcome": "made", "taker_points_to": []}


def test_example_2_taker_beaten_by_b_is_dedans_and_b_adds_the_takers_points() -> None:
    assert result(hand(points=[57, 72, 19])) == {"scores": [0, 129, 19], "outcome": "dedans", "taker_points_to": [1]}


def test_example_3_two_capots_give_the_taker_146_minus_dix_de_der_plus_100() -> None:
    h = hand(points=[146, 0, 0], capot=[1, 2], last_trick=0)
    assert result(h) == {"scores": [236, 0, 0], "outcome": "made", "taker_points_to": []}


def test_example_4_with_the_last_trick_to_a_gives_a_122_b_110_c_0() -> None:
    h = hand(points=[82, 60, 0], capot=[2], last_trick=0)
    assert result(h) == {"scores": [122, 110, 0], "outcome": "made", "taker_points_to": []}


def test_example_4_with_the_last_trick_to_b_is_made_as_well() -> None:
    assert scores(hand(points=[82, 60, 0], capot=[2], last_trick=1)) == [132, 100, 0]


def test_example_5_capot_adjustments_come_before_the_contract_test() -> None:
    # 82 against 73 before the capot, but 122 against 123 after it: A is dedans and B
    # takes A's total, the capot prime included.
    h = hand(points=[82, 73, 0], capot=[2], last_trick=0)
    assert result(h) == {"scores": [0, 245, 0], "outcome": "dedans", "taker_points_to": [1]}


def test_the_engine_api_example_is_example_2() -> None:
    h = {
        "taker": 0,
        "contract": "spades",
        "points": [57, 72, 19],
        "last_trick": 1,
        "capot": [],
        "belote": [],
        "announcements": [[], [], []],
    }
    assert result(h) == {"scores": [0, 129, 19], "outcome": "dedans", "taker_points_to": [1]}


# -- docs/rules.md, sentence by sentence ------------------------------------------------------


@pytest.mark.parametrize("points", [[95, 0, 0], [60, 20, 15], [152, 0, 10], [80, 42, 40]])
def test_points_adding_up_to_95_through_162_are_accepted(points: list[int]) -> None:
    assert codes(hand(points=points)) == []


@pytest.mark.parametrize("points", [[60, 20, 14], [80, 43, 40], [100, 100, 0], [0, 0, 0]])
def test_points_adding_up_to_less_than_95_or_more_than_162_are_refused(points: list[int]) -> None:
    assert codes(hand(points=points)) == [("points", "points_total")]


def test_last_trick_capot_belote_and_announcements_are_optional() -> None:
    assert codes({"taker": 1, "contract": "hearts", "points": [40, 60, 50]}) == []


def test_null_optional_fields_mean_none() -> None:
    h = hand(last_trick=None, capot=None, belote=None, announcements=None, order=None)
    assert result(h)["scores"] == [57, 46, 40]


def test_last_trick_is_required_when_someone_is_capot() -> None:
    assert codes(hand(points=[82, 60, 0], capot=[2])) == [("last_trick", "last_trick_required")]


def test_any_capot_cancels_the_dix_de_der_of_the_last_trick() -> None:
    # One capot: the two others +50; the 10 comes off whoever took the last trick.
    assert scores(hand(taker=1, points=[40, 100, 0], capot=[2], last_trick=0)) == [80, 150, 0]


def test_one_capot_gives_the_two_others_50_each() -> None:
    assert scores(hand(points=[90, 0, 52], capot=[1], last_trick=0)) == [130, 0, 102]


def test_two_capots_give_the_player_who_took_all_nine_tricks_100() -> None:
    assert scores(hand(taker=2, points=[0, 0, 120], capot=[0, 1], last_trick=2)) == [0, 0, 210]


def test_an_opponent_who_takes_every_trick_beats_the_taker_and_takes_its_total() -> None:
    h = hand(points=[0, 130, 0], capot=[0, 2], last_trick=1, belote=[0])
    # The capot taker keeps only its belote, 20, which goes to player 1: 130 - 10 + 100 + 20.
    assert result(h) == {"scores": [0, 240, 0], "outcome": "dedans", "taker_points_to": [1]}


def test_belote_is_added_before_the_contract_test() -> None:
    # 60 against 70 alone, 80 against 70 with the belote.
    assert result(hand(points=[60, 70, 20], belote=[0]))["outcome"] == "made"
    assert scores(hand(points=[60, 70, 20], belote=[0])) == [80, 70, 20]


def test_announcements_are_added_before_the_contract_test() -> None:
    h = hand(points=[60, 70, 20], announcements=[[ann("tierce", "K", "hearts")], [], []])
    assert result(h) == {"scores": [80, 70, 20], "outcome": "made", "taker_points_to": []}


def test_the_taker_must_score_strictly_more_than_each_opponent() -> None:
    assert result(hand(points=[60, 59, 40]))["outcome"] == "made"
    assert result(hand(points=[60, 40, 59]))["outcome"] == "made"
    assert result(hand(points=[60, 61, 40]))["outcome"] == "dedans"
    assert result(hand(points=[60, 40, 61]))["outcome"] == "dedans"


def test_made_everyone_scores_their_own_total() -> None:
    h = hand(points=[70, 40, 30], belote=[1], announcements=[[], [], [ann("tierce", "A", "clubs")]])
    assert result(h) == {"scores": [70, 60, 50], "outcome": "made", "taker_points_to": []}


def test_dedans_the_taker_scores_0_and_its_whole_total_goes_to_the_opponent_who_beat_it() -> None:
    # The taker's 30 card points, its belote and its cinquante all go to player 2.
    h = hand(
        points=[30, 10, 115],
        belote=[0],
        announcements=[[ann("cinquante", "A", "hearts")], [], []],
    )
    assert result(h) == {"scores": [0, 10, 215], "outcome": "dedans", "taker_points_to": [2]}


def test_taker_beaten_by_both_loses_to_the_higher() -> None:
    assert result(hand(points=[40, 50, 60])) == {"scores": [0, 50, 100], "outcome": "dedans", "taker_points_to": [2]}
    assert result(hand(points=[40, 60, 50])) == {"scores": [0, 100, 50], "outcome": "dedans", "taker_points_to": [1]}


def test_the_other_opponent_keeps_only_their_own_total() -> None:
    assert scores(hand(points=[57, 72, 19]))[2] == 19


def test_an_opponent_exactly_equal_to_the_taker_counts_as_beating_it() -> None:
    assert result(hand(points=[60, 60, 30])) == {"scores": [0, 120, 30], "outcome": "dedans", "taker_points_to": [1]}


def test_two_opponents_level_above_the_taker_share_its_total_rounded_down() -> None:
    h = hand(points=[41, 55, 55])
    assert result(h) == {"scores": [0, 75, 75], "outcome": "dedans", "taker_points_to": [1, 2]}


def test_two_opponents_level_with_the_taker_share_its_total() -> None:
    assert scores(hand(points=[50, 50, 50])) == [0, 75, 75]


def test_split_rounding_down_loses_the_odd_point() -> None:
    assert scores(hand(points=[41, 55, 55]), split_rounding="down") == [0, 75, 75]


def test_split_rounding_half_points_keeps_the_half_point() -> None:
    assert scores(hand(points=[41, 55, 55]), split_rounding="half_points") == [0, 75.5, 75.5]


def test_split_rounding_half_points_stays_whole_when_the_total_is_even() -> None:
    out = scores(hand(points=[40, 55, 55]), split_rounding="half_points")
    assert out == [0, 75, 75]
    assert all(type(s) is int for s in out)


def test_the_share_is_named_for_both_opponents_in_player_order() -> None:
    assert result(hand(taker=1, points=[55, 41, 55]))["taker_points_to"] == [0, 2]


def test_on_a_dedans_the_takers_belote_goes_with_the_rest_of_its_total() -> None:
    assert scores(hand(points=[50, 80, 19], belote=[0])) == [0, 150, 19]


def test_an_opponents_belote_stays_with_them_on_a_dedans() -> None:
    assert scores(hand(points=[57, 72, 19], belote=[2])) == [0, 129, 39]


@pytest.mark.parametrize(
    ("option", "value"),
    [("threshold", "totals"), ("tie", "litige"), ("capot_value", 250), ("belote_when_dedans", "keep")],
)
def test_the_options_of_the_games_at_four_are_refused_as_unknown(option: str, value: Any) -> None:
    with pytest.raises(OptionError, match=option):
        GAME.resolve_options({option: value})


def test_the_options_and_their_defaults_are_those_of_decisions() -> None:
    assert GAME.resolve_options({}) == {
        "split_rounding": "down",
        "announcements": "on",
        "announcement_tie": "nobody",
        "rounding": "none",
    }


def test_the_game_seats_three_players_each_alone() -> None:
    assert (GAME.code, GAME.players_per_table, GAME.sides) == ("belote_a_trois", 3, (0, 1, 2))


# -- announcements (as at four) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "value"),
    [
        (ann("tierce", "9", "clubs"), 20),
        (ann("cinquante", "10", "clubs"), 50),
        (ann("cent", "A", "clubs"), 100),
        (ann("carre", "J"), 200),
        (ann("carre", "9"), 150),
        (ann("carre", "A"), 100),
        (ann("carre", "10"), 100),
        (ann("carre", "K"), 100),
        (ann("carre", "Q"), 100),
        (ann("carre", "8"), 0),
    ],
)
def test_announcements_are_worth_what_decisions_says(item: dict[str, str], value: int) -> None:
    h = hand(points=[100, 40, 20], announcements=[[item], [], []])
    assert scores(h) == [100 + value, 40, 20]


def test_only_the_player_with_the_best_announcement_scores_all_of_their_own() -> None:
    h = hand(
        points=[80, 40, 30],
        announcements=[
            [ann("tierce", "K", "hearts"), ann("tierce", "10", "clubs")],
            [ann("tierce", "Q", "diamonds")],
            [],
        ],
    )
    assert scores(h) == [120, 40, 30]


def test_the_best_is_the_single_strongest_combination_not_the_sum() -> None:
    # Two tierces (40) lose to one cinquante (50), and so would three.
    h = hand(
        points=[80, 40, 30],
        announcements=[
            [ann("tierce", "K", "hearts"), ann("tierce", "10", "clubs")],
            [ann("cinquante", "10", "hearts")],
            [],
        ],
    )
    assert result(h) == {"scores": [0, 170, 30], "outcome": "dedans", "taker_points_to": [1]}


def test_at_equal_points_the_higher_top_card_wins_whatever_the_kind() -> None:
    # A carré of aces beats a cent to the king, both 100.
    h = hand(points=[40, 80, 30], announcements=[[ann("carre", "A")], [ann("cent", "K", "hearts")], []])
    assert result(h) == {"scores": [140, 80, 30], "outcome": "made", "taker_points_to": []}


def test_a_cent_to_the_ace_beats_a_carre_of_kings() -> None:
    # The rules' own example: no deal holds both (the cent needs a king), so the
    # comparison is checked on the announcements alone.
    sides = [(0, [ann("carre", "K")]), (1, [ann("cent", "A", "hearts")])]
    assert announcements.scoring_side(sides, "spades") == 1


def test_at_equal_height_a_sequence_in_trumps_wins() -> None:
    h = hand(points=[80, 40, 30], announcements=[[ann("tierce", "K", "hearts")], [ann("tierce", "K", "spades")], []])
    assert scores(h) == [80, 60, 30]


def test_still_equal_nobody_scores_by_default() -> None:
    h = hand(points=[80, 40, 30], announcements=[[ann("tierce", "K", "hearts")], [ann("tierce", "K", "clubs")], []])
    assert scores(h, announcement_tie="nobody") == [80, 40, 30]


def test_still_equal_the_first_in_play_scores_with_that_option() -> None:
    h = hand(
        points=[80, 40, 30],
        announcements=[[ann("tierce", "K", "hearts")], [ann("tierce", "K", "clubs"), ann("tierce", "9", "clubs")], []],
        order=1,
    )
    assert result(h, announcement_tie="first_in_play") == {
        "scores": [0, 160, 30],
        "outcome": "dedans",
        "taker_points_to": [1],
    }


def test_first_in_play_needs_an_order_naming_who_announced_first_on_a_tie() -> None:
    h = hand(points=[80, 40, 30], announcements=[[ann("tierce", "K", "hearts")], [ann("tierce", "K", "clubs")], []])
    assert codes(h, announcement_tie="first_in_play") == [("order", "order_required")]
    assert codes(h, announcement_tie="nobody") == []


def test_first_in_play_order_must_name_one_of_the_tied_players() -> None:
    h = hand(
        points=[80, 40, 30],
        announcements=[[ann("tierce", "K", "hearts")], [ann("tierce", "K", "clubs")], []],
        order=2,
    )
    assert codes(h, announcement_tie="first_in_play") == [("order", "order_not_tied")]


def test_announcements_off_ignores_the_announcements_given() -> None:
    h = hand(points=[80, 60, 20], announcements=[[], [ann("carre", "J")], []])
    assert scores(h, announcements="off") == [80, 60, 20]
    assert scores(h, announcements="on") == [0, 340, 20]


# -- rounding -------------------------------------------------------------------------------------


def test_rounding_none_keeps_the_scores_as_they_are() -> None:
    assert scores(hand(points=[57, 46, 40]), rounding="none") == [57, 46, 40]


def test_rounding_nearest_ten_rounds_each_final_score_5_up() -> None:
    assert scores(hand(points=[65, 44, 46]), rounding="nearest_ten") == [70, 40, 50]


def test_rounding_comes_after_the_contract_test() -> None:
    # 122 against 123 would both round to 120; the taker is dedans all the same.
    h = hand(points=[82, 73, 0], capot=[2], last_trick=0)
    assert result(h, rounding="nearest_ten") == {"scores": [0, 250, 0], "outcome": "dedans", "taker_points_to": [1]}


def test_rounding_rounds_a_shared_half_point() -> None:
    assert scores(hand(points=[41, 55, 55]), split_rounding="half_points", rounding="nearest_ten") == [0, 80, 80]


# -- cancelled donnes ------------------------------------------------------------------------------


def test_a_cancelled_donne_scores_nothing() -> None:
    assert result({"cancelled": True}) == {"scores": [0, 0, 0], "outcome": "cancelled", "taker_points_to": []}


def test_a_cancelled_donne_needs_no_other_field_and_ignores_the_rest() -> None:
    assert codes({"cancelled": True, "points": "whatever"}) == []


def test_a_cancelled_donne_still_checks_a_taker_or_contract_given() -> None:
    assert codes({"cancelled": True, "taker": 5, "contract": "sans_atout"}) == [
        ("taker", "out_of_range"),
        ("contract", "invalid_choice"),
    ]


def test_cancelled_false_is_a_played_donne() -> None:
    assert result(hand(cancelled=False))["outcome"] == "made"


def test_cancelled_must_be_true_or_false() -> None:
    assert ("cancelled", "not_a_boolean") in codes(hand(cancelled=1))


# -- validation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [None, [], "hand", 3, True])
def test_a_hand_that_is_not_an_object_is_refused(bad: Any) -> None:
    assert codes(bad) == [("", "not_an_object")]


def test_unknown_fields_are_refused() -> None:
    assert codes(hand(reserve_in=0, Taker=1)) == [("reserve_in", "unknown_field"), ("Taker", "unknown_field")]


def test_the_taker_is_required() -> None:
    assert codes(hand(taker=...)) == [("taker", "required")]


@pytest.mark.parametrize(("taker", "code"), [(3, "out_of_range"), (-1, "out_of_range"), ("A", "not_an_integer")])
def test_the_taker_is_player_0_1_or_2(taker: Any, code: str) -> None:
    assert codes(hand(taker=taker)) == [("taker", code)]


def test_a_boolean_is_not_a_player() -> None:
    assert codes(hand(taker=True)) == [("taker", "not_an_integer")]


def test_the_contract_is_required_and_a_suit() -> None:
    assert codes(hand(contract=...)) == [("contract", "required")]
    assert codes(hand(contract="tout_atout")) == [("contract", "invalid_choice")]
    assert codes(hand(contract="Spades")) == [("contract", "invalid_choice")]


def test_the_points_are_required() -> None:
    assert codes(hand(points=...)) == [("points", "required")]


def test_the_points_are_a_list_of_three() -> None:
    assert codes(hand(points={"0": 57})) == [("points", "not_a_list")]
    assert codes(hand(points=[100, 43])) == [("points", "wrong_length")]


@pytest.mark.parametrize(
    ("value", "code"),
    [
        (-5, "out_of_range"),
        (57.0, "not_an_integer"),
        ("57", "not_an_integer"),
        (True, "not_an_integer"),
        (163, "out_of_range"),
    ],
)
def test_each_players_points_are_a_whole_number_from_0(value: Any, code: str) -> None:
    assert codes(hand(points=[value, 60, 40])) == [("points.0", code)]


def test_every_bad_point_is_reported() -> None:
    assert codes(hand(points=[-1, "x", None])) == [
        ("points.0", "out_of_range"),
        ("points.1", "not_an_integer"),
        ("points.2", "not_an_integer"),
    ]


def test_one_point_cannot_be_taken() -> None:
    assert codes(hand(points=[100, 1, 40])) == [("points.1", "impossible_points")]


def test_the_last_trick_holder_has_the_dix_de_der() -> None:
    assert codes(hand(points=[57, 46, 8], last_trick=2)) == [("last_trick", "last_trick_points")]
    assert codes(hand(points=[57, 46, 11], last_trick=2)) == [("last_trick", "last_trick_points")]


def test_without_the_last_trick_151_card_points_are_impossible() -> None:
    assert codes(hand(points=[151, 0, 10], last_trick=2)) == [("points.0", "impossible_without_last_trick")]


def test_the_last_trick_is_a_player() -> None:
    assert codes(hand(last_trick=3)) == [("last_trick", "out_of_range")]


def test_a_capot_player_has_no_points() -> None:
    assert codes(hand(points=[82, 60, 4], capot=[2], last_trick=0)) == [("capot.0", "capot_with_points")]


def test_a_capot_player_did_not_take_the_last_trick() -> None:
    assert codes(hand(points=[82, 60, 0], capot=[2], last_trick=2)) == [
        ("last_trick", "last_trick_points"),
        ("capot.0", "capot_took_last_trick"),
    ]


def test_at_most_two_players_are_capot() -> None:
    assert ("capot", "too_many_capots") in codes(hand(points=[0, 0, 0], capot=[0, 1, 2], last_trick=0))


def test_with_two_capots_the_third_player_has_all_the_points() -> None:
    assert codes(hand(points=[100, 20, 0], capot=[1, 2], last_trick=0)) == [("capot.0", "capot_with_points")]


def test_a_capot_player_is_listed_once() -> None:
    assert codes(hand(points=[82, 60, 0], capot=[2, 2], last_trick=0)) == [("capot.1", "duplicate")]


def test_capot_is_a_list_of_players() -> None:
    assert codes(hand(capot=2)) == [("capot", "not_a_list")]
    assert codes(hand(capot=["C"])) == [("capot.0", "not_an_integer")]


def test_belote_is_held_by_one_player_at_most() -> None:
    assert codes(hand(belote=[0, 1])) == [("belote", "too_many_belotes")]


def test_belote_names_a_player() -> None:
    assert codes(hand(belote=[4])) == [("belote.0", "out_of_range")]


def test_belote_cannot_be_held_when_another_player_announced_the_trump_king_or_queen() -> None:
    h = hand(belote=[0], announcements=[[], [ann("tierce", "K", "spades")], []])
    assert codes(h) == [("belote", "belote_conflict")]
    assert codes(hand(belote=[0], announcements=[[], [ann("carre", "Q")], []])) == [("belote", "belote_conflict")]
    assert codes(hand(belote=[0], announcements=[[ann("tierce", "K", "spades")], [], []])) == []
    assert codes(hand(belote=[0], announcements=[[], [ann("tierce", "K", "hearts")], []])) == []


def test_announcements_are_one_list_per_player() -> None:
    assert codes(hand(announcements={"0": []})) == [("announcements", "not_a_list")]
    assert codes(hand(announcements=[[], []])) == [("announcements", "wrong_length")]
    assert codes(hand(announcements=[[], {}, []])) == [("announcements.1", "not_a_list")]


def test_an_announcement_has_a_valid_kind_and_height() -> None:
    h = hand(announcements=[[], [], [{"kind": "quinte", "high": "A"}, {"kind": "tierce", "high": "1"}, "tierce"]])
    assert codes(h) == [
        ("announcements.2.0.kind", "invalid_choice"),
        ("announcements.2.1.high", "invalid_choice"),
        ("announcements.2.2", "not_an_object"),
    ]


def test_an_announcement_needs_a_kind_and_a_height() -> None:
    assert codes(hand(announcements=[[{}], [], []])) == [
        ("announcements.0.0.kind", "required"),
        ("announcements.0.0.high", "required"),
    ]


def test_an_announcement_refuses_unknown_fields() -> None:
    h = hand(announcements=[[{"kind": "tierce", "high": "A", "points": 20}], [], []])
    assert codes(h) == [("announcements.0.0.points", "unknown_field")]


@pytest.mark.parametrize(("kind", "high"), [("tierce", "8"), ("cinquante", "9"), ("cent", "10"), ("tierce", "7")])
def test_a_sequence_cannot_stop_below_the_seven(kind: str, high: str) -> None:
    assert codes(hand(announcements=[[ann(kind, high)], [], []])) == [("announcements.0.0.high", "impossible_height")]


def test_a_sequences_suit_is_one_of_the_four() -> None:
    assert codes(hand(announcements=[[ann("tierce", "A", "trefle")], [], []])) == [
        ("announcements.0.0.suit", "invalid_choice")
    ]


def test_a_carre_has_no_suit() -> None:
    assert codes(hand(announcements=[[ann("carre", "A", "hearts")], [], []])) == [
        ("announcements.0.0.suit", "suit_on_carre")
    ]


def test_a_carre_of_sevens_must_be_recorded_as_a_cancelled_donne() -> None:
    assert codes(hand(announcements=[[ann("carre", "7")], [], []])) == [("announcements.0.0.high", "carre_of_sevens")]


def test_a_player_cannot_announce_more_than_nine_cards() -> None:
    h = hand(announcements=[[ann("carre", "A"), ann("cent", "K", "hearts"), ann("tierce", "K", "clubs")], [], []])
    assert codes(h) == [("announcements.0", "too_many_cards_announced")]


def test_a_card_cannot_be_announced_twice() -> None:
    two_players = hand(announcements=[[ann("tierce", "K", "hearts")], [ann("tierce", "Q", "hearts")], []])
    assert codes(two_players) == [("announcements.1.0", "card_announced_twice")]
    two_carres = hand(announcements=[[ann("carre", "J")], [], [ann("carre", "J")]])
    assert codes(two_carres) == [("announcements.2.0", "card_announced_twice")]
    carre_and_sequence = hand(announcements=[[ann("tierce", "A")], [ann("carre", "K")], []])
    assert codes(carre_and_sequence) == [("announcements.0.0", "card_announced_twice")]


def test_sequences_in_different_suits_or_apart_can_be_announced() -> None:
    h = hand(
        points=[80, 40, 30],
        announcements=[
            [ann("tierce", "A", "hearts"), ann("tierce", "10", "hearts")],
            [ann("tierce", "A", "clubs")],
            [],
        ],
    )
    assert codes(h) == []


def test_order_is_a_player() -> None:
    assert codes(hand(order="A")) == [("order", "not_an_integer")]


def test_every_problem_is_reported_at_once() -> None:
    h = {"taker": 7, "points": [1, 200, 0], "capot": "x", "belote": [0, 0], "extra": 1}
    assert codes(h) == [
        ("extra", "unknown_field"),
        ("taker", "out_of_range"),
        ("contract", "required"),
        ("points.1", "out_of_range"),
        ("points.0", "impossible_points"),
        ("capot", "not_a_list"),
        ("belote.1", "duplicate"),
        ("belote", "too_many_belotes"),
    ]


def test_errors_carry_an_english_message_with_their_parameters() -> None:
    (error,) = GAME.validate(hand(points=[10, 20, 30]), GAME.resolve_options({}))
    assert error.to_json() == {
        "field": "points",
        "code": "points_total",
        "message": "The points add up to 60; with five cards unplayed they add up to 95 to 162.",
    }


def test_validation_reads_but_never_changes_the_hand() -> None:
    h = hand(points=[82, 60, 0], capot=[2], last_trick=0, announcements=[[ann("tierce", "A", "hearts")], [], []])
    copy = {k: v for k, v in h.items()}
    GAME.validate(h, GAME.resolve_options({}))
    GAME.score(h, GAME.resolve_options({}))
    assert h == copy


def test_tuples_are_accepted_where_json_has_arrays() -> None:
    assert result(hand(points=(57, 72, 19), capot=(), announcements=((), (), ())))["scores"] == [0, 129, 19]
