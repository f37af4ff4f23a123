"""`pair(request) -> Draw`: order, cost, search, then number the tables.

Tables are numbered from 1 in the method's order: in the système suisse table 1 holds
the top of the standings. Sides are listed in seat order, and within a side, and among
the byes, competitors keep the method's order.
"""

from __future__ import annotations

import random

from engine.pairing.byes import plan_sit_out
from engine.pairing.costs import build_cost_model
from engine.pairing.formats import get_format
from engine.pairing.methods import get_method
from engine.pairing.model import Draw, PairingRequest, Table, validate_request
from engine.pairing.plan import plan_tables


def pair(request: PairingRequest) -> Draw:
    """Draw the tables of one round. Raises ValueError on a request it cannot draw."""
    draw_format = get_format(request.format)
    method = get_method(request.method)
    table_sizes = draw_format.table_sizes(request.table_sizes)
    validate_request(request, min(table_sizes), draw_format.uses_partners)
    rng = random.Random(request.seed)
    plan = plan_tables(len(request.competitors), table_sizes)
    ordered = [request.competitors[i] for i in method.order(request.competitors, rng, plan)]
    costs = build_cost_model(
        ordered,
        request.forbidden,
        request.avoid_same_club,
        use_scores=method.uses_scores,
        bye_cost=method.bye_costs(ordered),
    )
    sit_out = plan_sit_out([c.byes for c in ordered], len(ordered) - sum(plan))
    groups, byes = draw_format.draw(costs, sit_out, plan, rng)
    seatings = sorted(draw_format.arrange(costs, group) for group in groups)
    name = [c.id for c in ordered]
    tables: list[Table] = []
    repeats: list[tuple[str, str]] = []
    conflicts: list[tuple[str, str]] = []
    for number, sides in enumerate(seatings, start=1):
        tables.append(Table(number, tuple(tuple(name[i] for i in side) for side in sides)))
        repeats.extend((name[i], name[j]) for i, j in draw_format.repeats(costs, sides))
        conflicts.extend((name[i], name[j]) for i, j in draw_format.conflicts(costs, sides))
    return Draw(
        tables=tuple(tables),
        byes=tuple(name[i] for i in sorted(byes)),
        repeats=tuple(repeats),
        conflicts=tuple(conflicts),
    )
