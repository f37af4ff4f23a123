"""Belote moderne: belote classique plus the *sans atout* and *tout atout* contracts.

docs/rules.md, "Belote moderne":

- *sans atout* (SA): no trump, every card at its plain value, 130 points a donne, no
  belote-rebelote; everything the teams score is doubled.
- *tout atout* (TA): every suit is trump, every card at its trump value, 258 points a
  donne, a belote in each suit (up to four); everything is tripled.
- a suit contract is belote classique's, ×1.

A partie goes to 1501 by default; a tournament may choose a target from 501 to 3001.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from engine.games.belote_common import SANS_ATOUT, SUIT_CONTRACTS, TOUT_ATOUT, Contract, FourPlayerBelote


class BeloteModerne(FourPlayerBelote):
    code = "belote_moderne"
    contracts: ClassVar[Mapping[str, Contract]] = {
        **SUIT_CONTRACTS,
        SANS_ATOUT.name: SANS_ATOUT,
        TOUT_ATOUT.name: TOUT_ATOUT,
    }
    default_target = 1501
    target_range = (501, 3001)

    def random_contract(self, rng: random.Random) -> Contract:
        # Most donnes are still played at a suit; the riskier contracts are rarer.
        draw = rng.random()
        if draw < 0.12:
            return SANS_ATOUT
        if draw < 0.22:
            return TOUT_ATOUT
        return SUIT_CONTRACTS[rng.choice(tuple(SUIT_CONTRACTS))]
