"""Tarot à 4: the issue's example, the table (players, chien, poignées), the taker's
3 × D, each option both ways, the chelem's limits with a chien of 6, the validation of
every field, and properties over drawn hands."""

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
from tests.engine.tarot_hands import JSON, QUATRE, every_options, expected_d, tarot_hands
from tests.tiers import examples

GAME = QUATRE
OPTIONS = st.sampled_from(every_options(GAME))


def hand(**fields: Any) -> dict[str, Any]:
    """Player 1 takes a garde with 2 oudlers and 51 points (made by 10), plus the test's changes."""
    base: dict[str, Any] = {"taker": 1, "contract": "garde", "oudlers": 2, "points": 51}
    base.update(fields)
    return {key: value for key, value in base.items() if value is not ...}


def result(h: dict[str, Any], **options: Any) -> dict[str, Any]:
    resolved = GAME.resolve_options(options)
    assert GAME.validate(h, resolved) == []
    return GAME.result_json(GAME.score(h, resolved))


def d(h: dict[str, Any], **options: Any) -> Any:
    """What each defender pays, checked to be a third of what the taker scores."""
    scores = result(h, **options)["scores"]
    taker = h["taker"]
    defenders = [scores[p] for p in range(4) if p != taker]
    assert defenders == [defenders[0]] * 3
    assert scores[taker] == -3 * defenders[0]
    return -defenders[0]


def codes(h: Any, **options: Any) -> list[tuple[str, str]]:
    return [(e.field, e.code) for e in GAME.validate(h, GAME.resolve_options(options))]


# -- the examples -----------------------------------------------------------------------------


def test_the_example_a_garde_made_by_5_pays_60_by_each_defender() -> None:
    h = {
        "taker": 2,
        "contract": "garde",
        "oudlers": 2,
        "points": 46,
        "petit_au_bout": None,
        "poignee": None,
        "chelem": None,
    }
    assert result(h) == {"scores": [-60, -60, 180, -60], "outcome": "made", "base": 60}


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        # The federation's worked examples are played at four (docs/rules.md, "Tarot à 4 and à 5").
        ({"points": 49, "poignee": {"by": "taker", "size": "simple"}, "petit_au_bout": "taker"}, 106),
        ({"contract": "garde_sans", "points": 45, "petit_au_bout": "defence"}, 76),
        (
            {
                "contract": "petite",
                "points": 34,
                "poignee": {"by": "taker", "size": "simple"},
                "petit_au_bout": "taker",
            },
            -42,
        ),
        ({"points": 52, "poignee": {"by": "defence", "size": "simple"}}, 92),
        (
            {
                "points": 87,
                "poignee": {"by": "taker", "size": "simple"},
                "petit_au_bout": "taker",
                "chelem": {"announced": True, "made_by": "taker"},
            },
            582,
        ),
    ],
)
def test_the_federations_worked_examples_at_four(fields: dict[str, Any], expected: int) -> None:
    assert d(hand(**fields), primes="fft") == expected


# -- the table --------------------------------------------------------------------------------


def test_the_game_seats_four_players_of_18_cards_with_a_chien_of_6() -> None:
    assert (GAME.code, GAME.players_per_table, GAME.sides) == ("tarot_a_quatre", 4, (0, 1, 2, 3))
    assert (GAME.cards_per_player, GAME.chien) == (18, 6)
    assert 4 * GAME.cards_per_player + GAME.chien == 78


def test_the_game_is_in_the_registry_and_ranks_by_points_then_wins() -> None:
    assert engine.get_game("tarot_a_quatre") is engine.GAMES["tarot_a_quatre"]
    assert default_criteria("tarot_a_quatre") == ("points", "wins")


def test_the_description_gives_the_table_and_the_poignee_thresholds() -> None:
    described = GAME.describe()
    assert described["players_per_table"] == 4
    assert described["chien"] == 6
    assert described["poignee_trumps"] == {"simple": 10, "double": 13, "triple": 15}


@pytest.mark.parametrize("taker", [0, 1, 2, 3])
def test_the_taker_scores_three_times_what_each_of_the_three_defenders_pays(taker: int) -> None:
    scores = result(hand(taker=taker))["scores"]
    assert scores[taker] == 3 * 70
    assert [s for p, s in enumerate(scores) if p != taker] == [-70, -70, -70]


def test_a_failed_contract_costs_the_taker_three_times_d() -> None:
    assert result(hand(points=31)) == {"scores": [70, -210, 70, 70], "outcome": "failed", "base": 70}


@pytest.mark.parametrize(("oudlers", "needed"), [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_the_points_needed_depend_on_the_takers_oudlers(oudlers: int, needed: int) -> None:
    assert result(hand(oudlers=oudlers, points=needed))["outcome"] == "made"
    assert result(hand(oudlers=oudlers, points=needed - 1))["outcome"] == "failed"


@pytest.mark.parametrize(
    ("contract", "multiplier"), [("petite", 1), ("garde", 2), ("garde_sans", 4), ("garde_contre", 6)]
)
def test_each_contract_has_its_multiplier(contract: str, multiplier: int) -> None:
    assert d(hand(contract=contract)) == (25 + 10) * multiplier


def test_the_chelem_is_added_after_the_multiplier() -> None:
    h = hand(contract="garde_sans", oudlers=3, points=91, chelem={"announced": True, "made_by": "taker"})
    assert result(h) == {"scores": [-720, 2160, -720, -720], "outcome": "made", "base": 320}


def test_a_chelem_made_by_the_defence_after_the_takers_announcement_costs_400_more() -> None:
    h = hand(contract="garde", oudlers=0, points=3, chelem={"announced": True, "made_by": "defence"})
    assert d(h) == -(25 + 53) * 2 - 400


# -- options ------------------------------------------------------------------------------------


def test_the_options_and_their_defaults_are_those_of_tarot_a_trois() -> None:
    assert GAME.resolve_options({}) == {"half_points": "to_winner", "primes": "multiplied"}
    assert GAME.resolve_options({}) == engine.GAMES["tarot_a_trois"].resolve_options({})


@pytest.mark.parametrize("option", ["split_rounding", "announcements", "rounding", "tie", "partner"])
def test_other_options_are_refused_as_unknown(option: str) -> None:
    with pytest.raises(OptionError, match=option):
        GAME.resolve_options({option: "on"})


@pytest.mark.parametrize("points", [41.5, 40.5, 45.5, 0.5, 90.5])
def test_a_half_point_is_refused_at_four_players(points: float) -> None:
    (error,) = GAME.validate(hand(contract="petite", points=points), GAME.resolve_options({}))
    assert (error.field, error.code) == ("points", "half_point_at_four")
    assert error.message == (
        f"At four players the taker's card points are a whole number (its cards are an even number): "
        f"{points} has a half point."
    )


def test_whole_points_never_score_a_half_whatever_half_points_says() -> None:
    for half_points in ("to_winner", "exact"):
        out = result(hand(contract="petite", points=42), half_points=half_points)
        assert out == {"scores": [-26, 78, -26, -26], "outcome": "made", "base": 26}
        whole = result(hand(points=45), half_points=half_points)["scores"]
        assert whole == [-58, 174, -58, -58]
        assert all(type(s) is int for s in whole)


def test_the_bounds_of_the_takers_points_are_whole_at_four() -> None:
    (error,) = GAME.validate(hand(oudlers=2, points=8), GAME.resolve_options({}))
    assert error.code == "points_for_oudlers"
    assert error.message == "With 2 oudlers the taker has between 9 and 87 points."
    assert codes(hand(oudlers=2, points=9)) == []


def test_primes_multiplied_or_added_after_the_multiplier() -> None:
    h = hand(contract="garde_contre", poignee={"by": "taker", "size": "simple"}, petit_au_bout="taker")
    assert d(h, primes="multiplied") == (25 + 10 + 20 + 10) * 6
    assert d(h, primes="fft") == (25 + 10) * 6 + 20 + 10 * 6


# -- poignées -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "prime"), [("simple", 20), ("double", 30), ("triple", 40)])
def test_a_poignee_is_worth_20_30_or_40_to_the_side_that_wins(size: str, prime: int) -> None:
    assert d(hand(contract="petite", poignee={"by": "defence", "size": size})) == 25 + 10 + prime
    assert d(hand(contract="petite", points=31, poignee={"by": "taker", "size": size})) == -(25 + 10 + prime)


def test_two_simple_poignees_fit_in_the_trumps_and_both_count() -> None:
    two = [{"by": "taker", "size": "simple"}, {"by": "defence", "size": "simple"}]
    assert d(hand(contract="petite", poignee=two)) == 25 + 10 + 40
    assert d(hand(contract="garde", poignee=two), primes="fft") == (25 + 10) * 2 + 40


@pytest.mark.parametrize(("sizes", "trumps"), [(["simple", "double"], 23), (["simple", "simple", "simple"], 30)])
def test_poignees_needing_more_than_the_22_trumps_are_refused(sizes: list[str], trumps: int) -> None:
    h = hand(poignee=[{"by": "taker", "size": size} for size in sizes])
    (error,) = GAME.validate(h, GAME.resolve_options({}))
    assert (error.field, error.code) == ("poignee", "poignee_trumps")
    assert error.message == f"These poignées show at least {trumps} trumps; there are only 22, the Excuse included."


def test_an_empty_list_of_poignees_is_no_poignee() -> None:
    assert d(hand(poignee=[])) == d(hand())


def test_each_poignee_of_a_list_is_checked_at_its_index() -> None:
    h = hand(poignee=[{"by": "taker", "size": "simple"}, {"by": "partner", "size": "huge"}, "simple"])
    assert codes(h) == [
        ("poignee.1.by", "invalid_choice"),
        ("poignee.1.size", "invalid_choice"),
        ("poignee.2", "not_an_object"),
    ]


def test_a_poignee_is_an_object_or_a_list() -> None:
    assert codes(hand(poignee="simple")) == [("poignee", "not_an_object")]
    assert codes(hand(poignee={"by": "taker"})) == [("poignee.size", "required")]


# -- the chelem's limits --------------------------------------------------------------------------


def test_a_chelem_made_by_the_taker_needs_87_points() -> None:
    chelem = {"announced": False, "made_by": "taker"}
    assert codes(hand(oudlers=2, points=87, chelem=chelem)) == []
    assert codes(hand(oudlers=2, points=86, chelem=chelem)) == [("chelem.made_by", "chelem_points_too_low")]


def test_a_chelem_in_a_garde_contre_needs_60_points_the_chien_of_6_and_the_excuse_going_to_the_defence() -> None:
    # The chien holds the petit, the 21 and four kings (27); a defender keeps the Excuse (4).
    chelem = {"announced": True, "made_by": "taker"}
    assert codes(hand(contract="garde_contre", oudlers=0, points=60, chelem=chelem)) == []
    (error,) = GAME.validate(
        hand(contract="garde_contre", oudlers=0, points=59, chelem=chelem), GAME.resolve_options({})
    )
    assert (error.field, error.code) == ("chelem.made_by", "chelem_points_too_low")
    assert error.message == "A chelem made by the taker needs at least 60 points, not 59."


def test_a_chelem_made_by_the_defence_means_the_contract_failed() -> None:
    h = hand(oudlers=2, points=41, chelem={"announced": False, "made_by": "defence"})
    assert codes(h) == [("chelem.made_by", "chelem_defence_contract_made")]


# -- validation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("taker", "code"), [(4, "out_of_range"), (-1, "out_of_range"), ("0", "not_an_integer")])
def test_the_taker_is_player_0_to_3(taker: Any, code: str) -> None:
    assert codes(hand(taker=taker)) == [("taker", code)]


def test_a_partner_is_refused_at_four() -> None:
    assert codes(hand(partner=2)) == [("partner", "unknown_field")]


@pytest.mark.parametrize("field", ["taker", "contract", "oudlers", "points"])
def test_the_entry_fields_are_required(field: str) -> None:
    assert codes(hand(**{field: ...})) == [(field, "required")]


def test_every_problem_is_reported_at_once_with_dotted_fields() -> None:
    h = {
        "taker": 7,
        "contract": "prise",
        "oudlers": 0,
        "points": 80,
        "petit_au_bout": "taker",
        "poignee": {"by": "everyone", "size": "simple"},
        "chelem": {"announced": "yes"},
        "x": 0,
    }
    assert codes(h) == [
        ("x", "unknown_field"),
        ("taker", "out_of_range"),
        ("contract", "invalid_choice"),
        ("poignee.by", "invalid_choice"),
        ("chelem.announced", "not_a_boolean"),
        ("points", "points_for_oudlers"),
        ("petit_au_bout", "petit_au_bout_without_oudler"),
    ]


def test_errors_carry_an_english_message_with_their_parameters() -> None:
    (error,) = GAME.validate(hand(taker=4), GAME.resolve_options({}))
    assert error.to_json() == {
        "field": "taker",
        "code": "out_of_range",
        "message": "4 is out of range: expected 0 to 3.",
    }


# -- a partie ---------------------------------------------------------------------------------------


def test_a_partie_of_two_donnes_keeps_four_running_totals() -> None:
    out = play(GAME, [hand(taker=0, points=46), hand(taker=3, points=31)], {"donnes": 2})
    assert out.errors == ()
    assert out.running == ((180, -60, -60, -60), (250, 10, 10, -270))
    assert (out.finished, out.winner) == (True, 0)
    assert out.to_json()["totals"] == [250, 10, 10, -270]


# -- properties -------------------------------------------------------------------------------------


@given(tarot_hands(4), OPTIONS)
def test_drawn_hands_are_valid(h: dict[str, Any], options: dict[str, Any]) -> None:
    assert GAME.validate(h, GAME.resolve_options(options)) == []


@given(tarot_hands(4), OPTIONS)
def test_the_four_scores_add_up_to_0(h: dict[str, Any], options: dict[str, Any]) -> None:
    assert sum(GAME.score(h, GAME.resolve_options(options)).scores) == 0


@given(tarot_hands(4), OPTIONS)
def test_the_taker_scores_three_times_the_formulas_d_and_each_defender_pays_it(
    h: dict[str, Any], options: dict[str, Any]
) -> None:
    scores = GAME.score(h, GAME.resolve_options(options)).scores
    expected = expected_d(h, options)
    assert scores[h["taker"]] == 3 * expected
    assert all(scores[p] == -expected for p in range(4) if p != h["taker"])


@given(tarot_hands(4), OPTIONS)
def test_scoring_is_deterministic_and_leaves_the_hand_alone(h: dict[str, Any], options: dict[str, Any]) -> None:
    resolved = GAME.resolve_options(options)
    before = copy.deepcopy(h)
    assert GAME.score(h, resolved) == GAME.score(copy.deepcopy(h), resolved)
    assert h == before


@given(tarot_hands(4))
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
    assert {h["taker"] for h in hands} == {0, 1, 2, 3}
    assert any(isinstance(h.get("poignee"), list) for h in hands)


@given(value=JSON)
def test_any_json_value_gets_a_list_of_errors_never_an_exception(value: Any) -> None:
    errors = GAME.validate(value, GAME.resolve_options({}))
    assert all(error.message for error in errors)


FIELDS = ["taker", "contract", "oudlers", "points", "petit_au_bout", "poignee", "chelem"]


@given(st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=7), OPTIONS)
def test_fields_holding_anything_never_raise(value: dict[str, Any], options: dict[str, Any]) -> None:
    assert isinstance(GAME.validate(value, GAME.resolve_options(options)), list)


BREAKS = [
    lambda h: h.update(taker=4),
    lambda h: h.update(partner=h["taker"]),
    lambda h: h.update(contract="prise"),
    lambda h: h.update(oudlers=4),
    lambda h: h.update(points=h["points"] + 0.25),
    lambda h: h.update(poignee=[{"by": "taker", "size": "triple"}, {"by": "defence", "size": "simple"}]),
    lambda h: h.update(chelem={"made_by": "taker"}, points=min(h["points"], 59)),
    lambda h: h.update(points=h["points"] + 0.5 if h["points"] < 91 else 90.5),
    lambda h: h.update(oudlers=0, petit_au_bout="taker"),
]


@given(tarot_hands(4), st.sampled_from(BREAKS))
def test_broken_hands_are_refused_with_an_error(h: dict[str, Any], break_it: Any) -> None:
    break_it(h)
    assert GAME.validate(h, GAME.resolve_options({})) != []
