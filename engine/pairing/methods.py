"""Pairing methods: how competitors are ordered before the tables are drawn.

A method decides the order the search works along and what "close" means:

- `random`: a seeded shuffle; scores play no part, and the byes go to the last of the
  shuffle among those who may sit out.
- `swiss` (*système suisse*): the standings order, best score first (equal scores keep
  the order they were given in, which should be the standings' own tiebreaks); tables
  gather competitors whose scores differ as little as possible, and the byes go to the
  lowest scores.

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
    def order(self, competitors: Sequence[Competitor], rng: random.Random) -> list[int]:
        """Indices of `competitors`, the top of the order first."""

    @abstractmethod
    def bye_costs(self, ordered: Sequence[Competitor]) -> list[int]:
        """What sitting out costs for each competitor of the order: the cheapest sit out."""


class RandomMethod(PairingMethod):
    key = "random"
    uses_scores = False

    def order(self, competitors: Sequence[Competitor], rng: random.Random) -> list[int]:
        indices = list(range(len(competitors)))
        rng.shuffle(indices)
        return indices

    def bye_costs(self, ordered: Sequence[Competitor]) -> list[int]:
        last = len(ordered) - 1
        return [last - place for place in range(len(ordered))]


class SwissMethod(PairingMethod):
    key = "swiss"
    uses_scores = True

    def order(self, competitors: Sequence[Competitor], rng: random.Random) -> list[int]:
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


METHODS: dict[str, type[PairingMethod]] = {cls.key: cls for cls in (RandomMethod, SwissMethod)}


def get_method(key: str) -> PairingMethod:
    try:
        return METHODS[key]()
    except (KeyError, TypeError):
        raise ValueError(f"unknown pairing method {key!r} (one of {', '.join(sorted(METHODS))})") from None
