"""A partie: running totals, litige reserves carried, the end, the winner, and the
hands refused along the way."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

import engine
from engine.core import Game, HandScore, OptionError, RuleError
from engine.match import End, default_end, default_target, parse_end, play, play_json

CLASSIQUE = engine.GAMES["belote_classique"]
MODERNE = engine.GAMES["belote_moderne"]


def made(a: int, b: int, taker: str = "A", **fields: Any) -> dict[str, Any]:
    return {"taker": taker, "contract": "hearts", "points": {"A": a, "B": b}, **fields}


CANCELLED = {"cancelled": True}


class Points3(Game):
    """A stand-in game for three: each hand is the three players' scores."""

    code = "points3"
    players_per_table = 3
    sides = (0, 1, 2)
    option_specs = ()
    card_values: Mapping[str, Mapping[str, int]] = {}

    def validate(self, hand: Any, options: Mapping[str, Any]) -> list[RuleError]:
        if hand == "cancelled":
            return []
        if not (isinstance(hand, list) and len(hand) == 3 and all(type(x) is int for x in hand)):
            return [RuleError("", "bad", "bad hand")]
        return []

    def score(self, hand: Any, options: Mapping[str, Any], carry: int = 0) -> HandScore:
        if hand == "cancelled":
            return HandScore((0, 0, 0), "cancelled")
        return HandScore(tuple(hand), "made")

    def result_json(self, score: HandScore) -> dict[str, Any]:
        return {"scores": list(score.scores)}

    def random_hand(self, rng: random.Random) -> dict[str, Any]:
        return {}

    def hand_schema(self) -> dict[str, Any]:
        return {"title": self.code, "type": "array", "items": {"type": "integer"}, "minItems": 3, "maxItems": 3}


POINTS3 = Points3()


# -- the command line's shape (docs/engine-cli.md) ----------------------------------


def test_a_partie_prints_totals_running_finished_and_winner() -> None:
    out = play_json(CLASSIQUE, {"end": {"donnes": 2}, "hands": [made(92, 70), made(60, 102)]}).to_json()
    assert out == {
        "totals": {"A": 92, "B": 232},
        "running": [{"A": 92, "B": 70}, {"A": 92, "B": 232}],
        "finished": True,
        "winner": "B",
    }


def test_a_partie_of_players_gives_totals_as_a_list() -> None:
    out = play(POINTS3, [[10, 20, 30], [5, 0, 0]], {"donnes": 2}).to_json()
    assert out == {"totals": [15, 20, 30], "running": [[10, 20, 30], [15, 20, 30]], "finished": True, "winner": 2}


def test_an_unfinished_partie_has_no_winner_yet() -> None:
    result = play(CLASSIQUE, [made(92, 70)], {"donnes": 12})
    assert result.to_json()["finished"] is False
    assert result.winner is None
    assert result.donnes_remaining == 11


# -- litige reserves -----------------------------------------------------------------


def test_the_partie_carries_a_litige_reserve_to_the_next_winner() -> None:
    result = play(CLASSIQUE, [made(81, 81), made(62, 100, taker="B")], {"donnes": 12})
    assert [s.scores for s in result.scores] == [(0, 81), (62, 181)]
    assert result.totals == (62, 262)
    assert result.reserve == 0


def test_consecutive_litiges_grow_the_reserve_until_a_donne_is_won() -> None:
    result = play(CLASSIQUE, [made(81, 81), made(81, 81, taker="B"), made(70, 92)], {"donnes": 12})
    assert [s.reserve_out for s in result.scores] == [81, 162, 0]
    assert result.totals == (81, 81 + 162 + 162)


def test_a_cancelled_donne_passes_the_reserve_on_and_is_not_a_played_donne() -> None:
    result = play(CLASSIQUE, [made(81, 81), CANCELLED, made(92, 70)], {"donnes": 2})
    assert result.totals == (92 + 81, 81 + 70)
    assert result.donnes_played == 2
    assert result.finished


def test_the_partie_reports_the_reserve_pending_for_the_next_donne() -> None:
    result = play(CLASSIQUE, [made(92, 70), made(81, 81)], {"donnes": 12})
    assert result.reserve == 81


def test_a_reserve_still_pending_at_the_end_is_lost() -> None:
    result = play(CLASSIQUE, [made(92, 70), made(81, 81)], {"donnes": 2})
    assert result.finished
    assert result.totals == (92, 151)
    assert result.reserve == 0
    assert result.reserve_lost == 81


def test_belote_moderne_reserves_are_carried_already_multiplied() -> None:
    sa_tie = {"taker": "A", "contract": "sans_atout", "points": {"A": 65, "B": 65}}
    result = play(MODERNE, [sa_tie, made(92, 70)], {"target": 1501})
    assert result.totals == (92 + 130, 130 + 70)


def test_hands_of_a_partie_leave_reserve_in_out() -> None:
    result = play(CLASSIQUE, [made(92, 70, reserve_in=81)], {"donnes": 12})
    assert [(e.field, e.code) for e in result.errors] == [("hands.0.reserve_in", "reserve_in_in_partie")]
    assert play(CLASSIQUE, [made(92, 70, reserve_in=0)], {"donnes": 12}).valid


# -- a fixed number of donnes --------------------------------------------------------


def test_a_partie_of_n_donnes_ends_after_n_played_donnes_and_the_higher_total_wins() -> None:
    hands = [made(92, 70)] * 11 + [CANCELLED, made(60, 102)]
    result = play(CLASSIQUE, hands, {"donnes": 12})
    assert result.finished and result.donnes_played == 12
    assert result.winner == "A"
    assert result.finished_after == 12
    assert result.donnes_remaining == 0


def test_a_partie_of_n_donnes_ending_level_has_no_winner() -> None:
    result = play(CLASSIQUE, [made(92, 70), made(70, 92, taker="B")], {"donnes": 2})
    assert result.finished and result.winner is None


def test_a_partie_refuses_hands_after_its_end() -> None:
    result = play(CLASSIQUE, [made(92, 70), made(92, 70), CANCELLED], {"donnes": 1})
    assert [(e.field, e.code) for e in result.errors] == [
        ("hands.1", "partie_finished"),
        ("hands.2", "partie_finished"),
    ]
    assert result.to_json() == {"errors": [e.to_json() for e in result.errors]}


def test_the_partie_says_after_which_hand_it_was_over() -> None:
    result = play(CLASSIQUE, [made(92, 70), made(92, 70)], {"donnes": 2})
    assert not result.is_finished_after(0)
    assert result.is_finished_after(1)


# -- a target score ------------------------------------------------------------------


def test_the_first_side_to_reach_the_target_wins() -> None:
    result = play(POINTS3, [[100, 0, 0], [0, 250, 0], [0, 0, 10]], {"target": 250})
    assert result.finished and result.winner == 1
    assert result.finished_after == 1
    assert [(e.field, e.code) for e in result.errors] == [("hands.2", "partie_finished")]


def test_when_both_teams_pass_the_target_on_the_same_donne_the_higher_wins() -> None:
    result = play(POINTS3, [[240, 230, 0], [20, 40, 0]], {"target": 250})
    assert result.totals == (260, 270, 0)
    assert result.finished and result.winner == 1


def test_an_exact_tie_past_the_target_plays_one_more_donne() -> None:
    tied = play(POINTS3, [[240, 230, 0], [20, 30, 0]], {"target": 250})
    assert tied.totals == (260, 260, 0)
    assert not tied.finished and tied.winner is None
    assert tied.tie_break_donne
    decided = play(POINTS3, [[240, 230, 0], [20, 30, 0], [0, 20, 0]], {"target": 250})
    assert decided.finished and decided.winner == 1


def test_the_partie_says_how_far_each_side_is_from_the_target() -> None:
    result = play(CLASSIQUE, [made(92, 70), made(60, 102)], {"target": 1000})
    assert result.points_to_target == (908, 768)
    assert result.donnes_remaining is None


def test_a_belote_partie_to_1000_ends_on_the_donne_that_reaches_it() -> None:
    hands = [made(162, 0, capot="A", belote=["A"])] * 4
    result = play(CLASSIQUE, hands, End(target=1000))
    assert result.finished and result.winner == "A"
    assert result.totals == (1080, 0)


def test_a_cancelled_donne_never_ends_a_partie() -> None:
    result = play(POINTS3, [[10, 0, 0], "cancelled", "cancelled"], {"donnes": 2})
    assert not result.finished and result.donnes_played == 1


# -- defaults and the end's checks ---------------------------------------------------


def test_tournament_defaults_are_12_donnes_or_1000_and_1501_points() -> None:
    assert default_end(CLASSIQUE) == End(donnes=12)
    assert default_end(CLASSIQUE, by_target=True) == End(target=1000)
    assert default_end(MODERNE, by_target=True) == End(target=1501)
    assert default_target(engine.GAMES["tarot_a_trois"]) is None
    with pytest.raises(ValueError):
        default_end(POINTS3, by_target=True)


@pytest.mark.parametrize(
    ("end", "problem"),
    [
        (None, ("end", "not_an_object")),
        ({}, ("end", "end_kind")),
        ({"donnes": 12, "target": 1000}, ("end", "end_kind")),
        ({"donnes": 0}, ("end.donnes", "out_of_range")),
        ({"donnes": True}, ("end.donnes", "not_an_integer")),
        ({"target": "1000"}, ("end.target", "not_an_integer")),
        ({"donnes": 12, "rounds": 3}, ("end.rounds", "unknown_field")),
    ],
)
def test_a_malformed_end_is_reported(end: Any, problem: tuple[str, str]) -> None:
    _, errors = parse_end(CLASSIQUE, end)
    assert problem in [(e.field, e.code) for e in errors]


def test_a_belote_moderne_target_is_between_501_and_3001() -> None:
    assert parse_end(MODERNE, {"target": 500})[1][0].code == "out_of_range"
    assert parse_end(MODERNE, {"target": 3002})[1][0].code == "out_of_range"
    assert parse_end(MODERNE, {"target": 501}) == (End(target=501), [])
    assert parse_end(CLASSIQUE, {"target": 500}) == (End(target=500), [])
    assert [e.code for e in play(MODERNE, [], End(target=5000)).errors] == ["out_of_range"]


def test_an_end_has_exactly_one_rule() -> None:
    with pytest.raises(ValueError):
        End()
    with pytest.raises(ValueError):
        End(donnes=12, target=1000)


# -- refused input -------------------------------------------------------------------


def test_invalid_hands_are_reported_with_their_place_in_the_partie() -> None:
    result = play(CLASSIQUE, [made(92, 70), made(92, 60), "oops", made(92, 70)], {"donnes": 12})
    assert [(e.field, e.code) for e in result.errors] == [
        ("hands.1.points", "points_sum"),
        ("hands.2", "not_an_object"),
    ]
    assert not result.valid
    # Scoring stops at the first invalid hand: the carry after it is unknown.
    assert result.totals == (92, 70)


def test_a_partie_input_must_be_an_object_with_end_and_hands() -> None:
    def problems(data: Any) -> list[tuple[str, str]]:
        return [(e.field, e.code) for e in play_json(CLASSIQUE, data).errors]

    assert problems([]) == [("", "partie_not_object")]
    assert problems({}) == [("end", "required"), ("hands", "required")]
    assert problems({"end": {"donnes": 0}, "hands": {}}) == [("hands", "not_a_list"), ("end.donnes", "out_of_range")]
    assert problems({"end": {"donnes": 2}, "hands": [], "table": 3}) == [("table", "unknown_field")]


def test_an_unknown_option_is_a_configuration_error_not_a_hand_error() -> None:
    with pytest.raises(OptionError):
        play(CLASSIQUE, [], {"donnes": 12}, {"capot": 250})


def test_options_apply_to_every_hand_of_the_partie() -> None:
    capot = made(162, 0, capot="A")
    assert play(CLASSIQUE, [capot, capot], {"donnes": 2}, {"capot_value": 252}).totals == (504, 0)


@pytest.mark.parametrize("code", ["belote_classique", "belote_moderne", "belote_a_trois", "tarot_a_trois"])
def test_every_game_plays_a_partie_of_random_hands(code: str) -> None:
    game = engine.GAMES[code]
    rng = random.Random(2)
    hands: list[dict[str, Any]] = []
    while not (result := play(game, hands, {"donnes": 12})).finished:
        assert result.valid, result.errors
        hands.append(game.random_hand(rng))
    assert result.donnes_played == 12
    assert len(result.totals) == len(game.sides)
    assert result.running[-1] == result.totals
    shape = dict if game.sides == ("A", "B") else list
    assert isinstance(result.to_json()["totals"], shape)


# -- a partie as it stood after its first hands ------------------------------------------


@pytest.mark.parametrize("code", sorted(engine.GAMES))
@pytest.mark.parametrize("end", [{"donnes": 4}, {"target": 300}, {"target": 600}])
def test_a_partie_cut_after_n_hands_is_the_partie_of_those_hands(code: str, end: dict[str, int]) -> None:
    game = engine.GAMES[code]
    if "target" in end and game.default_target is None:
        end = {"donnes": 3}
    rng = random.Random(7)
    for _ in range(6):
        # Random hands, a malformed one now and then, and hands past the end.
        hands: list[Any] = [game.random_hand(rng) if rng.random() > 0.1 else {"taker": "?"} for _ in range(9)]
        whole = play(game, hands, end)
        for count in range(len(hands) + 1):
            assert whole.prefix(count) == play(game, hands[:count], end), (code, end, count)


def test_a_partie_cut_keeps_the_litige_reserve_it_held_then() -> None:
    whole = play(CLASSIQUE, [made(81, 81), made(100, 62), CANCELLED], {"donnes": 2})
    assert whole.finished and whole.prefix(1).reserve == 81 and not whole.prefix(1).finished
    assert whole.prefix(1).totals == (0, 81) and whole.prefix(2).winner == "A"
    assert whole.prefix(3) == whole and whole.prefix(0).totals == (0, 0)
