"""Ranking: the competitors best first by the criteria, with shared ranks.

Equal competitors on every criterion share a rank (1, 2, 2, 4); within it they are
listed by id. Everything is pure: the same records always give the same ranking.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.standings.criteria import Criterion, CriterionSpec, make_criteria
from engine.standings.records import Number, PartieResult, Record, records_of


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
