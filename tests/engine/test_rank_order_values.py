"""Ranking with values as tuples and a hint (engine.standings.rank_order_values).

The live refresh ranks thousands of competitors after every hand, starting its sort from
the last ranking's order. Whatever that hint, the order, the shared ranks and the values
are those of splitting the competitors (sorted by id) by each criterion in turn.
"""

from __future__ import annotations

import copy
from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.standings import (
    Number,
    Record,
    make_criteria,
    rank_order,
    rank_order_values,
    records_of,
)
from tests.engine.test_standings import partie
from tests.tiers import examples

IDS = "abcdefgh"


def split_in_turn(records: dict[str, Record], criteria: list[str]) -> list[tuple[str, int, dict[str, Number]]]:
    """The definition: competitors by id, split by each criterion in turn (a criterion
    compared among the tied only sees its group)."""
    chosen = make_criteria(criteria)
    values: dict[str, dict[str, Number]] = {c: {} for c in records}
    for criterion in chosen:
        if not criterion.among_tied:
            for competitor, value in criterion.values(records, records).items():
                values[competitor][criterion.key] = value
    groups = [sorted(records)]
    for criterion in chosen:
        parts = []
        for group in groups:
            if criterion.among_tied:
                found = criterion.values(records, group) if len(group) > 1 else {group[0]: 0}
                for competitor, value in found.items():
                    values[competitor][criterion.key] = value
            by_value: dict[Number, list[str]] = defaultdict(list)
            for competitor in group:
                by_value[values[competitor][criterion.key]].append(competitor)
            sign = -1 if criterion.higher_is_better else 1
            parts.extend(by_value[v] for v in sorted(by_value, key=lambda v: sign * v))
        groups = parts
    order: list[tuple[str, int, dict[str, Number]]] = []
    for group in groups:
        shared = len(order) + 1
        order.extend((c, shared, values[c]) for c in group)
    return order


games = st.lists(
    st.tuples(st.sampled_from(IDS), st.sampled_from(IDS), st.integers(0, 3), st.integers(0, 3)), max_size=16
)
criteria_lists = st.lists(
    st.sampled_from(["wins", "points", "difference", "against", "match_points", "buchholz", "head_to_head"]),
    min_size=1,
    max_size=4,
    unique=True,
)
# A previous ranking's order: some competitors, maybe some that left, in any order.
hints = st.lists(st.sampled_from(IDS + "xyz"), max_size=12)


@settings(max_examples=examples(150), deadline=None)
@given(games, criteria_lists, hints)
def test_whatever_the_hint_the_ranking_is_the_split_in_turn(
    played: list[tuple[str, str, int, int]], criteria: list[str], hint: list[str]
) -> None:
    results = []
    for round_number, (a, b, pa, pb) in enumerate(played, start=1):
        if a != b:
            results.extend(partie(round_number, a, b, pa * 40, pb * 40))
    records = records_of(results, IDS)
    expected = split_in_turn(records, criteria)
    keys, order = rank_order_values(records, criteria, hint)
    assert [(c, shared, dict(zip(keys, values, strict=True))) for c, shared, values in order] == expected
    assert rank_order(records, criteria) == expected
    # The keys in the order of the values' dicts: head to head, compared among the tied, last.
    assert list(keys) == list(expected[0][2])


def test_a_hint_in_the_last_order_gives_the_same_ranking_as_none() -> None:
    results = [*partie(1, "a", "b", 100, 62), *partie(1, "c", "d", 81, 81), *partie(2, "a", "c", 90, 72)]
    records = records_of(results, "abcde")
    keys, order = rank_order_values(records, ["wins", "head_to_head", "points"])
    assert keys == ("wins", "points", "head_to_head")
    assert [c for c, _rank, _values in order] == ["a", "c", "d", "b", "e"]
    last = [c for c, _rank, _values in order]
    assert rank_order_values(records, ["wins", "head_to_head", "points"], last) == (keys, order)
    assert rank_order_values(records, ["wins", "head_to_head", "points"], reversed(last)) == (keys, order)


def test_no_competitor_gives_an_empty_ranking() -> None:
    assert rank_order_values({}, ["head_to_head", "wins"], ["a"]) == (("wins", "head_to_head"), [])


# -- the live refresh's use: each ranking's sort starts from the last one's order -------

MANY = [f"c{n:02d}" for n in range(40)]
# Each step replaces some records by new ones (a hand stored), drops some (-1) or brings
# newcomers in: few values, so that ties are common.
changes = st.lists(
    st.lists(st.tuples(st.sampled_from([*MANY, "n1", "n2"]), st.integers(-1, 3), st.integers(0, 3)), max_size=6),
    min_size=1,
    max_size=8,
)


def record(competitor: str, wins: int, points: int) -> Record:
    return Record(
        competitor, played=wins + 1, wins=wins, losses=1, byes=points % 2, points_for=points * 40,
        points_against=(3 - points) * 30,
    )  # fmt: skip


@settings(max_examples=examples(150), deadline=None)
@given(criteria_lists, changes)
def test_a_ranking_started_from_the_last_rankings_order_is_the_ranking_from_scratch(
    criteria: list[str], steps: list[list[tuple[str, int, int]]]
) -> None:
    records = {c: record(c, n % 3, n % 4) for n, c in enumerate(MANY)}
    keys, order = rank_order_values(records, criteria)
    for step in steps:
        records = dict(records)
        for competitor, wins, points in step:
            if wins < 0:
                records.pop(competitor, None)
            else:
                records[competitor] = record(competitor, wins, points)
        hint = [competitor for competitor, _rank, _values in order]
        before = copy.deepcopy(records)
        keys, order = rank_order_values(records, criteria, hint)
        assert (keys, order) == rank_order_values(records, criteria)
        # The ranking only reads the records: the live refresh hands it the records it
        # keeps from one hand to the next (scoring/standings/kept.py).
        assert records == before
