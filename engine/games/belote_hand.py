"""The hand of a belote at four and its validation, for every game of the family.

A referee's hand (docs/engine-cli.md) is `taker`, `contract`, `points`, and optionally
`capot`, `belote`, `announcements`, `order`, `reserve_in`, `cancelled`; a game adds its
own fields (belote contrée's `bid` and `coinche`) through the hooks of `TeamBelote`.
`validate` names every problem of a hand, each with its dotted field, and never raises;
an everyday hand is accepted in one quick pass first, since whole tournaments are
validated in bulk. Terms are belote_common's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core import Game, HandScore, RuleError, gettext_noop, rule_error
from engine.games import announcements as annonces
from engine.games import hand_schema as js
from engine.games.belote_common import (
    HAND_FIELDS,
    OTHER,
    PLAIN_VALUES,
    SUITS,
    TEAM_CARDS,
    TEAMS,
    TRUMP_VALUES,
    Contract,
    team_announcements,
)
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

_TEAM_SET = frozenset(TEAMS)


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

    # -- the hand's schema -------------------------------------------------------------

    def hand_schema(self) -> dict[str, Any]:
        contracts = tuple(self.contracts.values())
        totals = sorted({contract.total for contract in contracts})
        most_belotes = max(contract.max_belote for contract in contracts)
        bidding, bidding_required = self._bidding_schema()
        properties = {
            "taker": js.choice(TEAMS, "The taking team."),
            "contract": js.choice(self.contracts, self._contract_description()),
            **bidding,
            "points": js.record(
                {team: js.integer(0, totals[-1]) for team in TEAMS},
                required=TEAMS,
                description="Each team's card points, dix de der included; they add up to the contract's total ("
                + ", ".join(str(total) for total in totals)
                + "), a capot team holding them all.",
            ),
            "capot": js.nullable(js.choice(TEAMS, "The team that took every trick.")),
            "belote": js.nullable(
                js.array(
                    js.choice(TEAMS),
                    "The team that held belote-rebelote, once per belote (at most one at a suit).",
                    max_items=most_belotes,
                )
            ),
            "announcements": js.nullable(
                js.record(
                    {team: js.nullable(js.announcements()) for team in TEAMS},
                    description="Each team's announcements.",
                )
            ),
            "order": js.nullable(
                js.choice(
                    TEAMS,
                    "The team that announced first: needed on equal best announcements when the tournament "
                    "plays announcement_tie: first_in_play.",
                )
            ),
            "reserve_in": js.nullable(
                js.integer(0, None, "Litige points held from earlier donnes (a partie fills this in itself).")
            ),
            "cancelled": js.nullable(js.boolean("true for a redealt donne: it needs no other field.")),
        }
        return js.hand(
            self.code,
            f'One donne of {self.code}, teams A and B. A redealt donne is {{"cancelled": true}}.',
            properties,
            ("taker", "contract", *bidding_required, "points"),
            cancellable=True,
        )

    def _contract_description(self) -> str:
        return "The trump suit, or the contract."

    def _bidding_schema(self) -> tuple[dict[str, Any], tuple[str, ...]]:
        """The schema of the fields `_check_bidding` checks, and which of them a played donne needs."""
        return {}, ()

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
            if belote and self._belote_conflict(belote, announced["A"], announced["B"], contract):
                errors.append(
                    rule_error(
                        "belote",
                        "belote_conflict",
                        gettext_noop(
                            "Belote-rebelote needs a king and queen of trump that the other team's announcements hold."
                        ),
                    )
                )
            if order is None and self._tie_needs_order(announced["A"], announced["B"], contract, options):
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
        taker, a contract, card points, perhaps a capot, a belote or announcements. This
        pass accepts such a hand when every field is sound and answers False for
        anything else (a cancelled donne, a reserve, an announcement object that is not
        a dict, any doubt), which `_problems` then checks field by field to name every
        problem. It must never accept what the field-by-field checks refuse: a property
        test holds it to that.
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
        order = hand.get("order")
        if order is not None and (type(order) is not str or order not in TEAMS):
            return False
        announced = hand.get("announcements")
        if announced is not None:
            if type(announced) is not dict or not announced.keys() <= _TEAM_SET:
                return False
            items_a = announced.get("A")
            items_b = announced.get("B")
            if items_a is None:
                items_a = ()
            if items_b is None:
                items_b = ()
            if not annonces.plainly_sound((items_a, items_b), TEAM_CARDS):
                return False
            if (items_a or items_b) and (
                (self.refuses_unplayed_announcements and options["announcements"] == "off")
                or (belote and self._belote_conflict(belote, items_a, items_b, contract))
                or (order is None and self._tie_needs_order(items_a, items_b, contract, options))
            ):
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
    def _tie_needs_order(
        items_a: Sequence[Mapping[str, Any]],
        items_b: Sequence[Mapping[str, Any]],
        contract: Contract,
        options: Mapping[str, Any],
    ) -> bool:
        """Whether sound announcements tie for the best where the options need `order` named."""
        if options["announcements"] != "on" or options["announcement_tie"] != "first_in_play":
            return False
        best_a, _ = team_announcements(items_a, contract)
        best_b, _ = team_announcements(items_b, contract)
        return best_a >= 0 and best_a == best_b

    @staticmethod
    def _belote_conflict(
        belote: Sequence[str],
        items_a: Sequence[Mapping[str, Any]],
        items_b: Sequence[Mapping[str, Any]],
        contract: Contract,
    ) -> bool:
        """Whether a belote's king or queen sits in the other team's sound announcements."""
        # The trump kings and queens each team's announcements show, as the suits they sit in.
        shown: dict[str, set[str]] = {"A": set(), "B": set()}
        for team, items in (("A", items_a), ("B", items_b)):
            for item in items:
                if item["kind"] == "carre":
                    if item["high"] in ("K", "Q"):
                        shown[team].update(SUITS)
                elif item.get("suit") is not None:
                    start = annonces.RANKS.index(item["high"])
                    ranks = annonces.RANKS[start : start + annonces.SEQUENCE_LENGTH[item["kind"]]]
                    if "K" in ranks or "Q" in ranks:
                        shown[team].add(item["suit"])
        if not contract.all_trump:
            return contract.trump in shown[OTHER[belote[0]]]
        # Tout atout: each belote needs its own suit whose king and queen the other team
        # does not show; both teams together need distinct suits (Hall's condition).
        counts = {team: belote.count(team) for team in TEAMS}
        free = {team: set(SUITS) - shown[OTHER[team]] for team in TEAMS}
        return (
            counts["A"] > len(free["A"])
            or counts["B"] > len(free["B"])
            or counts["A"] + counts["B"] > len(free["A"] | free["B"])
        )

    def result_json(self, score: HandScore) -> dict[str, Any]:
        return {
            "scores": {"A": score.scores[0], "B": score.scores[1]},
            "outcome": score.outcome,
            "reserve_out": score.reserve_out,
        }
