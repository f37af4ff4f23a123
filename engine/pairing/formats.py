"""Tournament formats: what a table is, and which search draws it.

- `teams` (*doublettes formées*): fixed teams, two at a table; one team sits out when
  their number is odd. Drawn by minimum-cost matching (engine/pairing/pairs.py).
- `melee` (*à la mêlée*): players registered alone; each round draws both partners and
  opponents, four players a table in two pairs of partners, seated North-South against
  East-West. A player never gets the same partner twice, nor the same opponent, while a
  draw avoids it. `n mod 4` players sit out.
- `individual`: games for three (belote à 3, tarot à 3), three players a table, each
  on their own; `n mod 3` players sit out. A tarot tournament may prefer tables of four
  with a few of three or five (docs/rules.md); this format keeps to tables of three.
"""

from __future__ import annotations

import itertools
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from engine.pairing.byes import SitOut
from engine.pairing.costs import CostModel
from engine.pairing.groups import MeleeTables, TableCosts, ThreeSeatTables, draw_groups
from engine.pairing.pairs import PairSearch

Group = list[int]


class PairingFormat(ABC):
    key: ClassVar[str]
    # Competitors at a table, and competitors on one side.
    table_size: ClassVar[int]
    side_size: ClassVar[int]
    uses_partners: ClassVar[bool] = False

    @abstractmethod
    def draw(self, costs: CostModel, sit_out: SitOut, rng: random.Random) -> tuple[list[Group], list[int]]:
        """The tables (competitors by place in the order) and who sits out."""

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

    def draw(self, costs: CostModel, sit_out: SitOut, rng: random.Random) -> tuple[list[Group], list[int]]:
        pairs, byes = PairSearch(costs, sit_out).draw()
        return [list(p) for p in pairs], byes

    def arrange(self, costs: CostModel, members: Sequence[int]) -> list[list[int]]:
        return [[m] for m in sorted(members)]


class _GroupFormat(PairingFormat):
    shape: ClassVar[type[TableCosts]]

    def draw(self, costs: CostModel, sit_out: SitOut, rng: random.Random) -> tuple[list[Group], list[int]]:
        return draw_groups(self.shape(costs), sit_out, rng)

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
    shape = ThreeSeatTables


FORMATS: dict[str, type[PairingFormat]] = {cls.key: cls for cls in (TeamsFormat, MeleeFormat, IndividualFormat)}


def get_format(key: str) -> PairingFormat:
    try:
        return FORMATS[key]()
    except (KeyError, TypeError):
        raise ValueError(f"unknown pairing format {key!r} (one of {', '.join(sorted(FORMATS))})") from None
