"""Tables of three to five players: exact search when small, local search when large.

Splitting players into tables (individual tables of three, four or five, or mêlée
tables of four, two partners against two) at least cost is hard in general, so:

- when the number of possible draws is small (`EXACT_LIMIT`), every draw is tried,
  with branch and bound, and the cheapest is kept;
- otherwise:
  1. a greedy start walks down the order and seats each player with the next players
     it has not met, filling the tables of the plan in turn;
  2. repair: every table holding a repeat or a conflict tries each swap of one player
     with the tables near it, in widening circles, and takes the best one that lowers
     the total; a player sitting out can swap with a seated one equally entitled to
     the bye;
  3. if repeats remain, a depth-first search with a budget looks for a seating with
     fewer (`LocalSearch.backtrack`), then an iterated local search kicks conflicted
     tables and repairs again (`LocalSearch.shake`);
  4. polish: swaps between neighbouring tables wherever that brings tables closer in
     the standings.

The searches are bounded by counts of moves tried, never by the clock, so the same
request always gives the same draw.

The *plan* gives the size of every table (engine/pairing/plan.py); by default every
table has the shape's own `size`. A swap exchanges one player for one, so every table
keeps its size; the exact search and the depth-first search start each table at any
size the plan still needs.

A table's cost is the sum of the costs of every two players at it; for mêlée it is the
cheapest of the three ways to split the four into two pairs of partners
(`MeleeTables.arrange`).
"""

from __future__ import annotations

import itertools
import math
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Sequence

from engine.pairing.byes import SitOut
from engine.pairing.costs import REPEAT, CostModel

EXACT_LIMIT = 20_000
# Half-widths, in tables, of the circles searched for a swap, tried in turn; `None`
# stands for every table.
RADII: tuple[int | None, ...] = (2, 6, 20, None)
MAX_REPAIR_PASSES = 50
MAX_POLISH_PASSES = 10
POLISH_RADIUS = 2
# The repair and the iterated local search stop after pricing this many pairs in swaps
# tried (0.3 to 0.4 s), which only a field where repeats cannot be avoided reaches;
# kicks reach tables within KICK_RADIUS.
WORK_LIMIT = 300_000
# The depth-first search for fewer repeats: its work (companions tried, players looked
# at; about 0.2 to 0.4 s), its restarts, and the largest field it runs on.
BACKTRACK_WORK = 200_000
BACKTRACK_RESTARTS = 10
BACKTRACK_PLAYERS = 150
KICK_RADIUS = 3
# How far down the order the greedy start looks for a player not met before.
GREEDY_LOOKAHEAD = 24

Group = list[int]


class TableCosts(ABC):
    """The cost of a table, from the costs of every two players at it.

    `size` is the size of every table unless the draw's plan says otherwise. Local
    search prices the same pairs over and over, so each pair's figures are computed
    once and kept.
    """

    size: int

    def __init__(self, costs: CostModel) -> None:
        self.costs = costs
        self._n = costs.size
        self._pairs: dict[int, tuple[int, int]] = {}

    def pair(self, i: int, j: int) -> tuple[int, int]:
        """What `i` and `j` cost facing each other, and what partnering adds to that.

        Partners do not face each other: their rematch does not count, an earlier
        partnership does.
        """
        key = i * self._n + j if i < j else j * self._n + i
        found = self._pairs.get(key)
        if found is None:
            found = self._pairs[key] = self._price(i, j)
        return found

    def _price(self, i: int, j: int) -> tuple[int, int]:
        costs = self.costs
        rematch = costs.rematch(i, j)
        return costs.quality(i, j) + costs.conflict(i, j) + rematch, costs.partner_again(i, j) - rematch

    def penalty(self, i: int, j: int) -> tuple[int, int]:
        """Like `pair`, repeats and conflicts only."""
        facing, as_partners = self.pair(i, j)
        return facing - self.costs.quality(i, j), as_partners

    @abstractmethod
    def cost(self, members: Sequence[int]) -> int:
        """The cost of a full table."""

    @abstractmethod
    def partial_penalty(self, members: Sequence[int]) -> int:
        """Repeats and conflicts a table started with `members` cannot avoid."""

    @abstractmethod
    def arrange(self, members: Sequence[int]) -> list[list[int]]:
        """The sides of a full table, in seat order."""


class IndividualTables(TableCosts):
    """Individual games: every player on their own, facing everyone else at the table.

    Tables of three (belote à 3, tarot à 3), or of any size a plan gives (tarot at four
    and five). A table costs what every two players at it cost facing each other.
    """

    size = 3

    def cost(self, members: Sequence[int]) -> int:
        pair = self.pair
        if len(members) == 3:
            a, b, c = members
            return pair(a, b)[0] + pair(a, c)[0] + pair(b, c)[0]
        total = 0
        for x in range(1, len(members)):
            a = members[x]
            for y in range(x):
                total += pair(a, members[y])[0]
        return total

    def partial_penalty(self, members: Sequence[int]) -> int:
        return sum(self.penalty(i, j)[0] for i, j in itertools.combinations(members, 2))

    def arrange(self, members: Sequence[int]) -> list[list[int]]:
        return [[m] for m in sorted(members)]


# The name of individual tables from when they were all of three.
ThreeSeatTables = IndividualTables


# The three ways to split four seats into two pairs of partners.
SPLITS = (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))


class MeleeTables(TableCosts):
    """Mêlée: four players, two pairs of partners facing each other.

    For one split the cost is every pair's score difference and conflicts, the
    rematches of the four pairs of opponents, the repeats of the two pairs of partners,
    and a small balance term (in places) that prefers the best player partnering the
    weakest. A table costs what its cheapest split costs.
    """

    size = 4

    def _split_costs(self, members: Sequence[int]) -> tuple[int, int, int]:
        a, b, c, d = members
        pair = self.pair
        ab, ac, ad, bc, bd, cd = pair(a, b), pair(a, c), pair(a, d), pair(b, c), pair(b, d), pair(c, d)
        common = ab[0] + ac[0] + ad[0] + bc[0] + bd[0] + cd[0]
        return (
            common + ab[1] + cd[1] + abs(a + b - c - d),
            common + ac[1] + bd[1] + abs(a + c - b - d),
            common + ad[1] + bc[1] + abs(a + d - b - c),
        )

    def cost(self, members: Sequence[int]) -> int:
        return min(self._split_costs(members))

    def partial_penalty(self, members: Sequence[int]) -> int:
        k = len(members)
        if k < 2:
            return 0
        base = 0
        extra: dict[tuple[int, int], int] = {}
        for x, y in itertools.combinations(range(k), 2):
            facing, as_partners = self.penalty(members[x], members[y])
            base += facing
            extra[(x, y)] = as_partners
        if k == 2:
            # They will end up partners or opponents.
            return base + min(0, extra[(0, 1)])
        if k == 3:
            # Of three players at a table of four, exactly two are partners.
            return base + min(extra.values())
        return base + min(extra[f] + extra[s] for f, s in SPLITS)

    def arrange(self, members: Sequence[int]) -> list[list[int]]:
        split_costs = self._split_costs(members)
        first, second = SPLITS[split_costs.index(min(split_costs))]
        return sorted([sorted(members[x] for x in first), sorted(members[x] for x in second)])


def uniform_plan(tables: TableCosts, sit_out: SitOut) -> list[int]:
    """Every table of the shape's own size, for everyone who does not sit out."""
    return [tables.size] * ((tables.costs.size - sit_out.count) // tables.size)


def partitions_count(plan: Sequence[int]) -> int:
    """The number of ways to split `sum(plan)` players into tables of the plan's sizes."""
    ways = math.factorial(sum(plan))
    for size, tables in Counter(plan).items():
        ways //= math.factorial(size) ** tables * math.factorial(tables)
    return ways


def draw_groups(
    tables: TableCosts, sit_out: SitOut, plan: Sequence[int], rng: random.Random
) -> tuple[list[Group], list[int]]:
    """Split every competitor of `tables.costs` into tables of the sizes of `plan`,
    `sit_out.count` sitting out."""
    possible = math.comb(len(sit_out.pool), sit_out.free) * partitions_count(plan)
    if possible <= EXACT_LIMIT:
        return ExactSearch(tables, sit_out, plan).run()
    return LocalSearch(tables, sit_out, rng, plan).run()


class ExactSearch:
    """Every draw, branch and bound: the cheapest, the first found among equals.

    The first standing player's table is started at each size the plan still needs in
    turn, so each split into tables of the plan is tried once.
    """

    def __init__(self, tables: TableCosts, sit_out: SitOut, plan: Sequence[int] | None = None) -> None:
        self.tables = tables
        self.sit_out = sit_out
        self.needed = Counter(uniform_plan(tables, sit_out) if plan is None else plan)
        self.best_cost = math.inf
        self.best: tuple[list[Group], list[int]] = ([], [])

    def run(self) -> tuple[list[Group], list[int]]:
        bye_cost = self.tables.costs.bye_cost
        for chosen in itertools.combinations(self.sit_out.pool, self.sit_out.free):
            byes = sorted(self.sit_out.forced + chosen)
            sitting = set(byes)
            players = tuple(i for i in range(self.tables.costs.size) if i not in sitting)
            self._search(players, sum(bye_cost[b] for b in byes), [], byes)
        return self.best

    def _search(self, players: tuple[int, ...], spent: int, groups: list[Group], byes: list[int]) -> None:
        if spent >= self.best_cost:
            return
        if not players:
            self.best_cost = spent
            self.best = ([list(g) for g in groups], byes)
            return
        first, rest = players[0], players[1:]
        needed = self.needed
        for size in [s for s, count in needed.items() if count]:
            needed[size] -= 1
            for others in itertools.combinations(rest, size - 1):
                group = [first, *others]
                left = tuple(p for p in rest if p not in others)
                groups.append(group)
                self._search(left, spent + self.tables.cost(group), groups, byes)
                groups.pop()
            needed[size] += 1


class LocalSearch:
    def __init__(
        self, tables: TableCosts, sit_out: SitOut, rng: random.Random, plan: Sequence[int] | None = None
    ) -> None:
        self.shape = tables
        self.sit_out = sit_out
        self.rng = rng
        costs = tables.costs
        self.costs = costs
        # The size of each table, in the order the greedy start fills them.
        self.plan = uniform_plan(tables, sit_out) if plan is None else list(plan)
        pool = sorted(sit_out.pool, key=lambda i: (costs.bye_cost[i], i))
        self.byes: list[int] = sorted(sit_out.forced + tuple(pool[: sit_out.free]))
        # Only those equally entitled to a bye may trade it; forced byes stay.
        self.may_trade = frozenset(sit_out.pool) if sit_out.free else frozenset()
        self.groups: list[Group] = self.greedy_start()
        self.group_costs = [tables.cost(g) for g in self.groups]
        # Pairs priced in swaps tried so far, which bounds the repair and the iterated
        # local search.
        self.work = 0
        largest = max(self.plan)
        self.pairs_per_table = largest * (largest - 1) // 2

    def greedy_start(self) -> list[Group]:
        sitting = set(self.byes)
        waiting = [i for i in range(self.costs.size) if i not in sitting]
        seated = [False] * len(waiting)
        groups: list[Group] = []
        head = 0
        while head < len(waiting):
            seated[head] = True
            group = [waiting[head]]
            while len(group) < self.plan[len(groups)]:
                group.append(waiting[self._next_guest(group, waiting, seated, head)])
            groups.append(group)
            while head < len(waiting) and seated[head]:
                head += 1
        return groups

    def _next_guest(self, group: Group, waiting: list[int], seated: list[bool], head: int) -> int:
        """The first waiting player down the order who adds no repeat, else the least bad."""
        best, best_penalty = -1, math.inf
        looked = 0
        for k in range(head + 1, len(waiting)):
            if seated[k]:
                continue
            penalty = self.shape.partial_penalty([*group, waiting[k]])
            if penalty < best_penalty:
                best, best_penalty = k, penalty
                if penalty == 0:
                    break
            looked += 1
            if looked >= GREEDY_LOOKAHEAD:
                break
        seated[best] = True
        return best

    def run(self) -> tuple[list[Group], list[int]]:
        self.repair()
        if any(map(self.costs.is_conflicted, self.group_costs)):
            self.backtrack()
            self.shake()
        self.polish()
        return self.groups, self.byes

    def penalty_units(self, group: Sequence[int]) -> int:
        return self.shape.cost(group) // REPEAT

    def backtrack(self) -> None:
        """Look for a seating with fewer repeats by depth-first search, within a budget.

        At each step the standing player with the most players it should not face is
        seated first (the most constrained, as in constraint solving), at a table of
        each size the plan still needs, with each choice of companions, the nearest in
        the order first. A branch stops as soon as it cannot beat the best seating
        known: what it has spent, plus one repeat for every table's worth of standing
        players who no longer have enough players left to sit with cleanly (at the
        smallest table still needed; a table of the largest holds that many of them).
        Each allowed choice of byes is tried, the cheapest first. A better
        seating replaces the current one, and the repair and polish passes improve it.
        Only for fields up to BACKTRACK_PLAYERS: beyond, the repair rarely leaves a
        repeat that can be avoided, and each step of the search costs too much.
        """
        if self.costs.size > BACKTRACK_PLAYERS:
            return
        units = self.penalty_units
        needed = Counter(self.plan)
        best_units = sum(c // REPEAT for c in self.group_costs)
        everyone = range(self.costs.size)
        facing = [{j for j in everyone if j != i and self.shape.penalty(i, j)[0]} for i in everyone]
        # Pairs that cost something in every seat (for mêlée: as partners and as opponents).
        anywhere = [{j for j in facing[i] if self.shape.partial_penalty([i, j])} for i in everyone]
        found: tuple[list[Group], list[int]] | None = None
        budget = 0
        # Pricing a table takes time in proportion to its pairs: a table of four about
        # twice as long as a table of three.
        step = {size: size * (size - 1) // 2 // 3 for size in needed}
        chosen: list[Group] = []
        jitter: dict[int, float] = {}

        def bound(standing: frozenset[int], smallest: int, largest: int) -> int:
            # A player is stuck when fewer than smallest - 1 standing players may sit with it.
            limit = len(standing) - smallest
            stuck = sum(1 for i in standing if len(anywhere[i]) > limit and len(anywhere[i] & standing) > limit)
            return -(-stuck // largest)

        def search(standing: frozenset[int], spent: int, byes: list[int]) -> None:
            nonlocal best_units, found, budget
            if not standing:
                best_units, found = spent, ([g.copy() for g in chosen], byes)
                return
            # Choosing whom to seat looks at every standing player: that is work too.
            budget -= len(standing)
            sizes = [size for size, count in needed.items() if count]
            if spent + bound(standing, min(sizes), max(sizes)) >= best_units:
                return
            first = max(standing, key=lambda i: (len(facing[i] & standing), -i))
            others = sorted(standing - {first}, key=lambda j: (abs(j - first) + jitter.get(j, 0), j))
            for size in sizes:
                needed[size] -= 1
                try:
                    for companions in itertools.combinations(others, size - 1):
                        if budget <= 0 or best_units == 0:
                            return
                        budget -= step[size]
                        group = sorted((first, *companions))
                        cost = units(group)
                        if spent + cost < best_units:
                            chosen.append(group)
                            search(standing.difference(companions, (first,)), spent + cost, byes)
                            chosen.pop()
                finally:
                    needed[size] += 1

        seated = frozenset(everyone).difference(self.sit_out.forced)
        pool = sorted(self.sit_out.pool, key=lambda i: (self.costs.bye_cost[i], i))
        # A deep search that went wrong early rarely recovers: restart a few times,
        # shuffling the order of companions a little more each time.
        for attempt in range(BACKTRACK_RESTARTS):
            jitter = {i: self.rng.uniform(0, attempt) for i in everyone} if attempt else {}
            budget = BACKTRACK_WORK // BACKTRACK_RESTARTS
            for sitting in itertools.combinations(pool, self.sit_out.free):
                if budget <= 0 or best_units == 0:
                    break
                search(seated.difference(sitting), 0, sorted(self.sit_out.forced + sitting))
        if found is not None:
            self.groups, self.byes = found
            self.group_costs = [self.shape.cost(g) for g in self.groups]
            self.repair()

    def total(self) -> int:
        return sum(self.group_costs) + sum(self.costs.bye_cost[b] for b in self.byes)

    def shake(self) -> None:
        """Iterated local search: while repeats remain, kick a conflicted table and repair.

        A kick swaps a player of a random conflicted table with a random player of a
        nearby table, then the repair runs again; the new draw is kept if it costs no
        more than the best so far, else the best is restored. The work is bounded by a
        number of swaps tried (not by time, so that the draw stays reproducible), and the
        random choices come from the draw's seeded generator.
        """
        conflicted = self.costs.is_conflicted
        tables = len(self.groups)
        best_total = self.total()
        best = self.snapshot()
        while self.work < WORK_LIMIT and tables > 1:
            stuck = [k for k in range(tables) if conflicted(self.group_costs[k])]
            if not stuck:
                return
            k = self.rng.choice(stuck)
            u = self.rng.randrange(max(0, k - KICK_RADIUS), min(tables, k + KICK_RADIUS + 1) - 1)
            u += u >= k
            mine, theirs = self.groups[k], self.groups[u]
            x, y = self.rng.randrange(len(mine)), self.rng.randrange(len(theirs))
            mine[x], theirs[y] = theirs[y], mine[x]
            self.group_costs[k], self.group_costs[u] = self.shape.cost(mine), self.shape.cost(theirs)
            self.repair()
            current = self.total()
            if current <= best_total:
                best_total, best = current, self.snapshot()
            else:
                self.restore(best)

    def snapshot(self) -> tuple[list[Group], list[int], list[int]]:
        return [g.copy() for g in self.groups], self.byes.copy(), self.group_costs.copy()

    def restore(self, state: tuple[list[Group], list[int], list[int]]) -> None:
        groups, byes, group_costs = state
        self.groups, self.byes, self.group_costs = [g.copy() for g in groups], byes.copy(), group_costs.copy()

    def repair(self) -> None:
        """Give every table with a repeat the best swap in widening circles, until none helps."""
        conflicted = self.costs.is_conflicted
        tables = len(self.groups)
        radii = [r for r in RADII if r is not None and 2 * r + 1 < tables] + [None]
        for _ in range(MAX_REPAIR_PASSES):
            improved = False
            for k in range(tables):
                if not conflicted(self.group_costs[k]) or self.work >= WORK_LIMIT:
                    continue
                for radius in radii:
                    if self.improve_table(k, radius):
                        improved = True
                        break
            if not improved:
                return

    def polish(self) -> None:
        """Swap players between neighbouring tables while that narrows score differences.

        Only tables mixing different scores can gain, so only they are tried.
        """
        score = self.costs.score
        for _ in range(MAX_POLISH_PASSES):
            improved = False
            for k, group in enumerate(self.groups):
                if min(score[i] for i in group) == max(score[i] for i in group):
                    continue
                if self.improve_table(k, POLISH_RADIUS):
                    improved = True
            if not improved:
                return

    def improve_table(self, k: int, radius: int | None) -> bool:
        """Apply the best swap between table `k` and a table near it, if it lowers the cost."""
        total = len(self.groups)
        low = 0 if radius is None else max(0, k - radius)
        high = total if radius is None else min(total, k + radius + 1)
        cost = self.shape.cost
        group, group_cost = self.groups[k], self.group_costs[k]
        best_delta, best_move = 0, None
        # Work counts pairs priced: a table of four has twice the pairs of a table of three.
        self.work += (high - low) * len(group) ** 2 * self.pairs_per_table
        for u in range(low, high):
            if u == k:
                continue
            other, other_cost = self.groups[u], self.group_costs[u]
            for x, a in enumerate(group):
                mine = group.copy()
                for y, b in enumerate(other):
                    mine[x] = b
                    theirs = other.copy()
                    theirs[y] = a
                    delta = cost(mine) + cost(theirs) - group_cost - other_cost
                    if delta < best_delta:
                        best_delta, best_move = delta, (u, x, y)
        bye_cost = self.costs.bye_cost
        for x, a in enumerate(group):
            if a not in self.may_trade:
                continue
            for y, b in enumerate(self.byes):
                if b not in self.may_trade:
                    continue
                mine = group.copy()
                mine[x] = b
                delta = cost(mine) - group_cost + bye_cost[a] - bye_cost[b]
                if delta < best_delta:
                    best_delta, best_move = delta, (-1, x, y)
        if best_move is None:
            return False
        u, x, y = best_move
        if u == -1:
            group[x], self.byes[y] = self.byes[y], group[x]
        else:
            other = self.groups[u]
            group[x], other[y] = other[y], group[x]
            self.group_costs[u] = cost(other)
        self.group_costs[k] = cost(group)
        return True
