"""Belote for four players in two teams: what belote classique and belote moderne share.

Terms:

- *team* (équipe): `"A"` or `"B"`, two partners facing each other.
- *preneur* (taker): the team that chose the contract; the other team is the *défense*.
- *contract*: the trump suit (`clubs`, `diamonds`, `hearts`, `spades`), or in belote
  moderne *sans atout* (no trump, ×2) and *tout atout* (every suit trump, ×3).
- *card points*: what a team's tricks are worth, the *dix de der* (10 for the last trick)
  included; both teams' add up to the contract's total (162, 130 or 258).
- *belote-rebelote*: the king and queen of trump in one hand, 20 points to their team.
- *annonce*: a combination shown at the first trick (tierce, cinquante, cent, carré);
  only the team holding the single best one scores, and it scores all of its own.
- *capot*: one team took every trick; it scores the contract's total + 88 (or + 90).
- *dedans*: the taker failed; the defence scores the whole donne.
- *litige*: a tie; the defence scores its own total and the taker's is held in a
  *reserve* for the winner of the next donne.
- *multiplier*: belote moderne's ×2 (sans atout) and ×3 (tout atout), applied to
  everything a team scores; a reserve is stored already multiplied.

Every rule and option here is settled by rules/DECISIONS.md. `validate` refuses a hand
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
_TEAM_SET = frozenset(TEAMS)
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


class TeamBelote(Game):
    """Belote at four in two teams: the hand's fields, their validation and the result.

    A subclass names its code, its contracts and options, and scores. Hooks for a game
    with more to check (belote contrée's bid and coinche): `hand_fields`,
    `allowed_contracts`, `_check_bidding`, `refuses_unplayed_announcements`.
    """

    players_per_table = 4
    sides = TEAMS
    card_values: ClassVar[Mapping[str, Mapping[str, int]]] = {"trump": TRUMP_VALUES, "plain": PLAIN_VALUES}
    contracts: ClassVar[Mapping[str, Contract]]
    hand_fields: ClassVar[frozenset[str]] = HAND_FIELDS
    # Announcements given while the option is off: ignored (belote classique), or refused.
    refuses_unplayed_announcements: ClassVar[bool] = False
    # A partie's default target and the range a tournament may choose (match.py reads them).
    default_target: ClassVar[int]
    target_range: ClassVar[tuple[int, int] | None] = None
    # The match carries litige reserves from one donne to the next.
    keeps_reserve: ClassVar[bool] = True

    def allowed_contracts(self, options: Mapping[str, Any]) -> Mapping[str, Contract]:
        """The contracts a tournament with these options plays (all of `contracts` here)."""
        return self.contracts

    # -- validation -------------------------------------------------------------------

    def validate(self, hand: Any, options: Mapping[str, Any]) -> list[RuleError]:
        if type(hand) is dict and self._plainly_valid(hand, options):
            return []
        return self._problems(hand, options)

    def _problems(self, hand: Any, options: Mapping[str, Any]) -> list[RuleError]:
        """Every problem of a hand, field by field."""
        if not isinstance(hand, Mapping):
            return [not_an_object("", hand)]
        errors = unknown_fields(hand, self.hand_fields)
        cancelled = hand.get("cancelled")
        if cancelled is not None:
            cancelled = check_bool(errors, "cancelled", cancelled)
        if hand.get("reserve_in") is not None:
            self._check_reserve_in(errors, hand["reserve_in"], options)
        self._team_field(errors, hand, "taker", required_=not cancelled)
        contracts = self.allowed_contracts(options)
        contract = self._contract_field(errors, hand, contracts, required_=not cancelled)
        self._check_bidding(errors, hand, options, cancelled=bool(cancelled))
        if cancelled:
            # A redealt donne scores nothing: what else the referee noted is not checked.
            return errors
        # A contract that is wrong leaves every contract played as the candidates, so
        # that the points are still checked against what any of them allows.
        candidates = (contract,) if contract is not None else tuple(contracts.values())
        points = self._points_field(errors, hand, candidates)
        capot = self._team_field(errors, hand, "capot", required_=False)
        if capot is not None and points is not None and points[OTHER[capot]] != 0:
            errors.append(
                rule_error(
                    "capot",
                    "capot_points",
                    gettext_noop("A capot team has all {total} card points and the other team none."),
                    total=points["A"] + points["B"],
                )
            )
        belote = self._belote_field(errors, hand, contract, candidates)
        announced = self._announcements_field(errors, hand)
        order = self._team_field(errors, hand, "order", required_=False)
        if announced is not None:
            self._check_announcements_played(errors, announced, options)
        if announced is not None and contract is not None:
            # Announcements that are off score nothing, but must still be possible cards.
            if belote:
                errors.extend(self._belote_conflicts(belote, announced, contract))
            if options["announcements"] == "on" and options["announcement_tie"] == "first_in_play" and order is None:
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

    def _plainly_valid(self, hand: dict[str, Any], options: Mapping[str, Any]) -> bool:
        """Whether a hand of the everyday shape is valid, judged in one quick pass.

        Entering and re-scoring whole tournaments validates every hand, and most are a
        taker, a contract, card points, perhaps a capot or a belote, and nothing
        announced. This pass accepts such a hand when every field is sound and answers
        False for anything else (a cancelled donne, a reserve, an announcement, any
        doubt), which `_problems` then checks field by field to name every problem. It
        must never accept what the field-by-field checks refuse: a property test holds
        it to that.
        """
        cancelled = hand.get("cancelled")
        reserve_in = hand.get("reserve_in")
        if (
            not hand.keys() <= self.hand_fields
            or (cancelled is not None and cancelled is not False)
            or (reserve_in is not None and (type(reserve_in) is not int or reserve_in != 0))
        ):
            return False
        taker = hand.get("taker")
        name = hand.get("contract")
        if type(taker) is not str or taker not in TEAMS or type(name) is not str:
            return False
        contract = self.allowed_contracts(options).get(name)
        points = hand.get("points")
        if contract is None or type(points) is not dict or len(points) != 2:
            return False
        points_a = points.get("A")
        points_b = points.get("B")
        if (
            type(points_a) is not int
            or type(points_b) is not int
            or points_a < 0
            or points_b < 0
            or points_a + points_b != contract.total
            or points_a in contract.impossible
            or points_b in contract.impossible
        ):
            return False
        capot = hand.get("capot")
        if capot is not None and (type(capot) is not str or capot not in TEAMS or points[OTHER[capot]] != 0):
            return False
        belote = hand.get("belote")
        if belote is not None:
            if (type(belote) is not list and type(belote) is not tuple) or len(belote) > contract.max_belote:
                return False
            for team in belote:
                if type(team) is not str or team not in TEAMS:
                    return False
        announced = hand.get("announcements")
        if announced is not None:
            if type(announced) is not dict or not announced.keys() <= _TEAM_SET:
                return False
            for items in announced.values():
                if items is not None and ((type(items) is not list and type(items) is not tuple) or items):
                    return False
        order = hand.get("order")
        if order is not None and (type(order) is not str or order not in TEAMS):
            return False
        return self._plain_bidding(hand, options)

    def _plain_bidding(self, hand: dict[str, Any], options: Mapping[str, Any]) -> bool:
        """`_plainly_valid` for the fields `_check_bidding` checks (none here)."""
        return True

    def _check_reserve_in(self, errors: list[RuleError], value: object, options: Mapping[str, Any]) -> None:
        check_int(errors, "reserve_in", value, 0, None)

    def _check_bidding(
        self, errors: list[RuleError], hand: Mapping[str, Any], options: Mapping[str, Any], *, cancelled: bool
    ) -> None:
        """The fields of the bidding beyond the taker and the contract (none here)."""

    def _check_announcements_played(
        self, errors: list[RuleError], announced: Mapping[str, list[Any]], options: Mapping[str, Any]
    ) -> None:
        if self.refuses_unplayed_announcements and options["announcements"] == "off" and any(announced.values()):
            errors.append(
                rule_error(
                    "announcements",
                    "announcements_off",
                    gettext_noop("Announcements are not played in this tournament: leave them out."),
                )
            )

    @staticmethod
    def _team_field(errors: list[RuleError], hand: Mapping[str, Any], name: str, *, required_: bool) -> str | None:
        value = hand.get(name)
        if value is None:
            if required_:
                errors.append(required(name))
            return None
        return check_choice(errors, name, value, TEAMS)

    def _contract_field(
        self,
        errors: list[RuleError],
        hand: Mapping[str, Any],
        contracts: Mapping[str, Contract],
        *,
        required_: bool,
    ) -> Contract | None:
        value = hand.get("contract")
        if value is None:
            if required_:
                errors.append(required("contract"))
            return None
        if type(value) is str and value in self.contracts and value not in contracts:
            errors.append(
                rule_error(
                    "contract",
                    "contract_not_played",
                    gettext_noop("Sans atout and tout atout are not played in this tournament."),
                )
            )
            return None
        name = check_choice(errors, "contract", value, tuple(contracts))
        return None if name is None else contracts[name]

    @staticmethod
    def _points_field(
        errors: list[RuleError], hand: Mapping[str, Any], candidates: Sequence[Contract]
    ) -> dict[str, int] | None:
        """Each team's card points; both, when they add up to a candidate contract's total."""
        value = hand.get("points")
        if value is None:
            errors.append(required("points"))
            return None
        if not isinstance(value, Mapping):
            errors.append(not_an_object("points", value))
            return None
        before = len(errors)
        errors.extend(unknown_fields(value, TEAMS, "points"))
        totals = sorted({contract.total for contract in candidates})
        # A value is impossible only when no candidate contract can make it.
        impossible = frozenset.intersection(*(contract.impossible for contract in candidates))
        points: dict[str, int] = {}
        for team in TEAMS:
            field = path("points", team)
            if team not in value:
                errors.append(required(field))
                continue
            checked = check_int(errors, field, value[team], 0, totals[-1])
            if checked is None:
                continue
            points[team] = checked
            if checked in impossible:
                errors.append(
                    rule_error(
                        field,
                        "impossible_points",
                        gettext_noop("No set of tricks is worth exactly {value} points in this contract."),
                        value=checked,
                    )
                )
        if len(errors) > before:
            return None
        added = points["A"] + points["B"]
        if added in totals:
            return points
        if len(totals) == 1:
            errors.append(
                rule_error(
                    "points",
                    "points_sum",
                    gettext_noop("The two teams' card points must add up to {total}, dix de der included, not {sum}."),
                    total=totals[0],
                    sum=added,
                )
            )
        else:
            errors.append(
                rule_error(
                    "points",
                    "points_sum",
                    gettext_noop(
                        "The two teams' card points must add up to the contract's total ({totals}), "
                        "dix de der included, not {sum}."
                    ),
                    totals=", ".join(str(total) for total in totals),
                    sum=added,
                )
            )
        return None

    @staticmethod
    def _belote_field(
        errors: list[RuleError], hand: Mapping[str, Any], contract: Contract | None, candidates: Sequence[Contract]
    ) -> list[str] | None:
        value = hand.get("belote")
        if value is None:
            return []
        items = check_list(errors, "belote", value)
        if items is None:
            return None
        teams = [check_choice(errors, path("belote", i), item, TEAMS) for i, item in enumerate(items)]
        most = max(candidate.max_belote for candidate in candidates)
        if len(items) > most:
            if most == 0:
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
                        max=most,
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

    def result_json(self, score: HandScore) -> dict[str, Any]:
        return {
            "scores": {"A": score.scores[0], "B": score.scores[1]},
            "outcome": score.outcome,
            "reserve_out": score.reserve_out,
        }


class FourPlayerBelote(TeamBelote):
    """Belote classique and belote moderne: each team scores its own total, or the whole
    donne goes to the defence (dedans), or a tie opens a litige."""

    option_specs = OPTION_SPECS

    def score(self, hand: Mapping[str, Any], options: Mapping[str, Any], carry: int = 0) -> HandScore:
        reserve = carry or hand.get("reserve_in") or 0
        if hand.get("cancelled"):
            return HandScore((0, 0), "cancelled", reserve)
        contract = self.contracts[hand["contract"]]
        cards = card_points(hand, contract.total + (90 if options["capot_value"] == 252 else 88))
        belote = belote_points(hand)
        announced = announcement_points(hand, contract, options)
        # From here on: the taker's side first, the defence's second, each as
        # (card points, belote, announcements).
        t, d = (0, 1) if hand["taker"] == "A" else (1, 0)
        taker = (cards[t], belote[t], announced[t])
        defence = (cards[d], belote[d], announced[d])
        outcome = self._outcome(taker, defence, contract.total, options)
        t_score, d_score, reserve_out = self._settle(outcome, taker, defence, contract, options, reserve)
        return HandScore((t_score, d_score) if t == 0 else (d_score, t_score), outcome, reserve_out)

    @staticmethod
    def _outcome(
        taker: tuple[int, int, int], defence: tuple[int, int, int], total: int, options: Mapping[str, Any]
    ) -> str:
        """made, dedans, or what the `tie` option makes of a tie."""
        # `card_points`: more than half the contract's card points, bonuses ignored (82 of 162).
        margin = sum(taker) - sum(defence) if options["threshold"] == "totals" else 2 * taker[0] - total
        if margin > 0:
            return "made"
        if margin < 0:
            return "dedans"
        outcome: str = options["tie"]
        return outcome

    @staticmethod
    def _settle(
        outcome: str,
        taker: tuple[int, int, int],
        defence: tuple[int, int, int],
        contract: Contract,
        options: Mapping[str, Any],
        reserve: int,
    ) -> tuple[int, int, int]:
        """The taker's score, the defence's and the reserve held after the donne."""
        mult = contract.multiplier
        rounding = options["rounding"] == "nearest_ten"
        reserve_out = 0
        if outcome == "made":
            t_score = sum(taker) * mult
            d_score = sum(defence) * mult
        elif outcome == "dedans":
            _, t_belote, t_ann = taker
            d_card, d_belote, d_ann = defence
            to_defence = options["belote_when_dedans"] == "defence"
            # The whole donne, or the capot value when the defence took every trick.
            d_base = d_card if d_card > contract.total else contract.total
            d_score = (d_base + t_ann + d_ann + d_belote + (t_belote if to_defence else 0)) * mult
            t_score = 0 if to_defence else t_belote * mult
        else:
            held = sum(taker) * mult
            t_score = 0
            d_score = sum(defence) * mult
            reserve_out = reserve + (round_to_ten(held) if rounding else held)
        if rounding:
            t_score = round_to_ten(t_score)
            d_score = round_to_ten(d_score)
        # The reserve (already rounded when it was held) goes to the donne's winner.
        if outcome == "made":
            t_score += reserve
        elif outcome == "dedans":
            d_score += reserve
        return t_score, d_score, reserve_out

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
        hand: dict[str, Any] = {"taker": taker, "contract": contract.name}
        if rng.random() < 0.03:
            random_capot(hand, contract, taker if rng.random() < 0.9 else OTHER[taker])
        else:
            hand["points"] = random_points(rng, contract, taker, 0.6 * total, 0.15 * total)
        belote = random_belote(rng, contract, taker)
        if belote:
            hand["belote"] = belote
        announced = {team: _random_announcements(rng) if rng.random() < 0.2 else [] for team in TEAMS}
        if announced["A"] or announced["B"]:
            hand["announcements"] = announced
            if announced["A"] and announced["B"]:
                hand["order"] = rng.choice(TEAMS)
            # Drawn announcements may share a card or hide a belote's king: drop them then.
            if self.validate(hand, self.resolve_options({"announcements": "on"})):
                del hand["announcements"]
                hand.pop("order", None)
        return hand


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
