"""The rating's arithmetic: openskill's Plackett-Luce model over a sequence of parties.

No database here: the services load the parties in order and write what comes out. Each
partie is one openskill match: its sides are the teams (a side's players: both players of
a fixed team, the two partners of a mêlée side, or one player alone at a table of three
to five), ranked by the table's result (the winner first, then the points). The same
parties in the same order always give the same ratings.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()
# mu - 3 sigma of a player never rated (0 with openskill's defaults: 25 - 3 x 25/3).
DEFAULT_ORDINAL = MODEL.rating().ordinal()


@dataclass(frozen=True, slots=True)
class Partie:
    """One table's result: the players of each side, and each side's rank (1 is best,
    equal ranks for a tie)."""

    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rated:
    mu: float
    sigma: float
    parties: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def side_ranks(totals: Sequence[float], winner_side: int | None) -> tuple[int, ...]:
    """Each side's rank at its table: the winner first (a partie may be won on something
    else than points: a target reached, a forfeit), then the most points; equal, equal."""
    keys = [(0 if side == winner_side else 1, -float(total)) for side, total in enumerate(totals)]
    return tuple(1 + sum(other < key for other in keys) for key in keys)


def rate(parties: Iterable[Partie]) -> dict[int, Rated]:
    """Every player's rating after `parties`, played in the order given."""
    current: dict[int, PlackettLuceRating] = {}
    counted: dict[int, int] = {}
    for partie in parties:
        teams = [[current[p] if p in current else MODEL.rating() for p in side] for side in partie.sides]
        updated = MODEL.rate(teams, ranks=list(partie.ranks))
        for side, ratings in zip(partie.sides, updated, strict=True):
            for player, rating in zip(side, ratings, strict=True):
                current[player] = rating
                counted[player] = counted.get(player, 0) + 1
    return {
        player: Rated(mu=rating.mu, sigma=rating.sigma, parties=counted[player]) for player, rating in current.items()
    }
