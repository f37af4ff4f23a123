"""Tarot à 5: 78 cards, five players; the taker calls a king and plays with its holder.

Everything but the table and the partner is engine.games.tarot_common's:

- *chien*: the 3 cards dealt aside (15 cards to each player).
- *roi appelé*: before the chien, the taker calls a king; the player holding it is the
  *partner* (`partner`, a player index), known to the others only once the king is
  played. Taker and partner form the attack: the oudlers, card points, petit au bout and
  chelem of a hand are the attack's, and `"taker"` in a hand names the attack's side.
- *seul* (alone): the called king was in the chien or in the taker's own hand; the hand
  gives `partner` equal to `taker`.
- *poignée*: 8, 10 or 13 trumps shown (simple, double, triple). Two fit in the 22
  trumps (not a double with a triple), so a hand may record two, as a list.
- *chelem* in a garde contre: at least 73.5 points to the attack
  (tarot_common.chelem_floor_garde_contre with a chien of 3).

Scores: the taker 2 × D, the partner D, each of the three defenders -D; alone, the
taker 4 × D and each of the four defenders -D. Either way the donne adds up to 0.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import Number
from engine.games.checks import whole
from engine.games.tarot_common import FIELDS, TarotGame, chelem_floor_garde_contre

PLAYERS = (0, 1, 2, 3, 4)
# How often a random donne has the taker alone: the called king in the chien (3 cards of
# the 63 the taker does not hold) or, now and then, in the taker's own hand.
ALONE = 0.07


class TarotACinq(TarotGame):
    code: ClassVar[str] = "tarot_a_cinq"
    players_per_table: ClassVar[int] = 5
    sides: ClassVar[tuple[int, ...]] = PLAYERS
    cards_per_player: ClassVar[int] = 15
    chien: ClassVar[int] = 3
    poignee_trumps: ClassVar[Mapping[str, int]] = {"simple": 8, "double": 10, "triple": 13}
    chelem_min_points_garde_contre: ClassVar[float] = chelem_floor_garde_contre(3)
    seats: ClassVar[tuple[str, ...]] = ("taker", "partner")
    fields: ClassVar[frozenset[str]] = FIELDS | {"partner"}

    def share(self, hand: Mapping[str, Any], d: Number) -> tuple[Number, ...]:
        taker, partner = hand["taker"], hand["partner"]
        scores: list[Number] = [-d, -d, -d, -d, -d]
        if partner == taker:
            scores[taker] = whole(4 * d)
        else:
            scores[taker] = whole(2 * d)
            scores[partner] = d
        return tuple(scores)

    def _random_seats(self, rng: random.Random) -> dict[str, Any]:
        taker = rng.randrange(5)
        if rng.random() < ALONE:
            return {"taker": taker, "partner": taker}
        return {"taker": taker, "partner": (taker + rng.randrange(1, 5)) % 5}
