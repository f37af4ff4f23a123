"""Belote announcements (*annonces*): their values, which one is best, who scores them.

Shared by every belote game; pure functions over lists of announcement objects
`{"kind": ..., "high": ..., "suit": ...}` as the hands carry them (docs/engine-cli.md),
one list per side (a team at four, a player at three).

Terms (tierce, cinquante, cent, carré): docs/glossary.md; which announcement is the best
and who scores: docs/rules.md, "Belote classique". A carré of sevens cancels the donne,
so a hand that scores cannot announce one.

Sides are whatever the game uses (team letters, player numbers): the functions take
`(side, list)` pairs and give sides back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from engine.core import RuleError, gettext_noop, rule_error
from engine.games.checks import check_choice, check_list, not_an_object, path, required, unknown_fields

S = TypeVar("S")

# Natural order, highest first: announcements rank cards this way in every suit.
RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7")
HEIGHT: Mapping[str, int] = {rank: len(RANKS) - i for i, rank in enumerate(RANKS)}
SUITS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
KINDS: tuple[str, ...] = ("tierce", "cinquante", "cent", "carre")
SEQUENCE_LENGTH: Mapping[str, int] = {"tierce": 3, "cinquante": 4, "cent": 5}
SEQUENCE_POINTS: Mapping[str, int] = {"tierce": 20, "cinquante": 50, "cent": 100}
CARRE_POINTS: Mapping[str, int] = {"J": 200, "9": 150, "A": 100, "10": 100, "K": 100, "Q": 100, "8": 0, "7": 0}
FIELDS = frozenset({"kind", "high", "suit"})


def points(announcement: Mapping[str, Any]) -> int:
    kind = announcement["kind"]
    if kind == "carre":
        return CARRE_POINTS[announcement["high"]]
    return SEQUENCE_POINTS[kind]


def total(announcements: Iterable[Mapping[str, Any]]) -> int:
    return sum(points(a) for a in announcements)


def strength(announcement: Mapping[str, Any], trump: str | None) -> tuple[int, int, int]:
    """A sortable key: points, then the top card's height, then being a trump sequence."""
    in_trump = announcement["kind"] != "carre" and trump is not None and announcement.get("suit") == trump
    return (points(announcement), HEIGHT[announcement["high"]], 1 if in_trump else 0)


# The same order as `strength` packed in one int, for the scoring hot path: points, then
# height, then one more for a trump sequence (added by `best_and_total`).
_KEY: Mapping[tuple[str, str], int] = {
    (kind, high): ((CARRE_POINTS[high] if kind == "carre" else SEQUENCE_POINTS[kind]) * 16 + HEIGHT[high]) * 2
    for kind in KINDS
    for high in RANKS
}
_POINTS: Mapping[tuple[str, str], int] = {key: value // 32 for key, value in _KEY.items()}


def best_and_total(announced: Iterable[Mapping[str, Any]], trump: str | None) -> tuple[int, int]:
    """One side's strongest combination as a comparable int (-1: none) and its points in all."""
    best = -1
    points_in_all = 0
    for announcement in announced:
        kind_high = (announcement["kind"], announcement["high"])
        key = _KEY[kind_high]
        # A carré has no suit (validation refuses one), so only a sequence can match.
        if trump is not None and announcement.get("suit") == trump:
            key += 1
        points_in_all += _POINTS[kind_high]
        if key > best:
            best = key
    return best, points_in_all


def scorer_and_points(
    sides: Iterable[tuple[S, Sequence[Mapping[str, Any]]]],
    trump: str | None,
    tie: str = "nobody",
    first: S | None = None,
) -> tuple[S | None, int]:
    """`scoring_side` and the points that side scores, in one pass (0 when nobody scores)."""
    best = -1
    holders: list[tuple[S, int]] = []
    for side, announced in sides:
        if not announced:
            continue
        key, points_in_all = best_and_total(announced, trump)
        if key > best:
            best, holders = key, [(side, points_in_all)]
        elif key == best:
            holders.append((side, points_in_all))
    if len(holders) == 1:
        return holders[0]
    if holders and tie == "first_in_play":
        for side, points_in_all in holders:
            if side == first:
                return side, points_in_all
    return None, 0


def best_holders(sides: Iterable[tuple[S, Sequence[Mapping[str, Any]]]], trump: str | None) -> list[S]:
    """The sides whose strongest combination is the best of the donne (several on a tie)."""
    best: tuple[int, int, int] | None = None
    holders: list[S] = []
    for side, announced in sides:
        if not announced:
            continue
        key = max(strength(a, trump) for a in announced)
        if best is None or key > best:
            best, holders = key, [side]
        elif key == best:
            holders.append(side)
    return holders


def scoring_side(
    sides: Iterable[tuple[S, Sequence[Mapping[str, Any]]]],
    trump: str | None,
    tie: str = "nobody",
    first: S | None = None,
) -> S | None:
    """The side that scores its announcements, or None (nothing announced, or a tie left open).

    `tie` is the `announcement_tie` option; with `first_in_play`, `first` names the side
    that announced first, which wins a tie it is part of.
    """
    holders = best_holders(sides, trump)
    if len(holders) == 1:
        return holders[0]
    if holders and tie == "first_in_play" and first in holders:
        return first
    return None


def _cards(announcement: Mapping[str, Any]) -> tuple[tuple[str | None, str], ...]:
    """The cards a sound announcement is known to hold, as (suit or None, rank)."""
    return _SOUND[announcement["kind"], announcement["high"], announcement.get("suit")]


def _cards_of(kind: str, high: str, suit: str | None) -> tuple[tuple[str | None, str], ...]:
    """The cards of an announcement, for the table of sound ones below.

    A cent may be longer than five cards; only the five it surely holds are listed, so
    that the overlap checks never refuse a hand that could be real.
    """
    if kind == "carre":
        return tuple((each, high) for each in SUITS)
    start = RANKS.index(high)
    return tuple((suit, rank) for rank in RANKS[start : start + SEQUENCE_LENGTH[kind]])


def _sound(raw: object) -> dict[str, Any] | None:
    """The checked copy of an announcement that `validate_one` would accept, found in the
    table of every sound one; None for anything else, which `validate_one` then checks."""
    if type(raw) is not dict or not raw.keys() <= FIELDS:
        return None
    kind, high, suit = raw.get("kind"), raw.get("high"), raw.get("suit")
    if type(kind) is not str or type(high) is not str or (suit is not None and type(suit) is not str):
        return None
    if (kind, high, suit) not in _SOUND:
        return None
    return {"kind": kind, "high": high} if suit is None else {"kind": kind, "high": high, "suit": suit}


def validate_one(field: str, raw: object) -> tuple[list[RuleError], dict[str, Any] | None]:
    """Check one announcement object; return its errors and, when sound, the object."""
    if not isinstance(raw, Mapping):
        return [not_an_object(field, raw)], None
    errors = unknown_fields(raw, FIELDS, field)
    kind = check_choice(errors, path(field, "kind"), raw["kind"], KINDS) if "kind" in raw else None
    if "kind" not in raw:
        errors.append(required(path(field, "kind")))
    high = check_choice(errors, path(field, "high"), raw["high"], RANKS) if "high" in raw else None
    if "high" not in raw:
        errors.append(required(path(field, "high")))
    suit = raw.get("suit")
    if suit is not None:
        suit = check_choice(errors, path(field, "suit"), suit, SUITS)
    if kind is None or high is None:
        return errors, None
    if kind == "carre":
        if "suit" in raw and raw["suit"] is not None:
            errors.append(
                rule_error(
                    path(field, "suit"), "suit_on_carre", gettext_noop("A carré holds every suit: give no suit.")
                )
            )
        if high == "7":
            errors.append(
                rule_error(
                    path(field, "high"),
                    "carre_of_sevens",
                    gettext_noop("A carré of sevens cancels the donne: record the donne as cancelled."),
                )
            )
    elif RANKS.index(high) + SEQUENCE_LENGTH[kind] > len(RANKS):
        lowest = RANKS[len(RANKS) - SEQUENCE_LENGTH[kind]]
        errors.append(
            rule_error(
                path(field, "high"),
                "impossible_height",
                gettext_noop("A {kind} cannot stop at {high}: its top card is {lowest} or higher."),
                kind=kind,
                high=high,
                lowest=lowest,
            )
        )
    if errors:
        return errors, None
    sound: dict[str, Any] = {"kind": kind, "high": high}
    if suit is not None:
        sound["suit"] = suit
    return errors, sound


def sound_side(raw: object, max_cards: int) -> list[dict[str, Any]] | None:
    """One side's checked list when `validate_side` finds nothing wrong with it, else None.

    The usual entry, checked without building a path or an error.
    """
    if type(raw) is not list:
        return None
    sound: list[dict[str, Any]] = []
    cards = 0
    for item in raw:
        announcement = _sound(item)
        if announcement is None:
            return None
        sound.append(announcement)
        cards += len(_cards(announcement))
    return sound if cards <= max_cards else None


def validate_side(field: str, raw: object, max_cards: int) -> tuple[list[RuleError], list[dict[str, Any]] | None]:
    """Check one side's list; `max_cards` is how many cards the side holds when announcing."""
    sound_list = sound_side(raw, max_cards)
    if sound_list is not None:
        return [], sound_list
    errors: list[RuleError] = []
    items = check_list(errors, field, raw)
    if items is None:
        return errors, None
    sound: list[dict[str, Any]] = []
    for i, item in enumerate(items):
        item_errors, announcement = validate_one(path(field, i), item)
        errors.extend(item_errors)
        if announcement is not None:
            sound.append(announcement)
    if errors:
        return errors, None
    cards = sum(len(_cards(a)) for a in sound)
    if cards > max_cards:
        errors.append(
            rule_error(
                field,
                "too_many_cards_announced",
                gettext_noop("These announcements need {count} cards; a side holds only {max}."),
                count=cards,
                max=max_cards,
            )
        )
    return errors, sound


def validate_consistency(sides: Iterable[tuple[str, Sequence[Mapping[str, Any]]]]) -> list[RuleError]:
    """Refuse a card announced twice, by one side or by two (each card is in one hand once).

    `sides` pairs each side's field path (`announcements.1`) with its checked list. A
    sequence given without its suit could be in any suit, so it only clashes with a carré
    of one of its ranks, which holds that rank in every suit.
    """
    sides = [(side_field, announced) for side_field, announced in sides if announced]
    # A single announcement holds no card twice (the usual donne has one at most).
    if sum(len(announced) for _, announced in sides) < 2:
        return []
    errors: list[RuleError] = []
    seen: set[tuple[str | None, str]] = set()
    carre_ranks: set[str] = set()
    unsuited: list[tuple[str, int, Mapping[str, Any]]] = []
    for side_field, announced in sides:
        for i, announcement in enumerate(announced):
            cards = _cards(announcement)
            if announcement["kind"] == "carre":
                carre_ranks.add(announcement["high"])
            elif announcement.get("suit") is None:
                unsuited.append((side_field, i, announcement))
                continue
            if not seen.isdisjoint(cards):
                errors.append(_twice(path(side_field, i)))
            seen.update(cards)
    for side_field, i, announcement in unsuited:
        if carre_ranks.intersection(rank for _, rank in _cards(announcement)):
            errors.append(_twice(path(side_field, i)))
    return errors


def _twice(field: str) -> RuleError:
    return rule_error(
        field, "card_announced_twice", gettext_noop("This announcement uses a card that another one already holds.")
    )


# Every announcement `validate_one` accepts, as (kind, high, suit or None), with the cards
# it holds: built by asking `validate_one` itself, so the shortcut can never disagree.
_SOUND: dict[tuple[str, str, str | None], tuple[tuple[str | None, str], ...]] = {
    (kind, high, suit): _cards_of(kind, high, suit)
    for kind in KINDS
    for high in RANKS
    for suit in (None, *SUITS)
    if validate_one("", {"kind": kind, "high": high, "suit": suit})[1] is not None
}


# What the quick check of a whole donne's announcements needs of each sound one: how
# many cards it holds; the cards it holds in a known suit (None for a sequence given
# without its suit); the ranks of its cards; its rank when it is a carré (else None).
_Facts = tuple[int, frozenset[tuple[str | None, str]] | None, frozenset[str], str | None]
_FACTS: dict[tuple[str, str, str | None], _Facts] = {
    (kind, high, suit): (
        len(cards),
        None if kind != "carre" and suit is None else frozenset(cards),
        frozenset(rank for _, rank in cards),
        high if kind == "carre" else None,
    )
    for (kind, high, suit), cards in _SOUND.items()
}


def plainly_sound(sides: Sequence[object], max_cards: int) -> bool:
    """Whether `validate_side` accepts each side's raw list and `validate_consistency`
    finds no card held twice among them, judged in one pass that builds nothing.

    The quick passes of the games' validation call it. False means "look closer", not
    "wrong": an announcement object that is not a dict, or anything unusual, answers
    False, and the game then checks field by field. It never answers True where the
    field-by-field checks find a problem.
    """
    seen: set[tuple[str | None, str]] = set()
    carre_ranks: set[str] = set()
    unsuited_ranks: set[str] = set()
    for raw in sides:
        if type(raw) is not list and type(raw) is not tuple:
            return False
        if not raw:
            continue
        cards = 0
        for item in raw:
            if type(item) is not dict or not item.keys() <= FIELDS:
                return False
            kind = item.get("kind")
            high = item.get("high")
            suit = item.get("suit")
            if type(kind) is not str or type(high) is not str or (suit is not None and type(suit) is not str):
                return False
            facts = _FACTS.get((kind, high, suit))
            if facts is None:
                return False
            count, suited, ranks, carre = facts
            cards += count
            if suited is None:
                unsuited_ranks |= ranks
                continue
            if not seen.isdisjoint(suited):
                return False
            seen |= suited
            if carre is not None:
                carre_ranks.add(carre)
        if cards > max_cards:
            return False
    # A sequence without its suit clashes only with a carré of one of its ranks.
    return carre_ranks.isdisjoint(unsuited_ranks)
