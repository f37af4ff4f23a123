"""Belote à 3: three players, each alone, the taker against the two others.

Terms (preneur, donne, dix de der, capot, belote-rebelote, annonces, dedans):
docs/glossary.md; the rules: docs/rules.md, "Belote à 3". Five cards are never played,
so the players' card points add up to 95-162 rather than 162. A player who took no trick
is capot: any capot cancels the dix de der; with one capot the two others get 50 each;
with two, the player who took all 9 tricks gets 100. The taker falls unless it scores
strictly more than each opponent; its whole total then goes to the opponent with more
points, or is shared by two opponents level with each other and at least with it.

Order of evaluation (example 5 of the rule text depends on it): card points, capot
adjustments, belote and announcements, contract test, transfer; then the optional
rounding to the nearest ten, applied to the final scores so that it never decides the
contract.

A hand with `cancelled: true` is a redealt donne (all passed, or a carré of sevens): it
needs no other field; a taker or contract given is checked, anything else ignored; it
scores 0 for everyone with outcome `cancelled`, as in the games at four.

`order` (optional, a player): with `announcement_tie: first_in_play`, the player who
announced first among those tied for the best announcement; required on such a tie.

With `split_rounding: half_points` a shared odd total gives each opponent a half point:
such a score is a float ending in .5; every other score is an int.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core import Game, HandScore, Number, OptionSpec, Preset, RuleError, gettext_noop, preset, rule_error
from engine.games import announcements as ann
from engine.games import hand_schema as js
from engine.games.checks import (
    check_bool,
    check_choice,
    check_int,
    check_length,
    check_list,
    not_an_object,
    path,
    required,
    unknown_fields,
)

PLAYERS = (0, 1, 2)
FIELDS = frozenset(
    {"taker", "contract", "points", "last_trick", "capot", "belote", "announcements", "order", "cancelled"}
)
DIX_DE_DER = 10
MIN_TOTAL, MAX_TOTAL = 95, 162
ONE_CAPOT_PRIME, TWO_CAPOTS_PRIME = 50, 100
BELOTE = 20
# A player's 9 cards when announcing, at the first trick.
CARDS_IN_HAND = 9

TRUMP_VALUES: Mapping[str, int] = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_VALUES: Mapping[str, int] = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

# Card points a set of tricks can be worth without the dix de der: all of 0..152 but 1
# (no card is worth 1) and 151 (every card but a 1).
CARD_POINTS = frozenset(range(153)) - {1, 151}
# ... and so the raw points nobody can have, with or without the dix de der.
IMPOSSIBLE_POINTS = frozenset(range(MAX_TOTAL + 1)) - CARD_POINTS - {p + DIX_DE_DER for p in CARD_POINTS}
POSSIBLE_POINTS = frozenset(range(MAX_TOTAL + 1)) - IMPOSSIBLE_POINTS

CANCELLED = HandScore(scores=(0, 0, 0), outcome="cancelled", extra={"taker_points_to": ()})


OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "split_rounding",
        ("down", "half_points"),
        "Two opponents level share the taker's total: each gets half, rounded down or kept as a half point.",
    ),
    OptionSpec("announcements", ("on", "off"), "Announcements score (off: any given are ignored)."),
    OptionSpec(
        "announcement_tie",
        ("nobody", "first_in_play"),
        "Equal best announcements: nobody scores, or the player named by `order` (who announced first).",
    ),
    OptionSpec("rounding", ("none", "nearest_ten"), "Round each final score to the nearest ten, 5 up."),
)
# No federation plays belote for three: the rule text's reading is the only preset.
PRESETS: tuple[Preset, ...] = (
    preset(
        "atout",
        gettext_noop("Atout's default (the rule text)"),
        gettext_noop("The rule text as written: announcements played, two level opponents share halves rounded down."),
        OPTION_SPECS,
    ),
)


class BeloteATrois(Game):
    code: ClassVar[str] = "belote_a_trois"
    players_per_table: ClassVar[int] = 3
    sides: ClassVar[tuple[int, ...]] = PLAYERS
    option_specs: ClassVar[tuple[OptionSpec, ...]] = OPTION_SPECS
    presets: ClassVar[tuple[Preset, ...]] = PRESETS
    card_values: ClassVar[Mapping[str, Mapping[str, Number]]] = {"trump": TRUMP_VALUES, "plain": PLAIN_VALUES}

    # -- the hand's schema ----------------------------------------------------------------

    def hand_schema(self) -> dict[str, Any]:
        player = js.integer(0, len(PLAYERS) - 1)
        properties = {
            "taker": js.integer(0, len(PLAYERS) - 1, "The taking player."),
            "contract": js.choice(ann.SUITS, "The trump suit."),
            "points": js.array(
                js.integer(0, MAX_TOTAL),
                f"Each player's card points, the dix de der included for whoever took the last trick; "
                f"with five cards unplayed they add up to {MIN_TOTAL} to {MAX_TOTAL}.",
                min_items=len(PLAYERS),
                max_items=len(PLAYERS),
            ),
            "last_trick": js.nullable(
                js.integer(0, len(PLAYERS) - 1, "The player who took the last trick: needed when someone is capot.")
            ),
            "capot": js.nullable(
                js.array(player, "The players who took no trick.", max_items=len(PLAYERS) - 1, unique=True)
            ),
            "belote": js.nullable(js.array(player, "The player who held belote-rebelote.", max_items=1)),
            "announcements": js.nullable(
                js.array(
                    js.announcements(),
                    "Each player's announcements, one list per player.",
                    min_items=len(PLAYERS),
                    max_items=len(PLAYERS),
                )
            ),
            "order": js.nullable(
                js.integer(
                    0,
                    len(PLAYERS) - 1,
                    "With announcement_tie: first_in_play, the tied player who announced first.",
                )
            ),
            "cancelled": js.nullable(js.boolean("true for a redealt donne: it needs no other field.")),
        }
        return js.hand(
            self.code,
            f'One donne of {self.code}, players 0, 1 and 2. A redealt donne is {{"cancelled": true}}.',
            properties,
            ("taker", "contract", "points"),
            cancellable=True,
        )

    # -- validation ---------------------------------------------------------------------

    def validate(self, hand: Any, options: Mapping[str, Any]) -> list[RuleError]:
        if type(hand) is dict and _plainly_valid(hand, options):
            return []
        return self._problems(hand, options)

    def _problems(self, hand: Any, options: Mapping[str, Any]) -> list[RuleError]:
        """Every problem of a hand, field by field."""
        if not isinstance(hand, Mapping):
            return [not_an_object("", hand)]
        errors = [] if hand.keys() <= FIELDS else unknown_fields(hand, FIELDS)
        cancelled = hand.get("cancelled")
        # A malformed `cancelled` is reported and the rest checked as a played donne.
        if cancelled is not None:
            cancelled = check_bool(errors, "cancelled", cancelled)
        _player(errors, hand, "taker", needed=not cancelled)
        contract = _contract(errors, hand, needed=not cancelled)
        if cancelled:
            # A redealt donne scores nothing: what else the referee noted is not checked.
            return errors
        points = _points(errors, hand.get("points"))
        last_trick = _player(errors, hand, "last_trick", needed=False)
        capot = _players(errors, hand, "capot", at_most=2)
        belote = _players(errors, hand, "belote", at_most=1)
        order = _player(errors, hand, "order", needed=False)
        announced = _announcements(errors, hand.get("announcements"))

        if points is not None:
            _check_tricks(errors, points, last_trick, capot, hand.get("last_trick") is not None)
        if announced is not None and contract is not None:
            if belote and _belote_clash(belote[0], announced, contract):
                errors.append(
                    rule_error(
                        "belote",
                        "belote_conflict",
                        gettext_noop(
                            "Player {player} cannot hold belote-rebelote: another player's announcement "
                            "holds a king or queen of trump."
                        ),
                        player=belote[0],
                    )
                )
            if options["announcement_tie"] == "first_in_play":
                _check_order(errors, announced, contract, order)
        return errors

    # -- scoring --------------------------------------------------------------------------

    def score(self, hand: Mapping[str, Any], options: Mapping[str, Any], carry: int = 0) -> HandScore:
        if hand.get("cancelled"):
            return CANCELLED
        totals: list[Number] = list(hand["points"])
        capot = hand.get("capot")
        if capot:
            totals[hand["last_trick"]] -= DIX_DE_DER
            if len(capot) == 1:
                for player in PLAYERS:
                    if player != capot[0]:
                        totals[player] += ONE_CAPOT_PRIME
            else:
                # The one player left took all nine tricks.
                totals[3 - capot[0] - capot[1]] += TWO_CAPOTS_PRIME
        belote = hand.get("belote")
        if belote:
            totals[belote[0]] += BELOTE
        announced = hand.get("announcements")
        if announced and options["announcements"] == "on" and (announced[0] or announced[1] or announced[2]):
            scorer, scored = ann.scorer_and_points(
                enumerate(announced), hand["contract"], options["announcement_tie"], hand.get("order")
            )
            if scorer is not None:
                totals[scorer] += scored

        taker = hand["taker"]
        first, second = (taker + 1) % 3, (taker + 2) % 3
        taken = totals[taker]
        points_to: tuple[int, ...] = ()
        if totals[first] < taken and totals[second] < taken:
            outcome = "made"
        else:
            outcome = "dedans"
            totals[taker] = 0
            if totals[first] != totals[second]:
                winner = first if totals[first] > totals[second] else second
                totals[winner] += taken
                points_to = (winner,)
            else:
                # Both level with each other and at least level with the taker.
                share: Number = taken // 2
                if options["split_rounding"] == "half_points" and taken % 2:
                    share = taken / 2
                totals[first] += share
                totals[second] += share
                points_to = (min(first, second), max(first, second))
        if options["rounding"] == "nearest_ten":
            totals = [int((t + 5) // 10 * 10) for t in totals]
        return HandScore(scores=tuple(totals), outcome=outcome, extra={"taker_points_to": points_to})

    def result_json(self, score: HandScore) -> dict[str, Any]:
        return {
            "scores": list(score.scores),
            "outcome": score.outcome,
            "taker_points_to": list(score.extra.get("taker_points_to", ())),
        }

    # -- simulation -----------------------------------------------------------------------

    def random_hand(self, rng: random.Random) -> dict[str, Any]:
        """Deal 32 cards and play the 27 dealt ones out, so every field is consistent.

        The strongest trump holding takes; the play follows suit, else trumps, and
        mostly tries to win the trick, so capots, belotes and announcements come about as
        often as the cards make them (a capot in about one donne in five).
        """
        deck = [(suit, rank) for suit in ann.SUITS for rank in ann.RANKS]
        rng.shuffle(deck)
        hands = [deck[0:9], deck[9:18], deck[18:27]]
        if any(sum(1 for _, rank in h if rank == "7") == 4 for h in hands):
            # A carré of sevens: the referee records the donne as cancelled.
            return {"cancelled": True}
        # The player with the strongest trump holding takes, in that suit.
        taker, trump = max(
            ((p, suit) for p in PLAYERS for suit in ann.SUITS),
            key=lambda ps: sum(5 + TRUMP_VALUES[r] for s, r in hands[ps[0]] if s == ps[1]) + rng.random(),
        )
        points, won, last = _play(rng, [list(h) for h in hands], trump, leader=rng.randrange(3))

        belote = [p for p in PLAYERS if (trump, "K") in hands[p] and (trump, "Q") in hands[p]]
        announced = [_announcements_in(h) for h in hands]
        hand: dict[str, Any] = {
            "taker": taker,
            "contract": trump,
            "points": points,
            "last_trick": last,
            "capot": [p for p in PLAYERS if won[p] == 0],
            "belote": belote,
            "announcements": announced,
        }
        tied = ann.best_holders(enumerate(announced), trump)
        if len(tied) > 1:
            hand["order"] = rng.choice(tied)
        return hand


# -- validation helpers ---------------------------------------------------------------------

_SUIT_SET = frozenset(ann.SUITS)


def _plainly_valid(hand: dict[str, Any], options: Mapping[str, Any]) -> bool:
    """Whether a hand is valid, judged in one quick pass that builds nothing.

    Entering and re-scoring whole tournaments validates every hand. This pass accepts a
    hand whose every field is sound and whose fields agree (what `_problems` accepts),
    and answers False for anything unusual (a tuple where JSON gives a list, an
    announcement that is not a dict) or wrong, which `_problems` then checks field by
    field to name every problem. It must never accept what `_problems` refuses: a
    property test holds it to that.
    """
    if not hand.keys() <= FIELDS:
        return False
    cancelled = hand.get("cancelled")
    taker = hand.get("taker")
    contract = hand.get("contract")
    if cancelled is True:
        # A redealt donne: only a taker or contract given is checked.
        return (taker is None or (type(taker) is int and 0 <= taker <= 2)) and (
            contract is None or (type(contract) is str and contract in _SUIT_SET)
        )
    if (
        (cancelled is not None and cancelled is not False)
        or type(taker) is not int
        or not 0 <= taker <= 2
        or type(contract) is not str
        or contract not in _SUIT_SET
    ):
        return False
    points = hand.get("points")
    if type(points) is not list or len(points) != 3:
        return False
    for value in points:
        if type(value) is not int or value not in POSSIBLE_POINTS:
            return False
    if not MIN_TOTAL <= points[0] + points[1] + points[2] <= MAX_TOTAL:
        return False
    last_trick = hand.get("last_trick")
    if last_trick is not None:
        if type(last_trick) is not int or not 0 <= last_trick <= 2:
            return False
        # The dix de der on top of card points for the last trick's holder, card points alone elsewhere.
        for player in PLAYERS:
            if (points[player] - DIX_DE_DER if player == last_trick else points[player]) not in CARD_POINTS:
                return False
    capot = hand.get("capot")
    if capot is not None:
        if type(capot) is not list or len(capot) > 2:
            return False
        if capot:
            if last_trick is None:
                return False
            for player in capot:
                if type(player) is not int or not 0 <= player <= 2 or points[player] != 0 or player == last_trick:
                    return False
            if len(capot) == 2 and capot[0] == capot[1]:
                return False
    belote = hand.get("belote")
    if belote is not None:
        if type(belote) is not list or len(belote) > 1:
            return False
        if belote and (type(belote[0]) is not int or not 0 <= belote[0] <= 2):
            return False
    order = hand.get("order")
    if order is not None and (type(order) is not int or not 0 <= order <= 2):
        return False
    announced = hand.get("announcements")
    if announced is None:
        return True
    if (
        (type(announced) is not list and type(announced) is not tuple)
        or len(announced) != 3
        or not ann.plainly_sound(announced, CARDS_IN_HAND)
    ):
        return False
    if not (announced[0] or announced[1] or announced[2]):
        return True
    if belote and _belote_clash(belote[0], announced, contract):
        return False
    if options["announcement_tie"] == "first_in_play":
        tied = ann.best_holders(enumerate(announced), contract)
        if len(tied) > 1 and order not in tied:
            return False
    return True


def _player(errors: list[RuleError], hand: Mapping[str, Any], field: str, *, needed: bool) -> int | None:
    value = hand.get(field)
    if type(value) is int and 0 <= value <= 2:
        return value
    if value is None:
        if needed:
            errors.append(required(field))
        return None
    return check_int(errors, field, value, 0, 2)


def _contract(errors: list[RuleError], hand: Mapping[str, Any], *, needed: bool) -> str | None:
    value = hand.get("contract")
    if value is None:
        if needed:
            errors.append(required("contract"))
        return None
    return check_choice(errors, "contract", value, ann.SUITS)


def _players(errors: list[RuleError], hand: Mapping[str, Any], field: str, *, at_most: int) -> list[int] | None:
    """A list of distinct players (absent or null: none)."""
    raw = hand.get(field)
    if raw is None:
        return []
    # The usual entries, checked at once: none, or one or two distinct players.
    if type(raw) is list and len(raw) <= at_most:
        if not raw:
            return []
        if all(type(p) is int and 0 <= p <= 2 for p in raw) and len(set(raw)) == len(raw):
            return list(raw)
    items = check_list(errors, field, raw)
    if items is None:
        return None
    before = len(errors)
    players = [check_int(errors, path(field, i), item, 0, 2) for i, item in enumerate(items)]
    for i, player in enumerate(players):
        if player is not None and player in players[:i]:
            errors.append(
                rule_error(path(field, i), "duplicate", gettext_noop("Player {player} is listed twice."), player=player)
            )
    if len(items) > at_most:
        if field == "belote":
            errors.append(
                rule_error(field, "too_many_belotes", gettext_noop("Only one player can hold belote-rebelote."))
            )
        else:
            errors.append(
                rule_error(
                    field,
                    "too_many_capots",
                    gettext_noop("At most two players can be capot: someone takes the tricks."),
                )
            )
    if len(errors) > before:
        return None
    return [p for p in players if p is not None]


def _points(errors: list[RuleError], raw: object) -> list[int] | None:
    if type(raw) is list and len(raw) == 3 and all(type(p) is int and p in POSSIBLE_POINTS for p in raw):
        # The usual entry: three possible points, only their total left to check.
        checked = list(raw)
    else:
        checked_or_none = _points_one_by_one(errors, raw)
        if checked_or_none is None:
            return None
        checked = checked_or_none
    total = sum(checked)
    if not MIN_TOTAL <= total <= MAX_TOTAL:
        errors.append(
            rule_error(
                "points",
                "points_total",
                gettext_noop("The points add up to {total}; with five cards unplayed they add up to {min} to {max}."),
                total=total,
                min=MIN_TOTAL,
                max=MAX_TOTAL,
            )
        )
        return None
    return checked


def _points_one_by_one(errors: list[RuleError], raw: object) -> list[int] | None:
    """Each player's points checked on its own, every problem reported."""
    if raw is None:
        errors.append(required("points"))
        return None
    items = check_list(errors, "points", raw)
    if items is None or not check_length(errors, "points", items, 3):
        return None
    before = len(errors)
    points = [check_int(errors, path("points", i), item, 0, MAX_TOTAL) for i, item in enumerate(items)]
    for i, value in enumerate(points):
        if value in IMPOSSIBLE_POINTS:
            errors.append(
                rule_error(
                    path("points", i),
                    "impossible_points",
                    gettext_noop("No set of tricks is worth exactly {value} points."),
                    value=value,
                )
            )
    if len(errors) > before:
        return None
    return [p for p in points if p is not None]


def _check_tricks(
    errors: list[RuleError], points: list[int], last_trick: int | None, capot: list[int] | None, last_given: bool
) -> None:
    """The cross-checks of card points, last trick and capots."""
    if last_trick is not None:
        # The last trick's holder has the dix de der on top of its card points; the others
        # have card points alone.
        if points[last_trick] - DIX_DE_DER not in CARD_POINTS:
            errors.append(
                rule_error(
                    "last_trick",
                    "last_trick_points",
                    gettext_noop("Player {player} took the last trick but has {points} points: the dix de der is 10."),
                    player=last_trick,
                    points=points[last_trick],
                )
            )
        for player in PLAYERS:
            if player != last_trick and points[player] not in CARD_POINTS:
                errors.append(
                    rule_error(
                        path("points", player),
                        "impossible_without_last_trick",
                        gettext_noop("Without the last trick, no set of tricks is worth exactly {value} points."),
                        value=points[player],
                    )
                )
    if not capot:
        return
    if not last_given:
        errors.append(
            rule_error(
                "last_trick",
                "last_trick_required",
                gettext_noop("Say who took the last trick: a capot cancels the dix de der."),
            )
        )
    for i, player in enumerate(capot):
        if points[player] != 0:
            errors.append(
                rule_error(
                    path("capot", i),
                    "capot_with_points",
                    gettext_noop("Player {player} is capot but has {points} points."),
                    player=player,
                    points=points[player],
                )
            )
        if player == last_trick:
            errors.append(
                rule_error(
                    path("capot", i),
                    "capot_took_last_trick",
                    gettext_noop("Player {player} is capot but took the last trick."),
                    player=player,
                )
            )


def _belote_clash(holder: int, announced: Sequence[Sequence[Mapping[str, Any]]], trump: str) -> bool:
    """Whether another player's sound announcement holds the belote's trump king or queen."""
    for player in PLAYERS:
        if player == holder:
            continue
        for item in announced[player]:
            if item["kind"] == "carre":
                if item["high"] in ("K", "Q"):
                    return True
            elif item.get("suit") == trump:
                start = ann.RANKS.index(item["high"])
                ranks = ann.RANKS[start : start + ann.SEQUENCE_LENGTH[item["kind"]]]
                if "K" in ranks or "Q" in ranks:
                    return True
    return False


def _announcements(errors: list[RuleError], raw: object) -> list[list[dict[str, Any]]] | None:
    """Per player announcement lists, checked one by one and then against each other."""
    if raw is None:
        return [[], [], []]
    sound = _sound_announcements(raw)
    if sound is None:
        sound = _announcements_one_by_one(errors, raw)
        if sound is None:
            return None
    before = len(errors)
    # A card can be announced twice only when there are two announcements.
    if len(sound[0]) + len(sound[1]) + len(sound[2]) > 1:
        errors.extend(ann.validate_consistency((path("announcements", p), sound[p]) for p in PLAYERS))
    return sound if len(errors) == before else None


def _sound_announcements(raw: object) -> list[list[dict[str, Any]]] | None:
    """The three players' lists when each is sound on its own (the usual entry), else None."""
    if type(raw) is not list or len(raw) != 3:
        return None
    sound = []
    for side in raw:
        checked = ann.sound_side(side, CARDS_IN_HAND)
        if checked is None:
            return None
        sound.append(checked)
    return sound


def _announcements_one_by_one(errors: list[RuleError], raw: object) -> list[list[dict[str, Any]]] | None:
    """Each player's list checked on its own, every problem reported."""
    items = check_list(errors, "announcements", raw)
    if items is None or not check_length(errors, "announcements", items, 3):
        return None
    before = len(errors)
    sound: list[list[dict[str, Any]]] = []
    for player, side in enumerate(items):
        side_errors, checked = ann.validate_side(path("announcements", player), side, CARDS_IN_HAND)
        errors.extend(side_errors)
        sound.append(checked or [])
    return None if len(errors) > before else sound


def _check_order(
    errors: list[RuleError], announced: list[list[dict[str, Any]]], trump: str | None, order: int | None
) -> None:
    """With `announcement_tie: first_in_play`, a tie needs `order`: the tied player who announced first."""
    tied = ann.best_holders(enumerate(announced), trump)
    if len(tied) < 2:
        return
    if order is None:
        errors.append(
            rule_error(
                "order",
                "order_required",
                gettext_noop("Players {players} tie for the best announcement: say who announced first."),
                players=", ".join(str(p) for p in tied),
            )
        )
    elif order not in tied:
        errors.append(
            rule_error(
                "order",
                "order_not_tied",
                gettext_noop("Player {player} is not one of the players tied for the best announcement ({players})."),
                player=order,
                players=", ".join(str(p) for p in tied),
            )
        )


# -- simulation helpers -------------------------------------------------------------------


def _announcements_in(cards: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """What a player holding `cards` announces: carrés first, then sequences of what is left."""
    found: list[dict[str, Any]] = []
    held = set(cards)
    # Nobody announces a carré of eights (worth nothing); sevens cancelled the donne.
    for rank in ann.RANKS[:-2]:
        if all((suit, rank) in held for suit in ann.SUITS):
            found.append({"kind": "carre", "high": rank})
            held.difference_update((suit, rank) for suit in ann.SUITS)
    for suit in ann.SUITS:
        run: list[str] = []
        # The empty rank closes a run that reaches the seven.
        for rank in (*ann.RANKS, ""):
            if (suit, rank) in held:
                run.append(rank)
                continue
            if len(run) >= 3:
                kind = "tierce" if len(run) == 3 else "cinquante" if len(run) == 4 else "cent"
                found.append({"kind": kind, "high": run[0], "suit": suit})
            run = []
    return found


# Card order in play (not in announcements): trumps J 9 A 10 K Q 8 7, other suits A 10 K Q J 9 8 7.
TRUMP_ORDER: Mapping[str, int] = {rank: 8 - i for i, rank in enumerate(("J", "9", "A", "10", "K", "Q", "8", "7"))}
PLAIN_ORDER: Mapping[str, int] = {rank: 8 - i for i, rank in enumerate(("A", "10", "K", "Q", "J", "9", "8", "7"))}


def _power(card: tuple[str, str], trump: str, led: str) -> tuple[int, int]:
    """How strongly `card` plays in a trick led in `led`: any trump beats the led suit."""
    suit, rank = card
    if suit == trump:
        return (2, TRUMP_ORDER[rank])
    return (1, PLAIN_ORDER[rank]) if suit == led else (0, 0)


def _play(
    rng: random.Random, hands: list[list[tuple[str, str]]], trump: str, leader: int
) -> tuple[list[int], list[int], int]:
    """Play nine tricks: follow suit, else trump; usually try to win the trick, else play low.

    Returns each player's card points (dix de der included), tricks won, and who won the
    last trick.
    """
    points = [0, 0, 0]
    won = [0, 0, 0]
    for _ in range(9):
        first = rng.choice(hands[leader])
        hands[leader].remove(first)
        led = first[0]
        best, best_power = leader, _power(first, trump, led)
        trick_points = TRUMP_VALUES[first[1]] if led == trump else PLAIN_VALUES[first[1]]
        for seat in (1, 2):
            player = (leader + seat) % 3
            cards = hands[player]
            playable = [c for c in cards if c[0] == led] or [c for c in cards if c[0] == trump] or cards
            playable.sort(key=lambda c: _power(c, trump, led))
            # A player mostly tries to take the trick, and otherwise saves its good cards.
            card = playable[-1] if rng.random() < 0.7 else playable[0]
            cards.remove(card)
            power = _power(card, trump, led)
            if power > best_power:
                best, best_power = player, power
            trick_points += TRUMP_VALUES[card[1]] if card[0] == trump else PLAIN_VALUES[card[1]]
        leader = best
        won[leader] += 1
        points[leader] += trick_points
    points[leader] += DIX_DE_DER
    return points, won, leader
