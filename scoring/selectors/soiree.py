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

import datetime
import hashlib
import json
import threading
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.db import connection
from django.db.models import Subquery

from scoring import live_ranking
from scoring.models import Hand, StandingsBase, StandingsSnapshot, TableResult
from scoring.selectors import standings as standings_selectors
from scoring.standings import competitor_history
from tournaments import selectors as tournament_selectors
from tournaments import treasury
from tournaments.models import Bye, Competitor, Round, Seat, Table, Tournament
from tournaments.palmares import Award
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
    seating: Seating | None
    clock: RoundClock | None
    # The public table sheet of the partie at the competitor's table in the latest round
    # (scoring.selectors.standings.table_sheet_public), None when it sits out or none is drawn.
    sheet: dict[str, Any] | None
    row: dict[str, Any] | None
    progress: dict[str, Any] | None
    parties: list[dict[str, Any]]
    # What its final rank wins (the palmarès: money and lots), None when nothing.
    prize: Award | None

    @property
    def finished(self) -> bool:
        return self.tournament.status == Tournament.Status.FINISHED

    @cached_property
    def players(self) -> list[str]:
        """The competitor's players by name (the page's title; its polled part shows none)."""
        players = self.competitor.players.all()
        return [p.full_name for p in sorted(players, key=lambda p: (sort_key(p.last_name), sort_key(p.first_name)))]

    @property
    def past(self) -> list[dict[str, Any]]:
        """The rounds played or sat out, the partie in play aside (it is on the sheet)."""
        return [party for party in self.parties if party.get("result") != "pending"]

    @property
    def score(self) -> list[dict[str, Any]]:
        """Each side of the partie in play: its competitors, its counted total, whether it is ours."""
        return sheet_score(self.sheet, self.competitor.number)


def sheet_score(sheet: dict[str, Any] | None, number: int) -> list[dict[str, Any]]:
    """Each side of a table sheet: its competitors, its counted total, and whether the
    competitor `number` sits on it."""
    if sheet is None:
        return []
    result = sheet["result"]
    totals = list(result.totals) if result is not None else []
    own = next(
        (side["side"] for side in sheet["sides"] if any(member["number"] == number for member in side["competitors"])),
        None,
    )
    return [
        {
            "competitors": side["competitors"],
            "total": totals[side["side"]] if side["side"] < len(totals) else 0,
            "own": side["side"] == own,
        }
        for side in sheet["sides"]
    ]


def _named(seats: list[Seat]) -> list[Named]:
    return [Named(seat.competitor.number, seat.competitor.name) for seat in seats]


def seating(competitor: Competitor, rnd: Round | None) -> Seating | None:
    """The competitor's place in `rnd` (None when it neither sits nor sits out there)."""
    return _seating(competitor, rnd, _table_seats(competitor, rnd))


def _table_seats(competitor: Competitor, rnd: Round | None) -> list[Seat]:
    """Every seat at the competitor's table in `rnd` (none where it has no table), with
    their competitors and the table, by side and place: one query."""
    if rnd is None:
        return []
    seats = Seat.objects.filter(round=rnd, table__seats__competitor=competitor)
    return list(seats.select_related("competitor", "table").order_by("side", "position"))


def _latest_seats(tournament: Tournament, competitor: Competitor) -> tuple[Round | None, list[Seat]]:
    """The latest round drawn and every seat at the competitor's table in it, with their
    competitors, the table and its result: one query where it sits, two where it does not."""
    seats = _seats_latest(tournament.pk, competitor.pk)
    if not seats:
        return tournament_selectors.current_round(tournament), []
    return seats[0].round, seats


def _seats_latest(tournament_id: int, competitor_id: int) -> list[Seat]:
    """Every seat at the competitor's table in the latest round drawn (none where it does
    not sit there), with their competitors, the table, its result and the round: one query."""
    latest = Round.objects.filter(tournament_id=tournament_id).order_by("-number").values("pk")[:1]
    seats = list(
        Seat.objects.filter(round=Subquery(latest), table__seats__competitor_id=competitor_id)
        .select_related("competitor", "table__result", "round")
        .order_by("side", "position")
    )
    if not seats:
        return []
    rnd = seats[0].round
    for seat in seats:
        seat.round = rnd
    return seats


def _seating(competitor: Competitor, rnd: Round | None, seats: list[Seat]) -> Seating | None:
    if rnd is None:
        return None
    own = next((seat for seat in seats if seat.competitor_id == competitor.pk), None)
    if own is None:
        if Bye.objects.filter(round=rnd, competitor=competitor).exists():
            return Seating(round=rnd, table=None, position="")
        return None
    others = [seat for seat in seats if seat is not own]
    return Seating(
        round=rnd,
        table=own.table.number,
        position=str(POSITION_LABELS.get(own.position, own.position)),
        partners=_named([seat for seat in others if seat.side == own.side]),
        opponents=_named([seat for seat in others if seat.side != own.side]),
    )


def _sheet(tournament: Tournament, rnd: Round, seats: list[Seat]) -> dict[str, Any]:
    """The public table sheet of the competitor's table (`table_sheet_public`), from its seats as read."""
    table = seats[0].table
    table.round = rnd
    sides: dict[int, list[dict[str, Any]]] = {}
    for seat in seats:
        sides.setdefault(seat.side, []).append({"number": seat.competitor.number, "name": seat.competitor.name})
    # Read with the seats (`_latest_seats`): None before the table's first donne.
    result: TableResult | None = getattr(table, "result", None)
    return standings_selectors.table_sheet(tournament, table, sides, result=(result,))


def served_snapshot(tournament: Tournament | int, version: int) -> StandingsSnapshot | None:
    """The ranking at the version the live ranking serves (the newest when it is gone)."""
    snapshot = standings_selectors.snapshot_version(tournament, version) if version else None
    return snapshot if snapshot is not None else standings_selectors.live_snapshot(tournament)


def served_version(tournament: standings_selectors.PublicTournament) -> int:
    """The version of the live ranking its pages serve now (scoring.live_ranking)."""
    return live_ranking.published_version(tournament.pk, tournament.standings_version or 0)


@dataclass(frozen=True, slots=True)
class ServedRanking:
    """What « Ma soirée » reads of the served snapshot: its rows by number and by
    competitor (the names of the past rounds' opponents and partners), the rounds it
    counts (`ranking_progress`) and a digest of every competitor's number and name.
    Read only: kept per process and version (`served_ranking`) for every page polling."""

    version: int
    after_round: int | None
    progress: dict[str, Any] | None
    by_number: dict[int, dict[str, Any]]
    by_id: dict[int, dict[str, Any]]
    names: str
    # Each competitor's place in the ranking's order (0: the first row), by number.
    places: dict[int, int] = field(default_factory=dict)
    # The ranking's rows, as its public pages count them.
    count: int = 0

    def row(self, number: int) -> dict[str, Any] | None:
        return self.by_number.get(number)

    def page(self, number: int) -> int:
        """The page of the public ranking that shows the competitor's row (1 when the
        ranking fits on one or the competitor is not in it)."""
        place = self.places.get(number)
        return 1 if place is None else standings_selectors.ranking_page_of(place, self.count)

    def shown(self, number: int) -> tuple[Any, ...] | None:
        """What the page shows of the competitor's row: rank (and so its lot), points,
        parties played, the partie in play (« en cours, 5 donnes ») and the page of the
        whole ranking its link opens."""
        row = self.by_number.get(number)
        if row is None:
            return None
        return (
            row.get("rank"), row.get("points"), row.get("played"), repr(row.get("current_partie")), self.page(number)
        )  # fmt: skip


def _served_ranking_of(snapshot: StandingsSnapshot) -> ServedRanking:
    rows: list[dict[str, Any]] = snapshot.rows
    # By competitor, not in ranking order: the order moves with every hand, names hardly ever.
    names = sorted((row.get("competitor") or 0, row.get("number") or 0, row.get("name") or "") for row in rows)
    return ServedRanking(
        version=snapshot.version,
        after_round=snapshot.after_round,
        progress=standings_selectors.ranking_progress(snapshot),
        by_number={row["number"]: row for row in rows if "number" in row},
        by_id={row["competitor"]: row for row in rows if "competitor" in row},
        names=hashlib.blake2b(repr(names).encode(), digest_size=9).hexdigest(),
        places={row["number"]: place for place, row in enumerate(rows) if "number" in row},
        count=len(rows),
    )


def served_ranking(tournament: standings_selectors.PublicTournament) -> ServedRanking | None:
    """The served snapshot as « Ma soirée » reads it (None before the first ranking).

    Kept per process and version (scoring.live_ranking.read_rows): a version's rows,
    its rounds and their statuses never change once it is written (a round's status is
    in the version's digest, scoring/standings/snapshots.py: closing one writes a new
    version), so the hundreds of pages polling one version decode its rows once. Only
    the version asked for is kept: when it is gone and the newest stands in, that one
    is read again at each poll until the publication moves on.
    """
    return _served_at(tournament.pk, served_version(tournament))


def _served_at(tournament_id: int, version: int) -> ServedRanking | None:
    if version:
        kept = live_ranking.read_rows(tournament_id, version)
        if isinstance(kept, ServedRanking):
            return kept
    snapshot = served_snapshot(tournament_id, version)
    if snapshot is None:
        return None
    served = _served_ranking_of(snapshot)
    if version and snapshot.version == version:
        live_ranking.keep_read_rows(tournament_id, version, served, rows=len(served.by_number) or 1)
    return served


def evening(tournament: standings_selectors.PublicTournament, competitor: Competitor) -> Evening:
    """The competitor's night as it stands (see the module docstring)."""
    rnd, seats = _latest_seats(tournament, competitor)
    seated = _seating(competitor, rnd, seats)
    sheet = None
    if rnd is not None and seated is not None and seated.table is not None:
        sheet = _sheet(tournament, rnd, seats)
    served = served_ranking(tournament)
    row = served.row(competitor.number) if served is not None else None
    parties: list[dict[str, Any]] = []
    if served is not None and row is not None:
        history = competitor_history(tournament, competitor.pk, after_round=served.after_round)
        parties = standings_selectors.parties_of(history, served.by_id)
    prize = None
    if tournament.status == Tournament.Status.FINISHED and row is not None and served is not None:
        # A tie shares the prizes of the places it holds: the whole ranking's ranks count.
        rank = row.get("rank")
        tied = sum(1 for other in served.by_number.values() if other.get("rank") == rank)
        prize = treasury.palmares_shown(tournament).award(rank, tied)
    return Evening(
        tournament=tournament,
        competitor=competitor,
        seating=seated,
        clock=tournament_selectors.round_clock(rnd),
        sheet=sheet,
        row=row,
        progress=served.progress if served is not None else None,
        parties=parties,
        prize=prize,
    )


# What « Ma soirée » shows from the database rather than the ranking, in one query: the
# latest round (a new draw, a close, the clock) with the competitor's table in it (or its
# bye), that table's donnes, result and seats, and the closed rounds' stored totals
# (scoring/standings/base.py: dropped, a new generation, by whatever changes a closed
# round's result, a bye, a late arrival or a withdrawal; the past rounds are read from
# the rounds themselves).
WATCHED_SQL = """
    SELECT r.id, r.status, r.clock_started_at, r.clock_minutes, s.table_id,
           (SELECT COUNT(*) FROM {hand} h WHERE h.table_id = s.table_id),
           (SELECT MAX(h.updated_at) FROM {hand} h WHERE h.table_id = s.table_id),
           (SELECT res.updated_at FROM {result} res WHERE res.table_id = s.table_id),
           (SELECT COUNT(*) FROM {seat} o WHERE o.table_id = s.table_id),
           (SELECT b.id FROM {bye} b WHERE b.round_id = r.id AND b.competitor_id = %s),
           (SELECT base.generation FROM {base} base WHERE base.tournament_id = r.tournament_id),
           (SELECT base.token FROM {base} base WHERE base.tournament_id = r.tournament_id),
           (SELECT res.finished FROM {result} res WHERE res.table_id = s.table_id)
      FROM {round} r
      LEFT JOIN {seat} s ON s.round_id = r.id AND s.competitor_id = %s
     WHERE r.tournament_id = %s
     ORDER BY r.number DESC
     LIMIT 1
"""


def _watched(tournament_id: int, competitor_id: int) -> tuple[Any, ...] | None:
    sql = WATCHED_SQL.format(
        hand=Hand._meta.db_table,
        result=TableResult._meta.db_table,
        seat=Seat._meta.db_table,
        bye=Bye._meta.db_table,
        base=StandingsBase._meta.db_table,
        round=Round._meta.db_table,
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [competitor_id, competitor_id, tournament_id])
        found: tuple[Any, ...] | None = cursor.fetchone()
    return found


def evening_stamp(tournament: standings_selectors.PublicTournament, competitor: Competitor) -> Stamp:
    """What changes whenever « Ma soirée » does, for its ETag: one small query (`Stamp`).

    Of the served ranking (`served_ranking`, kept per process and version), what the page
    shows of it: the competitor's own row as shown (`ServedRanking.shown`), the rounds it
    counts, and every competitor's name (the opponents and partners named); not its
    version, which moves with every hand anywhere in the room. From the database
    (`WATCHED_SQL`): the latest round with the competitor's table (its donnes, result and
    seats) or bye, and the closed rounds' state. And the tournament's status and settings
    (the lots once it is finished), and the competitor's own row (its name, a withdrawal).
    """
    return _stamp(served_ranking(tournament), polled_of(tournament, competitor))


def polled_of(tournament: standings_selectors.PublicTournament, competitor: Competitor) -> Polled:
    """What a poll reads (`polled`), from the rows the view has already read."""
    return Polled(
        competitor_id=competitor.pk,
        number=competitor.number,
        name=competitor.name,
        status=competitor.status,
        tournament_id=tournament.pk,
        updated_at=tournament.updated_at,
        tournament_status=tournament.status,
        newest=tournament.standings_version or 0,
        slug=tournament.slug,
        is_public=tournament.is_public,
    )


@dataclass(frozen=True, slots=True)
class Polled:
    """What a poll of « Ma soirée » reads of its competitor and tournament (`polled`)."""

    competitor_id: int
    number: int
    name: str
    status: str
    tournament_id: int
    updated_at: datetime.datetime
    tournament_status: str
    newest: int  # the newest version of the live ranking
    slug: str
    is_public: bool

    @property
    def finished(self) -> bool:
        return self.tournament_status == Tournament.Status.FINISHED


@dataclass(frozen=True, slots=True)
class Stamp:
    """« Ma soirée »'s state in three parts, as scoring/views/soiree_parts.py draws the
    page: `rank`, the competitor's row in the live ranking as the page shows it, which
    moves with nearly every hand anywhere in the room; `partie`, the partie in play at its
    table (its donnes and result), which moves with every donne entered or confirmed there;
    and `night`, all the rest (where it sits, its past rounds, the final rank and lot),
    which moves with the director's steps. `etag` holds the three."""

    night: str
    partie: str
    rank: str
    # The competitor's table in the latest round (None: it has none), as read for the stamp.
    table_id: int | None = None

    @property
    def etag(self) -> str:
        return f"{self.night}.{self.partie}.{self.rank}"


def _digest(parts: tuple[Any, ...]) -> str:
    # The same in every web process (hash() is not): a poll may reach any of them.
    return hashlib.blake2b(repr(parts).encode(), digest_size=9).hexdigest()


def _stamp(served: ServedRanking | None, polled: Polled) -> Stamp:
    shown = served.shown(polled.number) if served is not None else None
    progress = served.progress if served is not None else None
    watched = _watched(polled.tournament_id, polled.competitor_id)
    if watched is None:
        partie: tuple[Any, ...] = ()
        latest: tuple[Any, ...] | None = None
        sits_out = False
    else:
        (round_id, status, started, minutes, table_id, donnes, last_donne, result_at, seats, bye, generation, token,
         finished) = watched  # fmt: skip
        partie = (table_id, donnes, last_donne, result_at, seats)
        # The past rounds show the partie in play once it is finished (its result, its points).
        latest = (
            round_id, status, started, minutes, table_id, seats, bye, generation, token, finished,
            result_at if finished else None,
        )  # fmt: skip
        sits_out = bye is not None
    ranking = (
        (
            # The past rounds are read up to the rounds the ranking counts, and name their
            # competitors from it; the headline of a finished tournament gives the final
            # rank; a round sat out scores by the winners of its round, as the row counts it.
            served.after_round,
            progress,
            served.names,
            shown is not None,
            shown if polled.finished or sits_out else None,
        )
        if served is not None
        else None
    )
    night = (
        ranking,
        int(polled.updated_at.timestamp() * 1000),
        str(polled.tournament_status),
        polled.name,
        str(polled.status),
        latest,
    )
    return Stamp(
        night=_digest(night),
        # Its sides are named as the ranking names them.
        partie=_digest((partie, served.names if served is not None else None)),
        rank=_digest((shown, progress, polled.is_public, polled.slug)),
        table_id=partie[0] if partie else None,
    )


POLLED_SQL = """
    SELECT c.id, c.number, c.name, c.status, t.id, t.updated_at, t.status, t.slug, t.is_public,
           (SELECT s.version FROM {snapshot} s WHERE s.tournament_id = t.id ORDER BY s.version DESC LIMIT 1)
      FROM {competitor} c
      JOIN {tournament} t ON t.id = c.tournament_id
     WHERE {where} AND t.status <> %s
"""


def polled(*, token: str | None = None, slug: str | None = None, number: int | None = None) -> Polled | None:
    """The competitor of a personal link (`token`, not withdrawn) or of a public
    tournament's page (`slug` and `number`), in a tournament past its draft: one query.
    None where the page's view would answer anything but the page (it answers that)."""
    params: list[Any]
    if token is not None:
        where, params = "c.link_token = %s AND NOT c.link_revoked", [token]
    else:
        where, params = "t.slug = %s AND c.number = %s AND t.is_public", [slug, number]
    sql = POLLED_SQL.format(
        snapshot=StandingsSnapshot._meta.db_table,
        competitor=Competitor._meta.db_table,
        tournament=Tournament._meta.db_table,
        where=where,
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, Tournament.Status.DRAFT.value])
        found = cursor.fetchone()
    if found is None:
        return None
    competitor_id, number_, name, status, tournament_id, updated_at, tournament_status, slug, is_public, newest = found
    return Polled(
        competitor_id, number_, name, status, tournament_id, updated_at, tournament_status, newest or 0, slug, is_public
    )


def polled_served(found: Polled) -> ServedRanking | None:
    """`served_ranking` for a poll answered before the middleware chain."""
    return _served_at(found.tournament_id, live_ranking.published_version(found.tournament_id, found.newest))


@dataclass(frozen=True, slots=True)
class Partie:
    """The partie in play at the competitor's table, as « Ma soirée » shows it."""

    sheet: dict[str, Any]
    score: list[dict[str, Any]]
    round_number: int
    table: int


def partie_of(evening: Evening) -> Partie | None:
    """The evening's partie in play (None where it has no table in the latest round)."""
    if evening.sheet is None or evening.seating is None or evening.seating.table is None:
        return None
    return Partie(evening.sheet, evening.score, evening.seating.round.number, evening.seating.table)


# A table with its round, its seats (by side and place, with their competitors) and its
# result, for the partie a poll draws (`polled_partie`).
PARTIE_SQL = """
    SELECT t.number, r.id, r.number, s.side, c.number, c.name,
           res.totals, res.finished, res.updated_at
      FROM {seat} s
      JOIN {table} t ON t.id = s.table_id
      JOIN {round} r ON r.id = t.round_id
      JOIN {competitor} c ON c.id = s.competitor_id
      LEFT JOIN {result} res ON res.table_id = t.id
     WHERE s.table_id = %s
     ORDER BY s.side, s.position
"""


@dataclass(frozen=True, slots=True)
class ResultRead:
    """A table's result as its sheet shows it (`standings_selectors.SheetResult`), read alone."""

    totals: list[Any]
    finished: bool
    updated_at: datetime.datetime


def polled_partie(found: Polled, table_id: int | None) -> Partie | None:
    """The partie in play at `table_id`, the poll's competitor's table in the latest round
    (`Stamp.table_id`), read alone as `_sheet` reads it from the seats: two queries (the
    table with its seats and result, its donnes); None where it has no table."""
    if table_id is None:
        return None
    sql = PARTIE_SQL.format(
        seat=Seat._meta.db_table,
        table=Table._meta.db_table,
        round=Round._meta.db_table,
        competitor=Competitor._meta.db_table,
        result=TableResult._meta.db_table,
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
        rows: list[tuple[Any, ...]] = cursor.fetchall()
    tournament = _rules_of(found.tournament_id, found.updated_at) if rows else None
    if tournament is None:
        return None
    table_number, round_id, round_number = rows[0][:3]
    rnd = Round(pk=round_id, number=round_number, tournament=tournament)
    table = Table(pk=table_id, number=table_number, round=rnd)
    sides: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        sides.setdefault(row[3], []).append({"number": row[4], "name": row[5]})
    totals, finished, updated = rows[0][6:]
    result = None
    if updated is not None:
        result = ResultRead(json.loads(totals) if isinstance(totals, str | bytes) else totals, finished, updated)
    sheet = standings_selectors.table_sheet(tournament, table, sides, result=(result,))
    return Partie(sheet, sheet_score(sheet, found.number), round_number, table_number)


# The tournaments' rows as the table sheets read their rules, per process, by their
# `updated_at` (every change of a setting touches it); a few, the least recent dropped.
_rules: dict[tuple[int, datetime.datetime], Tournament] = {}
_rules_lock = threading.Lock()
RULES_KEPT = 64


def _rules_of(tournament_id: int, updated_at: datetime.datetime) -> Tournament | None:
    key = (tournament_id, updated_at)
    with _rules_lock:
        tournament = _rules.get(key)
    if tournament is None:
        tournament = Tournament.objects.filter(pk=tournament_id, updated_at=updated_at).first()
        if tournament is None:
            return None
        with _rules_lock:
            while len(_rules) >= RULES_KEPT:
                _rules.pop(next(iter(_rules)))
            _rules[key] = tournament
    return tournament


def polled_stamp(found: Polled, served: ServedRanking | None) -> Stamp:
    """`evening_stamp` for a poll answered before the middleware chain (`polled_served`)."""
    return _stamp(served, found)
