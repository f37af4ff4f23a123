"""« Ma soirée »: one competitor's night on one page, read from what is stored.

The page a player keeps open on their phone (scoring/views/soiree.py): where they sit
in the latest round drawn (table, seat, partner and opponents by name, the round's
clock), the partie in play at that table as its sheet has it, their rank and points in
the live ranking (the published version, as the ranking serves it), their past rounds
and, once the tournament is finished, their final rank and lot (*palmarès*).

It names people as the night's public pages do: by the competitors' names (a team's
name, a player's own in mêlée), with the team's players as the seat finder lists them,
never a link or an id that follows a player from one night to the next, nor a licence,
an e-mail, a phone or a payment (docs/glossary.md, "player history"). Terms: docs/glossary.md,
« Ma soirée ».
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, OuterRef, Subquery

from scoring import live_ranking
from scoring.models import Hand, StandingsSnapshot
from scoring.selectors import standings as standings_selectors
from tournaments import selectors as tournament_selectors
from tournaments.models import Bye, Competitor, Prize, Round, Seat, Tournament
from tournaments.selectors import POSITION_LABELS, RoundClock
from tournaments.text import sort_key


@dataclass(frozen=True, slots=True)
class Named:
    """A competitor as the night's pages name it."""

    number: int
    name: str


@dataclass(frozen=True, slots=True)
class Seating:
    """Where the competitor plays a round: its table and seat, with whom and against whom;
    or `exempt` (a bye: no table)."""

    round: Round
    table: int | None
    position: str
    partners: list[Named] = field(default_factory=list)
    opponents: list[Named] = field(default_factory=list)

    @property
    def exempt(self) -> bool:
        return self.table is None


@dataclass(frozen=True)
class Evening:
    """Everything « Ma soirée » shows of one competitor (see the module docstring)."""

    tournament: Tournament
    competitor: Competitor
    players: list[str]
    seating: Seating | None
    clock: RoundClock | None
    # The public table sheet of the partie at the competitor's table in the latest round
    # (scoring.selectors.standings.table_sheet_public), None when it sits out or none is drawn.
    sheet: dict[str, Any] | None
    row: dict[str, Any] | None
    progress: dict[str, Any] | None
    parties: list[dict[str, Any]]
    prize: Prize | None

    @property
    def finished(self) -> bool:
        return self.tournament.status == Tournament.Status.FINISHED

    @property
    def past(self) -> list[dict[str, Any]]:
        """The rounds played or sat out, the partie in play aside (it is on the sheet)."""
        return [party for party in self.parties if party.get("result") != "pending"]

    @property
    def score(self) -> list[dict[str, Any]]:
        """Each side of the partie in play: its competitors, its counted total, whether it is ours."""
        if self.sheet is None:
            return []
        result = self.sheet["result"]
        totals = list(result.totals) if result is not None else []
        own = self.own_side
        return [
            {
                "competitors": side["competitors"],
                "total": totals[side["side"]] if side["side"] < len(totals) else 0,
                "own": side["side"] == own,
            }
            for side in self.sheet["sides"]
        ]

    @property
    def own_side(self) -> int | None:
        """The competitor's side at its table (an index into the sheet's sides)."""
        if self.sheet is None:
            return None
        for side in self.sheet["sides"]:
            if any(member["number"] == self.competitor.number for member in side["competitors"]):
                return int(side["side"])
        return None


def _named(seats: list[Seat]) -> list[Named]:
    return [Named(seat.competitor.number, seat.competitor.name) for seat in seats]


def seating(competitor: Competitor, rnd: Round | None) -> Seating | None:
    """The competitor's place in `rnd` (None when it neither sits nor sits out there)."""
    if rnd is None:
        return None
    own = Seat.objects.filter(round=rnd, competitor=competitor).select_related("table").first()
    if own is None:
        if Bye.objects.filter(round=rnd, competitor=competitor).exists():
            return Seating(round=rnd, table=None, position="")
        return None
    others = list(
        Seat.objects.filter(table=own.table)
        .exclude(competitor=competitor)
        .select_related("competitor")
        .order_by("side", "position")
    )
    return Seating(
        round=rnd,
        table=own.table.number,
        position=str(POSITION_LABELS.get(own.position, own.position)),
        partners=_named([seat for seat in others if seat.side == own.side]),
        opponents=_named([seat for seat in others if seat.side != own.side]),
    )


def served_snapshot(tournament: Tournament, version: int) -> StandingsSnapshot | None:
    """The ranking at the version the live ranking serves (the newest when it is gone)."""
    snapshot = standings_selectors.snapshot_version(tournament, version) if version else None
    return snapshot if snapshot is not None else standings_selectors.live_snapshot(tournament)


def served_version(tournament: standings_selectors.PublicTournament) -> int:
    """The version of the live ranking its pages serve now (scoring.live_ranking)."""
    return live_ranking.published_version(tournament.pk, tournament.standings_version or 0)


def evening(tournament: standings_selectors.PublicTournament, competitor: Competitor) -> Evening:
    """The competitor's night as it stands (see the module docstring)."""
    rnd = tournament_selectors.current_round(tournament)
    seated = seating(competitor, rnd)
    sheet = None
    if seated is not None and seated.table is not None:
        sheet = standings_selectors.table_sheet_public(tournament, seated.round.number, seated.table)
    snapshot = served_snapshot(tournament, served_version(tournament))
    row = standings_selectors.row_of(snapshot, competitor.number)
    parties: list[dict[str, Any]] = []
    if snapshot is not None and row is not None:
        names = {other["competitor"]: other for other in snapshot.rows}
        history = standings_selectors.competitor_rounds(tournament, snapshot, competitor.pk)
        parties = standings_selectors.parties_of(history, names)
    prize = None
    if tournament.status == Tournament.Status.FINISHED and row is not None:
        prize = tournament_selectors.prize_for_rank(tournament_selectors.prizes_shown(tournament), row.get("rank"))
    players = sorted(competitor.players.all(), key=lambda p: (sort_key(p.last_name), sort_key(p.first_name)))
    return Evening(
        tournament=tournament,
        competitor=competitor,
        players=[player.full_name for player in players],
        seating=seated,
        clock=tournament_selectors.round_clock(rnd),
        sheet=sheet,
        row=row,
        progress=standings_selectors.ranking_progress(snapshot),
        parties=parties,
        prize=prize,
    )


def evening_stamp(tournament: standings_selectors.PublicTournament, competitor: Competitor) -> str:
    """What changes whenever « Ma soirée » does, for its ETag: two small queries.

    The ranking's served version (rank, points, past rounds), the latest round (a new
    draw, a close, the clock) with the competitor's table in it, that table's donnes and
    result, the tournament's status and settings (the lots once it is finished), and the
    competitor's own row (its name, a withdrawal).
    """
    seat = Seat.objects.filter(round=OuterRef("pk"), competitor=competitor).values("table_id")[:1]
    latest = (
        Round.objects.filter(tournament=tournament)
        .order_by("-number")
        .annotate(table_id=Subquery(seat))
        .values_list("pk", "status", "clock_started_at", "clock_minutes", "table_id")
        .first()
    )
    table_part: tuple[Any, ...] = ()
    if latest is not None and latest[4] is not None:
        hands = Hand.objects.filter(table_id=latest[4]).aggregate(
            count=Count("pk"), last=Max("updated_at"), result=Max("table__result__updated_at")
        )
        table_part = tuple(hands.values())
    parts = (
        served_version(tournament),
        int(tournament.updated_at.timestamp() * 1000),
        tournament.status,
        competitor.name,
        competitor.status,
        latest,
        table_part,
    )
    # The same in every web process (hash() is not): a poll may reach any of them.
    return hashlib.blake2b(repr(parts).encode(), digest_size=9).hexdigest()
