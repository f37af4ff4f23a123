"""Belote for four players in two teams: the cards, contracts and scoring phases that
belote classique, moderne and contrée share.

The hand's fields and their validation are `belote_hand.TeamBelote`; belote classique
and moderne score in `belote_classique.FourPlayerBelote`, belote contrée in
`belote_contree`.

Terms (team, preneur, défense, contract, card points, belote-rebelote, annonce, capot,
dedans, litige, réserve, multiplier): docs/glossary.md. Teams are `"A"` and `"B"`.

Every rule and option here is described in docs/rules.md. The validation refuses a hand
that cannot have been played; `score` trusts a hand that validated and stays lean,
because whole tournaments are re-scored in bulk.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.games import announcements as annonces

TEAMS: tuple[str, str] = ("A", "B")
OTHER: Mapping[str, str] = {"A": "B", "B": "A"}
SUITS: tuple[str, ...] = annonces.SUITS
HAND_FIELDS = frozenset(
    {"taker", "contract", "points", "capot", "belote", "announcements", "reserve_in", "cancelled", "order"}
)
BELOTE_POINTS = 20
DIX_DE_DER = 10
# Each team holds 16 cards when the announcements are made.
TEAM_CARDS = 16

TRUMP_VALUES: Mapping[str, int] = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_VALUES: Mapping[str, int] = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

# The best announcement as one int, so that comparing is one `>`: points, then the
# height of the top card (A K Q J 10 9 8 7, whatever the kind), then a trump sequence.
# `announcements.best_and_total` ranks the same way for one trump suit; tout atout needs
# every sequence counted as trump, which it cannot say, hence `announcement_key` here.
_HEIGHT = annonces.HEIGHT
_SEQUENCE_POINTS = annonces.SEQUENCE_POINTS
_CARRE_POINTS = annonces.CARRE_POINTS


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract's arithmetic: the card total, the multiplier, and who is trump."""

    name: str
    total: int
    multiplier: int
    # The trump suit, or None in sans atout and tout atout.
    trump: str | None
    all_trump: bool
    max_belote: int
    # Card point values no set of tricks can be worth (1 and 161 at a suit).
    impossible: frozenset[int]


def impossible_points(card_values: Sequence[int], total: int) -> frozenset[int]:
    """The card point totals no set of tricks reaches, the dix de der taken or not."""
    sums = {0}
    for value in card_values:
        sums |= {s + value for s in sums}
    reachable = sums | {s + DIX_DE_DER for s in sums}
    return frozenset(x for x in range(total + 1) if x not in reachable)


def suit_contract(suit: str) -> Contract:
    values = list(TRUMP_VALUES.values()) + 3 * list(PLAIN_VALUES.values())
    return Contract(suit, 162, 1, suit, False, 1, impossible_points(values, 162))


SANS_ATOUT = Contract("sans_atout", 130, 2, None, False, 0, impossible_points(4 * list(PLAIN_VALUES.values()), 130))
TOUT_ATOUT = Contract("tout_atout", 258, 3, None, True, 4, impossible_points(4 * list(TRUMP_VALUES.values()), 258))
SUIT_CONTRACTS: Mapping[str, Contract] = {suit: suit_contract(suit) for suit in SUITS}


def announcement_key(item: Mapping[str, Any], contract: Contract) -> int:
    """How strong one announcement is, as a single comparable int."""
    kind = item["kind"]
    high = item["high"]
    if kind == "carre":
        return _CARRE_POINTS[high] * 100 + _HEIGHT[high] * 2
    in_trump = contract.all_trump or (contract.trump is not None and item.get("suit") == contract.trump)
    return _SEQUENCE_POINTS[kind] * 100 + _HEIGHT[high] * 2 + (1 if in_trump else 0)


def team_announcements(items: Sequence[Mapping[str, Any]] | None, contract: Contract) -> tuple[int, int]:
    """A team's best announcement (its key, -1 for none) and the points of all of them."""
    best = -1
    points = 0
    if items:
        for item in items:
            key = announcement_key(item, contract)
            # The key's hundreds are the announcement's points.
            points += key // 100
            if key > best:
                best = key
    return best, points


def round_to_ten(points: int) -> int:
    # Nearest ten, 5 up (85 -> 90, 84 -> 80); scores are never negative.
    return (points + 5) // 10 * 10


# -- the phases of scoring, shared by every belote at four ----------------------------


def card_points(hand: Mapping[str, Any], capot_points: int) -> tuple[int, int]:
    """Teams A's and B's card points, a capot team's replaced by `capot_points`."""
    capot = hand.get("capot")
    if capot is None:
        points = hand["points"]
        return points["A"], points["B"]
    return (capot_points, 0) if capot == "A" else (0, capot_points)


def belote_points(hand: Mapping[str, Any]) -> tuple[int, int]:
    """Teams A's and B's belote-rebelote points."""
    belote = hand.get("belote")
    if not belote:
        return 0, 0
    points_a = belote.count("A") * BELOTE_POINTS
    return points_a, len(belote) * BELOTE_POINTS - points_a


def announcement_points(hand: Mapping[str, Any], contract: Contract, options: Mapping[str, Any]) -> tuple[int, int]:
    """Teams A's and B's scoring announcements: all of its own to the team holding the best."""
    announced = hand.get("announcements")
    if not announced or options["announcements"] != "on":
        return 0, 0
    best_a, sum_a = team_announcements(announced.get("A"), contract)
    best_b, sum_b = team_announcements(announced.get("B"), contract)
    if best_a > best_b:
        return sum_a, 0
    if best_b > best_a:
        return 0, sum_b
    if best_a >= 0 and options["announcement_tie"] == "first_in_play":
        return (sum_a, 0) if hand.get("order") == "A" else (0, sum_b)
    return 0, 0


def random_capot(hand: dict[str, Any], contract: Contract, team: str) -> None:
    """Make `team` capot: all the card points and the `capot` field."""
    hand["points"] = {team: contract.total, OTHER[team]: 0}
    hand["capot"] = team


def random_points(rng: random.Random, contract: Contract, taker: str, mean: float, spread: float) -> dict[str, int]:
    """Card points whose taker's share is drawn around `mean`, never a value no tricks make."""
    total = contract.total
    taken = min(total, max(0, round(rng.gauss(mean, spread))))
    while taken in contract.impossible:
        taken += 1 if taken < total // 2 else -1
    return {taker: taken, OTHER[taker]: total - taken}


def random_belote(rng: random.Random, contract: Contract, taker: str) -> list[str]:
    """A belote in a quarter of the suit contracts, the taker's more often; up to four in tout atout."""
    defence = OTHER[taker]
    if contract.max_belote == 1:
        return [taker if rng.random() < 0.6 else defence] if rng.random() < 0.25 else []
    return [taker if rng.random() < 0.6 else defence for _ in range(contract.max_belote) if rng.random() < 0.1]


def random_announcements(rng: random.Random) -> list[dict[str, Any]]:
    """One or two announcements, tierces the most common, carrés the rarest."""
    items: list[dict[str, Any]] = []
    for _ in range(1 if rng.random() < 0.85 else 2):
        kind = rng.choices(annonces.KINDS, weights=(60, 22, 8, 10))[0]
        if kind == "carre":
            # A carré of sevens cancels the donne: not something a scored hand shows.
            items.append({"kind": kind, "high": rng.choice(annonces.RANKS[:-1])})
            continue
        length = annonces.SEQUENCE_LENGTH[kind]
        item = {"kind": kind, "high": rng.choice(annonces.RANKS[: len(annonces.RANKS) - length + 1])}
        if rng.random() < 0.5:
            item["suit"] = rng.choice(SUITS)
        items.append(item)
    return items
