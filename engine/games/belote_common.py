"""Belote for four players in two teams: what belote classique and belote moderne share.

Terms (team, preneur, défense, contract, card points, belote-rebelote, annonce, capot,
dedans, litige, réserve, multiplier): docs/glossary.md. Teams are `"A"` and `"B"`.

Every rule and option here is described in docs/rules.md. `validate` refuses a hand
that cannot have been played; `score` trusts a hand that validated and stays lean,
because whole tournaments are re-scored in bulk.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import Game, HandScore, OptionSpec, RuleError, gettext_noop, rule_error
from engine.games import announcements as annonces
from engine.games.checks import (
    check_bool,
    check_choice,
    check_int,
    check_list,
    not_an_object,
    path,
    required,
    unknown_fields,
)

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

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "threshold",
        ("totals", "card_points"),
        "What the taker must beat: the defence's total with belote and announcements, or half the card points.",
    ),
    OptionSpec("tie", ("litige", "dedans", "made"), "A tie opens a litige, or counts as dedans, or as made."),
    OptionSpec("capot_value", (250, 252), "A capot scores the total + 88 (250) or + 90 (252)."),
    OptionSpec(
        "belote_when_dedans",
        ("keep", "defence"),
        "On a dedans, belote-rebelote stays with the team that held it, or goes to the defence.",
    ),
    OptionSpec(
        "announcement_tie",
        ("nobody", "first_in_play"),
        'Equal best announcements score for nobody, or for the team that announced first (field "order").',
    ),
    OptionSpec("announcements", ("on", "off"), "Announcements are played, or ignored."),
    OptionSpec("rounding", ("none", "nearest_ten"), "Scores as they are, or rounded to the nearest ten (5 up)."),
)


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


def _impossible_points(card_values: Sequence[int], total: int) -> frozenset[int]:
    """The card point totals no set of tricks reaches, the dix de der taken or not."""
    sums = {0}
    for value in card_values:
        sums |= {s + value for s in sums}
    reachable = sums | {s + DIX_DE_DER for s in sums}
    return frozenset(x for x in range(total + 1) if x not in reachable)


def suit_contract(suit: str) -> Contract:
    values = list(TRUMP_VALUES.values()) + 3 * list(PLAIN_VALUES.values())
    return Contract(suit, 162, 1, suit, False, 1, _impossible_points(values, 162))


SANS_ATOUT = Contract("sans_atout", 130, 2, None, False, 0, _impossible_points(4 * list(PLAIN_VALUES.values()), 130))
TOUT_ATOUT = Contract("tout_atout", 258, 3, None, True, 4, _impossible_points(4 * list(TRUMP_VALUES.values()), 258))
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


class FourPlayerBelote(Game):
    """Belote at four in two teams; a subclass names its code and its contracts."""

    players_per_table = 4
    sides = TEAMS
    option_specs = OPTION_SPECS
    card_values: ClassVar[Mapping[str, Mapping[str, int]]] = {"trump": TRUMP_VALUES, "plain": PLAIN_VALUES}
    contracts: ClassVar[Mapping[str, Contract]]
    # A partie's default target and the range a tournament may choose (match.py reads them).
    default_target: ClassVar[int]
    target_range: ClassVar[tuple[int, int] | None] = None
    # The match carries litige reserves from one donne to the next.
    keeps_reserve: ClassVar[bool] = True

    # -- validation -------------------------------------------------------------------

    def validate(self, hand: Any, options: Mapping[str, Any]) -> list[RuleError]:
        if not isinstance(hand, Mapping):
            return [not_an_object("", hand)]
        errors = unknown_fields(hand, HAND_FIELDS)
        cancelled = hand.get("cancelled")
        if cancelled is not None:
            cancelled = check_bool(errors, "cancelled", cancelled)
        if hand.get("reserve_in") is not None:
            check_int(errors, "reserve_in", hand["reserve_in"], 0, None)
        self._team_field(errors, hand, "taker", required_=not cancelled)
        contract = self._contract_field(errors, hand, required_=not cancelled)
        if cancelled:
            # A redealt donne scores nothing: what else the referee noted is not checked.
            return errors
        points = self._points_field(errors, hand, contract)
        capot = self._team_field(errors, hand, "capot", required_=False)
        if (
            capot is not None
            and points is not None
            and contract is not None
            and (points[capot] != contract.total or points[OTHER[capot]] != 0)
        ):
            errors.append(
                rule_error(
                    "capot",
                    "capot_points",
                    gettext_noop("A capot team has all {total} card points and the other team none."),
                    total=contract.total,
                )
            )
        belote = self._belote_field(errors, hand, contract)
        announced = self._announcements_field(errors, hand)
        order = self._team_field(errors, hand, "order", required_=False)
        if announced is not None and contract is not None:
            # Announcements that are off score nothing, but must still be possible cards.
            if belote:
                errors.extend(self._belote_conflicts(belote, announced, contract))
            if (
                options.get("announcements", "on") == "on"
                and options.get("announcement_tie", "nobody") == "first_in_play"
                and order is None
            ):
                best_a, _ = team_announcements(announced["A"], contract)
                best_b, _ = team_announcements(announced["B"], contract)
                if best_a >= 0 and best_a == best_b:
                    errors.append(
                        rule_error(
                            "order",
                            "order_required",
                            gettext_noop("The best announcements are equal: name the team that announced first."),
                        )
                    )
        return errors

    @staticmethod
    def _team_field(errors: list[RuleError], hand: Mapping[str, Any], name: str, *, required_: bool) -> str | None:
        value = hand.get(name)
        if value is None:
            if required_:
                errors.append(required(name))
            return None
        return check_choice(errors, name, value, TEAMS)

    def _contract_field(self, errors: list[RuleError], hand: Mapping[str, Any], *, required_: bool) -> Contract | None:
        value = hand.get("contract")
        if value is None:
            if required_:
                errors.append(required("contract"))
            return None
        name = check_choice(errors, "contract", value, tuple(self.contracts))
        return None if name is None else self.contracts[name]

    @staticmethod
    def _points_field(
        errors: list[RuleError], hand: Mapping[str, Any], contract: Contract | None
    ) -> dict[str, int] | None:
        value = hand.get("points")
        if value is None:
            errors.append(required("points"))
            return None
        if not isinstance(value, Mapping):
            errors.append(not_an_object("points", value))
            return None
        before = len(errors)
        errors.extend(unknown_fields(value, TEAMS, "points"))
        points: dict[str, int] = {}
        for team in TEAMS:
            field = path("points", team)
            if team not in value:
                errors.append(required(field))
                continue
            checked = check_int(errors, field, value[team], 0, contract.total if contract else None)
            if checked is None:
                continue
            points[team] = checked
            if contract is not None and checked in contract.impossible:
                errors.append(
                    rule_error(
                        field,
                        "impossible_points",
                        gettext_noop("No set of tricks is worth exactly {value} points in this contract."),
                        value=checked,
                    )
                )
        if len(errors) > before or contract is None:
            return None
        if points["A"] + points["B"] != contract.total:
            errors.append(
                rule_error(
                    "points",
                    "points_sum",
                    gettext_noop("The two teams' card points must add up to {total}, dix de der included, not {sum}."),
                    total=contract.total,
                    sum=points["A"] + points["B"],
                )
            )
            return None
        return points

    @staticmethod
    def _belote_field(errors: list[RuleError], hand: Mapping[str, Any], contract: Contract | None) -> list[str] | None:
        value = hand.get("belote")
        if value is None:
            return []
        items = check_list(errors, "belote", value)
        if items is None:
            return None
        teams = [check_choice(errors, path("belote", i), item, TEAMS) for i, item in enumerate(items)]
        if contract is not None and len(items) > contract.max_belote:
            if contract.max_belote == 0:
                errors.append(
                    rule_error(
                        "belote", "belote_in_sans_atout", gettext_noop("There is no belote-rebelote in sans atout.")
                    )
                )
            else:
                errors.append(
                    rule_error(
                        "belote",
                        "too_many_belotes",
                        gettext_noop("This contract allows at most {max} belote-rebelote, not {count}."),
                        max=contract.max_belote,
                        count=len(items),
                    )
                )
            return None
        sound = [team for team in teams if team is not None]
        return sound if len(sound) == len(teams) else None

    @staticmethod
    def _announcements_field(errors: list[RuleError], hand: Mapping[str, Any]) -> dict[str, list[Any]] | None:
        value = hand.get("announcements")
        if value is None:
            return {"A": [], "B": []}
        if not isinstance(value, Mapping):
            errors.append(not_an_object("announcements", value))
            return None
        before = len(errors)
        errors.extend(unknown_fields(value, TEAMS, "announcements"))
        sound: dict[str, list[Any]] = {}
        for team in TEAMS:
            raw = value.get(team)
            if raw is None:
                sound[team] = []
                continue
            team_errors, items = annonces.validate_side(path("announcements", team), raw, TEAM_CARDS)
            errors.extend(team_errors)
            if items is not None:
                sound[team] = items
        if len(errors) > before:
            return None
        consistency = annonces.validate_consistency([(path("announcements", t), sound[t]) for t in TEAMS])
        errors.extend(consistency)
        return None if consistency else sound

    @staticmethod
    def _belote_conflicts(belote: list[str], announced: Mapping[str, list[Any]], contract: Contract) -> list[RuleError]:
        """Refuse a belote whose king or queen the other team's announcements hold."""
        # The trump kings and queens each team's announcements show, as the suits they sit in.
        shown: dict[str, set[str]] = {"A": set(), "B": set()}
        for team in TEAMS:
            for item in announced[team]:
                if item["kind"] == "carre":
                    if item["high"] in ("K", "Q"):
                        shown[team].update(SUITS)
                elif item.get("suit") is not None:
                    start = annonces.RANKS.index(item["high"])
                    ranks = annonces.RANKS[start : start + annonces.SEQUENCE_LENGTH[item["kind"]]]
                    if "K" in ranks or "Q" in ranks:
                        shown[team].add(item["suit"])
        conflict = rule_error(
            "belote",
            "belote_conflict",
            gettext_noop("Belote-rebelote needs a king and queen of trump that the other team's announcements hold."),
        )
        if not contract.all_trump:
            holder = belote[0]
            return [conflict] if contract.trump in shown[OTHER[holder]] else []
        # Tout atout: each belote needs its own suit whose king and queen the other team
        # does not show; both teams together need distinct suits (Hall's condition).
        counts = {team: belote.count(team) for team in TEAMS}
        free = {team: set(SUITS) - shown[OTHER[team]] for team in TEAMS}
        if (
            counts["A"] > len(free["A"])
            or counts["B"] > len(free["B"])
            or counts["A"] + counts["B"] > len(free["A"] | free["B"])
        ):
            return [conflict]
        return []

    # -- scoring ----------------------------------------------------------------------

    def score(self, hand: Mapping[str, Any], options: Mapping[str, Any], carry: int = 0) -> HandScore:
        reserve = carry or hand.get("reserve_in") or 0
        if hand.get("cancelled"):
            return HandScore((0, 0), "cancelled", reserve)
        contract = self.contracts[hand["contract"]]
        total = contract.total
        points = hand["points"]
        card_a = points["A"]
        card_b = points["B"]
        capot = hand.get("capot")
        if capot is not None:
            capot_points = total + (90 if options.get("capot_value", 250) == 252 else 88)
            card_a, card_b = (capot_points, 0) if capot == "A" else (0, capot_points)
        belote_a = belote_b = 0
        belote = hand.get("belote")
        if belote:
            for team in belote:
                if team == "A":
                    belote_a += BELOTE_POINTS
                else:
                    belote_b += BELOTE_POINTS
        ann_a = ann_b = 0
        announced = hand.get("announcements")
        if announced and options.get("announcements", "on") == "on":
            best_a, sum_a = team_announcements(announced.get("A"), contract)
            best_b, sum_b = team_announcements(announced.get("B"), contract)
            if best_a > best_b:
                ann_a = sum_a
            elif best_b > best_a:
                ann_b = sum_b
            elif best_a >= 0 and options.get("announcement_tie", "nobody") == "first_in_play":
                if hand.get("order") == "A":
                    ann_a = sum_a
                else:
                    ann_b = sum_b

        # From here on: the taker's side first, the defence's second.
        taker_is_a = hand["taker"] == "A"
        if taker_is_a:
            t_card, t_belote, t_ann, d_card, d_belote, d_ann = card_a, belote_a, ann_a, card_b, belote_b, ann_b
        else:
            t_card, t_belote, t_ann, d_card, d_belote, d_ann = card_b, belote_b, ann_b, card_a, belote_a, ann_a
        t_total = t_card + t_belote + t_ann
        d_total = d_card + d_belote + d_ann
        # `card_points`: more than half the contract's card points, bonuses ignored (82 of 162).
        margin = t_total - d_total if options.get("threshold", "totals") == "totals" else 2 * t_card - total
        if margin > 0:
            outcome = "made"
        elif margin < 0:
            outcome = "dedans"
        else:
            outcome = options.get("tie", "litige")

        mult = contract.multiplier
        rounding = options.get("rounding", "none") == "nearest_ten"
        reserve_out = 0
        if outcome == "made":
            t_score = t_total * mult
            d_score = d_total * mult
        elif outcome == "dedans":
            to_defence = options.get("belote_when_dedans", "keep") == "defence"
            # The whole donne, or the capot value when the defence took every trick.
            d_base = d_card if d_card > total else total
            d_score = (d_base + t_ann + d_ann + d_belote + (t_belote if to_defence else 0)) * mult
            t_score = 0 if to_defence else t_belote * mult
        else:
            held = t_total * mult
            t_score = 0
            d_score = d_total * mult
            reserve_out = reserve + (round_to_ten(held) if rounding else held)
        if rounding:
            t_score = round_to_ten(t_score)
            d_score = round_to_ten(d_score)
        # The reserve (already rounded when it was held) goes to the donne's winner.
        if outcome == "made":
            t_score += reserve
        elif outcome == "dedans":
            d_score += reserve
        scores = (t_score, d_score) if taker_is_a else (d_score, t_score)
        return HandScore(scores, outcome, reserve_out)

    def result_json(self, score: HandScore) -> dict[str, Any]:
        return {
            "scores": {"A": score.scores[0], "B": score.scores[1]},
            "outcome": score.outcome,
            "reserve_out": score.reserve_out,
        }

    # -- random hands -----------------------------------------------------------------

    def random_contract(self, rng: random.Random) -> Contract:
        return self.contracts[rng.choice(tuple(self.contracts))]

    def random_hand(self, rng: random.Random) -> dict[str, Any]:
        """A plausible donne: the taker makes it about three times in four.

        About 3 % of donnes are redealt, 3 % capot, a quarter carry a belote, a third
        some announcements.
        """
        if rng.random() < 0.03:
            return {"cancelled": True}
        contract = self.random_contract(rng)
        total = contract.total
        taker = rng.choice(TEAMS)
        defence = OTHER[taker]
        hand: dict[str, Any] = {"taker": taker, "contract": contract.name}
        if rng.random() < 0.03:
            capot = taker if rng.random() < 0.9 else defence
            hand["points"] = {capot: total, OTHER[capot]: 0}
            hand["capot"] = capot
        else:
            taken = min(total, max(0, round(rng.gauss(0.6 * total, 0.15 * total))))
            while taken in contract.impossible:
                taken += 1 if taken < total // 2 else -1
            hand["points"] = {taker: taken, defence: total - taken}
        if contract.max_belote == 1 and rng.random() < 0.25:
            hand["belote"] = [taker if rng.random() < 0.6 else defence]
        elif contract.max_belote > 1:
            belotes = [taker if rng.random() < 0.6 else defence for _ in SUITS if rng.random() < 0.1]
            if belotes:
                hand["belote"] = belotes
        announced = {team: _random_announcements(rng) if rng.random() < 0.2 else [] for team in TEAMS}
        if announced["A"] or announced["B"]:
            hand["announcements"] = announced
            if announced["A"] and announced["B"]:
                hand["order"] = rng.choice(TEAMS)
            # Drawn announcements may share a card or hide a belote's king: drop them then.
            if self.validate(hand, {"announcements": "on"}):
                del hand["announcements"]
                hand.pop("order", None)
        return hand


def _random_announcements(rng: random.Random) -> list[dict[str, Any]]:
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
