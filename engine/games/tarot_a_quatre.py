"""Tarot à 4: 78 cards, four players, the taker against three defenders.

The game of club evenings and the federation's tournaments. Everything else is
engine.games.tarot_common's:

- *chien*: the 6 cards dealt aside (18 cards to each player).
- *poignée*: 10, 13 or 15 trumps shown (simple, double, triple). Two simple poignées
  fit in the 22 trumps, so a hand may record two, as a list.
- *chelem* in a garde contre: at least 60 points to the taker
  (tarot_common.chelem_floor_garde_contre with a chien of 6).

The taker scores 3 × D and each of the three defenders -D.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import Number
from engine.games.checks import whole
from engine.games.tarot_common import TarotGame, chelem_floor_garde_contre

PLAYERS = (0, 1, 2, 3)


class TarotAQuatre(TarotGame):
    code: ClassVar[str] = "tarot_a_quatre"
    players_per_table: ClassVar[int] = 4
    sides: ClassVar[tuple[int, ...]] = PLAYERS
    cards_per_player: ClassVar[int] = 18
    chien: ClassVar[int] = 6
    poignee_trumps: ClassVar[Mapping[str, int]] = {"simple": 10, "double": 13, "triple": 15}
    chelem_min_points_garde_contre: ClassVar[float] = chelem_floor_garde_contre(6)

    def share(self, hand: Mapping[str, Any], d: Number) -> tuple[Number, ...]:
        scores: list[Number] = [-d, -d, -d, -d]
        scores[hand["taker"]] = whole(3 * d)
        return tuple(scores)
