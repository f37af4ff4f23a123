"""The quick passes of validation accept exactly what the field-by-field checks accept.

Belote at four and belote à 3 judge a hand first in one quick pass that builds nothing,
and fall back to the field-by-field checks, which name every problem, whenever the pass
is in doubt. What a referee is told must never depend on the pass: these properties draw
the games' own random hands (the everyday shapes, announcements included), bend each
with fresh announcements, belote and order (sound announcements among a few heights and
suits, so that they often clash or tie) and up to two more changes (a near miss,
anything JSON holds, a field removed), and compare the pass with the field-by-field
checks.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import Game
from engine.games import announcements, belote_a_trois
from engine.games.belote_a_trois import BeloteATrois
from engine.games.belote_classique import BeloteClassique
from engine.games.belote_contree import BeloteContree
from engine.games.belote_hand import TeamBelote
from engine.games.belote_moderne import BeloteModerne
from tests.engine.test_belote_properties import JSON, NEAR_MISSES, assert_the_quick_pass_agrees
from tests.tiers import examples

QUICK = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
FOUR = [BeloteClassique(), BeloteModerne(), BeloteContree()]
THREE = BeloteATrois()

# Sound announcements drawn among a few heights and suits, so that two of them often
# share a card, tie for the best or hold a belote's king or queen; then a few that are
# not sound (a carré of sevens, a sequence running past the seven, a carré with a suit),
# spelled unusually (a suit given as null) or not of the right shape.
SOUND: list[Any] = [
    {"kind": kind, "high": high} | ({} if suit is None else {"suit": suit})
    for kind in ("tierce", "cinquante", "cent")
    for high in ("A", "K", "Q", "J")
    for suit in (None, "hearts", "spades")
] + [{"kind": "carre", "high": high} for high in ("A", "K", "Q", "J")]
UNSOUND: list[Any] = [
    {"kind": "carre", "high": "7"},
    {"kind": "carre", "high": "K", "suit": "hearts"},
    {"kind": "cent", "high": "10", "suit": "hearts"},
    {"kind": "carre", "high": "K", "suit": None},
    {"kind": "tierce", "high": "A", "suit": None},
    {"kind": "quinte", "high": "A"},
    {"kind": "Tierce", "high": "A"},
    {"kind": "tierce", "high": 1},
    {"kind": "tierce"},
    {"high": "A", "suit": "hearts"},
    {"kind": "tierce", "high": "A", "colour": "red"},
    "tierce",
    None,
    [],
]
# Mostly sound: a hand whose every other field is sound is the pass's own ground.
SIDE = st.lists(st.sampled_from(SOUND * 6 + UNSOUND), max_size=3)
# One announcement, if any, or two the same: a donne whose fields are sound, or wrong in one.
SIDE_OF_ONE = st.lists(st.sampled_from(SOUND * 6 + UNSOUND), max_size=2).filter(
    lambda side: len(side) < 2 or side[0] == side[-1]
)


def options_of(game: Game) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({spec.name: st.sampled_from(spec.choices) for spec in game.option_specs})


@st.composite
def bent_hands(
    draw: st.DrawFn,
    game: Game,
    announcing: dict[str, st.SearchStrategy[Any]],
    changes: dict[str, st.SearchStrategy[Any]],
) -> dict[str, Any]:
    """One of the game's random hands, often with its announcements, belote and order
    drawn afresh, then up to two fields changed or removed."""
    hand = game.random_hand(random.Random(draw(st.integers(0, 2**32 - 1))))
    if draw(st.integers(0, 3)):
        for field, strategy in announcing.items():
            value = draw(strategy)
            if value is None:
                hand.pop(field, None)
            else:
                hand[field] = value
    for _ in range(draw(st.integers(0, 2))):
        field = draw(st.sampled_from(sorted(changes)))
        how = draw(st.integers(0, 9))
        if how == 0:
            hand.pop(field, None)
        elif how == 1:
            hand[field] = draw(JSON)
        else:
            hand[field] = draw(changes[field])
    return hand


FOUR_ANNOUNCING: dict[str, st.SearchStrategy[Any]] = {
    "announcements": st.fixed_dictionaries({"A": SIDE, "B": SIDE}),
    "belote": st.sampled_from((None, [], ["A"], ["B"], ["A", "B"])),
    "order": st.sampled_from((None, None, "A", "B")),
}
FOUR_CHANGES: dict[str, st.SearchStrategy[Any]] = {
    **{field: st.sampled_from(values) for field, values in NEAR_MISSES.items()},
    "announcements": st.fixed_dictionaries({"A": SIDE, "B": SIDE})
    | st.dictionaries(st.sampled_from(("A", "B", "C")), SIDE | st.none(), max_size=3),
    "belote": st.lists(st.sampled_from(("A", "B")), max_size=4),
    "order": st.sampled_from((None, "A", "B")),
}

THREE_ANNOUNCING: dict[str, st.SearchStrategy[Any]] = {
    "announcements": st.lists(SIDE, min_size=3, max_size=3),
    "belote": st.sampled_from((None, [], [0], [1], [2])),
    "order": st.sampled_from((None, None, 0, 1, 2)),
}

THREE_CHANGES: dict[str, st.SearchStrategy[Any]] = {
    "taker": st.sampled_from((-1, 0, 1, 2, 3, True, "0", None)),
    "contract": st.sampled_from((*announcements.SUITS, "sans_atout", "Hearts", 1, None)),
    "points": st.lists(st.integers(-1, 170), min_size=2, max_size=4) | st.lists(st.sampled_from((0, 1, 50, 151, 62.0))),
    "last_trick": st.sampled_from((-1, 0, 1, 2, 3, False, None)),
    "capot": st.lists(st.integers(-1, 3), max_size=3),
    "belote": st.lists(st.integers(-1, 3), max_size=2),
    "order": st.sampled_from((-1, 0, 1, 2, 3, None)),
    "announcements": st.lists(SIDE, min_size=3, max_size=3) | st.lists(SIDE | st.none(), max_size=4),
    "cancelled": st.sampled_from((True, False, None, 1, "yes")),
    "extra": st.sampled_from((None, 0)),
}


def tierce(high: str, suit: str | None = None) -> dict[str, str]:
    return {"kind": "tierce", "high": high} | ({} if suit is None else {"suit": suit})


def mirrored(items: list[Any]) -> list[Any]:
    """The same announcements in the other suit (hearts for spades): as strong, no card shared."""
    swap = {"hearts": "spades", "spades": "hearts"}
    return [
        {**item, "suit": swap[item["suit"]]} if type(item) is dict and item.get("suit") in swap else item
        for item in items
    ]


@st.composite
def team_announcements(draw: st.DrawFn) -> dict[str, Any] | None:
    """Nothing; each team's own; or the same in the other suit for B, often a tie for the best."""
    how = draw(st.integers(0, 2))
    if how == 0:
        return None
    mine = draw(SIDE_OF_ONE)
    return {"A": mine, "B": draw(SIDE_OF_ONE) if how == 1 else mirrored(mine)}


@st.composite
def four_hands(draw: st.DrawFn, game: TeamBelote) -> dict[str, Any]:
    """A hand at four drawn field by field, each field mostly sound, so that a hand is
    often valid and as often misses by one field or one cross-check."""
    contract = draw(st.sampled_from(sorted(game.contracts)))
    total = game.contracts[contract].total
    capot = draw(st.sampled_from((None,) * 6 + ("A", "B")))
    if capot and draw(st.integers(0, 4)):
        points = {capot: total, "B" if capot == "A" else "A": 0}
    else:
        taker_points = draw(st.sampled_from((0, 1, 60, 81, 82, 100, 129, 161, total - 1, total)))
        points = {"A": taker_points, "B": total - taker_points - draw(st.sampled_from((0,) * 6 + (10,)))}
    hand: dict[str, Any] = {
        "taker": draw(st.sampled_from(("A", "B"))),
        "contract": contract,
        "points": points,
        "capot": capot,
        "belote": draw(st.sampled_from((None, None, [], ["A"], ["B"], ["A"], ["B"], ["A", "B"], ["C"]))),
        "announcements": draw(team_announcements()),
        "order": draw(st.sampled_from((None, None, None, "A", "B"))),
        "reserve_in": draw(st.sampled_from((None,) * 8 + (0, 80))),
        "cancelled": draw(st.sampled_from((None,) * 12 + (False, True, 1))),
        "bid": draw(st.sampled_from((80, 80, 120, 120, "capot", 85, 170))),
        "coinche": draw(st.sampled_from((None, None, None, 0, 1, 2, 3))),
    }
    if game.code != "belote_contree":
        del hand["bid"], hand["coinche"]
    return {field: value for field, value in hand.items() if value is not None}


@st.composite
def three_hands(draw: st.DrawFn) -> dict[str, Any]:
    """A hand of belote à 3 drawn field by field from a few values each, so that the
    fields often agree and as often miss one another by one cross-check."""
    # Card points adding up to a total that is usually possible, the dix de der on top
    # for the player named as taking the last trick (or for another one).
    first, second = draw(st.lists(st.sampled_from((0, 30, 45, 60) * 3 + (1, 151)), min_size=2, max_size=2))
    points = [first, second, max(0, draw(st.sampled_from((85, 120, 152) * 2 + (153,))) - first - second)]
    last_trick = draw(st.sampled_from((None, 0, 1, 2)))
    points[draw(st.sampled_from((0, 1, 2))) if last_trick is None or draw(st.integers(0, 5)) == 0 else last_trick] += 10
    if draw(st.booleans()):
        # Two players with announcements as strong as each other's, in some order.
        mine = draw(SIDE_OF_ONE)
        announced = draw(st.permutations([mine, mirrored(mine), draw(st.sampled_from(([], [], [tierce("9")])))]))
    else:
        announced = draw(st.lists(SIDE_OF_ONE, min_size=3, max_size=3))
    hand: dict[str, Any] = {
        "taker": draw(st.sampled_from((0, 1, 2))),
        "contract": draw(st.sampled_from(("hearts", "spades", "clubs"))),
        "points": draw(st.permutations(points)) if draw(st.integers(0, 5)) == 0 else points,
        "last_trick": last_trick,
        "capot": draw(st.sampled_from((None, [], [], [0], [1], [2], [0, 1], [1, 2], [1, 1], [0, 1, 2]))),
        "belote": draw(st.sampled_from((None, [], [0], [1], [2], [0, 1], [3], [True]))),
        "order": draw(st.sampled_from((None, None, 0, 1, 2))),
        "announcements": draw(st.sampled_from((None, announced, announced))),
        "cancelled": draw(st.sampled_from((None,) * 8 + (False, True, True, 1, "yes"))),
    }
    return {field: value for field, value in hand.items() if value is not None}


@pytest.mark.parametrize("game", FOUR, ids=lambda game: game.code)
@QUICK
@given(data=st.data())
def test_belote_at_four_answers_as_the_field_by_field_checks_do_for_hands_drawn_field_by_field(
    game: TeamBelote, data: st.DataObject
) -> None:
    resolved = game.resolve_options(data.draw(options_of(game)))
    hand = data.draw(four_hands(game))
    assert game.validate(hand, resolved) == game._problems(hand, resolved)
    assert_the_quick_pass_agrees(game, hand, resolved)


@QUICK
@given(data=st.data())
def test_belote_a_trois_takes_a_hand_drawn_field_by_field_in_the_quick_pass_exactly_when_it_is_valid(
    data: st.DataObject,
) -> None:
    resolved = THREE.resolve_options(data.draw(options_of(THREE)))
    hand = data.draw(three_hands())
    problems = THREE._problems(hand, resolved)
    assert THREE.validate(hand, resolved) == problems
    assert belote_a_trois._plainly_valid(hand, resolved) == (problems == []), (hand, problems)


@pytest.mark.parametrize("game", FOUR, ids=lambda game: game.code)
@QUICK
@given(data=st.data())
def test_belote_at_four_answers_as_the_field_by_field_checks_do_whatever_the_hand(
    game: TeamBelote, data: st.DataObject
) -> None:
    resolved = game.resolve_options(data.draw(options_of(game)))
    hand = data.draw(bent_hands(game, FOUR_ANNOUNCING, FOUR_CHANGES))
    assert game.validate(hand, resolved) == game._problems(hand, resolved)
    assert_the_quick_pass_agrees(game, hand, resolved)


@pytest.mark.parametrize("game", FOUR, ids=lambda game: game.code)
def test_belote_at_four_refuses_in_the_quick_pass_each_conflict_the_field_by_field_checks_name(
    game: TeamBelote,
) -> None:
    hand: dict[str, Any] = {"taker": "A", "contract": "hearts", "points": {"A": 92, "B": 70}}
    if game.code == "belote_contree":
        hand["bid"] = 80
    on = {"announcements": "on"}
    tie = {"announcements": "on", "announcement_tie": "first_in_play"}
    cent = {"kind": "cent", "high": "A"}
    cases: list[tuple[dict[str, Any], dict[str, str], str]] = [
        ({"belote": ["A"], "announcements": {"A": [], "B": [tierce("A", "hearts")]}}, on, "belote_conflict"),
        ({"announcements": {"A": [tierce("A")], "B": [tierce("A")]}}, tie, "order_required"),
        ({"announcements": {"A": [{"kind": "carre", "high": "J"}], "B": [tierce("J")]}}, on, "card_announced_twice"),
        (
            {"announcements": {"A": [cent | {"suit": suit} for suit in ("clubs", "hearts", "spades")] + [tierce("A")]}},
            on,
            "too_many_cards_announced",
        ),
    ]
    if game.refuses_unplayed_announcements:
        cases.append(({"announcements": {"A": [tierce("A")]}}, {"announcements": "off"}, "announcements_off"))
    for fields, options, code in cases:
        resolved = game.resolve_options(options)
        bad = {**hand, **fields}
        assert not game._plainly_valid(bad, resolved)
        assert [error.code for error in game.validate(bad, resolved)] == [code]
    sound = {**hand, "belote": ["A"], "announcements": {"A": [tierce("A")], "B": [tierce("A")]}, "order": "B"}
    assert game._plainly_valid(sound, game.resolve_options(tie))


@QUICK
@given(data=st.data())
def test_belote_a_trois_takes_a_hand_in_the_quick_pass_exactly_when_it_is_valid(data: st.DataObject) -> None:
    resolved = THREE.resolve_options(data.draw(options_of(THREE)))
    hand = data.draw(bent_hands(THREE, THREE_ANNOUNCING, THREE_CHANGES))
    problems = THREE._problems(hand, resolved)
    assert THREE.validate(hand, resolved) == problems
    assert belote_a_trois._plainly_valid(hand, resolved) == (problems == []), (hand, problems)


def test_belote_a_trois_refuses_in_the_quick_pass_each_conflict_the_field_by_field_checks_name() -> None:
    hand: dict[str, Any] = {
        "taker": 0,
        "contract": "hearts",
        "points": [60, 40, 20],
        "last_trick": 0,
        "capot": [],
        "belote": [0],
        "announcements": [[], [{"kind": "tierce", "high": "A", "suit": "hearts"}], []],
    }
    tied = {
        **hand,
        "belote": [],
        "announcements": [[{"kind": "tierce", "high": "A"}], [{"kind": "tierce", "high": "A"}], []],
    }
    twice = {
        **hand,
        "belote": [],
        "announcements": [[{"kind": "carre", "high": "J"}], [], [{"kind": "tierce", "high": "J"}]],
    }
    plain = {**hand, "belote": [], "announcements": [[], [], []]}
    cases = [
        (hand, {}, "belote_conflict"),
        (tied, {"announcement_tie": "first_in_play"}, "order_required"),
        ({**tied, "order": 2}, {"announcement_tie": "first_in_play"}, "order_not_tied"),
        (twice, {}, "card_announced_twice"),
        ({**plain, "capot": [1]}, {}, "capot_with_points"),
        ({**plain, "points": [90, 0, 30], "capot": [1, 1]}, {}, "duplicate"),
        ({**plain, "points": [90, 0, 30], "capot": [1], "last_trick": None}, {}, "last_trick_required"),
        ({**plain, "belote": [3]}, {}, "out_of_range"),
        ({**plain, "cancelled": 1}, {}, "not_a_boolean"),
        ({"cancelled": True, "taker": 3}, {}, "out_of_range"),
        ({"cancelled": True, "contract": "trefle"}, {}, "invalid_choice"),
    ]
    for bad, options, code in cases:
        resolved = THREE.resolve_options(options)
        assert not belote_a_trois._plainly_valid(bad, resolved)
        assert [error.code for error in THREE.validate(bad, resolved)] == [code]
    assert belote_a_trois._plainly_valid(
        {**tied, "order": 1}, THREE.resolve_options({"announcement_tie": "first_in_play"})
    )
