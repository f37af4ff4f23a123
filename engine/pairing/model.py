"""The data a draw takes and gives: competitors, the request, tables and the draw.

Terms (competitor, side, exempt, rematch, conflict): docs/glossary.md. A competitor is
one unit of the draw: a fixed team in the `teams` format, a single player in `melee` and
`individual`. The tournament credits a bye by its own rule (docs/rules.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Competitor:
    """One competitor as the draw sees it.

    `score` orders the système suisse (higher is better); the order in which competitors
    are given breaks equal scores, so pass them in standings order. `opponents` and
    `partners` list every competitor met before, once per meeting (a name twice means two
    meetings); names of competitors no longer in the tournament are allowed. `byes` counts
    the rounds this competitor already sat out.
    """

    id: str
    score: float = 0
    club: str | None = None
    opponents: tuple[str, ...] = ()
    partners: tuple[str, ...] = ()
    byes: int = 0


@dataclass(frozen=True, slots=True)
class PairingRequest:
    """Everything a draw depends on: the same request always gives the same draw.

    `format` is a key of `engine.pairing.FORMATS`, `method` a key of
    `engine.pairing.METHODS`. `forbidden` lists pairs of ids that must not meet at a
    table; `avoid_same_club` keeps competitors of the same club apart the same way.
    """

    format: str
    method: str
    seed: int
    competitors: tuple[Competitor, ...]
    forbidden: tuple[tuple[str, str], ...] = ()
    avoid_same_club: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """One table of the round, numbered from 1; `sides` in seat order.

    Teams: `((team,), (team,))`. Mêlée: `((north, south), (east, west))`, each side a
    pair of partners. Individual: `((seat1,), (seat2,), (seat3,))`.
    """

    number: int
    sides: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """The tables of a round, who sits out, and what the draw could not avoid.

    `repeats` lists the pairs who meet again (as opponents, or as partners in mêlée);
    `conflicts` the pairs who meet despite a forbidden meeting or a shared club. Both are
    empty unless no draw avoids them, and then they are as few as the search could make
    them.
    """

    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    repeats: tuple[tuple[str, str], ...]
    conflicts: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The draw as the `python -m engine pair` contract prints it."""
        return {
            "tables": [{"number": t.number, "sides": [list(side) for side in t.sides]} for t in self.tables],
            "byes": list(self.byes),
            "repeats": [list(pair) for pair in self.repeats],
        }


def validate_request(request: PairingRequest, min_competitors: int, uses_partners: bool) -> None:
    """Raise ValueError with a clear message for anything the draw cannot work with."""
    if isinstance(request.seed, bool) or not isinstance(request.seed, int):
        raise ValueError(f"seed must be an integer, not {request.seed!r}")
    ids: set[str] = set()
    for competitor in request.competitors:
        _validate_competitor(competitor, uses_partners, request.format)
        if competitor.id in ids:
            raise ValueError(f"competitor {competitor.id!r} is listed twice")
        ids.add(competitor.id)
    if len(ids) < min_competitors:
        raise ValueError(
            f"format {request.format!r} needs at least {min_competitors} competitors for one table, got {len(ids)}"
        )
    for pair in request.forbidden:
        if len(pair) != 2:
            raise ValueError(f"a forbidden meeting names exactly two competitors, got {list(pair)!r}")
        first, second = pair
        for name in pair:
            if name not in ids:
                raise ValueError(f"forbidden meeting {list(pair)!r} names unknown competitor {name!r}")
        if first == second:
            raise ValueError(f"forbidden meeting {list(pair)!r} names the same competitor twice")


def _validate_competitor(competitor: Competitor, uses_partners: bool, format_key: str) -> None:
    if not isinstance(competitor.id, str) or not competitor.id:
        raise ValueError(f"a competitor id must be a non-empty string, got {competitor.id!r}")
    name = competitor.id
    score = competitor.score
    if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
        raise ValueError(f"competitor {name!r}: score must be a finite number, got {score!r}")
    if competitor.club is not None and not isinstance(competitor.club, str):
        raise ValueError(f"competitor {name!r}: club must be a string or null, got {competitor.club!r}")
    if isinstance(competitor.byes, bool) or not isinstance(competitor.byes, int) or competitor.byes < 0:
        raise ValueError(f"competitor {name!r}: byes must be a whole number >= 0, got {competitor.byes!r}")
    for field_name, met in (("opponents", competitor.opponents), ("partners", competitor.partners)):
        for other in met:
            if not isinstance(other, str) or not other:
                raise ValueError(f"competitor {name!r}: {field_name} must be ids, got {other!r}")
            if other == name:
                raise ValueError(f"competitor {name!r} lists itself among its {field_name}")
    if competitor.partners and not uses_partners:
        raise ValueError(f"competitor {name!r}: partners are drawn only in the melee format, not {format_key!r}")
