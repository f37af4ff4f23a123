"""What a draw costs: the one number every pairing search minimises.

Competitors are numbered by their place in the method's order (0 is the top of the
standings in the système suisse, the first of a shuffle in a random draw), and every
cost below is a whole number, so that sums are exact and searches deterministic.

The weights are lexicographic: one rematch or conflict costs more than any amount of
score difference a whole draw could add up, so the search first makes repeats and
conflicts as few as possible, then gives the byes to the right competitors, then keeps
tables close in the standings. A repeated mêlée partner weighs a hundred rematches:
partners are never drawn together twice while anything else is possible.

"Close in the standings" is the squared score difference, scaled by the spread of the
scores, plus the distance in places, a far smaller term that follows the given order
among equal scores (and is all there is to a random draw, whose order is a shuffle).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.pairing.model import Competitor

# One rematch, one forbidden meeting, one same-club meeting.
REPEAT = 10**15
CONFLICT = REPEAT
PARTNER_REPEAT = 100 * REPEAT
# Byes: below any repeat, above any table's score difference.
BYE_UNIT = 10**13
# Score difference: (difference / spread of scores)² in units of 1e-9.
SCORE_UNIT = 10**9


def repeat_penalty(meetings: int, unit: int) -> int:
    """The cost of meeting again after `meetings` earlier meetings.

    Each earlier meeting past the first adds a thousandth: a pair met twice costs a
    little more than a pair met once, never as much as a second repeated pair.
    """
    return 0 if meetings <= 0 else unit + (meetings - 1) * (unit // 1000)


@dataclass(slots=True)
class CostModel:
    """Costs of putting competitors together, by place in the order.

    `score` is each competitor's score scaled to [0, 1] (all zero when scores do not
    count, as in a random draw). `met[i][j]` and `partnered[i][j]` count earlier meetings
    as opponents and as partners; `apart[i]` holds the competitors `i` must not meet.
    """

    score: Sequence[float]
    score_unit: int
    clubs: Sequence[str | None]
    avoid_same_club: bool
    met: Sequence[dict[int, int]]
    partnered: Sequence[dict[int, int]]
    apart: Sequence[frozenset[int]]
    bye_cost: Sequence[int]

    @property
    def size(self) -> int:
        return len(self.score)

    def quality(self, i: int, j: int) -> int:
        """How far apart two competitors are: the score difference, then the places."""
        gap = self.score[i] - self.score[j]
        return int(self.score_unit * gap * gap) + abs(i - j)

    def conflict(self, i: int, j: int) -> int:
        """Forbidden and same-club meetings: they cost the same in any seat."""
        cost = CONFLICT if j in self.apart[i] else 0
        if self.avoid_same_club:
            club = self.clubs[i]
            if club is not None and club == self.clubs[j]:
                cost += CONFLICT
        return cost

    def rematch(self, i: int, j: int) -> int:
        return repeat_penalty(self.met[i].get(j, 0), REPEAT)

    def partner_again(self, i: int, j: int) -> int:
        return repeat_penalty(self.partnered[i].get(j, 0), PARTNER_REPEAT)

    def opponents(self, i: int, j: int) -> int:
        """The full cost of `i` and `j` facing each other."""
        return self.quality(i, j) + self.conflict(i, j) + self.rematch(i, j)

    def is_conflicted(self, cost: int) -> bool:
        """Whether a table's cost includes at least one repeat or conflict."""
        return cost >= REPEAT


def build_cost_model(
    ordered: Sequence[Competitor],
    forbidden: Sequence[tuple[str, str]],
    avoid_same_club: bool,
    use_scores: bool,
    bye_cost: Sequence[int],
) -> CostModel:
    """The cost model of competitors given in the method's order."""
    place = {c.id: i for i, c in enumerate(ordered)}
    scores = [float(c.score) for c in ordered]
    low, high = min(scores), max(scores)
    spread = high - low
    scaled = [(s - low) / spread if use_scores and spread > 0 else 0.0 for s in scores]
    met: list[dict[int, int]] = [{} for _ in ordered]
    partnered: list[dict[int, int]] = [{} for _ in ordered]
    for i, competitor in enumerate(ordered):
        for history, names in ((met, competitor.opponents), (partnered, competitor.partners)):
            for name in names:
                j = place.get(name)
                if j is not None:
                    history[i][j] = history[i].get(j, 0) + 1
    # Each side may list the meeting (or only one, if the caller recorded it once):
    # the larger count of the two is the number of meetings.
    for history in (met, partnered):
        for i, row in enumerate(history):
            for j, count in row.items():
                if history[j].get(i, 0) < count:
                    history[j][i] = count
    apart: list[set[int]] = [set() for _ in ordered]
    for first, second in forbidden:
        i, j = place[first], place[second]
        apart[i].add(j)
        apart[j].add(i)
    return CostModel(
        score=scaled,
        score_unit=SCORE_UNIT if use_scores else 0,
        clubs=[c.club for c in ordered],
        avoid_same_club=avoid_same_club,
        met=met,
        partnered=partnered,
        apart=[frozenset(s) for s in apart],
        bye_cost=bye_cost,
    )
