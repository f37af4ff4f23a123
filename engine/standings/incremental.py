"""The incremental ranking: a ranking kept from one call to the next.

For a caller that ranks thousands of competitors after every hand, of whom a hand moves
two to five (the live refresh). The answer is always `rank_order_values`'s; what is kept
only makes it cheaper.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import is_not

from engine.standings.criteria import CriterionSpec, make_criteria
from engine.standings.ranking import (
    SortRow,
    _shared_ranks,
    _sort_rows,
    _start_order,
    rank_order_values,
)
from engine.standings.records import Number, Record


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
