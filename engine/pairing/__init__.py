"""Drawing the tables of a round (pure Python, no Django).

`pair(PairingRequest) -> Draw` is the whole interface; `run_pair_command` is the
`python -m engine pair` command around it. Formats (`teams`, `melee`, `individual`) and
methods (`random`, `swiss`) are registries chosen by key; an unknown key is a ValueError.

The draw is an optimisation: it minimises first the rematches and the meetings the
director asked to avoid, then gives the byes to whom they are due, then keeps tables
close in the standings (engine/pairing/costs.py). Tables of two are a minimum-cost
matching (pairs.py), tables of three to five an exact or local search (groups.py).
`plan_tables` gives the sizes of a round's tables (plan.py): individual tables may mix
sizes, as tarot at four and five does with `PairingRequest.table_sizes`.
"""

from engine.pairing.cli import parse_request, run_pair_command
from engine.pairing.draw import pair
from engine.pairing.formats import FORMATS, PairingFormat, get_format
from engine.pairing.methods import METHODS, PairingMethod, get_method
from engine.pairing.model import Competitor, Draw, PairingRequest, Table
from engine.pairing.plan import plan_tables

__all__ = [
    "FORMATS",
    "METHODS",
    "Competitor",
    "Draw",
    "PairingFormat",
    "PairingMethod",
    "PairingRequest",
    "Table",
    "get_format",
    "get_method",
    "pair",
    "parse_request",
    "plan_tables",
    "run_pair_command",
]
