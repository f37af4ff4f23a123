"""How many tables of each size a round has: the plan of the draw.

Most formats have one table size (two teams, four mêlée players, three players of a
game for three), and the competitors left over sit out. Tarot at four and five seats
players at tables of several sizes: given the allowed sizes in order of preference
(`(4, 5)`: tables of 4, and of 5 where the count does not divide by 4; `(5, 4)`: tables
of 5 first; `(4, 5, 3)`: a table of 3 as a last resort), the plan is, among every way of
splitting the players into tables of those sizes:

1. one with the fewest players sitting out;
2. among those, the fewest tables of the last preferred size, then of the one before,
   and so on: a size is used only as far as the sizes preferred to it cannot seat the
   players. With two sizes this is the most tables of the first.

For example 22 players at `(4, 5)` sit at three tables of 4 and two of 5, and at
`(4, 5, 3)` too (no table of 3 when tables of 4 and 5 seat everyone); 20 players at
`(4, 5)` at five tables of 4, at `(5, 4)` at four tables of 5; 7 players at `(4, 5)` at
one table of 5, two sitting out, and at `(4, 5, 3)` at a table of 4 and one of 3; 11
players at `(5, 4, 3)` at two tables of 4 and one of 3 rather than a table of 5 and two
of 3.
"""

from __future__ import annotations

from collections.abc import Sequence


def plan_tables(players: int, sizes: Sequence[int]) -> tuple[int, ...]:
    """The size of every table of the round, the first preferred size first.

    `sizes` are the allowed table sizes in order of preference, each at least 2 and
    none twice. Raises ValueError when the players do not fill a single table.
    """
    if not sizes or min(sizes) < 2 or len(set(sizes)) != len(sizes):
        raise ValueError(f"table sizes must be distinct numbers of at least 2, got {list(sizes)!r}")
    smallest = min(sizes)
    if players < smallest:
        raise ValueError(f"{players} players do not fill a table of {smallest}")
    # Fewer than `smallest` sit out: the tables of the smallest size alone seat all but
    # players mod smallest.
    for sitting_out in range(smallest):
        counts = _fewest_of_the_last(players - sitting_out, sizes)
        if counts is not None:
            return tuple(size for size, count in zip(sizes, counts, strict=True) for _ in range(count))
    raise AssertionError("unreachable: tables of the smallest size always seat enough players")


def _fewest_of_the_last(players: int, sizes: Sequence[int]) -> tuple[int, ...] | None:
    """The counts of tables of `sizes` seating exactly `players`, the fewest of the last
    size, then of the one before; None if no counts seat exactly that many."""
    if len(sizes) == 1:
        return (players // sizes[0],) if players % sizes[0] == 0 else None
    *preferred, last = sizes
    for count in range(players // last + 1):
        others = _fewest_of_the_last(players - count * last, preferred)
        if others is not None:
            return (*others, count)
    return None
