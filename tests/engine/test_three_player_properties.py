"""Properties of the games for three, over hands hypothesis draws: tarot donnes add up to 0,
a taker who is dedans never scores, scoring is deterministic, random hands validate, and
bad hands are refused with errors, never with an exception."""

from __future__ import annotations

import copy
import random
from itertools import product
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.core import Game
from engine.games import announcements
from engine.games.belote_a_trois import BeloteATrois
from engine.games.tarot_a_trois import CONTRACTS, NEEDED, TarotATrois, points_range
from tests.tiers import examples

BELOTE = BeloteATrois()
TAROT = TarotATrois()


def every_options(game: Game) -> list[dict[str, Any]]:
    """Each combination of the game's option values."""
    names = [spec.name for spec in game.option_specs]
    return [dict(zip(names, values, strict=True)) for values in product(*(spec.choices for spec in game.option_specs))]


BELOTE_OPTIONS = st.sampled_from(every_options(BELOTE))
TAROT_OPTIONS = st.sampled_from(every_options(TAROT))

# Announcements no two of which share a card, to hand out between the players.
DISJOINT_ANNOUNCEMENTS = [
    {"kind": "carre", "high": "A"},
    {"kind": "tierce", "high": "K", "suit": "hearts"},
    {"kind": "tierce", "high": "10", "suit": "hearts"},
    {"kind": "cinquante", "high": "K", "suit": "clubs"},
    {"kind": "cent", "high": "K", "suit": "diamonds"},
    {"kind": "tierce", "high": "Q", "suit": "spades"},
    {"kind": "tierce", "high": "9"},
]

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=12,
)


@st.composite
def belote_hands(draw: st.DrawFn) -> dict[str, Any]:
    """A played belote à 3 donne drawn field by field, kept only when it validates."""
    capot = draw(st.permutations([0, 1, 2]))[: draw(st.sampled_from([0, 0, 0, 1, 2]))]
    takers_of_tricks = [p for p in (0, 1, 2) if p not in capot]
    last_trick = draw(st.sampled_from(takers_of_tricks))
    points = [0, 0, 0]
    remaining = draw(st.integers(95, 162)) - 10
    for player in takers_of_tricks[:-1]:
        points[player] = draw(st.integers(0, remaining))
        remaining -= points[player]
    points[takers_of_tricks[-1]] = remaining
    points[last_trick] += 10
    hand: dict[str, Any] = {
        "taker": draw(st.integers(0, 2)),
        "contract": draw(st.sampled_from(announcements.SUITS)),
        "points": points,
    }
    if capot or draw(st.booleans()):
        hand["last_trick"] = last_trick
        hand["capot"] = sorted(capot)
    if draw(st.integers(0, 3)) == 0:
        hand["belote"] = [draw(st.integers(0, 2))]
    chosen = draw(st.lists(st.sampled_from(DISJOINT_ANNOUNCEMENTS), unique_by=str, max_size=3))
    if chosen:
        announced: list[list[dict[str, Any]]] = [[], [], []]
        for item in chosen:
            announced[draw(st.integers(0, 2))].append(item)
        hand["announcements"] = announced
        hand["order"] = draw(st.integers(0, 2))
    return hand


@st.composite
def valid_belote(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    hand = draw(belote_hands())
    options = BELOTE.resolve_options(draw(BELOTE_OPTIONS))
    assume(BELOTE.validate(hand, options) == [])
    return hand, options


@st.composite
def tarot_hands(draw: st.DrawFn) -> dict[str, Any]:
    """A tarot à 3 donne drawn so that every field agrees with the others."""
    oudlers = draw(st.integers(0, 3))
    contract = draw(st.sampled_from(CONTRACTS))
    low, high = points_range(oudlers)
    halves = draw(st.integers(int(low * 2), int(high * 2)))
    points: float | int = halves // 2 if halves % 2 == 0 else halves / 2
    hand: dict[str, Any] = {
        "taker": draw(st.integers(0, 2)),
        "contract": contract,
        "oudlers": oudlers,
        "points": points,
    }
    makers: list[str | None] = [None]
    if points >= (64 if contract == "garde_contre" else 87):
        makers.append("taker")
    if points < NEEDED[oudlers]:
        makers.append("defence")
    made_by = draw(st.sampled_from(makers))
    if made_by is not None or draw(st.booleans()):
        hand["chelem"] = {"announced": draw(st.booleans()), "made_by": made_by}
    petits: list[str | None] = [None]
    if oudlers >= 1 and made_by != "defence":
        petits.append("taker")
    if oudlers <= 2 and made_by != "taker":
        petits.append("defence")
    hand["petit_au_bout"] = draw(st.sampled_from(petits))
    if draw(st.booleans()):
        hand["poignee"] = {
            "by": draw(st.sampled_from(["taker", "defence"])),
            "size": draw(st.sampled_from(["simple", "double", "triple"])),
        }
    return hand


# -- tarot -------------------------------------------------------------------------------------


@given(tarot_hands(), TAROT_OPTIONS)
def test_the_drawn_tarot_hands_are_valid(hand: dict[str, Any], options: dict[str, Any]) -> None:
    assert TAROT.validate(hand, TAROT.resolve_options(options)) == []


@given(tarot_hands(), TAROT_OPTIONS)
def test_tarot_scores_add_up_to_0_for_any_valid_hand(hand: dict[str, Any], options: dict[str, Any]) -> None:
    scores = TAROT.score(hand, TAROT.resolve_options(options)).scores
    assert sum(scores) == 0


@given(tarot_hands(), TAROT_OPTIONS)
def test_tarot_taker_scores_twice_what_each_defender_pays(hand: dict[str, Any], options: dict[str, Any]) -> None:
    scores = TAROT.score(hand, TAROT.resolve_options(options)).scores
    taker = hand["taker"]
    defenders = [scores[p] for p in range(3) if p != taker]
    assert defenders[0] == defenders[1]
    assert scores[taker] == -2 * defenders[0]


@given(tarot_hands())
def test_tarot_half_points_to_the_winner_always_score_whole_numbers(hand: dict[str, Any]) -> None:
    scores = TAROT.score(hand, TAROT.resolve_options({})).scores
    assert all(type(s) is int for s in scores)


@given(tarot_hands(), TAROT_OPTIONS)
def test_tarot_outcome_follows_the_points_needed(hand: dict[str, Any], options: dict[str, Any]) -> None:
    outcome = TAROT.score(hand, TAROT.resolve_options(options)).outcome
    assert outcome == ("made" if hand["points"] >= NEEDED[hand["oudlers"]] else "failed")


# -- belote à 3 ----------------------------------------------------------------------------------


@given(valid_belote())
def test_taker_never_scores_when_dedans(drawn: tuple[dict[str, Any], dict[str, Any]]) -> None:
    hand, options = drawn
    result = BELOTE.score(hand, options)
    if result.outcome == "dedans":
        assert result.scores[hand["taker"]] == 0
        assert hand["taker"] not in result.extra["taker_points_to"]
        assert result.extra["taker_points_to"]
    else:
        assert result.outcome == "made"
        assert result.extra["taker_points_to"] == ()


@given(valid_belote())
def test_a_made_taker_scores_more_than_each_opponent_before_rounding(
    drawn: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    hand, options = drawn
    result = BELOTE.score(hand, {**options, "rounding": "none"})
    if result.outcome == "made":
        taker = hand["taker"]
        assert all(result.scores[taker] > result.scores[p] for p in range(3) if p != taker)


@given(belote_hands())
def test_a_dedans_moves_points_without_making_or_losing_any(hand: dict[str, Any]) -> None:
    # Without announcements, rounding or a rounded-down share, the donne is worth its card
    # points, less the dix de der on a capot, plus the capot primes and the belote.
    options = BELOTE.resolve_options({"announcements": "off", "split_rounding": "half_points"})
    assume(BELOTE.validate(hand, options) == [])
    # One capot: 2 × 50; two capots: 100; either way 10 less for the dix de der.
    capot_change = 90 if hand.get("capot") else 0
    expected = sum(hand["points"]) + capot_change + 20 * len(hand.get("belote") or [])
    assert sum(BELOTE.score(hand, options).scores) == expected


# -- both games ------------------------------------------------------------------------------------


@given(valid_belote())
def test_belote_scoring_is_deterministic_and_leaves_the_hand_alone(
    drawn: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    hand, options = drawn
    before = copy.deepcopy(hand)
    assert BELOTE.score(hand, options) == BELOTE.score(copy.deepcopy(hand), options)
    assert hand == before


@given(tarot_hands(), TAROT_OPTIONS)
def test_tarot_scoring_is_deterministic_and_leaves_the_hand_alone(
    hand: dict[str, Any], options: dict[str, Any]
) -> None:
    resolved = TAROT.resolve_options(options)
    before = copy.deepcopy(hand)
    assert TAROT.score(hand, resolved) == TAROT.score(copy.deepcopy(hand), resolved)
    assert hand == before


@pytest.mark.parametrize("game", [BELOTE, TAROT], ids=lambda g: g.code)
@settings(max_examples=examples(300))
@given(seed=st.integers(0, 2**32), option_index=st.integers(0, 100))
def test_random_hands_always_validate(game: Game, seed: int, option_index: int) -> None:
    choices = every_options(game)
    options = game.resolve_options(choices[option_index % len(choices)])
    hand = game.random_hand(random.Random(seed))
    assert game.validate(hand, options) == []
    assert game.random_hand(random.Random(seed)) == hand


@pytest.mark.parametrize("game", [BELOTE, TAROT], ids=lambda g: g.code)
def test_random_hands_are_plausible(game: Game) -> None:
    rng = random.Random(7)
    options = game.resolve_options({})
    outcomes = [game.score(game.random_hand(rng), options).outcome for _ in range(2000)]
    made = outcomes.count("made") / len(outcomes)
    assert 0.5 < made < 0.95


@pytest.mark.parametrize("game", [BELOTE, TAROT], ids=lambda g: g.code)
@given(value=JSON)
def test_any_json_value_gets_a_list_of_errors_never_an_exception(game: Game, value: Any) -> None:
    errors = game.validate(value, game.resolve_options({}))
    assert isinstance(errors, list)
    assert all(error.message for error in errors)


BELOTE_FIELDS = ["taker", "contract", "points", "last_trick", "capot", "belote", "announcements", "order", "cancelled"]
TAROT_FIELDS = ["taker", "contract", "oudlers", "points", "petit_au_bout", "poignee", "chelem"]


@given(st.dictionaries(st.sampled_from(BELOTE_FIELDS), JSON, max_size=9), BELOTE_OPTIONS)
def test_belote_fields_holding_anything_never_raise(value: dict[str, Any], options: dict[str, Any]) -> None:
    assert isinstance(BELOTE.validate(value, BELOTE.resolve_options(options)), list)


@given(st.dictionaries(st.sampled_from(TAROT_FIELDS), JSON, max_size=7), TAROT_OPTIONS)
def test_tarot_fields_holding_anything_never_raise(value: dict[str, Any], options: dict[str, Any]) -> None:
    assert isinstance(TAROT.validate(value, TAROT.resolve_options(options)), list)


BELOTE_BREAKS = [
    lambda h: h.update(taker=3),
    lambda h: h.update(taker=True),
    lambda h: h.pop("contract"),
    lambda h: h.update(contract="sans_atout"),
    lambda h: h["points"].__setitem__(0, -1),
    lambda h: h["points"].__setitem__(1, 2.5),
    lambda h: h["points"].__setitem__(2, h["points"][2] + 163),
    lambda h: h.update(points=h["points"][:2]),
    lambda h: h.update(capot=[0, 1, 2], last_trick=0),
    lambda h: h.update(capot=[p for p in range(3) if h["points"][p]][:1], last_trick=None),
    lambda h: h.update(belote=[0, 1]),
    lambda h: h.update(announcements=[[{"kind": "quinte", "high": "A"}], [], []]),
    lambda h: h.update(announcements=[[{"kind": "carre", "high": "7"}], [], []]),
    lambda h: h.update(unknown=1),
    lambda h: h.update(cancelled="yes"),
]

TAROT_BREAKS = [
    lambda h: h.update(taker=-1),
    lambda h: h.update(contract="prise"),
    lambda h: h.update(oudlers=4),
    lambda h: h.update(points=91.5),
    lambda h: h.update(points=h["points"] + 0.25),
    lambda h: h.update(points=str(h["points"])),
    lambda h: h.update(poignee={"by": "taker", "size": "quadruple"}),
    lambda h: h.update(petit_au_bout="nobody"),
    lambda h: h.update(chelem={"announced": 1}),
    lambda h: h.update(chelem={"made_by": "taker"}, points=min(h["points"], 63.5)),
    lambda h: h.update(oudlers=0, petit_au_bout="taker"),
    lambda h: h.update(oudlers=3, petit_au_bout="defence"),
    lambda h: h.update(unknown=None),
]


@given(belote_hands(), st.sampled_from(BELOTE_BREAKS))
def test_broken_belote_hands_are_refused_with_an_error(hand: dict[str, Any], break_it: Any) -> None:
    options = BELOTE.resolve_options({})
    assume(BELOTE.validate(hand, options) == [])
    break_it(hand)
    assert len(BELOTE.validate(hand, options)) >= 1


@given(tarot_hands(), st.sampled_from(TAROT_BREAKS))
def test_broken_tarot_hands_are_refused_with_an_error(hand: dict[str, Any], break_it: Any) -> None:
    options = TAROT.resolve_options({})
    break_it(hand)
    assert len(TAROT.validate(hand, options)) >= 1


ANNOUNCEMENTS = st.builds(
    lambda kind, high, suit: {"kind": kind, "high": high} | ({"suit": suit} if suit and kind != "carre" else {}),
    st.sampled_from(announcements.KINDS),
    st.sampled_from(announcements.RANKS[:5]),
    st.none() | st.sampled_from(announcements.SUITS),
)


@given(
    st.lists(st.lists(ANNOUNCEMENTS, max_size=3), min_size=3, max_size=3),
    st.sampled_from(announcements.SUITS),
    st.sampled_from(["nobody", "first_in_play"]),
    st.integers(0, 2),
)
def test_the_fast_announcement_scorer_agrees_with_the_readable_one(
    announced: list[list[dict[str, str]]], trump: str, tie: str, first: int
) -> None:
    side = announcements.scoring_side(enumerate(announced), trump, tie, first)
    expected = (side, announcements.total(announced[side]) if side is not None else 0)
    assert announcements.scorer_and_points(enumerate(announced), trump, tie, first) == expected
