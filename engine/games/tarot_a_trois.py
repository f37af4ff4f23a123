"""Tarot à 3: 78 cards, three players, the taker against two defenders.

Terms (preneur, défense, contrat, chien, oudlers, poignée, petit au bout, chelem):
docs/glossary.md; the rules: docs/rules.md, "Tarot à 3". Contracts: *petite* ×1, *garde*
×2, *garde sans* ×4, *garde contre* ×6. The taker's oudlers set the card points it needs:
0 -> 56, 1 -> 51, 2 -> 41, 3 -> 36, of 91 in all. A poignée (13, 15 or 18 trumps) is a
prime of 20, 30 or 40 to the side that wins the donne; the petit au bout is 10 to the
side that took it. A chelem is worth +400 announced and made, +200 made unannounced,
-200 announced and missed or made by the defence (-400 if the taker announced it), never
multiplied.

Score: base = (25 + difference + primes) × multiplier, the primes being the poignée
and the petit au bout (`primes: fft`: the poignée added after the multiplier). D, what
each defender pays, is +base when the contract is made and -base when it fails, the
petit au bout counted for whoever took it; the chelem is then added to D. The taker
scores 2 × D and each defender -D, so a donne always adds up to 0. The printed `base`
is |D| before the chelem.

Half points: card points go by halves. With `half_points: to_winner` (the federation's
rule) the half point goes to the side that wins, so the difference is a whole number
and so is every score. With `exact` the difference keeps its half, and so can D: such a
score is a float ending in .5 (the taker's 2 × D is always whole); every other score is
an int.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import Game, HandScore, Number, OptionSpec, RuleError, gettext_noop, rule_error
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

PLAYERS = (0, 1, 2)
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
# A chelem leaves the defence at most the Excuse (4 points once exchanged); in a garde
# contre the unseen chien, which can hold up to 27 points, is the defence's as well.
CHELEM_MIN_POINTS = 87
CHELEM_MIN_POINTS_GARDE_CONTRE = 64

CARD_VALUES: Mapping[str, float] = {
    "oudler": 4.5,
    "king": 4.5,
    "queen": 3.5,
    "cavalier": 2.5,
    "valet": 1.5,
    "other": 0.5,
}


def points_range(oudlers: int) -> tuple[float, float]:
    """The taker's possible card points with `oudlers` oudlers.

    Each oudler is worth 4.5 to whoever has it; the half point either way is the Excuse
    exchange (its owner keeps it and hands over a half-point card).
    """
    low = max(0.0, OUDLER * oudlers - 0.5)
    high = min(float(TOTAL), TOTAL - OUDLER * (3 - oudlers) + 0.5)
    return low, high


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


class TarotATrois(Game):
    code: ClassVar[str] = "tarot_a_trois"
    players_per_table: ClassVar[int] = 3
    sides: ClassVar[tuple[int, ...]] = PLAYERS
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
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
    card_values: ClassVar[Mapping[str, Mapping[str, Number]]] = {"all": CARD_VALUES}

    # -- validation ---------------------------------------------------------------------

    def validate(self, hand: Any, options: Mapping[str, Any]) -> list[RuleError]:
        if not isinstance(hand, Mapping):
            return [not_an_object("", hand)]
        errors = unknown_fields(hand, FIELDS)
        if hand.get("taker") is None:
            errors.append(required("taker"))
        else:
            check_int(errors, "taker", hand["taker"], 0, 2)
        contract = _choice(errors, hand, "contract", CONTRACTS, needed=True)
        oudlers = check_int(errors, "oudlers", hand["oudlers"], 0, 3) if hand.get("oudlers") is not None else None
        if hand.get("oudlers") is None:
            errors.append(required("oudlers"))
        points = _points(errors, hand.get("points"))
        petit = _choice(errors, hand, "petit_au_bout", CAMPS, needed=False)
        _poignee(errors, hand.get("poignee"))
        chelem = _chelem(errors, hand.get("chelem"))

        if oudlers is not None:
            if points is not None:
                low, high = points_range(oudlers)
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
            _check_chelem(errors, chelem, contract, oudlers, points, petit)
        return errors

    # -- scoring --------------------------------------------------------------------------

    def score(self, hand: Mapping[str, Any], options: Mapping[str, Any], carry: int = 0) -> HandScore:
        contract = hand["contract"]
        multiplier = MULTIPLIER[contract]
        difference = hand["points"] - NEEDED[hand["oudlers"]]
        made = difference >= 0
        if options["half_points"] == "to_winner":
            # The half point goes to the winner: 4.5 made counts 5, 0.5 short counts 1.
            gap: Number = math.ceil(difference) if made else -math.floor(difference)
        else:
            gap = whole(abs(difference))
        poignee = hand.get("poignee")
        prime = POIGNEE[poignee["size"]] if poignee else 0
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
        taker = hand["taker"]
        scores: list[Number] = [-d, -d, -d]
        scores[taker] = 2 * d
        return HandScore(scores=tuple(scores), outcome="made" if made else "failed", extra={"base": base})

    def result_json(self, score: HandScore) -> dict[str, Any]:
        return {"scores": list(score.scores), "outcome": score.outcome, "base": score.extra.get("base", 0)}

    # -- simulation -----------------------------------------------------------------------

    def random_hand(self, rng: random.Random) -> dict[str, Any]:
        """A plausible donne: about two in three made, primes now and then, a rare chelem."""
        contract = rng.choices(CONTRACTS, weights=(45, 40, 11, 4))[0]
        oudlers = rng.choices((0, 1, 2, 3), weights=(8, 32, 40, 20))[0]
        low, high = points_range(oudlers)
        hand: dict[str, Any] = {"taker": rng.randrange(3), "contract": contract, "oudlers": oudlers}
        chelem_roll = rng.random()
        if chelem_roll < 0.004 and oudlers >= 2:
            # The taker takes every trick: all the points but perhaps the Excuse's.
            points = rng.choice([p / 2 for p in range(2 * CHELEM_MIN_POINTS, int(2 * high) + 1)])
            hand["chelem"] = {"announced": rng.random() < 0.6, "made_by": "taker"}
        elif chelem_roll < 0.005:
            # The defence takes every trick; the taker keeps only its écart or chien.
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
        return hand


# -- validation helpers ---------------------------------------------------------------------


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
    if value is None:
        if needed:
            errors.append(required(path(base, field)))
        return None
    return check_choice(errors, path(base, field), value, choices)


def _points(errors: list[RuleError], value: object) -> float | None:
    """The taker's card points: a number of half points from 0 to 91."""
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


def _poignee(errors: list[RuleError], value: object) -> None:
    if value is None:
        return
    if not isinstance(value, Mapping):
        errors.append(not_an_object("poignee", value))
        return
    errors.extend(unknown_fields(value, POIGNEE_FIELDS, "poignee"))
    _choice(errors, value, "by", CAMPS, needed=True, base="poignee")
    _choice(errors, value, "size", POIGNEE_SIZES, needed=True, base="poignee")


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


def _check_chelem(
    errors: list[RuleError],
    chelem: Mapping[str, Any],
    contract: str | None,
    oudlers: int | None,
    points: float | None,
    petit: str | None,
) -> None:
    made_by = chelem["made_by"]
    if made_by == "taker" and points is not None and contract is not None:
        least = CHELEM_MIN_POINTS_GARDE_CONTRE if contract == "garde_contre" else CHELEM_MIN_POINTS
        if points < least:
            errors.append(
                rule_error(
                    "chelem.made_by",
                    "chelem_points_too_low",
                    gettext_noop("A chelem made by the taker needs at least {min} points, not {points}."),
                    min=least,
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
