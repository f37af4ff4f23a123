"""Ranking criteria: one number per competitor, read from the records.

A criterion is one number per competitor, higher is better unless it says otherwise
(`against`). No name or id ever breaks a tie. Terms (criterion, Buchholz, head to head):
docs/glossary.md.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from engine import get_game
from engine.standings.records import Number, Record


class Criterion(ABC):
    """One ranking criterion; `params` are its options, checked on construction."""

    key: ClassVar[str]
    higher_is_better: ClassVar[bool] = True
    # Compared only among the competitors still tied when the criterion is reached.
    among_tied: ClassVar[bool] = False
    allowed_params: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        unknown = sorted(set(params) - self.allowed_params)
        if unknown:
            known = ", ".join(sorted(self.allowed_params)) or "none"
            raise ValueError(f"criterion {self.key!r}: unknown parameter {unknown[0]!r} (known: {known})")
        self.params = params

    @abstractmethod
    def values(self, records: Mapping[str, Record], among: Iterable[str]) -> dict[str, Number]:
        """The value of each competitor of `among`."""


class Wins(Criterion):
    """Parties won; a bye counts as a win unless `bye_is_win` is false."""

    key = "wins"
    allowed_params = frozenset({"bye_is_win"})

    def values(self, records: Mapping[str, Record], among: Iterable[str]) -> dict[str, Number]:
        with_byes = _boolean(self, "bye_is_win", True)
        return {c: records[c].wins + (records[c].byes if with_byes else 0) for c in among}


class MatchPoints(Criterion):
    """Points by outcome: `win` (2), `draw` (1), `loss` (0), `bye` (as a win by default).

    A round missed (`absent`) scores as a loss.

    A concours scoring 4 a win, 2 a loss and 3 a bye is `{"win": 4, "loss": 2, "bye": 3}`.
    """

    key = "match_points"
    allowed_params = frozenset({"win", "draw", "loss", "bye"})

    def values(self, records: Mapping[str, Record], among: Iterable[str]) -> dict[str, Number]:
        scheme = {name: self.params.get(name, default) for name, default in (("win", 2), ("draw", 1), ("loss", 0))}
        scheme["bye"] = self.params.get("bye", scheme["win"])
        for name, value in scheme.items():
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ValueError(f"criterion 'match_points': {name!r} must be a number, got {value!r}")
        return {
            c: (
                records[c].wins * scheme["win"]
                + records[c].draws * scheme["draw"]
                + records[c].losses * scheme["loss"]
                + records[c].byes * scheme["bye"]
            )
            for c in among
        }


class Points(Criterion):
    """Total points scored, byes' credited points included."""

    key = "points"

    def values(self, records: Mapping[str, Record], among: Iterable[str]) -> dict[str, Number]:
        return {c: records[c].points_for for c in among}


class Difference(Criterion):
    """Points scored minus points conceded."""

    key = "difference"

    def values(self, records: Mapping[str, Record], among: Iterable[str]) -> dict[str, Number]:
        _require_against(self, records, among)
        return {c: records[c].points_for - records[c].points_against for c in among}


class Against(Criterion):
    """Points conceded: fewer is better."""

    key = "against"
    higher_is_better = False

    def values(self, records: Mapping[str, Record], among: Iterable[str]) -> dict[str, Number]:
        _require_against(self, records, among)
        return {c: records[c].points_against for c in among}


class Buchholz(Criterion):
    """The sum over every opponent met (once per meeting) of their `of` value (wins)."""

    key = "buchholz"
    allowed_params = frozenset({"of"})

    def values(self, records: Mapping[str, Record], among: Iterable[str]) -> dict[str, Number]:
        of = self.params.get("of", "wins")
        if of not in ("wins", "match_points", "points"):
            raise ValueError(f"criterion 'buchholz': 'of' must be wins, match_points or points, got {of!r}")
        strength = CRITERIA[of]().values(records, records)
        return {
            c: sum(strength.get(o, 0) for r in records[c].results if r.finished for o in r.opponents) for c in among
        }


class HeadToHead(Criterion):
    """Among the tied only: one point per tied opponent beaten, a half per tie.

    Against a single opponent the outcome decides; at a table of three, a tied player is
    beaten when the other finished with more points at that table.
    """

    key = "head_to_head"
    among_tied = True

    def values(self, records: Mapping[str, Record], among: Iterable[str]) -> dict[str, Number]:
        tied = set(among)
        points_at = {(r.round, r.competitor): r.points_for for c in tied for r in records[c].results}
        values: dict[str, Number] = {}
        for c in tied:
            total: Number = 0
            for result in records[c].results:
                if not result.finished:
                    continue
                for other in result.opponents:
                    if other not in tied:
                        continue
                    if len(result.opponents) == 1:
                        total += {"win": 1, "draw": 0.5}.get(result.outcome, 0)
                    elif (result.round, other) in points_at:
                        theirs = points_at[(result.round, other)]
                        total += 1 if result.points_for > theirs else 0.5 if result.points_for == theirs else 0
            values[c] = total
        return values


CRITERIA: dict[str, type[Criterion]] = {
    cls.key: cls for cls in (Wins, MatchPoints, Points, Difference, Against, Buchholz, HeadToHead)
}

CriterionSpec = str | tuple[str, Mapping[str, Any]] | Criterion


def default_criteria(game: str) -> tuple[str, ...]:
    """The ranking criteria a tournament of `game` uses unless it chooses others (the game says)."""
    return get_game(game).default_criteria


def allowed_criteria(game: str) -> tuple[str, ...]:
    """The ranking criteria a tournament of `game` may choose, in the registry's order.

    Every criterion ranks the parties of every game (at a table of three too), so each
    game allows them all; this is the one place that would say otherwise.
    """
    get_game(game)
    return tuple(CRITERIA)


def make_criteria(specs: Sequence[CriterionSpec]) -> list[Criterion]:
    """Criterion objects from keys, `(key, params)` pairs, or ready criteria."""
    criteria: list[Criterion] = []
    for spec in specs:
        if isinstance(spec, Criterion):
            criteria.append(spec)
            continue
        key, params = (spec, None) if isinstance(spec, str) else spec
        if key not in CRITERIA:
            raise ValueError(f"unknown ranking criterion {key!r} (one of {', '.join(sorted(CRITERIA))})")
        criteria.append(CRITERIA[key](params))
    keys = [c.key for c in criteria]
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        raise ValueError(f"ranking criterion {repeated[0]!r} is listed twice")
    return criteria


def _require_against(criterion: Criterion, records: Mapping[str, Record], among: Iterable[str]) -> None:
    for competitor in among:
        if records[competitor].missing_against:
            raise ValueError(f"criterion {criterion.key!r} needs points_against, missing for {competitor!r}")


def _boolean(criterion: Criterion, name: str, default: bool) -> bool:
    value = criterion.params.get(name, default)
    if not isinstance(value, bool):
        raise ValueError(f"criterion {criterion.key!r}: {name!r} must be true or false, got {value!r}")
    return value
