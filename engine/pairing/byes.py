"""Who may sit out: the fair-bye rule.

When the competitors do not fill whole tables, `count` of them are exempt (sit out the
round). The rule of docs/rules.md: nobody gets a second bye while another has none,
and more generally the byes go to those with the fewest byes so far. If the fewest-byes
group is smaller than `count`, all of it sits out (`forced`) and the rest is chosen from
the next group (`pool`); the search then picks `free` competitors of `pool` by cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SitOut:
    count: int
    forced: tuple[int, ...]
    pool: tuple[int, ...]

    @property
    def free(self) -> int:
        return self.count - len(self.forced)


def plan_sit_out(byes_so_far: Sequence[int], count: int) -> SitOut:
    """Who must and who may sit out, given each competitor's number of earlier byes."""
    if count == 0:
        return SitOut(0, (), ())
    threshold = sorted(byes_so_far)[count - 1]
    forced = tuple(i for i, b in enumerate(byes_so_far) if b < threshold)
    pool = tuple(i for i, b in enumerate(byes_so_far) if b == threshold)
    return SitOut(count, forced, pool)
