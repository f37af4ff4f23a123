"""Tarot à 3: the score formula of the rule text, the command line's example, every rule
of docs/rules.md for the game, each option both ways, the federation's worked examples,
and every validation rule."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import OptionError
from engine.games.tarot_a_trois import TarotATrois, points_range

GAME = TarotATrois()


def hand(**fields: Any) -> dict[str, Any]:
    """Player 0 takes a garde with 2 oudlers and 51 points (made by 10), plus the test's changes."""
    base: dict[str, Any] = {"taker": 0, "contract": "garde", "oudlers": 2, "points": 51}
    base.update(fields)
    return {key: value for key, value in base.items() if value is not ...}


def result(h: dict[str, Any], **options: Any) -> dict[str, Any]:
    resolved = GAME.resolve_options(options)
    assert GAME.validate(h, resolved) == []
    return GAME.result_json(GAME.score(h, resolved))


def scores(h: dict[str, Any], **options: Any) -> list[Any]:
    return list(result(h, **options)["scores"])


def d(h: dict[str, Any], **options: Any) -> Any:
    """What each defender pays, seen from the taker (the taker scores twice that)."""
    out = scores(h, **options)
    taker = h["taker"]
    assert all(out[p] == -out[taker] / 2 for p in range(3) if p != taker)
    return out[taker] / 2


def codes(h: Any, **options: Any) -> list[tuple[str, str]]:
    return [(e.field, e.code) for e in GAME.validate(h, GAME.resolve_options(options))]


# -- the examples -----------------------------------------------------------------------------


def test_the_engine_api_example_garde_with_2_oudlers_and_45_5_points_and_a_poignee() -> None:
    h = {
        "taker": 0,
        "contract": "garde",
        "oudlers": 2,
        "points": 45.5,
        "petit_au_bout": None,
        "poignee": {"by": "taker", "size": "simple"},
        "chelem": {"announced": False, "made_by": None},
    }
    assert result(h) == {"scores": [200, -100, -100], "outcome": "made", "base": 100}


def test_a_petite_made_by_55_with_an_unannounced_chelem_gives_560_and_minus_280_each() -> None:
    h = hand(contract="petite", oudlers=3, points=91, chelem={"announced": False, "made_by": "taker"})
    assert result(h) == {"scores": [560, -280, -280], "outcome": "made", "base": 80}


def test_the_text_formula_is_25_plus_difference_plus_primes_times_the_multiplier() -> None:
    # Garde sans, 1 oudler, 61 points: made by 10; poignée double, petit au bout to the taker.
    h = hand(
        contract="garde_sans",
        oudlers=1,
        points=61,
        poignee={"by": "defence", "size": "double"},
        petit_au_bout="taker",
    )
    assert d(h) == (25 + 10 + 30 + 10) * 4


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        # FFT 1: garde, simple poignée, petit au bout to the taker, 49 points with 2 oudlers.
        ({"points": 49, "poignee": {"by": "taker", "size": "simple"}, "petit_au_bout": "taker"}, 106),
        # FFT 2: garde sans made by 4, petit au bout to the defence.
        ({"contract": "garde_sans", "points": 45, "petit_au_bout": "defence"}, 76),
        # FFT 3: petite failed by 7, poignée, petit au bout to the taker.
        (
            {
                "contract": "petite",
                "points": 34,
                "poignee": {"by": "taker", "size": "simple"},
                "petit_au_bout": "taker",
            },
            -42,
        ),
        # FFT 4: garde made by 11, poignée shown by the defence.
        ({"points": 52, "poignee": {"by": "defence", "size": "simple"}}, 92),
        # FFT 5: announced chelem on a garde, 87 points with 2 oudlers, poignée, petit au bout.
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
def test_the_federations_worked_examples_with_primes_fft(fields: dict[str, Any], expected: int) -> None:
    assert d(hand(**fields), primes="fft") == expected


def test_garde_made_by_41_5_with_2_oudlers_scores_104_for_the_taker() -> None:
    assert scores(hand(points=41.5)) == [104, -52, -52]


def test_petite_failed_by_40_5_with_2_oudlers_costs_the_taker_52() -> None:
    assert result(hand(contract="petite", points=40.5)) == {"scores": [-52, 26, 26], "outcome": "failed", "base": 26}


def test_a_garde_with_a_taker_poignee_scores_192_by_the_text_and_152_by_the_fft() -> None:
    h = hand(oudlers=1, points=54, poignee={"by": "taker", "size": "simple"})
    assert scores(h, primes="multiplied")[0] == 192
    assert scores(h, primes="fft")[0] == 152


# -- docs/rules.md, sentence by sentence ------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "multiplier"), [("petite", 1), ("garde", 2), ("garde_sans", 4), ("garde_contre", 6)]
)
def test_each_contract_has_its_multiplier(contract: str, multiplier: int) -> None:
    assert d(hand(contract=contract, points=51)) == (25 + 10) * multiplier


@pytest.mark.parametrize(("oudlers", "needed"), [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_the_points_needed_depend_on_the_takers_oudlers(oudlers: int, needed: int) -> None:
    assert result(hand(oudlers=oudlers, points=needed))["outcome"] == "made"
    assert result(hand(oudlers=oudlers, points=needed - 0.5))["outcome"] == "failed"


def test_exactly_the_points_needed_makes_the_contract_by_0() -> None:
    assert result(hand(points=41)) == {"scores": [100, -50, -50], "outcome": "made", "base": 50}


def test_the_defence_has_91_minus_the_takers_points() -> None:
    # 91 and 0 both valid, with the oudlers that allow them.
    assert codes(hand(oudlers=3, points=91)) == []
    assert codes(hand(oudlers=0, points=0)) == []


def test_the_half_point_goes_to_the_winner_by_default() -> None:
    assert result(hand(points=40.5))["base"] == (25 + 1) * 2
    assert result(hand(points=41.5))["base"] == (25 + 1) * 2


def test_half_points_to_winner_makes_a_failed_contract_lose_by_1_at_40_5() -> None:
    out = result(hand(points=40.5), half_points="to_winner")
    assert out == {"scores": [-104, 52, 52], "outcome": "failed", "base": 52}


def test_half_points_exact_keeps_the_half_in_the_difference() -> None:
    out = result(hand(contract="petite", points=41.5), half_points="exact")
    assert out == {"scores": [51, -25.5, -25.5], "outcome": "made", "base": 25.5}


def test_half_points_exact_prints_whole_scores_as_integers() -> None:
    out = scores(hand(points=45.0), half_points="exact")
    assert out == [116, -58, -58]
    assert all(type(s) is int for s in out)


def test_half_points_exact_on_a_failed_contract() -> None:
    assert scores(hand(contract="petite", points=40.5), half_points="exact") == [-51, 25.5, 25.5]


@pytest.mark.parametrize(("size", "prime"), [("simple", 20), ("double", 30), ("triple", 40)])
def test_the_poignee_is_worth_20_30_or_40(size: str, prime: int) -> None:
    assert d(hand(contract="petite", poignee={"by": "taker", "size": size})) == 25 + 10 + prime


def test_the_poignee_goes_to_the_side_that_wins_the_donne_whoever_showed_it() -> None:
    failed = hand(contract="petite", points=31, poignee={"by": "taker", "size": "simple"})
    assert d(failed) == -(25 + 10 + 20)
    made = hand(contract="petite", poignee={"by": "defence", "size": "simple"})
    assert d(made) == 25 + 10 + 20


def test_the_petit_au_bout_counts_10_for_the_side_that_took_it_made_or_failed() -> None:
    assert d(hand(contract="petite", petit_au_bout="taker")) == 25 + 10 + 10
    assert d(hand(contract="petite", petit_au_bout="defence")) == 25 + 10 - 10
    assert d(hand(contract="petite", points=31, petit_au_bout="taker")) == -(25 + 10) + 10
    assert d(hand(contract="petite", points=31, petit_au_bout="defence")) == -(25 + 10) - 10


def test_primes_multiplied_multiplies_the_poignee_and_the_petit_au_bout() -> None:
    h = hand(contract="garde_contre", poignee={"by": "taker", "size": "simple"}, petit_au_bout="taker")
    assert d(h, primes="multiplied") == (25 + 10 + 20 + 10) * 6


def test_primes_fft_adds_the_poignee_after_the_multiplier_but_multiplies_the_petit_au_bout() -> None:
    h = hand(contract="garde_contre", poignee={"by": "taker", "size": "simple"}, petit_au_bout="taker")
    assert d(h, primes="fft") == (25 + 10) * 6 + 20 + 10 * 6


@pytest.mark.parametrize(
    ("chelem", "points", "amount"),
    [
        ({"announced": True, "made_by": "taker"}, 91, 400),
        ({"announced": False, "made_by": "taker"}, 91, 200),
        ({"announced": True, "made_by": None}, 80, -200),
        ({"announced": False, "made_by": None}, 80, 0),
    ],
)
def test_the_chelem_values_are_never_multiplied(chelem: dict[str, Any], points: int, amount: int) -> None:
    h = hand(contract="garde_sans", oudlers=3, points=points, chelem=chelem)
    assert d(h) == (25 + points - 36) * 4 + amount


def test_a_chelem_made_by_the_defence_costs_200_more_than_the_failed_contract() -> None:
    h = hand(contract="garde", oudlers=0, points=3, chelem={"announced": False, "made_by": "defence"})
    assert d(h) == -(25 + 53) * 2 - 200


def test_a_chelem_made_by_the_defence_after_the_takers_announcement_costs_400() -> None:
    h = hand(contract="garde", oudlers=0, points=3, chelem={"announced": True, "made_by": "defence"})
    assert d(h) == -(25 + 53) * 2 - 400


def test_a_made_contract_can_score_negative_when_an_announced_chelem_fails() -> None:
    h = hand(points=51, chelem={"announced": True, "made_by": None})
    assert result(h) == {"scores": [-260, 130, 130], "outcome": "made", "base": 70}


def test_the_taker_scores_twice_what_each_defender_pays() -> None:
    for taker in (0, 1, 2):
        out = scores(hand(taker=taker))
        assert out[taker] == 140
        assert sorted(out) == [-70, -70, 140]


def test_the_three_scores_add_up_to_0() -> None:
    h = hand(contract="garde_contre", points=40.5, petit_au_bout="defence", poignee={"by": "taker", "size": "triple"})
    for options in ({}, {"half_points": "exact"}, {"primes": "fft"}):
        assert sum(scores(h, **options)) == 0


def test_the_printed_base_is_d_before_the_chelem() -> None:
    h = hand(contract="petite", oudlers=3, points=91, chelem={"announced": True, "made_by": "taker"})
    assert result(h)["base"] == 25 + 55


def test_the_printed_base_is_positive_when_the_contract_fails() -> None:
    assert result(hand(points=31)) == {"scores": [-140, 70, 70], "outcome": "failed", "base": 70}


def test_the_options_and_their_defaults_are_those_of_decisions() -> None:
    assert GAME.resolve_options({}) == {"half_points": "to_winner", "primes": "multiplied"}


@pytest.mark.parametrize("option", ["split_rounding", "announcements", "rounding", "tie"])
def test_other_options_are_refused_as_unknown(option: str) -> None:
    with pytest.raises(OptionError, match=option):
        GAME.resolve_options({option: "on"})


def test_the_game_seats_three_players() -> None:
    assert (GAME.code, GAME.players_per_table, GAME.sides) == ("tarot_a_trois", 3, (0, 1, 2))


# -- validation: card points -----------------------------------------------------------------


@pytest.mark.parametrize(("oudlers", "low", "high"), [(0, 0, 78), (1, 4, 82.5), (2, 8.5, 87), (3, 13, 91)])
def test_a_taker_with_k_oudlers_holds_4_5k_minus_half_to_91_minus_4_5_times_3_minus_k_plus_half(
    oudlers: int, low: float, high: float
) -> None:
    assert points_range(oudlers) == (low, high)
    assert codes(hand(oudlers=oudlers, points=low, contract="garde_sans")) == []
    assert codes(hand(oudlers=oudlers, points=high, contract="garde_sans")) == []
    if low > 0:
        assert codes(hand(oudlers=oudlers, points=low - 0.5)) == [("points", "points_for_oudlers")]
    if high < 91:
        assert codes(hand(oudlers=oudlers, points=high + 0.5)) == [("points", "points_for_oudlers")]


def test_a_chelem_with_two_oudlers_and_87_points_is_legal() -> None:
    assert codes(hand(oudlers=2, points=87, chelem={"announced": True, "made_by": "taker"})) == []


@pytest.mark.parametrize(
    ("value", "code"), [(-0.5, "out_of_range"), (91.5, "out_of_range"), (45.25, "not_a_half_point")]
)
def test_the_points_are_0_to_91_in_half_points(value: float, code: str) -> None:
    assert (("points", code)) in codes(hand(points=value))


@pytest.mark.parametrize("value", ["45", True, None, [45], float("nan"), float("inf")])
def test_the_points_are_a_number(value: Any) -> None:
    expected = [("points", "required")] if value is None else [("points", "not_a_number")]
    assert codes(hand(points=value)) == expected


def test_whole_and_half_points_are_accepted_as_int_or_float() -> None:
    assert codes(hand(points=51)) == codes(hand(points=51.0)) == codes(hand(points=51.5)) == []


@pytest.mark.parametrize(("oudlers", "code"), [(4, "out_of_range"), (-1, "out_of_range"), (2.0, "not_an_integer")])
def test_the_oudlers_are_0_to_3(oudlers: Any, code: str) -> None:
    assert codes(hand(oudlers=oudlers)) == [("oudlers", code)]


# -- validation: the other fields ------------------------------------------------------------


@pytest.mark.parametrize("field", ["taker", "contract", "oudlers", "points"])
def test_the_entry_fields_are_required(field: str) -> None:
    assert codes(hand(**{field: ...})) == [(field, "required")]


@pytest.mark.parametrize(("taker", "code"), [(3, "out_of_range"), ("0", "not_an_integer"), (False, "not_an_integer")])
def test_the_taker_is_player_0_1_or_2(taker: Any, code: str) -> None:
    assert codes(hand(taker=taker)) == [("taker", code)]


def test_the_contract_is_one_of_the_four() -> None:
    assert codes(hand(contract="prise")) == [("contract", "invalid_choice")]


def test_the_optional_fields_may_be_absent_or_null() -> None:
    assert codes(hand(petit_au_bout=None, poignee=None, chelem=None)) == []


def test_the_petit_au_bout_is_the_taker_or_the_defence() -> None:
    assert codes(hand(petit_au_bout="nobody")) == [("petit_au_bout", "invalid_choice")]


def test_the_petit_au_bout_to_the_taker_needs_an_oudler_in_its_hand() -> None:
    assert codes(hand(oudlers=0, points=60, petit_au_bout="taker")) == [
        ("petit_au_bout", "petit_au_bout_without_oudler")
    ]


def test_the_petit_au_bout_to_the_defence_needs_the_taker_to_lack_an_oudler() -> None:
    assert codes(hand(oudlers=3, points=40, petit_au_bout="defence")) == [
        ("petit_au_bout", "petit_au_bout_all_oudlers")
    ]


def test_a_poignee_names_who_showed_it_and_its_size() -> None:
    assert codes(hand(poignee={})) == [("poignee.by", "required"), ("poignee.size", "required")]
    assert codes(hand(poignee={"by": "partner", "size": "quadruple"})) == [
        ("poignee.by", "invalid_choice"),
        ("poignee.size", "invalid_choice"),
    ]


def test_a_poignee_is_one_object() -> None:
    assert codes(hand(poignee=[{"by": "taker", "size": "simple"}])) == [("poignee", "not_an_object")]
    assert codes(hand(poignee={"by": "taker", "size": "simple", "trumps": 13})) == [("poignee.trumps", "unknown_field")]


def test_a_chelem_is_an_object_with_announced_and_made_by() -> None:
    assert codes(hand(chelem=True)) == [("chelem", "not_an_object")]
    assert codes(hand(chelem={"announced": "yes", "made_by": "both", "when": 1})) == [
        ("chelem.when", "unknown_field"),
        ("chelem.announced", "not_a_boolean"),
        ("chelem.made_by", "invalid_choice"),
    ]


def test_a_chelem_made_by_the_taker_needs_at_least_87_points() -> None:
    h = hand(oudlers=3, points=86.5, chelem={"announced": False, "made_by": "taker"})
    assert codes(h) == [("chelem.made_by", "chelem_points_too_low")]


def test_a_chelem_made_by_the_taker_in_a_garde_contre_needs_at_least_64_points() -> None:
    chelem = {"announced": True, "made_by": "taker"}
    assert codes(hand(contract="garde_contre", oudlers=1, points=64, chelem=chelem)) == []
    assert codes(hand(contract="garde_contre", oudlers=1, points=63.5, chelem=chelem)) == [
        ("chelem.made_by", "chelem_points_too_low")
    ]


def test_a_chelem_made_by_the_defence_means_the_contract_failed() -> None:
    h = hand(oudlers=2, points=41, chelem={"announced": False, "made_by": "defence"})
    assert codes(h) == [("chelem.made_by", "chelem_defence_contract_made")]


def test_the_petit_au_bout_belongs_to_the_side_that_made_the_chelem() -> None:
    taker = hand(oudlers=2, points=87, petit_au_bout="defence", chelem={"made_by": "taker"})
    assert codes(taker) == [("petit_au_bout", "petit_au_bout_against_chelem")]
    defence = hand(oudlers=1, points=4, petit_au_bout="taker", chelem={"made_by": "defence"})
    assert codes(defence) == [("petit_au_bout", "petit_au_bout_against_chelem")]


def test_unknown_fields_are_refused() -> None:
    assert codes(hand(cancelled=False, misere=20)) == [("cancelled", "unknown_field"), ("misere", "unknown_field")]


@pytest.mark.parametrize("bad", [None, [], "garde", 1.5])
def test_a_hand_that_is_not_an_object_is_refused(bad: Any) -> None:
    assert codes(bad) == [("", "not_an_object")]


def test_every_problem_is_reported_at_once() -> None:
    h = {"taker": 3, "contract": "garde", "oudlers": 0, "points": 80, "petit_au_bout": "taker", "x": 0}
    assert codes(h) == [
        ("x", "unknown_field"),
        ("taker", "out_of_range"),
        ("points", "points_for_oudlers"),
        ("petit_au_bout", "petit_au_bout_without_oudler"),
    ]


def test_errors_carry_an_english_message_with_their_parameters() -> None:
    (error,) = GAME.validate(hand(oudlers=1, points=83), GAME.resolve_options({}))
    assert error.to_json() == {
        "field": "points",
        "code": "points_for_oudlers",
        "message": "With 1 oudlers the taker has between 4 and 82.5 points.",
    }
