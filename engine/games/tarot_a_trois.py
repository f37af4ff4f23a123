"""Tarot à 3: 78 cards, three players, the taker against two defenders.

Terms (preneur, défense, chien, poignée): docs/glossary.md; the rules: docs/rules.md,
"Tarot à 3". What tarot à 4 and à 5 share with it is in engine.games.tarot_common. The
*chien* is 6 cards (24 to each player); a *poignée* shows 13, 15 or 18 trumps (simple,
double, triple): two never fit in the 22 trumps, so a hand records at most one.

The taker scores 2 × D and each defender -D, so a donne always adds up to 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import Number
from engine.games.checks import whole
from engine.games.tarot_common import CONTRACTS, NEEDED, TarotGame, points_range

__all__ = ["CONTRACTS", "NEEDED", "TarotATrois", "points_range"]

PLAYERS = (0, 1, 2)


class TarotATrois(TarotGame):
    code: ClassVar[str] = "tarot_a_trois"
    players_per_table: ClassVar[int] = 3
    sides: ClassVar[tuple[int, ...]] = PLAYERS
    cards_per_player: ClassVar[int] = 24
    chien: ClassVar[int] = 6
    poignee_trumps: ClassVar[Mapping[str, int]] = {"simple": 13, "double": 15, "triple": 18}
    # The floor tarot à 3 settled on: 91 less the 27 points a chien of 6 can hold.
    # tarot_common.chelem_floor_garde_contre also counts the Excuse a defender may keep
    # on top of such a chien, which would make it 60.
    chelem_min_points_garde_contre: ClassVar[float] = 64

    def share(self, hand: Mapping[str, Any], d: Number) -> tuple[Number, ...]:
        scores: list[Number] = [-d, -d, -d]
        scores[hand["taker"]] = whole(2 * d)
        return tuple(scores)
