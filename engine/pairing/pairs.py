"""Tables of two sides: a minimum-cost perfect matching.

Every competitor is a node and every possible table an edge weighted by its cost
(engine/pairing/costs.py); the draw is the perfect matching of least total cost. An odd
competitor out is matched to a *phantom* node, reachable only from those allowed to sit
out, at the cost of their bye.

The exact matching (Edmonds' blossom algorithm, from networkx) takes cubic time: about
0.1 s for 64 competitors but seconds for a few hundred in pure Python. Up to
`EXACT_LIMIT` competitors one exact matching draws everyone. Beyond, the search works
along the order in three steps:

1. a greedy start: down the order, each competitor still waiting meets the next one it
   has not met (neighbours in a sorted order are the cheapest pairs, so with no repeat
   this is already the best draw);
2. repair: each table still holding a repeat or a conflict is re-drawn exactly together
   with the tables around it, in windows that widen until the repeat is gone;
3. polish: the same exact re-draw around the tables that skipped someone to meet a
   different score, to narrow the score differences the first two steps left.

An exact re-draw of a window never costs more than what it replaces, so the draw only
ever improves.
"""

from __future__ import annotations

import itertools

import networkx as nx  # type: ignore[import-untyped]

from engine.pairing.byes import SitOut
from engine.pairing.costs import CostModel

EXACT_LIMIT = 64
# Half-widths, in tables, of the windows re-drawn around a repeat, tried in turn;
# None: all the tables with a repeat together.
RADII: tuple[int | None, ...] = (2, None, 6, 12, 20, None)
# No window holds more tables than this (about 0.1 s for the exact matching).
MAX_WINDOW_TABLES = 32
# How far down the order the greedy start looks for an opponent not met before.
GREEDY_LOOKAHEAD = 24
# Windows re-drawn around the tables whose sides have different scores.
POLISH_RADII = (3, 5)
POLISH_WINDOW_TABLES = 12

Pair = tuple[int, int]


class PairSearch:
    def __init__(self, costs: CostModel, sit_out: SitOut) -> None:
        self.costs = costs
        self.phantom = costs.size
        # With a single bye, `forced` is always empty: everyone in `pool` may sit out.
        self.may_sit_out = frozenset(sit_out.pool) if sit_out.count else frozenset()

    def cost(self, pair: Pair) -> int:
        a, b = pair
        if b == self.phantom:
            return self.costs.bye_cost[a]
        if a == self.phantom:
            return self.costs.bye_cost[b]
        return self.costs.opponents(a, b)

    def draw(self) -> tuple[list[Pair], list[int]]:
        tables = self.initial()
        # Small enough for one exact matching of everyone; else repair, then polish.
        tables = self.solve(tables) if self.costs.size <= EXACT_LIMIT else self.polish(self.repair(tables))
        pairs = [p for p in tables if self.phantom not in p]
        byes = [min(p) for p in tables if self.phantom in p]
        return pairs, byes

    def initial(self) -> list[Pair]:
        """Down the order, each competitor meets the next one it may meet (a greedy start)."""
        n = self.costs.size
        waiting = list(range(n))
        tables: list[Pair] = []
        if self.may_sit_out:
            sitting = min(self.may_sit_out, key=lambda i: (self.costs.bye_cost[i], i))
            waiting.remove(sitting)
            tables.append((sitting, self.phantom))
        seated = [False] * len(waiting)
        head = 0
        while head < len(waiting):
            seated[head] = True
            guest = self._next_guest(waiting, seated, head)
            seated[guest] = True
            tables.append((waiting[head], waiting[guest]))
            while head < len(waiting) and seated[head]:
                head += 1
        return sorted(tables)

    def _next_guest(self, waiting: list[int], seated: list[bool], head: int) -> int:
        host = waiting[head]
        best, best_penalty = -1, -1
        looked = 0
        for k in range(head + 1, len(waiting)):
            if seated[k]:
                continue
            guest = waiting[k]
            penalty = self.costs.conflict(host, guest) + self.costs.rematch(host, guest)
            if best < 0 or penalty < best_penalty:
                best, best_penalty = k, penalty
                if penalty == 0:
                    break
            looked += 1
            if looked >= GREEDY_LOOKAHEAD:
                break
        return best

    def repair(self, tables: list[Pair]) -> list[Pair]:
        """Re-draw the tables around each repeat, in widening windows.

        Between the widths (`None` in RADII) the tables still holding a repeat are put
        in one window however far apart they sit: two tables that each seat two players
        of one club, one club per table, only mend each other.
        """
        for radius in RADII:
            conflicted = self.conflicted(tables)
            if not conflicted:
                break
            if radius is None:
                for start in range(0, len(conflicted), MAX_WINDOW_TABLES):
                    chosen = conflicted[start : start + MAX_WINDOW_TABLES]
                    for k, redrawn in zip(chosen, self.solve([tables[k] for k in chosen]), strict=True):
                        tables[k] = redrawn
            else:
                for low, high in windows(conflicted, radius, len(tables)):
                    tables[low:high] = self.solve(tables[low:high])
        tables.sort()
        return tables

    def conflicted(self, tables: list[Pair]) -> list[int]:
        """Sort the tables in the order, and give the places of those with a repeat."""
        tables.sort()
        return [k for k, t in enumerate(tables) if self.costs.is_conflicted(self.cost(t))]

    def polish(self, tables: list[Pair]) -> list[Pair]:
        """Re-draw exactly around the tables that skipped someone to meet a different score.

        Neighbours in the order are already the best pairs they can be; a table whose
        sides have someone seated between them, and different scores, is where the
        greedy start or the repair may have left score differences to narrow.
        """
        score = self.costs.score
        for radius in POLISH_RADII:
            tables.sort()
            seated = sorted(v for t in tables for v in t if self.phantom not in t)
            place = {v: k for k, v in enumerate(seated)}
            uneven = [
                k
                for k, (a, b) in enumerate(tables)
                if b == self.phantom or (place[b] - place[a] > 1 and score[a] != score[b])
            ]
            for low, high in windows(uneven, radius, len(tables), POLISH_WINDOW_TABLES):
                tables[low:high] = self.solve(tables[low:high])
        return tables

    def solve(self, tables: list[Pair]) -> list[Pair]:
        """The cheapest re-draw of the competitors of `tables` among themselves."""
        nodes = sorted(v for t in tables for v in t)
        real = [v for v in nodes if v != self.phantom]
        weights: dict[Pair, int] = {pair: self.costs.opponents(*pair) for pair in itertools.combinations(real, 2)}
        if self.phantom in nodes:
            for v in real:
                if v in self.may_sit_out:
                    weights[(v, self.phantom)] = self.costs.bye_cost[v]
        # Maximum weight among perfect matchings (maxcardinality) of (top - cost) is the
        # minimum cost; integer weights keep the blossom algorithm exact.
        top = max(weights.values()) + 1
        graph = nx.Graph()
        graph.add_nodes_from(nodes)
        graph.add_weighted_edges_from((a, b, top - w) for (a, b), w in weights.items())
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        drawn = sorted((min(a, b), max(a, b)) for a, b in matching)
        if len(drawn) * 2 != len(nodes) or sum(map(self.cost, drawn)) >= sum(map(self.cost, tables)):
            return sorted(tables)
        return drawn


def windows(centres: list[int], radius: int, total: int, longest: int = MAX_WINDOW_TABLES) -> list[tuple[int, int]]:
    """Disjoint index ranges [low, high) around each centre, at most `longest` long."""
    merged: list[list[int]] = []
    for centre in centres:
        low, high = max(0, centre - radius), min(total, centre + radius + 1)
        if merged and low <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], high)
        else:
            merged.append([low, high])
    result: list[tuple[int, int]] = []
    for low, high in merged:
        for start in range(low, high, longest):
            result.append((start, min(high, start + longest)))
    return result
