"""Reading a tournament's results for its ranking: rows, entries, and the per-round cache.

Load a tournament's table results, seats and byes in a few queries and turn each round
into the engine's partie results (`engine.standings.PartieResult`) and each competitor's
item of a snapshot row's `rounds`. The scores of a round away from the tables (a bye, a
late arrival's missed round) are the engine's rule (`engine.standings.missed_round`).
Terms (partie result, bye): docs/glossary.md.
"""

from __future__ import annotations

import hashlib
import marshal
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter
from typing import Any

from django.db import connection

import engine
import engine.standings as engine_standings
from kit import fastjson
from scoring.models import TableResult
from tournaments.models import Bye, Competitor, Round, Seat, Table, Tournament


@dataclass(slots=True)
class Entry:
    """One competitor's partie result in one round (see "partie result" above)."""

    round: int
    table: int | None
    side: int | None
    result: str
    points: float
    against: float
    opponents: list[int] = field(default_factory=list)
    partners: list[int] = field(default_factory=list)
    # Every side's total, the competitor's own first (the games for three have two others).
    finished: bool = False
    # A round a late arrival missed (a bye of reason "late").
    late: bool = False


@dataclass(slots=True)
class RoundWork:
    """One round as read, turned into what a ranking needs of it: the engine's partie
    results, each competitor's entry (its round history when a page asks) and partie.

    Built once per round *content*: the rounds already played do not change while the
    next one is in play, so a refresh after each hand rebuilds only the round in play
    and takes the others from the process's cache (see `_cached_round`). Shared between
    rankings, hence never modified once built.
    """

    parties: list[engine_standings.PartieResult]
    entries: dict[int, Entry]  # competitor -> its partie result in this round
    # competitor -> its partie in this round as a snapshot row's `current_partie` shows it
    parties_state: dict[int, dict[str, Any]] = field(default_factory=dict)
    # Its tables as built: what the next live refresh starts from (`build_round`'s `last`).
    tables: TablesBuilt | None = None
    _history: dict[int, dict[str, Any]] | None = None

    def history(self) -> dict[int, dict[str, Any]]:
        """Competitor -> its item of the round history (`round_histories`), built when first asked:
        the live refresh never needs it."""
        if self._history is None:
            self._history = {competitor_id: history_item(entry) for competitor_id, entry in self.entries.items()}
        return self._history


@dataclass(slots=True)
class Loaded:
    """A tournament's results as the engine needs them, by round."""

    tournament: Tournament
    competitors: list[tuple[int, int, str, str, int, int | None]]
    rounds: list[int]  # the rounds read (from `load`'s `from_round` on)
    works: dict[int, RoundWork]
    round_digests: dict[int, str]
    # Every round of the tournament (read or not) and its status.
    statuses: dict[int, str] = field(default_factory=dict)

    def round_parties(self, number: int) -> list[engine_standings.PartieResult]:
        work = self.works.get(number)
        return work.parties if work is not None else []


def fingerprint(value: Any) -> str:
    """A digest of plain values as read (tuples of ints, strings, booleans, None).

    Through `marshal`, a few times cheaper than `repr` on the thousands of rows a refresh
    reads after every hand; its bytes may differ between Python versions, which only
    makes the first refresh after an upgrade a full one. A value marshal refuses is
    hashed from its repr.
    """
    try:
        data = marshal.dumps(value)
    except ValueError:
        data = repr(value).encode()
    return hashlib.sha256(data).hexdigest()


TABLES_SQL = """
    SELECT t.round_id, t.id, t.number, CAST(res.totals AS TEXT), res.finished, res.winner_side, res.donnes_played
      FROM {table} t
      LEFT JOIN {result} res ON res.table_id = t.id
     WHERE t.round_id IN ({among})
"""

SEATS_SQL = """
    SELECT s.table_id, s.side, s.competitor_id
      FROM {seat} s
     WHERE s.round_id IN ({among})
     ORDER BY s.table_id, s.side, s.position
"""

# A table as read: (round id, id, number, its result's totals as JSON text, finished,
# winner side, donnes played), the result's columns None before its first hand; and its
# seats ((side, competitor id), ...) by side and place.
TableRow = tuple[Any, ...]
Seats = tuple[tuple[int, int], ...]


def _table_rows(round_ids: list[int]) -> tuple[list[TableRow], dict[int, Seats]]:
    """The tables of these rounds with their results, and each table's seats: two queries
    of plain tuples, each on its own index (a round's tables, a round's seats).

    Written in SQL rather than through the ORM: the live refresh reads them after every
    stored hand, and building model rows or decoding JSON through the field for ~3,000
    seats costs more than the rest of the refresh. Two queries rather than one join: the
    seats joined to their table's result sent each result once per seat, and the planner
    hashed every table and result of the tournament (~6 ms at 3,000 teams against ~3).
    """
    if not round_ids:
        return [], {}
    with connection.cursor() as cursor:
        among = ", ".join(["%s"] * len(round_ids))
        tables_sql = TABLES_SQL.format(table=Table._meta.db_table, result=TableResult._meta.db_table, among=among)
        cursor.execute(tables_sql, round_ids)
        tables: list[TableRow] = cursor.fetchall()
        cursor.execute(SEATS_SQL.format(seat=Seat._meta.db_table, among=among), round_ids)
        seat_rows = cursor.fetchall()
    grouped: dict[int, list[tuple[int, int]]] = {}
    for table_id, side, competitor_id in seat_rows:
        seated = grouped.get(table_id)
        if seated is None:
            grouped[table_id] = [(side, competitor_id)]
        else:
            seated.append((side, competitor_id))
    return tables, {table_id: tuple(seated) for table_id, seated in grouped.items()}


COMPETITORS_SQL = """
    SELECT id, number, name, status, joined_round, withdrawn_after_round
      FROM {competitor}
     WHERE tournament_id = %s
     ORDER BY number
"""

BYES_SQL = """
    SELECT r.number, b.competitor_id, b.reason
      FROM {bye} b
      JOIN {round} r ON r.id = b.round_id
     WHERE r.tournament_id = %s AND r.number >= %s
     ORDER BY r.number, b.competitor_id
"""


def _competitor_rows(tournament_id: int) -> list[tuple[int, int, str, str, int, int | None]]:
    """Every competitor (id, number, name, status, joined round, withdrawn after round), by
    number: read after every hand, in SQL for the reason of `_seat_rows` (the ORM's
    values_list spent ~6 ms on 3,000 competitors)."""
    with connection.cursor() as cursor:
        cursor.execute(COMPETITORS_SQL.format(competitor=Competitor._meta.db_table), [tournament_id])
        rows: list[tuple[int, int, str, str, int, int | None]] = cursor.fetchall()
        return rows


def _bye_rows(tournament_id: int, from_round: int) -> list[tuple[int, int, str]]:
    """The byes of rounds `from_round` on: (round, competitor id, reason), by round and competitor."""
    with connection.cursor() as cursor:
        cursor.execute(BYES_SQL.format(bye=Bye._meta.db_table, round=Round._meta.db_table), [tournament_id, from_round])
        rows: list[tuple[int, int, str]] = cursor.fetchall()
        return rows


# Rounds built from their rows, keyed by tournament, round, the digest of the rows and
# the bye and late policies: what a refresh in this process already built for identical
# input.
# Only rounds before the last are kept: the round in play changes with every hand, and
# its old versions would fill the cache (a round of 300 teams is ~0.3 MB).
ROUND_CACHE_SIZE = 64
_round_cache: OrderedDict[tuple[Any, ...], RoundWork] = OrderedDict()
_round_cache_lock = threading.Lock()


def load(tournament: Tournament, *, from_round: int = 1, last_tables: TablesBuilt | None = None) -> Loaded:
    """Competitors, rounds, tables with their result, seats, and byes: five queries.

    Only the rounds from `from_round` on are read (the live refresh reads the rounds after
    the last closed one: scoring/standings/base.py keeps the others' totals). Each round's
    rows are hashed as read; a round whose rows this process has already turned into
    entries (the rounds before the one in play, on a full rebuild) is taken from the
    cache rather than built again.
    """
    competitors = _competitor_rows(tournament.pk)
    round_rows = list(Round.objects.filter(tournament=tournament).values_list("number", "status", "id"))
    round_status = {number: status for number, status, _pk in sorted(round_rows)}
    number_of = {pk: number for number, _status, pk in round_rows if number >= from_round}
    rounds = sorted(number_of.values())
    tables, seats = _table_rows(list(number_of))
    byes = _bye_rows(tournament.pk, from_round)
    # Each round's tables by number, with their seats (a table nobody sits at counts for nothing).
    tables.sort(key=itemgetter(2))
    tables_by_round: dict[int, list[tuple[TableRow, Seats]]] = defaultdict(list)
    for row in tables:
        seated = seats.get(row[1])
        if seated is not None:
            tables_by_round[number_of[row[0]]].append((row, seated))
    byes_by_round: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for round_number, competitor_id, reason in byes:
        byes_by_round[round_number].append((competitor_id, reason))
    policy = (tournament.bye_policy, tournament.bye_points, tournament.late_policy, score_step(tournament))
    works: dict[int, RoundWork] = {}
    digests: dict[int, str] = {}
    for number in rounds:
        round_tables, round_byes = tables_by_round.get(number, []), byes_by_round.get(number, [])
        # A round's digest hashes the rows read for it, as read: cheaper than its entries.
        digest = fingerprint([round_status[number], *round_tables, *round_byes])
        digests[number] = digest
        key = (tournament.pk, number, digest, *policy)
        if number == rounds[-1]:
            # The round in play: its tables are built again only where their rows changed.
            works[number] = build_round(number, round_tables, round_byes, tournament, last=last_tables)
        else:
            works[number] = _cached_round(key, partial(_closed_round, number, round_tables, round_byes, tournament))
    return Loaded(tournament, competitors, rounds, works, digests, round_status)


def _closed_round(
    number: int, tables: list[tuple[TableRow, Seats]], byes: list[tuple[int, str]], tournament: Tournament
) -> RoundWork:
    """A round before the one in play, built for the cache: without its tables as built
    (only the round in play's are kept for the next hand)."""
    work = build_round(number, tables, byes, tournament)
    work.tables = None
    return work


def _cached_round(key: tuple[Any, ...], build: Callable[[], RoundWork]) -> RoundWork:
    """The round kept under `key`, or `build()` kept under it (the least used ones go)."""
    with _round_cache_lock:
        work = _round_cache.get(key)
        if work is not None:
            _round_cache.move_to_end(key)
            return work
    work = build()
    with _round_cache_lock:
        _round_cache[key] = work
        while len(_round_cache) > ROUND_CACHE_SIZE:
            _round_cache.popitem(last=False)
    return work


@dataclass(frozen=True, slots=True)
class TableWork:
    """One table of a round, built from its row and seats: its competitors' entries and parties."""

    members: tuple[tuple[int, Entry, engine_standings.PartieResult | None], ...]
    winners: tuple[float, ...]  # the winning side's points, when the partie is finished
    # Its partie as a snapshot row's `current_partie` shows it (each row takes a copy).
    state: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TablesBuilt:
    """Round `number`'s tables as read and built, in order, with what their members make
    of the round (the byes apart: they follow the winners of every table). Never
    modified: the live refresh keeps it for the next hand (scoring/standings/kept.py)."""

    number: int
    built: dict[tuple[TableRow, Seats], TableWork]  # by the table's row and seats as read
    entries: dict[int, Entry]
    parties: dict[int, engine_standings.PartieResult | None]
    parties_state: dict[int, dict[str, Any]]


def score_step(tournament: Tournament) -> int:
    """What the tournament's scores are multiples of (a bye's average is rounded to it)."""
    try:
        return engine.get_game(tournament.game).score_step(tournament.rule_options or {})
    except (KeyError, ValueError, engine.OptionError):
        # Rules the site no longer knows are refused where they are set; a ranking still reads.
        return 1


def build_round(
    number: int,
    tables: list[tuple[TableRow, Seats]],
    byes: list[tuple[int, str]],
    tournament: Tournament,
    *,
    last: TablesBuilt | None = None,
) -> RoundWork:
    """One round's entries (its tables' seats with the table's result, then byes) and parties.

    `tables` are the round's tables as read (`_table_rows`) with their seats, by number;
    `byes` (competitor id, reason). `last` is this round's tables as the last refresh
    built them (the live refresh's, scoring/standings/kept.py): a table read with the
    same row and seats as then (compared by value: its result, donnes and seats as read)
    is the table built then; after a hand one table of the round is built again. The
    round's `tables` is what the next refresh takes as its `last`.
    """
    previous = last.built if last is not None and last.number == number else {}
    built: dict[tuple[TableRow, Seats], TableWork] = {}
    entries: dict[int, Entry] = {}
    parties: dict[int, engine_standings.PartieResult | None] = {}
    parties_state: dict[int, dict[str, Any]] = {}
    for table in tables:
        work = previous.get(table) or _build_table(number, *table)
        built[table] = work
        _seat_members(work, entries, parties, parties_state)
    winners = [points for work in built.values() for points in work.winners]
    tables_built = TablesBuilt(number, built, entries, parties, parties_state)
    if byes:
        entries, parties = dict(entries), dict(parties)
    for competitor_id, reason in byes:
        missed = engine_standings.missed_round(
            late=reason == "late",
            bye_policy=tournament.bye_policy,
            late_policy=tournament.late_policy,
            fixed_points=tournament.bye_points,
            winners=winners,
            step=score_step(tournament),
        )
        entry = Entry(
            round=number, table=None, side=None, result=missed.outcome, points=missed.points, against=0,
            finished=missed.finished, late=reason == "late",
        )  # fmt: skip
        entries[competitor_id] = entry
        parties[competitor_id] = partie_of(competitor_id, entry)
    made = [partie for partie in parties.values() if partie is not None]
    return RoundWork(made, entries, parties_state, tables_built)


def _seat_members(
    work: TableWork,
    entries: dict[int, Entry],
    parties: dict[int, engine_standings.PartieResult | None],
    parties_state: dict[int, dict[str, Any]],
) -> None:
    """Put a table's members, their entries, parties and partie state, into the round's maps."""
    for competitor_id, entry, partie in work.members:
        entries[competitor_id] = entry
        parties[competitor_id] = partie
        parties_state[competitor_id] = work.state


def _build_table(number: int, row: TableRow, seats: Seats) -> TableWork:
    """One table's entries and parties from its row and seats (`_table_rows`)."""
    _round_id, _pk, table_number, totals_text, finished, winner, played = row
    finished = bool(finished)
    totals: list[Any] = fastjson.loads(totals_text) if totals_text else []
    sides: dict[int, list[int]] = {}
    for side, competitor_id in seats:
        sides.setdefault(side, []).append(competitor_id)
    state = {"round": number, "table": table_number, "donnes": played or 0, "finished": finished}
    members: list[tuple[int, Entry, engine_standings.PartieResult | None]] = []
    winners: list[float] = []
    for side, seated in sides.items():
        own = totals[side] if side < len(totals) else 0
        if not finished:
            result = "pending"
        elif winner is None:
            result = "draw"
        else:
            result = "win" if winner == side else "loss"
        if finished and winner == side:
            winners.append(own)
        opponents = [c for s, m in sides.items() if s != side for c in m]
        # At a table of three, what the two others scored between them.
        against = sum(totals) - own if side < len(totals) else 0
        for competitor_id in seated:
            entry = Entry(
                number, table_number, side, result, own, against, opponents,
                [c for c in seated if c != competitor_id], finished,
            )  # fmt: skip
            members.append((competitor_id, entry, partie_of(competitor_id, entry)))
    return TableWork(tuple(members), tuple(winners), state)


def history_item(entry: Entry) -> dict[str, Any]:
    """A competitor's item of a round history: what the competitor's page shows of it."""
    return {
        "round": entry.round,
        "table": entry.table,
        "side": entry.side,
        "result": entry.result,
        "points": entry.points,
        "against": entry.against,
        "opponents": entry.opponents,
        "partners": entry.partners,
        # Only where true: a ranking of 1,000 teams carries no flag on every partie.
        **({"late": True} if entry.late else {}),
    }


def partie_of(competitor_id: int, entry: Entry) -> engine_standings.PartieResult | None:
    """The engine's partie result of one entry, or None when the round counts for nothing."""
    if entry.table is None:
        # A round away from the tables: the engine's rule said what it scores.
        missed = engine_standings.MissedRound(
            outcome=entry.result, points=entry.points, counted=entry.finished, finished=entry.finished
        )
        return engine_standings.missed_round_result(entry.round, str(competitor_id), missed)
    if not entry.opponents:
        # A table whose other seats are empty (a withdrawal mid-round): nobody to face.
        return None
    return engine_standings.PartieResult(
        round=entry.round,
        competitor=str(competitor_id),
        opponents=tuple(str(o) for o in entry.opponents),
        points_for=entry.points,
        points_against=entry.against,
        # Still in play: the engine counts the points but not the outcome.
        outcome=entry.result if entry.result in ("win", "loss", "draw") else "draw",
        finished=entry.finished,
    )


OWN_TABLES_SQL = """
    SELECT t.round_id, t.id, t.number, CAST(res.totals AS TEXT), res.finished, res.winner_side, res.donnes_played,
           r.number
      FROM {seat} own
      JOIN {table} t ON t.id = own.table_id
      JOIN {round} r ON r.id = own.round_id
      LEFT JOIN {result} res ON res.table_id = t.id
     WHERE own.competitor_id = %s AND r.tournament_id = %s AND r.number <= %s
"""

OWN_BYES_SQL = """
    SELECT r.number, r.id, b.reason
      FROM {bye} b
      JOIN {round} r ON r.id = b.round_id
     WHERE b.competitor_id = %s AND r.tournament_id = %s AND r.number <= %s
"""

TABLE_SEATS_SQL = """
    SELECT s.table_id, s.side, s.competitor_id
      FROM {seat} s
     WHERE s.table_id IN ({among})
     ORDER BY s.table_id, s.side, s.position
"""


def competitor_history(
    tournament: Tournament, competitor_id: int, *, after_round: int | None = None
) -> list[dict[str, Any]]:
    """One competitor's item of `round_histories`, read for that competitor alone.

    What « Ma soirée » and a competitor's page show: the same items as `round_histories`
    (built by the same `_build_table`, `build_round` and `history_item`), but from the
    competitor's own tables with their seats and results, and its byes: two or three
    small queries, not every table of every round. A bye's points are the engine's rule
    over the winners of its round, so a round the competitor sat out is read whole (its
    tables and seats), as `load` reads it.
    """
    through = after_round if after_round is not None else 2**31 - 1
    names = {
        "seat": Seat._meta.db_table,
        "table": Table._meta.db_table,
        "round": Round._meta.db_table,
        "result": TableResult._meta.db_table,
        "bye": Bye._meta.db_table,
    }
    with connection.cursor() as cursor:
        cursor.execute(OWN_TABLES_SQL.format(**names), [competitor_id, tournament.pk, through])
        own_tables: list[tuple[Any, ...]] = cursor.fetchall()
        cursor.execute(OWN_BYES_SQL.format(**names), [competitor_id, tournament.pk, through])
        own_byes: list[tuple[int, int, str]] = cursor.fetchall()
        seats: dict[int, list[tuple[int, int]]] = {}
        if own_tables:
            among = ", ".join(["%s"] * len(own_tables))
            cursor.execute(TABLE_SEATS_SQL.format(seat=names["seat"], among=among), [row[1] for row in own_tables])
            for table_id, side, seated in cursor.fetchall():
                seats.setdefault(table_id, []).append((side, seated))
    entries: dict[int, Entry] = {}
    for *row, number in own_tables:
        work = _build_table(number, tuple(row), tuple(seats[row[1]]))
        entries.update((number, entry) for member, entry, _partie in work.members if member == competitor_id)
    for number, round_id, reason in own_byes:
        # As `load` builds the round: its seated tables by number, then the byes (this one).
        tables, round_seats = _table_rows([round_id])
        tables.sort(key=itemgetter(2))
        seated = [(row, round_seats[row[1]]) for row in tables if row[1] in round_seats]
        entries[number] = build_round(number, seated, [(competitor_id, reason)], tournament).entries[competitor_id]
    return [history_item(entries[number]) for number in sorted(entries)]


def round_histories(tournament: Tournament, *, after_round: int | None = None) -> dict[int, list[dict[str, Any]]]:
    """Every competitor's parties round by round (through `after_round`, all when None).

    What a competitor's page and the API's ranking show beside a ranked row; the
    snapshots do not carry it (a ranking of 3,000 teams would weigh megabytes). Read when
    asked: the rounds before the one in play come from this process's cache.
    """
    loaded = load(tournament)
    out: dict[int, list[dict[str, Any]]] = {}
    for number in loaded.rounds:
        if after_round is not None and number > after_round:
            break
        for competitor_id, item in loaded.works[number].history().items():
            out.setdefault(competitor_id, []).append(item)
    return out
