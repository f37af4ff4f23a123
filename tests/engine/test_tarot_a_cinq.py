"""Tarot à 5: the issue's example, the table (players, chien, poignées), the partner and
the taker alone, each option both ways, the chelem's limits with a chien of 3, the
validation of every field and of the partner, and properties over drawn hands."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core import OptionError
from engine.match import play
from engine.standings import default_criteria
from tests.engine.tarot_hands import CINQ, JSON, every_options, expected_d, tarot_hands
from tests.tiers import examples

GAME = CINQ
OPTIONS = st.sampled_from(every_options(GAME))


def hand(**fields: Any) -> dict[str, Any]:
    """Player 3 takes a garde with player 0 as partner, 2 oudlers and 51 points (made by
    10), plus the test's changes."""
    base: dict[str, Any] = {"taker": 3, "partner": 0, "contract": "garde", "oudlers": 2, "points": 51}
    base.update(fields)
    return {key: value for key, value in base.items() if value is not ...}


def result(h: dict[str, Any], **options: Any) -> dict[str, Any]:
    resolved = GAME.resolve_options(options)
    assert GAME.validate(h, resolved) == []
    return GAME.result_json(GAME.score(h, resolved))


def d(h: dict[str, Any], **options: Any) -> Any:
    """What each defender pays, checked against the taker's 2 × D and the partner's D."""
    scores = result(h, **options)["scores"]
    taker, partner = h["taker"], h["partner"]
    defenders = [scores[p] for p in range(5) if p not in (taker, partner)]
    assert defenders == [defenders[0]] * 3
    assert (scores[taker], scores[partner]) == (-2 * defenders[0], -defenders[0])
    return -defenders[0]


def codes(h: Any, **options: Any) -> list[tuple[str, str]]:
    return [(e.field, e.code) for e in GAME.validate(h, GAME.resolve_options(options))]


# -- the examples -----------------------------------------------------------------------------


def test_the_issue_example_taker_2_and_partner_4_score_120_and_60_and_each_defender_minus_60() -> None:
    h = {
        "taker": 2,
        "partner": 4,
        "contract": "garde",
        "oudlers": 2,
        "points": 45.5,
        "petit_au_bout": None,
        "poignee": None,
        "chelem": None,
    }
    out = result(h)
    assert out == {"scores": [-60, -60, 120, -60, 60], "outcome": "made", "base": 60}
    # In the order of the issue: taker, partner, then the defenders 0, 1, 3.
    scores = out["scores"]
    assert [scores[2], scores[4], scores[0], scores[1], scores[3]] == [120, 60, -60, -60, -60]


def test_the_issue_example_with_the_partner_before_the_taker() -> None:
    h = {"taker": 4, "partner": 0, "contract": "garde", "oudlers": 2, "points": 45.5}
    assert result(h)["scores"] == [60, -60, -60, -60, 120]


# -- the table --------------------------------------------------------------------------------


def test_the_game_seats_five_players_of_15_cards_with_a_chien_of_3() -> None:
    assert (GAME.code, GAME.players_per_table, GAME.sides) == ("tarot_a_cinq", 5, (0, 1, 2, 3, 4))
    assert (GAME.cards_per_player, GAME.chien) == (15, 3)
    assert 5 * GAME.cards_per_player + GAME.chien == 78


def test_the_game_is_in_the_registry_and_ranks_by_points_then_wins() -> None:
    assert engine.get_game("tarot_a_cinq") is engine.GAMES["tarot_a_cinq"]
    assert default_criteria("tarot_a_cinq") == ("points", "wins")


def test_the_description_gives_the_table_and_the_poignee_thresholds() -> None:
    described = GAME.describe()
    assert described["players_per_table"] == 5
    assert described["chien"] == 3
    assert described["poignee_trumps"] == {"simple": 8, "double": 10, "triple": 13}


@pytest.mark.parametrize(("taker", "partner"), [(0, 1), (1, 0), (2, 4), (4, 3), (3, 0)])
def test_the_taker_scores_2d_the_partner_d_and_each_of_the_three_defenders_minus_d(taker: int, partner: int) -> None:
    scores = result(hand(taker=taker, partner=partner))["scores"]
    assert (scores[taker], scores[partner]) == (140, 70)
    assert [s for p, s in enumerate(scores) if p not in (taker, partner)] == [-70, -70, -70]


def test_a_failed_contract_costs_the_taker_2d_and_the_partner_d() -> None:
    assert result(hand(points=31)) == {"scores": [-70, 70, 70, -140, 70], "outcome": "failed", "base": 70}


@pytest.mark.parametrize("taker", [0, 1, 2, 3, 4])
def test_a_taker_alone_scores_4d_and_each_of_the_four_others_pays_d(taker: int) -> None:
    scores = result(hand(taker=taker, partner=taker))["scores"]
    assert scores[taker] == 4 * 70
    assert [s for p, s in enumerate(scores) if p != taker] == [-70, -70, -70, -70]


def test_a_taker_alone_who_fails_pays_each_of_the_four_others() -> None:
    assert result(hand(partner=3, points=31)) == {"scores": [70, 70, 70, -280, 70], "outcome": "failed", "base": 70}


@pytest.mark.parametrize(("oudlers", "needed"), [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_the_points_needed_depend_on_the_attacks_oudlers(oudlers: int, needed: int) -> None:
    assert result(hand(oudlers=oudlers, points=needed))["outcome"] == "made"
    assert result(hand(oudlers=oudlers, points=needed - 0.5))["outcome"] == "failed"


@pytest.mark.parametrize(
    ("contract", "multiplier"), [("petite", 1), ("garde", 2), ("garde_sans", 4), ("garde_contre", 6)]
)
def test_each_contract_has_its_multiplier(contract: str, multiplier: int) -> None:
    assert d(hand(contract=contract)) == (25 + 10) * multiplier


def test_the_attacks_petit_au_bout_and_chelem_count_for_taker_and_partner() -> None:
    h = hand(oudlers=3, points=88, petit_au_bout="taker", chelem={"announced": True, "made_by": "taker"})
    # (25 + 52) × 2 + 10 × 2 = 174, then the chelem: 574.
    assert result(h) == {"scores": [574, -574, -574, 1148, -574], "outcome": "made", "base": 174}


def test_a_chelem_made_by_the_defence_costs_the_attack_200_more() -> None:
    h = hand(oudlers=0, points=3, chelem={"announced": False, "made_by": "defence"})
    assert d(h) == -(25 + 53) * 2 - 200


# -- options ------------------------------------------------------------------------------------


def test_the_options_and_their_defaults_are_those_of_tarot_a_trois() -> None:
    assert GAME.resolve_options({}) == {"half_points": "to_winner", "primes": "multiplied"}


@pytest.mark.parametrize("option", ["split_rounding", "announcements", "tie", "partner", "alone"])
def test_other_options_are_refused_as_unknown(option: str) -> None:
    with pytest.raises(OptionError, match=option):
        GAME.resolve_options({option: "on"})


def test_half_points_to_the_winner_count_the_half_for_the_side_that_wins() -> None:
    assert result(hand(contract="petite", points=41.5))["scores"] == [26, -26, -26, 52, -26]
    assert result(hand(contract="petite", points=40.5))["scores"] == [-26, 26, 26, -52, 26]


def test_half_points_exact_leave_the_partner_and_defenders_with_a_half() -> None:
    out = result(hand(contract="petite", points=41.5), half_points="exact")
    assert out == {"scores": [25.5, -25.5, -25.5, 51, -25.5], "outcome": "made", "base": 25.5}
    assert type(out["scores"][3]) is int
    alone = result(hand(contract="petite", partner=3, points=40.5), half_points="exact")["scores"]
    assert alone == [25.5, 25.5, 25.5, -102, 25.5]


def test_primes_multiplied_or_added_after_the_multiplier() -> None:
    h = hand(contract="garde_sans", poignee={"by": "defence", "size": "double"}, petit_au_bout="defence")
    assert d(h, primes="multiplied") == (25 + 10 + 30 - 10) * 4
    assert d(h, primes="fft") == (25 + 10) * 4 + 30 - 10 * 4


# -- poignées -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "prime"), [("simple", 20), ("double", 30), ("triple", 40)])
def test_a_poignee_is_worth_20_30_or_40_to_the_side_that_wins(size: str, prime: int) -> None:
    assert d(hand(contract="petite", poignee={"by": "taker", "size": size})) == 25 + 10 + prime
    assert d(hand(contract="petite", points=31, poignee={"by": "defence", "size": size})) == -(25 + 10 + prime)


@pytest.mark.parametrize(
    ("sizes", "primes"),
    [(["simple", "simple"], 40), (["double", "double"], 60), (["triple", "simple"], 60)],
)
def test_two_poignees_of_8_to_13_trumps_fit_in_the_22_and_both_count(sizes: list[str], primes: int) -> None:
    shown = [{"by": "defence", "size": size} for size in sizes]
    assert d(hand(contract="petite", poignee=shown)) == 25 + 10 + primes


@pytest.mark.parametrize(
    ("sizes", "trumps"), [(["triple", "double"], 23), (["simple", "simple", "simple"], 24), (["triple", "triple"], 26)]
)
def test_poignees_needing_more_than_the_22_trumps_are_refused(sizes: list[str], trumps: int) -> None:
    h = hand(poignee=[{"by": "taker", "size": size} for size in sizes])
    (error,) = GAME.validate(h, GAME.resolve_options({}))
    assert (error.field, error.code) == ("poignee", "poignee_trumps")
    assert error.params == {"count": trumps, "max": 22}


# -- the chelem's limits --------------------------------------------------------------------------


def test_a_chelem_made_by_the_attack_needs_87_points() -> None:
    chelem = {"announced": False, "made_by": "taker"}
    assert codes(hand(oudlers=2, points=87, chelem=chelem)) == []
    assert codes(hand(oudlers=2, points=86.5, chelem=chelem)) == [("chelem.made_by", "chelem_points_too_low")]


def test_a_chelem_in_a_garde_contre_needs_73_5_points_the_chien_of_3_and_the_excuse_going_to_the_defence() -> None:
    # The chien holds three of the petit, the 21 and the kings (13.5); a defender keeps the Excuse (4).
    chelem = {"announced": True, "made_by": "taker"}
    assert codes(hand(contract="garde_contre", oudlers=1, points=73.5, chelem=chelem)) == []
    (error,) = GAME.validate(
        hand(contract="garde_contre", oudlers=1, points=73, chelem=chelem), GAME.resolve_options({})
    )
    assert error.message == "A chelem made by the taker needs at least 73.5 points, not 73."


# -- the partner ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("partner", "code"),
    [
        (..., "required"),
        (None, "required"),
        (5, "out_of_range"),
        (-1, "out_of_range"),
        ("4", "not_an_integer"),
        (4.0, "not_an_integer"),
        (True, "not_an_integer"),
        ([4], "not_an_integer"),
    ],
)
def test_the_partner_is_a_player_0_to_4(partner: Any, code: str) -> None:
    assert codes(hand(partner=partner)) == [("partner", code)]


def test_a_partner_out_of_range_says_which_players_there_are() -> None:
    (error,) = GAME.validate(hand(partner=5), GAME.resolve_options({}))
    assert error.to_json() == {
        "field": "partner",
        "code": "out_of_range",
        "message": "5 is out of range: expected 0 to 4.",
    }


@pytest.mark.parametrize(("taker", "code"), [(5, "out_of_range"), ("0", "not_an_integer"), (..., "required")])
def test_the_taker_is_player_0_to_4(taker: Any, code: str) -> None:
    assert codes(hand(taker=taker)) == [("taker", code)]


def test_every_problem_is_reported_at_once_with_dotted_fields() -> None:
    h = {
        "taker": 5,
        "partner": "me",
        "contract": "garde",
        "oudlers": 3,
        "points": 40,
        "petit_au_bout": "defence",
        "poignee": [{"by": "taker", "size": "triple"}, {"by": "defence"}],
        "roi": "coeur",
    }
    assert codes(h) == [
        ("roi", "unknown_field"),
        ("taker", "out_of_range"),
        ("partner", "not_an_integer"),
        ("poignee.1.size", "required"),
        ("petit_au_bout", "petit_au_bout_all_oudlers"),
    ]


# -- a partie ---------------------------------------------------------------------------------------


def test_a_partie_keeps_five_running_totals_and_ends_with_a_winner() -> None:
    donnes = [hand(taker=0, partner=1, points=45.5), hand(taker=2, partner=2, points=31)]
    out = play(GAME, donnes, {"donnes": 2})
    assert out.errors == ()
    assert out.running == ((120, 60, -60, -60, -60), (190, 130, -340, 10, 10))
    assert (out.finished, out.winner) == (True, 0)


def test_a_bad_partner_in_a_partie_names_its_hand() -> None:
    out = play(GAME, [hand(), hand(partner=9)], {"donnes": 2})
    assert [(e.field, e.code) for e in out.errors] == [("hands.1.partner", "out_of_range")]


# -- properties -------------------------------------------------------------------------------------


@given(tarot_hands(5), OPTIONS)
def test_drawn_hands_are_valid(h: dict[str, Any], options: dict[str, Any]) -> None:
    assert GAME.validate(h, GAME.resolve_options(options)) == []


@given(tarot_hands(5), OPTIONS)
def test_the_five_scores_add_up_to_0(h: dict[str, Any], options: dict[str, Any]) -> None:
    assert sum(GAME.score(h, GAME.resolve_options(options)).scores) == 0


@given(tarot_hands(5), OPTIONS)
def test_the_attack_scores_the_formulas_d_twice_and_once_or_four_times_alone(
    h: dict[str, Any], options: dict[str, Any]
) -> None:
    scores = GAME.score(h, GAME.resolve_options(options)).scores
    expected = expected_d(h, options)
    taker, partner = h["taker"], h["partner"]
    if partner == taker:
        assert scores[taker] == 4 * expected
    else:
        assert (scores[taker], scores[partner]) == (2 * expected, expected)
    assert all(scores[p] == -expected for p in range(5) if p not in (taker, partner))


@given(tarot_hands(5), OPTIONS)
def test_scoring_is_deterministic_and_leaves_the_hand_alone(h: dict[str, Any], options: dict[str, Any]) -> None:
    resolved = GAME.resolve_options(options)
    before = copy.deepcopy(h)
    assert GAME.score(h, resolved) == GAME.score(copy.deepcopy(h), resolved)
    assert h == before


@given(tarot_hands(5))
def test_half_points_to_the_winner_always_score_whole_numbers(h: dict[str, Any]) -> None:
    assert all(type(s) is int for s in GAME.score(h, GAME.resolve_options({})).scores)


@settings(max_examples=examples(300))
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_random_hands_are_valid_and_repeatable(seed: int, options: dict[str, Any]) -> None:
    h = GAME.random_hand(random.Random(seed))
    assert GAME.validate(h, GAME.resolve_options(options)) == []
    assert GAME.random_hand(random.Random(seed)) == h


def test_random_hands_are_plausible() -> None:
    rng = random.Random(7)
    options = GAME.resolve_options({})
    hands = [GAME.random_hand(rng) for _ in range(2000)]
    made = [GAME.score(h, options).outcome for h in hands].count("made") / len(hands)
    assert 0.5 < made < 0.95
    alone = sum(h["partner"] == h["taker"] for h in hands) / len(hands)
    assert 0.02 < alone < 0.15
    assert {h["partner"] for h in hands} == {0, 1, 2, 3, 4}
    assert any(isinstance(h.get("poignee"), list) for h in hands)


@given(value=JSON)
def test_any_json_value_gets_a_list_of_errors_never_an_exception(value: Any) -> None:
    errors = GAME.validate(value, GAME.resolve_options({}))
    assert all(error.message for error in errors)


FIELDS = ["taker", "partner", "contract", "oudlers", "points", "petit_au_bout", "poignee", "chelem"]


@given(st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=8), OPTIONS)
def test_fields_holding_anything_never_raise(value: dict[str, Any], options: dict[str, Any]) -> None:
    assert isinstance(GAME.validate(value, GAME.resolve_options(options)), list)


BREAKS = [
    lambda h: h.update(partner=5),
    lambda h: h.update(partner=str(h["partner"])),
    lambda h: h.pop("partner"),
    lambda h: h.update(taker=-1),
    lambda h: h.update(points=91.5),
    lambda h: h.update(poignee=[{"by": "taker", "size": "triple"}, {"by": "defence", "size": "double"}]),
    lambda h: h.update(chelem={"made_by": "taker"}, points=min(h["points"], 73)),
    lambda h: h.update(oudlers=3, petit_au_bout="defence"),
]


@given(tarot_hands(5), st.sampled_from(BREAKS))
def test_broken_hands_are_refused_with_an_error(h: dict[str, Any], break_it: Any) -> None:
    break_it(h)
    assert GAME.validate(h, GAME.resolve_options({})) != []
