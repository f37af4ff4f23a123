"""Records: one competitor's partie results and the running totals summed from them.

`PartieResult` is one competitor's side of a partie (terms: docs/glossary.md). The
tournament's bye rule (docs/rules.md) is applied by the caller, who records the credited
points in the bye's `points_for` (engine/standings/missed.py says what a round away from
the tables scores).

A partie still in progress (`finished=False`) counts its points, so that live standings
move with every donne, but not its outcome, nor as played. A round the competitor missed
(`absent`: a late arrival's, when the tournament scores them so) has no opponents and
counts as a partie lost, though not as played.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

Number = int | float
OUTCOMES = ("win", "loss", "draw", "bye", "absent")
# The outcomes of a round spent away from any table.
WITHOUT_OPPONENTS = ("bye", "absent")


@dataclass(frozen=True, slots=True)
class PartieResult:
    """One competitor's result in one round.

    `opponents` lists everyone facing the competitor at the table (one team, two melee
    opponents, or the two other players at a table of three); empty for a bye and for a
    round missed (`absent`), whose points the caller gives as 0.
    `points_against` is the opponents' points; at a table of three give the sum of the
    two others' points, or None when the tournament's criteria do not need it.
    """

    round: int
    competitor: str
    opponents: tuple[str, ...]
    points_for: Number
    points_against: Number | None
    outcome: str
    finished: bool = True


@dataclass(slots=True)
class Record:
    """Running totals of one competitor while standings are built."""

    competitor: str
    results: list[PartieResult] = field(default_factory=list)
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0  # the rounds missed included
    byes: int = 0
    absences: int = 0
    points_for: Number = 0
    points_against: Number = 0
    missing_against: bool = False


def records_of(results: Iterable[PartieResult], competitors: Iterable[str] = ()) -> dict[str, Record]:
    """Every competitor's record summed from its results (checked), in round order."""
    records: dict[str, Record] = {}
    for competitor in competitors:
        _check_id(competitor, "competitor")
        records.setdefault(competitor, Record(competitor))
    seen: set[tuple[int, str]] = set()
    for result in results:
        key = (result.round, result.competitor)
        if key in seen:
            raise ValueError(f"competitor {result.competitor!r} has two results in round {result.round}")
        seen.add(key)
        record = records.get(result.competitor)
        if record is None:
            record = records[result.competitor] = Record(result.competitor)
        add_result(record, result)
    for record in records.values():
        record.results.sort(key=lambda r: r.round)
    return records


def add_result(record: Record, result: PartieResult) -> None:
    """Count one more result (checked) in a competitor's record.

    The caller keeps one result per round and adds them in round order (as
    `records_of` does).
    """
    _check_result(result)
    if result.competitor != record.competitor:
        raise ValueError(f"a result of {result.competitor!r} added to the record of {record.competitor!r}")
    outcome = result.outcome
    record.results.append(result)
    record.points_for += result.points_for
    if result.points_against is None:
        record.missing_against = record.missing_against or outcome not in WITHOUT_OPPONENTS
    else:
        record.points_against += result.points_against
    if outcome == "bye":
        record.byes += 1
    elif outcome == "absent":
        # Not played, yet not won either: a partie lost wherever outcomes are counted.
        record.absences += 1
        record.losses += 1
    elif result.finished:
        record.played += 1
        if outcome == "win":
            record.wins += 1
        elif outcome == "draw":
            record.draws += 1
        else:
            record.losses += 1


def copy_record(record: Record) -> Record:
    """A record to add results to, leaving `record` as it was (its results are shared, never changed)."""
    return Record(
        record.competitor, list(record.results), record.played, record.wins, record.draws, record.losses,
        record.byes, record.absences, record.points_for, record.points_against, record.missing_against,
    )  # fmt: skip


def _check_result(result: PartieResult) -> None:
    # The common case in one expression; the detailed checks only when it fails.
    against = result.points_against
    if (
        type(result.competitor) is str
        and result.competitor
        and type(result.round) is int
        and result.round >= 1
        and result.outcome in OUTCOMES
        and type(result.points_for) in _PLAIN_NUMBERS
        and math.isfinite(result.points_for)
        and (against is None or (type(against) in _PLAIN_NUMBERS and math.isfinite(against)))
        and bool(result.opponents) != (result.outcome in WITHOUT_OPPONENTS)
        and result.competitor not in result.opponents
    ):
        return
    _explain_bad_result(result)


_PLAIN_NUMBERS = (int, float)


def _explain_bad_result(result: PartieResult) -> None:
    _check_id(result.competitor, "competitor")
    where = f"competitor {result.competitor!r}, round {result.round!r}"
    if isinstance(result.round, bool) or not isinstance(result.round, int) or result.round < 1:
        raise ValueError(f"{where}: the round must be a whole number from 1")
    if result.outcome not in OUTCOMES:
        raise ValueError(f"{where}: unknown outcome {result.outcome!r} (one of {', '.join(OUTCOMES)})")
    for name in ("points_for", "points_against"):
        value = getattr(result, name)
        if value is None and name == "points_against":
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError(f"{where}: {name} must be a finite number, got {value!r}")
    if result.outcome in WITHOUT_OPPONENTS and result.opponents:
        raise ValueError(f"{where}: {'a bye' if result.outcome == 'bye' else 'a round missed'} has no opponents")
    if result.outcome not in WITHOUT_OPPONENTS and not result.opponents:
        raise ValueError(f"{where}: a partie needs at least one opponent")
    if result.competitor in result.opponents:
        raise ValueError(f"{where}: a competitor cannot be its own opponent")


def _check_id(value: Any, what: str) -> None:
    if not isinstance(value, str) or not value:
        raise ValueError(f"a {what} id must be a non-empty string, got {value!r}")


def table_outcomes(points: Mapping[str, Number]) -> dict[str, str]:
    """Outcomes at one table from each side's points: the highest wins.

    Several sides sharing the highest total draw; everyone else loses. This is how a
    table of three is decided, and a table of two with no other rule.
    """
    if len(points) < 2:
        raise ValueError("a table has at least two sides")
    best = max(points.values())
    leaders = [side for side, p in points.items() if p == best]
    winner_outcome = "win" if len(leaders) == 1 else "draw"
    return {side: winner_outcome if p == best else "loss" for side, p in points.items()}
