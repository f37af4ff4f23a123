"""Season ranking: each tournament's final standings turned into season points."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.standings.ranking import Standing
from engine.standings.records import Number


@dataclass(frozen=True, slots=True)
class SeasonStanding:
    """One line of a season ranking: `results` holds (tournament, rank there, points)."""

    key: str
    rank: int
    total: Number
    tournaments: int
    results: tuple[tuple[str, int, Number], ...]


class SeasonScoring(ABC):
    """How one tournament's final standing turns into season points."""

    key: ClassVar[str]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        self.params = dict(params or {})

    @abstractmethod
    def points(self, standing: Standing, field_size: int) -> Number: ...


class PlacingTable(SeasonScoring):
    """Points by placing from a table, e.g. `{"table": {1: 100, 2: 80, 3: 65}}`.

    A shared rank earns the points of that rank; placings not in the table earn
    `otherwise` (0).
    """

    key = "table"

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(params)
        unknown = sorted(set(self.params) - {"table", "otherwise"})
        if unknown:
            raise ValueError(f"season scoring 'table': unknown parameter {unknown[0]!r} (known: otherwise, table)")
        table = self.params.get("table")
        if not isinstance(table, Mapping) or not table:
            raise ValueError("season scoring 'table' needs a 'table' of points by placing, e.g. {1: 100, 2: 80}")
        self.table: dict[int, Number] = {}
        for placing, value in table.items():
            # JSON objects have string keys: accept "1" as well as 1.
            number = int(placing) if isinstance(placing, str) and placing.isdigit() else placing
            if isinstance(number, bool) or not isinstance(number, int) or number < 1:
                raise ValueError(f"season scoring 'table': placing {placing!r} is not a whole number from 1")
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ValueError(f"season scoring 'table': points for placing {placing!r} must be a number")
            self.table[number] = value
        self.otherwise: Number = self.params.get("otherwise", 0)

    def points(self, standing: Standing, field_size: int) -> Number:
        return self.table.get(standing.rank, self.otherwise)


class FieldPlacing(SeasonScoring):
    """One point per competitor placed at or below: N - rank + 1 in a field of N."""

    key = "field"

    def points(self, standing: Standing, field_size: int) -> Number:
        return field_size - standing.rank + 1


class TotalPoints(SeasonScoring):
    """The points scored in the tournament."""

    key = "points"

    def points(self, standing: Standing, field_size: int) -> Number:
        return standing.points_for


SEASON_SCORING: dict[str, type[SeasonScoring]] = {cls.key: cls for cls in (PlacingTable, FieldPlacing, TotalPoints)}


def season_ranking(
    tournaments: Mapping[str, Sequence[Standing]],
    scoring: str = "field",
    params: Mapping[str, Any] | None = None,
) -> list[SeasonStanding]:
    """Rank a season from each tournament's final standings, by name of tournament.

    The standings' competitor ids must be the season's keys (the player, or the team,
    as the club follows them across tournaments). Equal totals share a rank.
    """
    if scoring not in SEASON_SCORING:
        raise ValueError(f"unknown season scoring {scoring!r} (one of {', '.join(sorted(SEASON_SCORING))})")
    scheme = SEASON_SCORING[scoring](params)
    lines: dict[str, list[tuple[str, int, Number]]] = defaultdict(list)
    for name, standings in tournaments.items():
        seen: set[str] = set()
        for standing in standings:
            if standing.competitor in seen:
                raise ValueError(f"tournament {name!r} ranks {standing.competitor!r} twice")
            seen.add(standing.competitor)
            lines[standing.competitor].append((name, standing.rank, scheme.points(standing, len(standings))))
    totals = {key: sum(points for _, _, points in results) for key, results in lines.items()}
    ordered = sorted(totals, key=lambda key: (-totals[key], key))
    season: list[SeasonStanding] = []
    for position, key in enumerate(ordered, start=1):
        shared = season[-1].rank if season and season[-1].total == totals[key] else position
        season.append(SeasonStanding(key, shared, totals[key], len(lines[key]), tuple(lines[key])))
    return season
