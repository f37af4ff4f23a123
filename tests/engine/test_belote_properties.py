"""Properties of belote scoring at four, for any valid hand and any options (hypothesis).

The expected values are computed here from the rules as docs/rules.md states them, apart
from the engine's code: a team's total is its card points (the capot value for a capot),
its belotes and, when it holds the best announcement, all of its announcements.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.core import RuleError
from engine.games.belote_classique import BeloteClassique, FourPlayerBelote
from engine.games.belote_moderne import BeloteModerne
from tests.tiers import examples

GAMES = [BeloteClassique(), BeloteModerne()]
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")
SUITS = ("clubs", "diamonds", "hearts", "spades")
LENGTH = {"tierce": 3, "cinquante": 4, "cent": 5}
VALUE = {"tierce": 20, "cinquante": 50, "cent": 100}
CARRE = {"J": 200, "9": 150, "A": 100, "10": 100, "K": 100, "Q": 100, "8": 0}
OTHER = {"A": "B", "B": "A"}
SETTINGS = settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@st.composite
def announcements(draw: st.DrawFn) -> dict[str, str]:
    kind = draw(st.sampled_from(("tierce", "cinquante", "cent", "carre")))
    if kind == "carre":
        return {"kind": kind, "high": draw(st.sampled_from(RANKS[:-1]))}
    item = {"kind": kind, "high": draw(st.sampled_from(RANKS[: len(RANKS) - LENGTH[kind] + 1]))}
    if draw(st.booleans()):
        item["suit"] = draw(st.sampled_from(SUITS))
    return item


@st.composite
def options(draw: st.DrawFn, game: FourPlayerBelote, rounding: bool = True) -> dict[str, Any]:
    chosen = {spec.name: draw(st.sampled_from(spec.choices)) for spec in game.option_specs}
    if not rounding:
        chosen["rounding"] = "none"
    return chosen


@st.composite
def valid_hands(draw: st.DrawFn, game: FourPlayerBelote) -> dict[str, Any]:
    contract = game.contracts[draw(st.sampled_from(sorted(game.contracts)))]
    taker = draw(st.sampled_from(("A", "B")))
    capot = draw(st.sampled_from((None, None, None, None, "A", "B")))
    if capot:
        points = {capot: contract.total, OTHER[capot]: 0}
    else:
        a = draw(st.integers(0, contract.total).filter(lambda x: x not in contract.impossible))
        points = {"A": a, "B": contract.total - a}
    hand: dict[str, Any] = {"taker": taker, "contract": contract.name, "points": points}
    if capot:
        hand["capot"] = capot
    belote = draw(st.lists(st.sampled_from(("A", "B")), max_size=contract.max_belote))
    if contract.max_belote == 1 or belote:
        hand["belote"] = belote
    hand["announcements"] = {team: draw(st.lists(announcements(), max_size=2)) for team in ("A", "B")}
    hand["order"] = draw(st.sampled_from(("A", "B")))
    hand["reserve_in"] = draw(st.sampled_from((0, 0, 81, 130, 387)))
    # Drawn announcements may share a card: such a hand cannot have been played.
    assume(game.validate(hand, game.resolve_options({"announcement_tie": "first_in_play"})) == [])
    return hand


def best(items: list[dict[str, str]], contract: Any) -> tuple[int, int, int] | None:
    def key(item: dict[str, str]) -> tuple[int, int, int]:
        points = CARRE[item["high"]] if item["kind"] == "carre" else VALUE[item["kind"]]
        height = len(RANKS) - RANKS.index(item["high"])
        sequence = item["kind"] != "carre"
        trump = sequence and (contract.all_trump or (contract.trump and item.get("suit") == contract.trump))
        return points, height, int(bool(trump))

    return max((key(item) for item in items), default=None)


def team_totals(game: FourPlayerBelote, hand: dict[str, Any], opts: dict[str, Any]) -> dict[str, dict[str, int]]:
    contract = game.contracts[hand["contract"]]
    capot_value = contract.total + (88 if opts["capot_value"] == 250 else 90)
    parts: dict[str, dict[str, int]] = {}
    for team in ("A", "B"):
        cards = capot_value if hand.get("capot") == team else 0 if hand.get("capot") else hand["points"][team]
        parts[team] = {"cards": cards, "belote": 20 * hand.get("belote", []).count(team), "announcements": 0}
    if opts["announcements"] == "on":
        best_a = best(hand["announcements"]["A"], contract)
        best_b = best(hand["announcements"]["B"], contract)
        holder = None
        if best_a is not None and (best_b is None or best_a > best_b):
            holder = "A"
        elif best_b is not None and (best_a is None or best_b > best_a):
            holder = "B"
        elif best_a is not None and opts["announcement_tie"] == "first_in_play":
            holder = hand["order"]
        if holder:
            parts[holder]["announcements"] = sum(
                CARRE[i["high"]] if i["kind"] == "carre" else VALUE[i["kind"]] for i in hand["announcements"][holder]
            )
    return parts


def scored(game: FourPlayerBelote, hand: dict[str, Any], opts: dict[str, Any]) -> dict[str, Any]:
    return game.result_json(game.score(hand, game.resolve_options(opts)))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
@SETTINGS
@given(data=st.data())
def test_a_made_contract_scores_each_team_its_cards_and_bonuses_times_the_multiplier(
    game: FourPlayerBelote, data: st.DataObject
) -> None:
    hand = data.draw(valid_hands(game))
    opts = data.draw(options(game, rounding=False))
    out = scored(game, hand, opts)
    assume(out["outcome"] == "made")
    mult = game.contracts[hand["contract"]].multiplier
    parts = team_totals(game, hand, opts)
    for team in ("A", "B"):
        brought = hand["reserve_in"] if team == hand["taker"] else 0
        assert out["scores"][team] == sum(parts[team].values()) * mult + brought
    assert out["reserve_out"] == 0


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
@SETTINGS
@given(data=st.data())
def test_the_taker_never_scores_when_dedans_but_its_own_belote_kept(
    game: FourPlayerBelote, data: st.DataObject
) -> None:
    hand = data.draw(valid_hands(game))
    opts = data.draw(options(game))
    out = scored(game, hand, opts)
    assume(out["outcome"] == "dedans")
    mult = game.contracts[hand["contract"]].multiplier
    taker = hand["taker"]
    kept = 20 * hand.get("belote", []).count(taker) * mult if opts["belote_when_dedans"] == "keep" else 0
    assert out["scores"][taker] == kept
    assert out["scores"][OTHER[taker]] >= game.contracts[hand["contract"]].total * mult - 5
    assert out["reserve_out"] == 0


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
@SETTINGS
@given(data=st.data())
def test_a_litige_holds_the_takers_whole_total_on_top_of_the_reserve(
    game: FourPlayerBelote, data: st.DataObject
) -> None:
    hand = data.draw(valid_hands(game))
    opts = {**data.draw(options(game, rounding=False)), "threshold": "totals", "tie": "litige"}
    # Litiges are rare in play: move the card points so that both totals are equal.
    assume(not hand.get("capot"))
    parts = team_totals(game, hand, opts)
    taker = hand["taker"]
    total = game.contracts[hand["contract"]].total
    bonus = {team: parts[team]["belote"] + parts[team]["announcements"] for team in ("A", "B")}
    cards, odd = divmod(total - bonus[taker] + bonus[OTHER[taker]], 2)
    assume(not odd and 0 <= cards <= total)
    hand["points"] = {taker: cards, OTHER[taker]: total - cards}
    assume(game.validate(hand, game.resolve_options(opts)) == [])
    out = scored(game, hand, opts)
    assert out["outcome"] == "litige"
    parts = team_totals(game, hand, opts)
    mult = game.contracts[hand["contract"]].multiplier
    assert out["scores"][taker] == 0
    assert out["scores"][OTHER[taker]] == sum(parts[OTHER[taker]].values()) * mult
    assert out["reserve_out"] == hand["reserve_in"] + sum(parts[taker].values()) * mult


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
@SETTINGS
@given(data=st.data())
def test_scoring_is_deterministic_leaves_the_hand_alone_and_gives_whole_non_negative_points(
    game: FourPlayerBelote, data: st.DataObject
) -> None:
    hand = data.draw(valid_hands(game))
    opts = data.draw(options(game))
    before = copy.deepcopy(hand)
    first = scored(game, hand, opts)
    assert scored(game, hand, opts) == first
    assert hand == before
    assert all(type(points) is int and points >= 0 for points in first["scores"].values())
    if opts["rounding"] == "nearest_ten" and hand["reserve_in"] % 10 == 0:
        assert all(points % 10 == 0 for points in first["scores"].values())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
@SETTINGS
@given(data=st.data())
def test_random_hands_validate_under_any_options(game: FourPlayerBelote, data: st.DataObject) -> None:
    import random

    hand = game.random_hand(random.Random(data.draw(st.integers(0, 2**32))))
    assert game.validate(hand, game.resolve_options(data.draw(options(game)))) == []


# -- invalid hands -------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-300, 300) | st.floats(allow_nan=True) | st.text(max_size=6),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20,
)
FIELD_NAMES = ("taker", "contract", "points", "capot", "belote", "announcements", "reserve_in", "cancelled", "order")


@st.composite
def broken_hands(draw: st.DrawFn, game: FourPlayerBelote) -> dict[str, Any]:
    """A valid hand with one thing surely wrong."""
    hand = copy.deepcopy(draw(valid_hands(game)))
    how = draw(st.sampled_from(("unknown", "missing", "sum", "taker", "points_type", "capot", "belote", "kind")))
    if how == "unknown":
        hand[draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in FIELD_NAMES))] = draw(JSON)
    elif how == "missing":
        del hand[draw(st.sampled_from(("taker", "contract", "points")))]
    elif how == "sum":
        hand.pop("capot", None)
        hand["points"]["A"] += draw(st.integers(1, 20))
    elif how == "taker":
        hand["taker"] = draw(JSON.filter(lambda v: v not in ("A", "B", None)))
    elif how == "points_type":
        hand["points"]["B"] = draw(JSON.filter(lambda v: type(v) is not int))
    elif how == "capot":
        hand["capot"] = draw(JSON.filter(lambda v: v not in ("A", "B", None)))
    elif how == "belote":
        hand["belote"] = [draw(st.sampled_from(("A", "B"))) for _ in range(5)]
    else:
        hand["announcements"]["A"] = [
            {"kind": draw(st.text(max_size=8).filter(lambda k: k not in LENGTH)), "high": "A"}
        ]
    return hand


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
@SETTINGS
@given(data=st.data())
def test_a_broken_hand_is_refused_with_at_least_one_error_never_an_exception(
    game: FourPlayerBelote, data: st.DataObject
) -> None:
    hand = data.draw(broken_hands(game))
    errors = game.validate(hand, game.resolve_options(data.draw(options(game))))
    assert errors
    assert all(isinstance(error, RuleError) and error.code and error.message for error in errors)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
@SETTINGS
@given(value=JSON | st.dictionaries(st.sampled_from(FIELD_NAMES), JSON, max_size=9))
def test_any_json_value_is_answered_with_errors_and_never_raises(game: FourPlayerBelote, value: Any) -> None:
    errors = game.validate(value, game.resolve_options({}))
    assert all(isinstance(error, RuleError) for error in errors)
    for error in errors:
        error.to_json()


# Values one step away from sound, per field: the quick pass must refuse each one that
# the field-by-field checks refuse. `bid` and `coinche` are belote contrée's.
NEAR_MISSES: dict[str, tuple[Any, ...]] = {
    "taker": ("C", "a", 0, True, ["A"]),
    "contract": ("trefle", "Hearts", "sans_atout", "tout_atout", 1, ["hearts"]),
    "points": (
        {"A": 161, "B": 1}, {"A": 1, "B": 161}, {"A": 162, "B": 0}, {"A": 0, "B": 162}, {"A": 113.0, "B": 49},
        {"A": True, "B": 161}, {"A": 163, "B": -1}, {"A": 100, "B": 62, "C": 0}, {"A": 100}, [100, 62], "100",
    ),
    "capot": ("A", "B", "C", True, 0),
    "belote": (["A", "B"], ["A"] * 4, ["A"] * 5, ["C"], [None], "A", ("A",), [True]),
    "announcements": (
        {"A": [{"kind": "tierce", "high": "A"}]}, {"C": []}, {"A": None}, {"A": [], "B": "x"}, [], {"A": ()},
    ),
    "order": ("C", 1, True, ""),
    "reserve_in": (True, -10, 80, 85, 1.0, "80"),
    "cancelled": (0, 1, "yes", False, True),
    "bid": (85, 70, 170, 180, 190, 0, True, 110.0, "Capot", "capot", None),
    "coinche": (True, False, 3, -1, 1.0, "1", 0, 2),
    "extra": (None, 0, "A"),
}  # fmt: skip


def near_misses(hand: dict[str, Any]) -> list[dict[str, Any]]:
    """`hand` with one field set to each of its near misses, one at a time."""
    return [{**hand, field: value} for field, values in NEAR_MISSES.items() for value in values]


def assert_the_quick_pass_agrees(game: Any, hand: Any, resolved: dict[str, Any]) -> None:
    """The quick pass accepts only what the field-by-field checks accept, and takes every
    sound hand that brings no reserve and is not cancelled, announcements included."""
    if game._plainly_valid(hand, resolved):
        assert game._problems(hand, resolved) == [], hand
    elif game._problems(hand, resolved) == []:
        assert hand.get("reserve_in") or hand.get("cancelled"), hand


@st.composite
def quick_pass_hands(draw: st.DrawFn, valid: st.SearchStrategy[dict[str, Any]]) -> dict[str, Any]:
    """A valid hand, often without announcements or reserve (the quick pass's own
    ground), often one near miss away."""
    hand = draw(valid)
    if draw(st.booleans()):
        hand = {key: value for key, value in hand.items() if key not in ("announcements", "reserve_in")}
    if draw(st.booleans()):
        hand = draw(st.sampled_from(near_misses(hand)))
    return hand


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
@SETTINGS
@given(data=st.data())
def test_the_quick_pass_accepts_only_what_the_field_by_field_checks_accept(
    game: FourPlayerBelote, data: st.DataObject
) -> None:
    resolved = game.resolve_options(data.draw(options(game)))
    assert_the_quick_pass_agrees(game, data.draw(quick_pass_hands(valid_hands(game))), resolved)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
def test_the_quick_pass_refuses_every_near_miss_the_field_by_field_checks_refuse(game: FourPlayerBelote) -> None:
    plain = [
        {"taker": "A", "contract": "hearts", "points": {"A": 92, "B": 70}},
        {"taker": "B", "contract": "spades", "points": {"A": 0, "B": 162}, "capot": "B", "belote": ["A"]},
        {"taker": "A", "contract": "clubs", "points": {"A": 81, "B": 81}, "announcements": {"A": [], "B": []}},
    ]
    if "tout_atout" in game.contracts:
        plain.append({"taker": "A", "contract": "tout_atout", "points": {"A": 158, "B": 100}, "belote": ["A", "B"]})
    for options in ({}, {"announcements": "off"}, {"tie": "dedans"}):
        resolved = game.resolve_options(options)
        for hand in plain:
            for variant in [hand, *near_misses(hand)]:
                assert_the_quick_pass_agrees(game, variant, resolved)
