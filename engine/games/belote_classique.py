"""Belote classique: four players in two teams, a trump suit, 162 points a donne.

The rules are in docs/rules.md, "Belote classique"; everything is in `belote_common`, which this module only
names: the four suit contracts and a partie to 1000 by default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.games.belote_common import SUIT_CONTRACTS, Contract, FourPlayerBelote


class BeloteClassique(FourPlayerBelote):
    code = "belote_classique"
    contracts: ClassVar[Mapping[str, Contract]] = SUIT_CONTRACTS
    default_target = 1000
