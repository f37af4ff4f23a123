"""Standings: rank competitors from their partie results, by named criteria.

Terms (partie, exempt, criterion, shared rank, Buchholz, head to head): docs/glossary.md.
`PartieResult` is one competitor's side of a partie. The tournament's bye rule
(docs/rules.md) is applied by the caller, who records the credited points in the bye's
`points_for`. A criterion is one number per competitor, higher is better unless it says
otherwise (`against`). No name or id ever breaks a tie, though within a shared rank
competitors are listed by id.

A partie still in progress (`finished=False`) counts its points, so that live standings
move with every donne, but not its outcome, nor as played. A round the competitor missed
(`absent`: a late arrival's, when the tournament scores them so) has no opponents and
counts as a partie lost, though not as played. Everything is pure: the same results
always give the same standings.
"""

from __future__ import annotations

import bisect
import math
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from itertools import compress
from operator import is_not
from typing import Any, ClassVar

from engine import get_game

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


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings. `values` holds each criterion's value by key."""

    competitor: str
    rank: int
    values: Mapping[str, Number]
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    points_for: Number
    points_against: Number
    rounds: tuple[PartieResult, ...] = field(default=())
    # Rounds missed (`absent`), counted in `losses` too.
    absences: int = 0


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


class Criterion(ABC):
    """One ranking criterion; `params` are its options, checked on construction."""

    key: ClassVar[str]
    higher_is_better: ClassVar[bool] = True
    # Compared only among the competitors still tied when the criterion is reached.
    among_tied: ClassVar[bool] = False
    # A competitor's value reads its own record only (not its opponents'): a ranking kept
    # between hands (`rank_order_kept`) places again only the competitors whose record moved.
    own_record: ClassVar[bool] = True
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
    own_record = False

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
    own_record = False

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


def rank(
    results: Iterable[PartieResult],
    criteria: Sequence[CriterionSpec],
    competitors: Iterable[str] = (),
) -> list[Standing]:
    """The standings, best first. `competitors` adds those without any result yet."""
    chosen = make_criteria(criteria)
    return rank_records(records_of(results, competitors), chosen)


def rank_records(records: Mapping[str, Record], criteria: Sequence[CriterionSpec]) -> list[Standing]:
    """The standings of competitors whose records are already summed (`records_of`, `add_result`).

    A caller that keeps records between rankings (the totals of the rounds already
    closed) adds the new results to copies (`copy_record`) and ranks them here: the same
    standings as `rank` of every result.
    """
    return [_standing(records[c], rank, values) for c, rank, values in rank_order(records, criteria)]


def rank_order(
    records: Mapping[str, Record], criteria: Sequence[CriterionSpec]
) -> list[tuple[str, int, dict[str, Number]]]:
    """`rank_records` without its Standing lines: (competitor, shared rank, criteria values),
    best first, for a caller that reads the records' totals itself."""
    keys, order = rank_order_values(records, criteria)
    return [(c, shared, dict(zip(keys, values, strict=True))) for c, shared, values in order]


def rank_order_values(
    records: Mapping[str, Record], criteria: Sequence[CriterionSpec], hint: Iterable[str] = ()
) -> tuple[tuple[str, ...], list[tuple[str, int, tuple[Number, ...]]]]:
    """`rank_order` with each competitor's values as a tuple: the criteria's keys, and
    (competitor, shared rank, values in the keys' order) best first.

    The keys are those of the criteria compared over everyone first, then those compared
    among the tied (head to head), each in the criteria's order: the order of
    `rank_order`'s dicts. For a caller that ranks thousands of competitors after every
    hand and keeps what it built per competitor: a tuple compares with the last
    ranking's at once. `hint` is that ranking's order (competitor ids): the sort starts
    from it and, when few competitors moved, costs little more than reading it. The
    order is the same whatever `hint`.
    """
    chosen = make_criteria(criteria)
    keys = tuple(
        [criterion.key for criterion in chosen if not criterion.among_tied]
        + [criterion.key for criterion in chosen if criterion.among_tied]
    )
    columns: dict[str, dict[str, Number]] = {
        criterion.key: criterion.values(records, records) if not criterion.among_tied else {} for criterion in chosen
    }
    # The leading criteria compared over everyone are one sort; from the first compared
    # among the tied only (head to head), each tied group is split in turn.
    lead = 0
    while lead < len(chosen) and not chosen[lead].among_tied:
        lead += 1
    start = _start_order(records, hint)
    if lead == len(chosen) and chosen:
        return keys, _ranked_in_one_sort(start, chosen, columns)
    groups = _lead_groups(start, chosen[:lead], columns)
    for criterion in chosen[lead:]:
        groups = [part for group in groups for part in _split(group, criterion, records, columns[criterion.key])]
    ids = [c for group in groups for c in group]
    values = iter(zip(*(map(columns[key].__getitem__, ids) for key in keys), strict=True) if keys else [()] * len(ids))
    order: list[tuple[str, int, tuple[Number, ...]]] = []
    position = 0
    for group in groups:
        shared = position + 1
        for competitor in group:
            order.append((competitor, shared, next(values)))
        position += len(group)
    return keys, order


def _ranked_in_one_sort(
    ids: list[str], criteria: Sequence[Criterion], columns: Mapping[str, Mapping[str, Number]]
) -> list[tuple[str, int, tuple[Number, ...]]]:
    """(competitor, shared rank, values) best first when every criterion is compared over
    everyone: one sort of (signed values, id, values), ranks shared along equal values."""
    rows = _sort_rows(ids, criteria, columns)
    rows.sort()
    return _shared_ranks(rows)


SortRow = tuple[tuple[Number, ...], str, tuple[Number, ...]]


def _sort_rows(
    ids: list[str], criteria: Sequence[Criterion], columns: Mapping[str, Mapping[str, Number]]
) -> list[SortRow]:
    """(signed values, id, values) of each of `ids`: ascending is the ranking's order."""
    signed = _signed_columns(ids, criteria, columns)
    values = zip(*(map(columns[criterion.key].__getitem__, ids) for criterion in criteria), strict=True)
    return list(zip(zip(*signed, strict=True), ids, values, strict=True))


def _shared_ranks(rows: Iterable[SortRow]) -> list[tuple[str, int, tuple[Number, ...]]]:
    """(competitor, shared rank, values) of sorted rows: equal signed values share a rank."""
    order: list[tuple[str, int, tuple[Number, ...]]] = []
    last: tuple[Number, ...] | None = None
    shared = 0
    for position, (key, competitor, found) in enumerate(rows, start=1):
        if key != last:
            shared, last = position, key
        order.append((competitor, shared, found))
    return order


@dataclass(frozen=True, slots=True)
class KeptOrder:
    """A ranking as `rank_order_kept` leaves it for the next call (never modified after).

    `rows` (signed values, id, values) sorted, with `row_of` each competitor's and
    `ranked` the order returned (its tuples), when every criterion reads the competitor's
    own record; otherwise None, and `order` (the ids in the ranking's order) is where
    the next sort starts.
    """

    criteria: list[CriterionSpec]
    records: dict[str, Record]
    order: list[str]
    rows: list[SortRow] | None = None
    row_of: dict[str, SortRow] = field(default_factory=dict)
    ranked: list[tuple[str, int, tuple[Number, ...]]] = field(default_factory=list)


def rank_order_kept(
    records: Mapping[str, Record], criteria: Sequence[CriterionSpec], kept: KeptOrder | None = None
) -> tuple[tuple[str, ...], list[tuple[str, int, tuple[Number, ...]]], KeptOrder]:
    """`rank_order_values` for a caller ranking after every hand: the same keys and order,
    and what to give the next call.

    With `kept` from the last call with the same criteria, and every criterion reading
    the competitor's own record only, the competitors whose record is the same object as
    then keep their place in the sorted rows; the others (and those gone) are taken out
    and put back where their new values go. A hand moves two to five competitors of
    thousands: a few bisections rather than a sort. Records are never modified in place
    (a changed record is a new object), which is what makes the same object mean the
    same values. The order's tuples before and after the stretch of rows that moved are
    those of the last call (the same objects), its ranks taken again. Otherwise the
    ranking is `rank_order_values`, its sort started from `kept`'s order.
    """
    chosen = make_criteria(criteria)
    same_criteria = kept is not None and kept.criteria == list(criteria)
    if not chosen or not all(criterion.own_record for criterion in chosen):
        keys, order = rank_order_values(records, chosen, _kept_ids(kept))
        return keys, order, KeptOrder(list(criteria), dict(records), [c for c, _rank, _values in order])
    keys = tuple(criterion.key for criterion in chosen)
    if same_criteria and kept is not None and kept.rows is not None:
        last = kept.records
        moved = [c for c, record in records.items() if last.get(c) is not record]
        if len(last) != len(records) or any(c not in last for c in moved):
            moved.extend(c for c in last if c not in records)
        if len(moved) <= max(8, len(records) // 8):
            rows, row_of = list(kept.rows), dict(kept.row_of)
            for competitor in moved:
                old = row_of.pop(competitor, None)
                if old is not None:
                    del rows[bisect.bisect_left(rows, old)]
            placed = [c for c in moved if c in records]
            columns = {criterion.key: criterion.values(records, placed) for criterion in chosen}
            for row in _sort_rows(placed, chosen, columns):
                bisect.insort(rows, row)
                row_of[row[1]] = row
            order = _ranks_again(rows, kept.rows, kept.ranked)
            return keys, order, KeptOrder(list(criteria), dict(records), [], rows, row_of, order)
    columns = {criterion.key: criterion.values(records, records) for criterion in chosen}
    start = _start_order(records, _kept_ids(kept))
    rows = _sort_rows(start, chosen, columns)
    rows.sort()
    order = _shared_ranks(rows)
    return keys, order, KeptOrder(list(criteria), dict(records), [], rows, {row[1]: row for row in rows}, order)


def _ranks_again(
    rows: list[SortRow], last_rows: list[SortRow], last: list[tuple[str, int, tuple[Number, ...]]]
) -> list[tuple[str, int, tuple[Number, ...]]]:
    """`_shared_ranks(rows)` from the last call's: the rows before the first that is not
    the last call's same row, and after the last such, keep their tuple; the stretch
    between is ranked again, on until a rank is the last call's (the rows after it are
    the same and so are their ranks)."""
    count = len(rows)
    if count != len(last_rows) or len(last) != count:
        return _shared_ranks(rows)
    first = next(compress(range(count), map(is_not, rows, last_rows)), count)
    if first == count:
        return list(last)
    after = count - next(compress(range(count), map(is_not, reversed(rows), reversed(last_rows))), count)
    # Ranks go on from the row before the stretch: its group may go on into it.
    key, shared = (rows[first - 1][0], last[first - 1][1]) if first else (None, 0)
    middle: list[tuple[str, int, tuple[Number, ...]]] = []
    position = first
    while position < count:
        row_key, competitor, values = rows[position]
        if row_key != key:
            shared, key = position + 1, row_key
        if position >= after and shared == last[position][1]:
            break
        middle.append((competitor, shared, values))
        position += 1
    return [*last[:first], *middle, *last[position:]]


def _kept_ids(kept: KeptOrder | None) -> list[str]:
    """The competitors in the order `kept` ranked them (empty without it)."""
    if kept is None:
        return []
    return kept.order if kept.rows is None else [row[1] for row in kept.rows]


def _signed_columns(
    ids: list[str], criteria: Sequence[Criterion], columns: Mapping[str, Mapping[str, Number]]
) -> list[list[Number]]:
    """Each criterion's values of `ids`, negated where higher is better: ascending is best first."""
    return [
        [-column[c] for c in ids] if criterion.higher_is_better else [column[c] for c in ids]
        for criterion in criteria
        for column in (columns[criterion.key],)
    ]


def _start_order(records: Mapping[str, Record], hint: Iterable[str]) -> list[str]:
    """Every competitor of `records` once: those of `hint` first, in its order."""
    ids = [c for c in dict.fromkeys(hint) if c in records]
    if len(ids) != len(records):
        seen = set(ids)
        ids.extend(c for c in records if c not in seen)
    return ids


def _lead_groups(
    ids: list[str], criteria: Sequence[Criterion], columns: Mapping[str, Mapping[str, Number]]
) -> list[list[str]]:
    """`ids` in groups of equal values of `criteria`, best first, ids ordering each group:
    what splitting by each criterion in turn gives, in one sort (of (values, id) pairs,
    quick when `ids` is nearly in order already)."""
    signed = _signed_columns(ids, criteria, columns)
    pairs: list[tuple[tuple[Number, ...], str]] = (
        list(zip(zip(*signed, strict=True), ids, strict=True)) if signed else [((), c) for c in ids]
    )
    pairs.sort()
    groups: list[list[str]] = []
    last: tuple[Number, ...] | None = None
    for key, competitor in pairs:
        if key != last:
            groups.append([])
            last = key
        groups[-1].append(competitor)
    return groups


def _split(
    group: list[str], criterion: Criterion, records: Mapping[str, Record], column: dict[str, Number]
) -> list[list[str]]:
    """Split a tied group by one criterion (its values in `column`, filled here for a
    criterion compared among the tied), best first; ids order each part."""
    if criterion.among_tied:
        among = criterion.values(records, group) if len(group) > 1 else {group[0]: 0}
        column.update(among)
    if len(group) == 1:
        return [group]
    sign = 1 if criterion.higher_is_better else -1
    by_value: dict[Number, list[str]] = defaultdict(list)
    for competitor in group:
        by_value[column[competitor]].append(competitor)
    return [by_value[v] for v in sorted(by_value, key=lambda v: -sign * v)]


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


def _require_against(criterion: Criterion, records: Mapping[str, Record], among: Iterable[str]) -> None:
    for competitor in among:
        if records[competitor].missing_against:
            raise ValueError(f"criterion {criterion.key!r} needs points_against, missing for {competitor!r}")


def _boolean(criterion: Criterion, name: str, default: bool) -> bool:
    value = criterion.params.get(name, default)
    if not isinstance(value, bool):
        raise ValueError(f"criterion {criterion.key!r}: {name!r} must be true or false, got {value!r}")
    return value


def _standing(record: Record, shared_rank: int, values: dict[str, Number]) -> Standing:
    return Standing(
        competitor=record.competitor,
        rank=shared_rank,
        values=dict(values),
        played=record.played,
        wins=record.wins,
        draws=record.draws,
        losses=record.losses,
        byes=record.byes,
        points_for=record.points_for,
        points_against=record.points_against,
        rounds=tuple(record.results),
        absences=record.absences,
    )


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


# --- Rounds spent away from a table: byes and late arrivals (docs/rules.md) ----------

BYE_POLICIES = ("average_win", "fixed", "none")
LATE_POLICIES = ("absent", "bye")


@dataclass(frozen=True, slots=True)
class MissedRound:
    """What a round spent away from any table scores, as the ranking counts it.

    `outcome` is "bye" (a won partie with `points`) or "absent"; `counted` says whether
    the round enters the ranking at all (the `none` bye policy counts it for nothing);
    `finished` is false only for a round that counts for nothing.
    """

    outcome: str
    points: Number
    counted: bool
    finished: bool


def half_up(value: Number) -> int:
    """`value` rounded to a whole number, halves away from zero (2.5 -> 3), exactly."""
    return int(Decimal(str(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def bye_points(*, bye_policy: str, fixed_points: Number, winners: Sequence[Number], step: int = 1) -> Number:
    """The points a bye is credited with: `winners` are the points of the round's winning sides.

    `average_win`: their average rounded half up to a multiple of `step` (the game's
    rounding: `Game.score_step`, 10 for a contrée that rounds to the ten), 0 while no
    table has finished; `fixed`: the tournament's `fixed_points`; `none`: 0 (the bye
    counts for nothing).
    """
    if bye_policy not in BYE_POLICIES:
        raise ValueError(f"unknown bye policy {bye_policy!r} (one of {', '.join(BYE_POLICIES)})")
    if bye_policy == "fixed":
        return fixed_points
    if bye_policy == "average_win":
        return half_up(sum(winners) / len(winners) / step) * step if winners else 0
    return 0


def missed_round(
    *,
    late: bool,
    bye_policy: str,
    late_policy: str,
    fixed_points: Number,
    winners: Sequence[Number],
    step: int = 1,
) -> MissedRound:
    """What one round away from the tables scores: a bye, or a late arrival's missed round.

    A late arrival's round under the `absent` late policy is a partie lost with no points,
    not played; under the `bye` late policy it scores what a bye scores. A bye under the
    `none` bye policy counts for nothing, not even as played.
    """
    if late_policy not in LATE_POLICIES:
        raise ValueError(f"unknown late policy {late_policy!r} (one of {', '.join(LATE_POLICIES)})")
    if late and late_policy == "absent":
        return MissedRound(outcome="absent", points=0, counted=True, finished=True)
    if bye_policy == "none":
        return MissedRound(outcome="absent", points=0, counted=False, finished=False)
    points = bye_points(bye_policy=bye_policy, fixed_points=fixed_points, winners=winners, step=step)
    return MissedRound(outcome="bye", points=points, counted=True, finished=True)


def missed_round_result(round_number: int, competitor: str, missed: MissedRound) -> PartieResult | None:
    """The engine's partie result of a missed round, or None when it counts for nothing."""
    if not missed.counted:
        return None
    return PartieResult(
        round=round_number,
        competitor=competitor,
        opponents=(),
        points_for=missed.points,
        points_against=0,
        outcome=missed.outcome,
    )


# --- Season ranking -------------------------------------------------------------------


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
