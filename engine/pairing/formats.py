"""Tournament formats: what a table is, and which search draws it.

- `teams` (*doublettes formées*): fixed teams, two at a table; one team sits out when
  their number is odd. Drawn by minimum-cost matching (engine/pairing/pairs.py).
- `melee` (*à la mêlée*): players registered alone; each round draws both partners and
  opponents, four players a table in two pairs of partners, seated North-South against
  East-West. A player never gets the same partner twice, nor the same opponent, while a
  draw avoids it. `n mod 4` players sit out.
- `individual`: players each on their own, everyone at a table facing everyone else.
  Games for three (belote à 3, tarot à 3) seat three a table, and `n mod 3` players
  sit out. Tarot at four and five gives the request's `table_sizes`, the allowed sizes
  (3, 4 or 5) in order of preference: `(4, 5)` seats tables of 4, and of 5 where the
  count does not divide by 4; `(5, 4)` tables of 5 first; `(4, 5, 3)` allows a table
  of 3 as a last resort. The plan of tables (engine/pairing/plan.py) seats as many
  players as it can, then prefers the sizes in the order given. The other formats
  refuse `table_sizes`.
"""

from __future__ import annotations

import itertools
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from engine.pairing.byes import SitOut
from engine.pairing.costs import CostModel
from engine.pairing.groups import IndividualTables, MeleeTables, TableCosts, draw_groups
from engine.pairing.pairs import PairSearch

Group = list[int]


class PairingFormat(ABC):
    key: ClassVar[str]
    # Competitors at a table (unless the request gives table sizes), and competitors on
    # one side.
    table_size: ClassVar[int]
    side_size: ClassVar[int]
    uses_partners: ClassVar[bool] = False
    # The table sizes a request may choose among in `table_sizes`; empty: none.
    table_size_choices: ClassVar[tuple[int, ...]] = ()

    def table_sizes(self, requested: tuple[int, ...]) -> tuple[int, ...]:
        """The allowed table sizes in order of preference: the request's, checked, or the
        format's own size when the request gives none. Raises ValueError."""
        if not isinstance(requested, tuple):
            raise ValueError(f"table_sizes must be a tuple of table sizes, got {requested!r}")
        if not requested:
            return (self.table_size,)
        if not self.table_size_choices:
            choosing = ", ".join(repr(key) for key, cls in FORMATS.items() if cls.table_size_choices)
            raise ValueError(
                f"format {self.key!r} seats {self.table_size} competitors a table: "
                f"table_sizes is for the {choosing} format only"
            )
        *others, last = map(str, self.table_size_choices)
        choices = f"{', '.join(others)} or {last}" if others else last
        for size in requested:
            if not isinstance(size, int) or isinstance(size, bool) or size not in self.table_size_choices:
                raise ValueError(f"table_sizes: {size!r} is not a table size of format {self.key!r} ({choices})")
            if requested.count(size) > 1:
                raise ValueError(f"table_sizes lists {size} twice")
        return requested

    @abstractmethod
    def draw(
        self, costs: CostModel, sit_out: SitOut, plan: Sequence[int], rng: random.Random
    ) -> tuple[list[Group], list[int]]:
        """The tables (competitors by place in the order) of the sizes of `plan`, and who sits out."""

    @abstractmethod
    def arrange(self, costs: CostModel, members: Sequence[int]) -> list[list[int]]:
        """The sides of one table in seat order."""

    def repeats(self, costs: CostModel, sides: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
        """Pairs at this table meeting again: opponents, and partners if the format draws them."""
        found: list[tuple[int, int]] = []
        for s, t in itertools.combinations(range(len(sides)), 2):
            found.extend((i, j) for i in sides[s] for j in sides[t] if costs.met[i].get(j))
        if self.uses_partners:
            for side in sides:
                found.extend((i, j) for i, j in itertools.combinations(side, 2) if costs.partnered[i].get(j))
        return found

    def conflicts(self, costs: CostModel, sides: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
        seated = [i for side in sides for i in side]
        return [(i, j) for i, j in itertools.combinations(seated, 2) if costs.conflict(i, j)]


class TeamsFormat(PairingFormat):
    key = "teams"
    table_size = 2
    side_size = 1

    def draw(
        self, costs: CostModel, sit_out: SitOut, plan: Sequence[int], rng: random.Random
    ) -> tuple[list[Group], list[int]]:
        pairs, byes = PairSearch(costs, sit_out).draw()
        return [list(p) for p in pairs], byes

    def arrange(self, costs: CostModel, members: Sequence[int]) -> list[list[int]]:
        return [[m] for m in sorted(members)]


class _GroupFormat(PairingFormat):
    shape: ClassVar[type[TableCosts]]

    def draw(
        self, costs: CostModel, sit_out: SitOut, plan: Sequence[int], rng: random.Random
    ) -> tuple[list[Group], list[int]]:
        return draw_groups(self.shape(costs), sit_out, plan, rng)

    def arrange(self, costs: CostModel, members: Sequence[int]) -> list[list[int]]:
        return self.shape(costs).arrange(members)


class MeleeFormat(_GroupFormat):
    key = "melee"
    table_size = 4
    side_size = 2
    uses_partners = True
    shape = MeleeTables


class IndividualFormat(_GroupFormat):
    key = "individual"
    table_size = 3
    side_size = 1
    table_size_choices = (3, 4, 5)
    shape = IndividualTables


FORMATS: dict[str, type[PairingFormat]] = {cls.key: cls for cls in (TeamsFormat, MeleeFormat, IndividualFormat)}


def get_format(key: str) -> PairingFormat:
    try:
        return FORMATS[key]()
    except (KeyError, TypeError):
        raise ValueError(f"unknown pairing format {key!r} (one of {', '.join(sorted(FORMATS))})") from None
