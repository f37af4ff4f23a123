"""Pairing methods: how competitors are ordered before the tables are drawn.

A method decides the order the search works along and what "close" means:

- `random`: a seeded shuffle; scores play no part, and the byes go to the last of the
  shuffle among those who may sit out.
- `swiss` (*système suisse*): the standings order, best score first (equal scores keep
  the order they were given in, which should be the standings' own tiebreaks); tables
  gather competitors whose scores differ as little as possible, and the byes go to the
  lowest scores.
- `seeded` (strongest apart, a first round by rating): the scores are ratings, best
  first; the field is cut into as many bands as a table has seats and each table takes
  one competitor of each band, dealt back and forth (table 1 gets the best of the first
  band and the weakest of the second), so the strongest do not meet. The byes go to the
  lowest ratings. Like a random draw, the search then keeps neighbours of the order
  together: the order is built so that neighbours are the table.

Both avoid rematches and forbidden meetings the same way: that part of the cost belongs
to the format (engine/pairing/costs.py).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from engine.pairing.costs import BYE_UNIT
from engine.pairing.model import Competitor


class PairingMethod(ABC):
    key: ClassVar[str]
    uses_scores: ClassVar[bool]

    @abstractmethod
    def order(self, competitors: Sequence[Competitor], rng: random.Random, plan: Sequence[int] = ()) -> list[int]:
        """Indices of `competitors`, the top of the order first; `plan` is the size of
        every table of the round (engine/pairing/plan.py), for a method that needs it."""

    @abstractmethod
    def bye_costs(self, ordered: Sequence[Competitor]) -> list[int]:
        """What sitting out costs for each competitor of the order: the cheapest sit out."""


class RandomMethod(PairingMethod):
    key = "random"
    uses_scores = False

    def order(self, competitors: Sequence[Competitor], rng: random.Random, plan: Sequence[int] = ()) -> list[int]:
        indices = list(range(len(competitors)))
        rng.shuffle(indices)
        return indices

    def bye_costs(self, ordered: Sequence[Competitor]) -> list[int]:
        last = len(ordered) - 1
        return [last - place for place in range(len(ordered))]


class SwissMethod(PairingMethod):
    key = "swiss"
    uses_scores = True

    def order(self, competitors: Sequence[Competitor], rng: random.Random, plan: Sequence[int] = ()) -> list[int]:
        # sorted() is stable: equal scores keep the caller's (standings) order.
        return sorted(range(len(competitors)), key=lambda i: -competitors[i].score)

    def bye_costs(self, ordered: Sequence[Competitor]) -> list[int]:
        scores = [float(c.score) for c in ordered]
        low, spread = min(scores), max(scores) - min(scores)
        last = len(ordered) - 1
        # Lowest score first; among equal scores, the lowest in the standings.
        return [
            int(BYE_UNIT * ((s - low) / spread if spread > 0 else 0.0)) + (last - place)
            for place, s in enumerate(scores)
        ]


class SeededMethod(PairingMethod):
    key = "seeded"
    # The scores decide the order only: "close" is the place in it, as in a random draw.
    uses_scores = False

    def order(self, competitors: Sequence[Competitor], rng: random.Random, plan: Sequence[int] = ()) -> list[int]:
        # Best first; equal ratings keep the caller's order (sorted() is stable).
        ranked = sorted(range(len(competitors)), key=lambda i: -competitors[i].score)
        seated = sum(plan) if plan else len(ranked)
        # Who sits out goes last: the fewest byes so far, then the lowest ratings (what
        # `bye_costs` and the fair-bye rule choose); everyone else is dealt to the tables.
        leaving = sorted(ranked, key=lambda i: (competitors[i].byes, competitors[i].score))[: len(ranked) - seated]
        out = set(leaving)
        playing = [i for i in ranked if i not in out]
        if not plan:
            return ranked
        tables: list[list[int]] = [[] for _ in plan]
        # Deal back and forth: tables 1, 2, ..., n, then n, ..., 2, 1, skipping full ones.
        forward = True
        dealt = 0
        while dealt < len(playing):
            sweep = range(len(plan)) if forward else range(len(plan) - 1, -1, -1)
            for t in sweep:
                if dealt < len(playing) and len(tables[t]) < plan[t]:
                    tables[t].append(playing[dealt])
                    dealt += 1
            forward = not forward
        return [i for table in tables for i in table] + [i for i in ranked if i in out]

    def bye_costs(self, ordered: Sequence[Competitor]) -> list[int]:
        last = len(ordered) - 1
        return [last - place for place in range(len(ordered))]


METHODS: dict[str, type[PairingMethod]] = {cls.key: cls for cls in (RandomMethod, SwissMethod, SeededMethod)}


def get_method(key: str) -> PairingMethod:
    try:
        return METHODS[key]()
    except (KeyError, TypeError):
        raise ValueError(f"unknown pairing method {key!r} (one of {', '.join(sorted(METHODS))})") from None
