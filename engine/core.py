"""Shared types of the rules engine.

Terms used across the engine (donne, preneur, dedans, litige, réserve, partie):
docs/glossary.md.

Everything here is plain data: a hand is the JSON object a referee entered (a Mapping),
options are a resolved Mapping of option name to value, and results are frozen
dataclasses. Nothing imports Django.
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

Side = str | int
Number = int | float


def gettext_noop(message: str) -> str:
    """Mark an English message template for extraction into the translation catalogue.

    The engine never translates: it carries the English template and its parameters in
    every RuleError, and the Django layer looks the template up in its catalogue. The
    name matches Django's own marker so that `makemessages` extracts these strings.
    """
    return message


@dataclass(frozen=True, slots=True)
class RuleError:
    """One problem with a hand: the field it concerns, a stable code, and a message.

    `field` is a dotted path into the hand (`points.A`, `announcements.B.0.kind`), empty
    for the hand as a whole. `template` is an English text with `{name}` placeholders
    filled from `params`; it doubles as the translation catalogue's message id.
    """

    field: str
    code: str
    template: str
    # Spelled in full: inside this class `field` is the attribute above, for mypy at least.
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template.format(**self.params)

    def to_json(self) -> dict[str, str]:
        return {"field": self.field, "code": self.code, "message": self.message}


def rule_error(field_path: str, code: str, template: str, **params: Any) -> RuleError:
    return RuleError(field_path, code, template, params)


@dataclass(frozen=True, slots=True)
class HandScore:
    """The score of one donne.

    `scores` follows the game's `sides` order: (A, B) for belote at four, players
    (0, 1, 2) for the games for three. `extra` holds what a game adds to its result
    (`taker_points_to` for belote à 3, `base` for tarot).
    """

    scores: tuple[Number, ...]
    outcome: str
    reserve_out: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)


class OptionError(ValueError):
    """An option the game does not have, or a value it does not allow."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A rule choice the rule texts leave open (docs/rules.md), with its default.

    `choices` lists every allowed value, the default first.
    """

    name: str
    choices: tuple[Any, ...]
    description: str = ""

    @property
    def default(self) -> Any:
        return self.choices[0]

    def check(self, value: Any) -> Any:
        # bool is an int subclass: refuse True where 1 is meant, and 250.0 where 250 is.
        for choice in self.choices:
            if type(value) is type(choice) and value == choice:
                return value
        allowed = ", ".join(repr(c) for c in self.choices)
        raise OptionError(f"option {self.name!r}: {value!r} is not allowed (one of {allowed})")


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of rule choices: every option of a game, and the game's settings.

    A tournament chooses its rules in one step from a preset, then may change any option.
    `name` and `description` are English, marked with `gettext_noop` for the Django layer
    to translate. `options` holds every option of the game (`preset` fills in the
    defaults and checks each value); `settings` the game's tournament settings
    (`Game.setting_specs`, such as tarot à 4's `table_de_cinq`), likewise complete.
    """

    code: str
    name: str
    description: str
    options: Mapping[str, Any]
    settings: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "description": self.description,
            "options": dict(self.options),
            "settings": dict(self.settings),
        }


def preset(
    code: str,
    name: str,
    description: str,
    option_specs: Sequence[OptionSpec],
    options: Mapping[str, Any] | None = None,
    *,
    setting_specs: Sequence[OptionSpec] = (),
    settings: Mapping[str, Any] | None = None,
) -> Preset:
    """A preset of every option: the defaults, with `options` changed (each one checked,
    so a wrong preset fails when the game's module is imported)."""
    return Preset(
        code,
        name,
        description,
        resolve_options(option_specs, options),
        resolve_options(setting_specs, settings),
    )


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option of a game with its value: the given one, checked, or the default."""
    given = dict(given or {})
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise OptionError(f"unknown option {unknown[0]!r} (known: {', '.join(sorted(known)) or 'none'})")
    return {name: spec.check(given[name]) if name in given else spec.default for name, spec in known.items()}


class Game(ABC):
    """One game: its table, its options, and how to validate and score one hand.

    `validate(hand, options)` returns every problem of a raw hand (never raises on bad
    data); `score(hand, options, carry)` scores a hand that validated, `carry` being the
    litige reserve brought in (belote games; 0 elsewhere). `options` is the Mapping that
    `resolve_options` returns.
    """

    code: ClassVar[str]
    players_per_table: ClassVar[int]
    sides: ClassVar[tuple[Side, ...]]
    option_specs: ClassVar[tuple[OptionSpec, ...]]
    # Card values per context (e.g. "trump", "plain"), rank -> points.
    card_values: ClassVar[Mapping[str, Mapping[str, Number]]]
    # The end of a partie (engine.match reads these): the target score a tournament gets
    # unless it chooses another (None: the game's rules give none), and the targets it
    # may choose (None: any positive score).
    default_target: ClassVar[int | None] = None
    target_range: ClassVar[tuple[int, int] | None] = None
    # Choices the game's rules leave to a tournament's settings rather than to a hand's
    # scoring (tarot à 4's `table_de_cinq`), and the named presets of options and
    # settings, the first being the game's defaults (a tournament's starting point).
    setting_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    presets: ClassVar[tuple[Preset, ...]] = ()
    # How many of the table's players play each donne (None: all of them); tarot à 4 at
    # a table of five has a mort sitting out (engine.match.end_at_table).
    players_per_donne: ClassVar[int | None] = None

    @property
    def default_criteria(self) -> tuple[str, ...]:
        """The ranking criteria a tournament of this game uses unless it chooses others.

        Keys of engine.standings.CRITERIA. Two teams facing each other rank by parties
        won first; when every player is a side of their own, by points first. A game
        whose rules say otherwise sets its own tuple.
        """
        if len(self.sides) == 2:
            return ("wins", "points", "difference")
        return ("points", "wins")

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return resolve_options(self.option_specs, given)

    def score_step(self, options: Mapping[str, Any] | None = None) -> int:
        """What every score of a partie is a multiple of under these options: 10 where the
        belote games' `rounding` option rounds each score to the nearest ten, else 1. A
        score the rules did not play (a bye's average) is rounded to it."""
        if "rounding" not in {spec.name for spec in self.option_specs}:
            return 1
        return 10 if self.resolve_options(options)["rounding"] == "nearest_ten" else 1

    def resolve_settings(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return resolve_options(self.setting_specs, given)

    def get_preset(self, code: str) -> Preset:
        """The preset named `code`; OptionError for a code the game has no preset of."""
        for candidate in self.presets:
            if candidate.code == code:
                return candidate
        known = ", ".join(p.code for p in self.presets) or "none"
        raise OptionError(f"{self.code} has no preset {code!r} (known: {known})")

    def matching_preset(
        self, options: Mapping[str, Any] | None, settings: Mapping[str, Any] | None = None
    ) -> Preset | None:
        """The preset whose every option and setting these are (None: none is)."""
        resolved = self.resolve_options(options)
        chosen = self.resolve_settings({k: v for k, v in (settings or {}).items() if k in self.setting_names})
        for candidate in self.presets:
            if dict(candidate.options) == resolved and dict(candidate.settings) == chosen:
                return candidate
        return None

    def nearest_preset(
        self, options: Mapping[str, Any] | None, settings: Mapping[str, Any] | None = None
    ) -> tuple[Preset | None, int]:
        """The preset these options and settings differ least from, and by how many choices
        (0: it is that preset); the first in order on a tie, (None, 0) for a game without."""
        resolved = self.resolve_options(options)
        chosen = self.resolve_settings({k: v for k, v in (settings or {}).items() if k in self.setting_names})
        best: tuple[Preset | None, int] = (None, 0)
        for candidate in self.presets:
            apart = sum(candidate.options[name] != value for name, value in resolved.items())
            apart += sum(candidate.settings[name] != value for name, value in chosen.items())
            if best[0] is None or apart < best[1]:
                best = (candidate, apart)
        return best

    @property
    def setting_names(self) -> frozenset[str]:
        return frozenset(spec.name for spec in self.setting_specs)

    @abstractmethod
    def validate(self, hand: Any, options: Mapping[str, Any]) -> list[RuleError]: ...

    @abstractmethod
    def score(self, hand: Mapping[str, Any], options: Mapping[str, Any], carry: int = 0) -> HandScore: ...

    @abstractmethod
    def result_json(self, score: HandScore) -> dict[str, Any]:
        """The result as the command line prints it (docs/engine-cli.md)."""

    @abstractmethod
    def random_hand(self, rng: random.Random) -> dict[str, Any]:
        """A valid, plausible hand drawn from `rng` (for demos, simulations, benchmarks)."""

    @abstractmethod
    def hand_schema(self) -> dict[str, Any]:
        """The JSON Schema of a hand (engine.games.hand_schema), titled by the game's code.

        It gives each field's type, range and choices and the fields a played donne needs;
        what ties fields together is left to `validate`, so a hand the schema accepts may
        still be refused, never the other way round.
        """

    def describe(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "players_per_table": self.players_per_table,
            "sides": list(self.sides),
            "options": {
                spec.name: {"default": spec.default, "choices": list(spec.choices), "description": spec.description}
                for spec in self.option_specs
            },
            "card_values": {k: dict(v) for k, v in self.card_values.items()},
            "settings": {
                spec.name: {"default": spec.default, "choices": list(spec.choices), "description": spec.description}
                for spec in self.setting_specs
            },
            "presets": [candidate.to_json() for candidate in self.presets],
        }
