"""What tarot à 3, à 4 and à 5 share: the cards, the contracts, the score of a donne and
the checks of a hand. Each game module sets its table (players, cards dealt, chien,
poignée thresholds) and how D is shared out between the players.

Terms (docs/glossary.md; the rules as Atout plays them: docs/rules.md):

- *preneur* (taker): the player who won the bidding. At five the taker calls a king; its
  holder is the *partner* (*appelé*), and taker and partner form the *attaque*. Elsewhere
  the attack is the taker alone. The other players form the *défense*. In a hand the
  value `"taker"` (petit au bout, poignée, chelem) names the attack's side.
- *contrat*: *petite* ×1, *garde* ×2, *garde sans* ×4 (the chien unseen, counted for
  the attack), *garde contre* ×6 (the chien unseen, counted for the defence).
- *chien*: the cards dealt aside (6 at three and four, 3 at five).
- *oudlers* (bouts): the petit (trump 1), the 21 and the Excuse. The attack's oudlers set
  the card points it needs: 0 -> 56, 1 -> 51, 2 -> 41, 3 -> 36, of 91 in all.
- *poignée*: trumps shown (simple, double, triple, the number of trumps depending on the
  table): a prime of 20, 30 or 40 that always goes to the side that wins the donne,
  whoever showed it. Where two poignées fit in the 22 trumps (the Excuse included), at
  four and five, a hand may record both as a list.
- *petit au bout*: the petit in the last trick; 10 to the side that took it, made or
  failed.
- *chelem*: every trick to one side; announced and made +400, made unannounced +200,
  announced and missed -200, made by the defence -200 (-400 if the taker announced it).
  Never multiplied.

Score: base = (25 + difference + primes) × multiplier, the primes being the poignée
and the petit au bout (`primes: fft`: the poignée added after the multiplier). D, what
each defender pays, is +base when the contract is made and -base when it fails, the
petit au bout counted for whoever took it; the chelem is then added to D. The printed
`base` is |D| before the chelem. Each game shares out D so that a donne adds up to 0.

Half points: card points go by halves. With `half_points: to_winner` (the federation's
rule) the half point goes to the side that wins, so the difference is a whole number
and so is every score. With `exact` the difference keeps its half, and so can D: such a
score is a float ending in .5; every whole score is an int.
"""

from __future__ import annotations

import math
import random
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import Game, HandScore, Number, OptionSpec, Preset, RuleError, gettext_noop, preset, rule_error
from engine.games import hand_schema as js
from engine.games.checks import (
    check_bool,
    check_choice,
    check_int,
    is_number,
    json_type,
    not_an_object,
    path,
    required,
    unknown_fields,
    whole,
)

FIELDS = frozenset({"taker", "contract", "oudlers", "points", "petit_au_bout", "poignee", "chelem"})
POIGNEE_FIELDS = frozenset({"by", "size"})
CHELEM_FIELDS = frozenset({"announced", "made_by"})

CONTRACTS: tuple[str, ...] = ("petite", "garde", "garde_sans", "garde_contre")
MULTIPLIER: Mapping[str, int] = {"petite": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
NEEDED: tuple[int, ...] = (56, 51, 41, 36)
CAMPS: tuple[str, ...] = ("taker", "defence")
POIGNEE_SIZES: tuple[str, ...] = ("simple", "double", "triple")
POIGNEE: Mapping[str, int] = {"simple": 20, "double": 30, "triple": 40}
PETIT_AU_BOUT = 10
TOTAL = 91
OUDLER = 4.5
# The 21 trumps and the Excuse, which may stand in for a trump in a poignée.
TRUMPS = 22
# A chelem leaves the defence at most the Excuse (4 points once exchanged).
CHELEM_MIN_POINTS = 87

CARD_VALUES: Mapping[str, float] = {
    "oudler": 4.5,
    "king": 4.5,
    "queen": 3.5,
    "cavalier": 2.5,
    "valet": 1.5,
    "other": 0.5,
}

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "half_points",
        ("to_winner", "exact"),
        "A half point of card points goes to the side that wins the donne, or is kept as a half.",
    ),
    OptionSpec(
        "primes",
        ("multiplied", "fft"),
        "Poignée and petit au bout both multiplied (the rule text), or the poignée added after (the FFT).",
    ),
)


PRESETS: tuple[Preset, ...] = (
    preset(
        "club",
        gettext_noop("Club (Atout's default)"),
        gettext_noop(
            "The rule text's scoring: the poignée and the petit au bout both multiplied with the contract; "
            "the half point to the side that wins the donne."
        ),
        OPTION_SPECS,
    ),
    preset(
        "fft",
        gettext_noop("Federation (FFT)"),
        gettext_noop(
            "The Fédération Française de Tarot's scoring: the poignée added after the multiplier, the petit au "
            "bout multiplied; the half point to the side that wins the donne."
        ),
        OPTION_SPECS,
        {"primes": "fft"},
    ),
)


def points_range(oudlers: int) -> tuple[float, float]:
    """The attack's possible card points with `oudlers` oudlers.

    Each oudler is worth 4.5 to whoever has it; the half point either way is the Excuse
    exchange (its owner keeps it and hands over a half-point card).
    """
    low = max(0.0, OUDLER * oudlers - 0.5)
    high = min(float(TOTAL), TOTAL - OUDLER * (3 - oudlers) + 0.5)
    return low, high


POINTS_RANGE: tuple[tuple[float, float], ...] = tuple(points_range(oudlers) for oudlers in range(4))


def chelem_floor_garde_contre(chien: int) -> float:
    """The least card points of a chelem made by the attack in a garde contre.

    The unseen chien counts for the defence. The richest cards it can hold are the petit,
    the 21 and the four kings, 4.5 each; the Excuse, when a defender holds it, stays with
    the defence at 4 points even in the attack's chelem. So the defence can have 4 plus
    4.5 per chien card, and the attack 87 less 4.5 per chien card: 60 with a chien of 6,
    73.5 with a chien of 3.
    """
    return CHELEM_MIN_POINTS - OUDLER * min(chien, 6)


def chelem_points(chelem: Mapping[str, Any] | None) -> int:
    """What a chelem adds to D, seen from the taker."""
    if not chelem:
        return 0
    announced = bool(chelem.get("announced"))
    made_by = chelem.get("made_by")
    if made_by == "taker":
        return 400 if announced else 200
    if made_by == "defence":
        return -400 if announced else -200
    return -200 if announced else 0


def poignee_prime(poignee: Any) -> int:
    """The poignées' primes: one object, or a list of them (at four and five)."""
    if not poignee:
        return 0
    if isinstance(poignee, list | tuple):
        return sum(POIGNEE[shown["size"]] for shown in poignee)
    return POIGNEE[poignee["size"]]


def defenders_pay(hand: Mapping[str, Any], options: Mapping[str, Any]) -> tuple[Number, Number, bool]:
    """D (what each defender pays, signed from the taker's side, chelem included), |D|
    before the chelem (the printed `base`), and whether the contract was made."""
    multiplier = MULTIPLIER[hand["contract"]]
    difference = hand["points"] - NEEDED[hand["oudlers"]]
    made = difference >= 0
    if options["half_points"] == "to_winner":
        # The half point goes to the winner: 4.5 made counts 5, 0.5 short counts 1.
        gap: Number = math.ceil(difference) if made else -math.floor(difference)
    else:
        gap = whole(abs(difference))
    prime = poignee_prime(hand.get("poignee"))
    # `fft`: the poignée keeps its value whatever the contract.
    fft = options["primes"] == "fft"
    d = (25 + gap) * multiplier + prime if fft else (25 + gap + prime) * multiplier
    if not made:
        d = -d
    # Only `exact` half points leave a float here; 100.0 prints as 100.
    d = whole(d)
    petit = hand.get("petit_au_bout")
    if petit:
        d += PETIT_AU_BOUT * multiplier if petit == "taker" else -PETIT_AU_BOUT * multiplier
    base = abs(d)
    chelem = hand.get("chelem")
    if chelem:
        d += chelem_points(chelem)
    return d, base, made


class TarotGame(Game):
    """A tarot game: the table is set by the class attributes, the share of D by `share`."""

    players_per_table: ClassVar[int]
    sides: ClassVar[tuple[int, ...]]
    # Cards dealt to each player, and to the chien.
    cards_per_player: ClassVar[int]
    chien: ClassVar[int]
    # The trumps a poignée shows, per size.
    poignee_trumps: ClassVar[Mapping[str, int]]
    # The least card points of the attack's chelem in a garde contre (chelem_floor_garde_contre).
    chelem_min_points_garde_contre: ClassVar[float]
    # The hand's fields naming a player: the taker, and at five the partner.
    seats: ClassVar[tuple[str, ...]] = ("taker",)
    fields: ClassVar[frozenset[str]] = FIELDS
    option_specs: ClassVar[tuple[OptionSpec, ...]] = OPTION_SPECS
    presets: ClassVar[tuple[Preset, ...]] = PRESETS
    # At four the taker's cards are always an even number (tricks of four, a chien or an
    # écart of six, the Excuse exchanged card for card), so its points are whole: a half
    # point is refused. At three and five the federation's half point exists.
    whole_points: ClassVar[bool] = False
    card_values: ClassVar[Mapping[str, Mapping[str, Number]]] = {"all": CARD_VALUES}

    @property
    def max_poignees(self) -> int:
        """How many poignées one donne can show: as many of the smallest as the trumps allow."""
        return TRUMPS // min(self.poignee_trumps.values())

    # -- the hand's schema ----------------------------------------------------------------

    def hand_schema(self) -> dict[str, Any]:
        last = self.players_per_table - 1
        seats = {
            "taker": js.integer(0, last, "The taking player."),
            "partner": js.integer(
                0, last, "The player holding the called king; the taker's own number when it plays alone."
            ),
            "mort": js.integer(
                0, last, "The player sitting this donne out (le mort, the dealer at a table of five), who scores 0."
            ),
        }
        sizes = ", ".join(f"{size} {self.poignee_trumps[size]}" for size in POIGNEE_SIZES)
        poignee = js.record(
            {
                "by": js.choice(CAMPS, "The side that showed it."),
                "size": js.choice(POIGNEE_SIZES, f"Trumps shown: {sizes}."),
            },
            required=("by", "size"),
            description="A poignée, whose prime goes to the side that wins the donne.",
        )
        if self.max_poignees > 1:
            poignee = js.one_of_shapes(
                poignee,
                js.array(poignee, "Two poignées, when the trumps allow.", max_items=self.max_poignees),
                description="A poignée, or a list of them.",
            )
        properties = {
            **{seat: seats[seat] for seat in self.seats},
            "contract": js.choice(CONTRACTS, "petite x 1, garde x 2, garde_sans x 4, garde_contre x 6."),
            "oudlers": js.integer(0, 3, "The attack's oudlers (the petit, the 21, the Excuse)."),
            "points": (
                js.number(0, TOTAL, "The attack's card points, whole at four players.", multiple_of=1)
                if self.whole_points
                else js.number(0, TOTAL, "The attack's card points, by halves.", multiple_of=0.5)
            ),
            "petit_au_bout": js.nullable(js.choice(CAMPS, "The side that took the petit in the last trick.")),
            "poignee": js.nullable(poignee),
            "chelem": js.nullable(
                js.record(
                    {
                        "announced": js.nullable(js.boolean("Whether the taker announced a chelem.")),
                        "made_by": js.nullable(js.choice(CAMPS, "The side that took every trick, if any.")),
                    },
                    description="A chelem announced, made, or both.",
                )
            ),
        }
        players = ", ".join(str(player) for player in self.sides)
        return js.hand(
            self.code,
            f"One donne of {self.code}, players {players}.",
            properties,
            (*self.seats, "contract", "oudlers", "points"),
            cancellable=False,
        )

    # -- validation ---------------------------------------------------------------------

    def validate(self, hand: Any, options: Mapping[str, Any]) -> list[RuleError]:
        if not isinstance(hand, Mapping):
            return [not_an_object("", hand)]
        errors = [] if hand.keys() <= self.fields else unknown_fields(hand, self.fields)
        for seat in self.seats:
            _seat(errors, hand, seat, self.players_per_table)
        contract = _choice(errors, hand, "contract", CONTRACTS, needed=True)
        oudlers = hand.get("oudlers")
        if type(oudlers) is not int or not 0 <= oudlers <= 3:
            if oudlers is None:
                errors.append(required("oudlers"))
            else:
                oudlers = check_int(errors, "oudlers", oudlers, 0, 3)
        points = _points(errors, hand.get("points"))
        if points is not None and self.whole_points and points % 1:
            errors.append(
                rule_error(
                    "points",
                    "half_point_at_four",
                    gettext_noop(
                        "At four players the taker's card points are a whole number (its cards are an even "
                        "number): {value} has a half point."
                    ),
                    value=whole(points),
                )
            )
            points = None
        petit = _choice(errors, hand, "petit_au_bout", CAMPS, needed=False)
        poignee = hand.get("poignee")
        if poignee is not None:
            self._check_poignees(errors, poignee)
        chelem = _chelem(errors, hand.get("chelem"))

        if oudlers is not None:
            if points is not None:
                low, high = POINTS_RANGE[oudlers]
                if self.whole_points:
                    low, high = float(math.ceil(low)), float(math.floor(high))
                if not low <= points <= high:
                    errors.append(
                        rule_error(
                            "points",
                            "points_for_oudlers",
                            gettext_noop("With {oudlers} oudlers the taker has between {min} and {max} points."),
                            oudlers=oudlers,
                            min=whole(low),
                            max=whole(high),
                        )
                    )
            if petit == "taker" and oudlers == 0:
                errors.append(
                    rule_error(
                        "petit_au_bout",
                        "petit_au_bout_without_oudler",
                        gettext_noop("The taker took the petit au bout, so the taker has at least one oudler."),
                    )
                )
            if petit == "defence" and oudlers == 3:
                errors.append(
                    rule_error(
                        "petit_au_bout",
                        "petit_au_bout_all_oudlers",
                        gettext_noop("The defence took the petit au bout, so the taker has at most two oudlers."),
                    )
                )
        if chelem is not None:
            self._check_chelem(errors, chelem, contract, oudlers, points, petit)
        return errors

    def _check_poignees(self, errors: list[RuleError], value: object) -> None:
        """One poignée object; where the trumps allow two, also a list of them."""
        if self.max_poignees == 1 or not isinstance(value, list | tuple):
            _poignee(errors, value, "poignee")
            return
        before = len(errors)
        for i, shown in enumerate(value):
            _poignee(errors, shown, path("poignee", i))
        if len(errors) > before:
            return
        trumps = sum(self.poignee_trumps[shown["size"]] for shown in value)
        if trumps > TRUMPS:
            errors.append(
                rule_error(
                    "poignee",
                    "poignee_trumps",
                    gettext_noop(
                        "These poignées show at least {count} trumps; there are only {max}, the Excuse included."
                    ),
                    count=trumps,
                    max=TRUMPS,
                )
            )

    def _check_chelem(
        self,
        errors: list[RuleError],
        chelem: Mapping[str, Any],
        contract: str | None,
        oudlers: int | None,
        points: float | None,
        petit: str | None,
    ) -> None:
        made_by = chelem["made_by"]
        if made_by == "taker" and points is not None and contract is not None:
            least = self.chelem_min_points_garde_contre if contract == "garde_contre" else CHELEM_MIN_POINTS
            if points < least:
                errors.append(
                    rule_error(
                        "chelem.made_by",
                        "chelem_points_too_low",
                        gettext_noop("A chelem made by the taker needs at least {min} points, not {points}."),
                        min=whole(least),
                        points=whole(points),
                    )
                )
        if made_by == "defence" and points is not None and oudlers is not None and points >= NEEDED[oudlers]:
            errors.append(
                rule_error(
                    "chelem.made_by",
                    "chelem_defence_contract_made",
                    gettext_noop("The defence made a chelem, so the contract failed: {points} points reach {needed}."),
                    points=whole(points),
                    needed=NEEDED[oudlers],
                )
            )
        # The side that made the chelem took every trick, the one holding the petit au bout too.
        if made_by is not None and petit is not None and petit != made_by:
            errors.append(
                rule_error(
                    "petit_au_bout",
                    "petit_au_bout_against_chelem",
                    gettext_noop("The side that made the chelem took every trick, so the petit au bout too."),
                )
            )

    # -- scoring --------------------------------------------------------------------------

    def score(self, hand: Mapping[str, Any], options: Mapping[str, Any], carry: int = 0) -> HandScore:
        d, base, made = defenders_pay(hand, options)
        return HandScore(scores=self.share(hand, d), outcome="made" if made else "failed", extra={"base": base})

    @abstractmethod
    def share(self, hand: Mapping[str, Any], d: Number) -> tuple[Number, ...]:
        """Each player's score, in seat order, when each defender pays `d`; they add up to 0."""

    def result_json(self, score: HandScore) -> dict[str, Any]:
        return {"scores": list(score.scores), "outcome": score.outcome, "base": score.extra.get("base", 0)}

    def describe(self) -> dict[str, Any]:
        return {
            **super().describe(),
            "cards_per_player": self.cards_per_player,
            "chien": self.chien,
            "poignee_trumps": dict(self.poignee_trumps),
        }

    # -- simulation -----------------------------------------------------------------------

    def random_hand(self, rng: random.Random) -> dict[str, Any]:
        """A plausible donne: about two in three made, primes now and then, a rare chelem."""
        contract = rng.choices(CONTRACTS, weights=(45, 40, 11, 4))[0]
        oudlers = rng.choices((0, 1, 2, 3), weights=(8, 32, 40, 20))[0]
        low, high = points_range(oudlers)
        hand: dict[str, Any] = self._random_seats(rng)
        hand["contract"] = contract
        hand["oudlers"] = oudlers
        chelem_roll = rng.random()
        if chelem_roll < 0.004 and oudlers >= 2:
            # The attack takes every trick: all the points but perhaps the Excuse's.
            points = rng.choice([p / 2 for p in range(2 * CHELEM_MIN_POINTS, int(2 * high) + 1)])
            hand["chelem"] = {"announced": rng.random() < 0.6, "made_by": "taker"}
        elif chelem_roll < 0.005:
            # The defence takes every trick; the attack keeps only its écart or chien.
            hand["oudlers"] = oudlers = 0
            points = rng.randrange(0, 21) / 2
            hand["chelem"] = {"announced": False, "made_by": "defence"}
        else:
            # Half points come with an odd number of oudlers and kings... or the Excuse:
            # any half is possible.
            points = round(rng.gauss(NEEDED[oudlers] + 4, 9) * 2) / 2
            points = min(high, max(low, points))
            if rng.random() < 0.005:
                hand["chelem"] = {"announced": True, "made_by": None}
        if self.whole_points:
            # Whole points only: the half, where one was drawn, goes down, within the bounds.
            low, high = points_range(oudlers)
            points = min(max(float(math.floor(points)), math.ceil(low)), math.floor(high))
        hand["points"] = whole(points)

        roll = rng.random()
        if roll < 0.05 and oudlers >= 1 and hand.get("chelem", {}).get("made_by") != "defence":
            hand["petit_au_bout"] = "taker"
        elif roll < 0.08 and oudlers <= 2 and hand.get("chelem", {}).get("made_by") != "taker":
            hand["petit_au_bout"] = "defence"
        if rng.random() < 0.1:
            hand["poignee"] = {
                "by": "taker" if rng.random() < 0.7 else "defence",
                "size": rng.choices(POIGNEE_SIZES, weights=(85, 12, 3))[0],
            }
            # Where two fit, one donne in ten with a poignée has a second, simple one.
            trumps = self.poignee_trumps
            if (
                self.max_poignees > 1
                and rng.random() < 0.1
                and trumps[hand["poignee"]["size"]] + trumps["simple"] <= TRUMPS
            ):
                hand["poignee"] = [hand["poignee"], {"by": rng.choice(CAMPS), "size": "simple"}]
        return hand

    def _random_seats(self, rng: random.Random) -> dict[str, Any]:
        """The taker (and at five the partner), first in the hand."""
        return {"taker": rng.randrange(self.players_per_table)}


# -- validation helpers ---------------------------------------------------------------------


def _seat(errors: list[RuleError], hand: Mapping[str, Any], field: str, players: int) -> int | None:
    """A required player index, 0 to `players` - 1."""
    value = hand.get(field)
    if type(value) is int and 0 <= value < players:
        return value
    if value is None:
        errors.append(required(field))
        return None
    return check_int(errors, field, value, 0, players - 1)


def _choice(
    errors: list[RuleError],
    obj: Mapping[str, Any],
    field: str,
    choices: tuple[str, ...],
    *,
    needed: bool,
    base: str = "",
) -> str | None:
    value = obj.get(field)
    if type(value) is str and value in choices:
        return value
    if value is None:
        if needed:
            errors.append(required(path(base, field)))
        return None
    return check_choice(errors, path(base, field), value, choices)


def _points(errors: list[RuleError], value: object) -> float | None:
    """The attack's card points: a number of half points from 0 to 91."""
    if (type(value) is int or type(value) is float) and 0 <= value <= TOTAL and not (value * 2) % 1:
        return float(value)
    if value is None:
        errors.append(required("points"))
        return None
    if not is_number(value):
        errors.append(
            rule_error("points", "not_a_number", gettext_noop("Expected a number, got {type}."), type=json_type(value))
        )
        return None
    assert isinstance(value, int | float)
    if not 0 <= value <= TOTAL:
        errors.append(
            rule_error(
                "points",
                "out_of_range",
                gettext_noop("{value} is out of range: expected {min} to {max}."),
                value=value,
                min=0,
                max=TOTAL,
            )
        )
        return None
    if (value * 2) % 1:
        errors.append(
            rule_error(
                "points",
                "not_a_half_point",
                gettext_noop("{value} is not a whole or half point: card points go by halves."),
                value=value,
            )
        )
        return None
    return float(value)


def _poignee(errors: list[RuleError], value: object, field: str) -> None:
    """One poignée: who showed it (the taker's side or the defence) and its size."""
    if not isinstance(value, Mapping):
        errors.append(not_an_object(field, value))
        return
    errors.extend(unknown_fields(value, POIGNEE_FIELDS, field))
    _choice(errors, value, "by", CAMPS, needed=True, base=field)
    _choice(errors, value, "size", POIGNEE_SIZES, needed=True, base=field)


def _chelem(errors: list[RuleError], value: object) -> dict[str, Any] | None:
    """The chelem object, both fields optional (not announced, made by nobody)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        errors.append(not_an_object("chelem", value))
        return None
    before = len(errors)
    errors.extend(unknown_fields(value, CHELEM_FIELDS, "chelem"))
    announced = value.get("announced")
    if announced is not None:
        check_bool(errors, "chelem.announced", announced)
    made_by = _choice(errors, value, "made_by", CAMPS, needed=False, base="chelem")
    if len(errors) > before:
        return None
    return {"announced": bool(announced), "made_by": made_by}
