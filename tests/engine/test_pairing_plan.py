"""The plan of a round's tables (engine.pairing.plan_tables): who sits where, by size."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.pairing import Competitor, PairingRequest, pair, plan_tables


@pytest.mark.parametrize(
    ("players", "sizes", "plan"),
    [
        (22, (4, 5), (4, 4, 4, 5, 5)),
        (20, (4, 5), (4, 4, 4, 4, 4)),
        (20, (5, 4), (5, 5, 5, 5)),
        (9, (5, 4), (5, 4)),
        (7, (4, 5), (5,)),
        (7, (4, 5, 3), (4, 3)),
        (7, (5, 4, 3), (4, 3)),
        (11, (4, 5), (5, 5)),
        (11, (4, 5, 3), (4, 4, 3)),
        # Tables of 3 come last: two tables of 4 rather than one of 5 and two of 3.
        (11, (5, 4, 3), (4, 4, 3)),
        (22, (4, 5, 3), (4, 4, 4, 5, 5)),
        (6, (4, 5, 3), (3, 3)),
        (3, (4, 5, 3), (3,)),
        (14, (3,), (3, 3, 3, 3)),
    ],
)
def test_the_plan_seats_the_most_players_then_prefers_the_sizes_in_order(players, sizes, plan) -> None:
    assert plan_tables(players, sizes) == plan


def test_a_plan_of_too_few_players_or_bad_sizes_is_refused() -> None:
    with pytest.raises(ValueError, match="do not fill a table of 4"):
        plan_tables(3, (4, 5))
    with pytest.raises(ValueError, match="distinct"):
        plan_tables(10, (4, 4))


def _every_split(players: int, sizes: tuple[int, ...]):
    """Every count of tables of each size seating at most `players`."""
    ranges = [range(players // size + 1) for size in sizes]
    for counts in itertools.product(*ranges):
        if sum(c * s for c, s in zip(counts, sizes, strict=True)) <= players:
            yield counts


@given(
    players=st.integers(min_value=3, max_value=60),
    sizes=st.sampled_from([p for n in (1, 2, 3) for p in itertools.permutations((3, 4, 5), n)]),
)
def test_the_plan_is_the_best_split_by_seated_players_then_by_the_least_preferred_sizes(players, sizes) -> None:
    if players < min(sizes):
        return
    plan = plan_tables(players, sizes)
    counts = Counter(plan)
    chosen = tuple(counts[size] for size in sizes)

    def rank(split: tuple[int, ...]) -> tuple[int, ...]:
        seated = sum(c * s for c, s in zip(split, sizes, strict=True))
        # Most seated, then the fewest of the last size, then of the one before...
        return (-seated, *reversed(split))

    assert rank(chosen) == min(rank(split) for split in _every_split(players, sizes))
    assert list(plan) == sorted(plan, key=sizes.index)


def test_the_draw_follows_the_plan_and_gives_the_rest_byes() -> None:
    competitors = tuple(Competitor(f"j{k}") for k in range(1, 12))
    draw = pair(PairingRequest("individual", "random", 3, competitors, table_sizes=(5, 4, 3)))
    assert sorted(len(table.sides) for table in draw.tables) == [3, 4, 4] and draw.byes == ()
    draw = pair(PairingRequest("individual", "random", 3, competitors, table_sizes=(5, 4)))
    assert [len(table.sides) for table in draw.tables] == [5, 5] and len(draw.byes) == 1
