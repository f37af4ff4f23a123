"""The bridge between stored results and the engine's ranking (engine.standings).

Load a tournament's table results, seats and byes in a few queries, turn them into the
engine's partie results, rank them with the tournament's criteria, and store the ranking
as a new StandingsSnapshot version, in one transaction.

Terms (partie result, bye, snapshot, ticket): docs/glossary.md; the bye and late
policies: docs/rules.md, "Byes and late arrivals". A snapshot row holds `rows` in ranking
order, `criteria` (the columns), `after_round` (the last round it counts) and `digest` (a
hash of its input); a round's snapshot is rewritten when a correction changes that round.
The ticket is StandingsRefresh.requested. One refresh at a time per tournament (a PostgreSQL
advisory lock), so 150 referees storing hands together cost a handful of rebuilds.

A snapshot row (one per competitor, in ranking order) holds at least:
`competitor` (id), `number`, `name`, `rank` (shared: 1, 2, 2, 4), `wins`, `points`,
`against`, `difference`, `match_points`, `played` (parties played at a table and
finished), `byes`, `absences` (rounds missed and scored as lost), `withdrawn`, one key
per ranking criterion with its value, `values` (the criteria values in the criteria's
order, for display), and `rounds`: one entry per round with `round`, `table`, `side`,
`result` (win | loss | draw | pending | bye | absent), `points`, `against`,
`opponents` and `partners` (competitor ids), and `late: true` on a round a late arrival
missed (absent elsewhere); and `current_partie`: the competitor's partie in the last
round counted, `{"round", "table", "donnes", "finished"}` (`donnes`:
the donnes counted at its table so far), or None when it sits that round out. A partie
not finished is still counted as it stands; pages mark it (scoring/templatetags).

A round's status (in play, closed) is part of its digest: closing a round writes a new
version, so that the pages saying which rounds the ranking counts follow.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import partial
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

import engine.standings as engine_standings
from kit import fastjson
from kit.gcpause import gc_paused
from scoring.enqueue import STANDINGS_REFRESH, enqueue
from scoring.models import StandingsRefresh, StandingsSnapshot, TableResult
from scoring.selectors.standings import forget_polled
from tournaments.games import CRITERION_LABELS
from tournaments.models import Bye, Competitor, Round, Seat, Table, Tournament

# Versions kept per `after_round` (the live ranking's and each round's); older ones go,
# looked for every PRUNE_EVERY versions rather than on every hand.
KEEP_VERSIONS = 3
PRUNE_EVERY = 10
# A refresh that keeps finding new tickets gives the worker back after this many rounds:
# the last ticket's own task will do the rest.
REFRESH_ROUNDS = 5
# Namespace of the advisory lock (the second key is the tournament id).
LOCK_NAMESPACE = 0x5354  # "ST"

RESULT_LABELS: dict[str, Promise] = {
    "win": _("won"),
    "loss": _("lost"),
    "draw": _("drawn"),
    "pending": _("in play"),
    "bye": _("Bye"),
    "absent": _("absent"),
}


def columns_for(criteria: Sequence[str]) -> list[dict[str, Any]]:
    """The ranking's columns: each criterion with its label in the reader's language."""
    return [{"key": key, "label": CRITERION_LABELS.get(key, key)} for key in criteria]


# -- loading ---------------------------------------------------------------------------


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
    results and each competitor's item of the snapshot rows.

    Built once per round *content*: the rounds already played do not change while the
    next one is in play, so a refresh after each hand rebuilds only the round in play
    and takes the others from the process's cache (see `_cached_round`). Shared between
    rankings, hence never modified once built.
    """

    parties: list[engine_standings.PartieResult]
    history: dict[int, dict[str, Any]]  # competitor -> its item of a snapshot row's `rounds`
    # competitor -> its partie in this round as a snapshot row's `current_partie` shows it
    parties_state: dict[int, dict[str, Any]] = field(default_factory=dict)


@dataclass(slots=True)
class Loaded:
    """A tournament's results as the engine needs them, by round."""

    tournament: Tournament
    competitors: list[tuple[int, int, str, str, int, int | None]]
    rounds: list[int]
    works: dict[int, RoundWork]
    round_digests: dict[int, str]

    def round_parties(self, number: int) -> list[engine_standings.PartieResult]:
        work = self.works.get(number)
        return work.parties if work is not None else []


def _half_up(value: float) -> int:
    return int(Decimal(str(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


SEATS_SQL = """
    SELECT t.id, t.number, r.number, s.side, s.competitor_id, CAST(res.totals AS TEXT), res.finished, res.winner_side,
           res.donnes_played
      FROM {seat} s
      JOIN {table} t ON t.id = s.table_id
      JOIN {round} r ON r.id = s.round_id
      LEFT JOIN {result} res ON res.table_id = t.id
     WHERE r.tournament_id = %s
     ORDER BY r.number, t.number, s.side, s.position
"""


def _seat_rows(tournament_id: int) -> list[tuple[Any, ...]]:
    """Every seat with its table, round and the table's result: one query, plain tuples.

    Written in SQL rather than through the ORM: the live refresh reads it after every
    stored hand, and building model rows or decoding JSON through the field for ~2,000
    seats costs more than the rest of the refresh.
    """
    sql = SEATS_SQL.format(
        seat=Seat._meta.db_table,
        table=Table._meta.db_table,
        round=Round._meta.db_table,
        result=TableResult._meta.db_table,
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament_id])
        return cursor.fetchall()


# Rounds built from their rows, keyed by tournament, round, the digest of the rows and
# the bye and late policies: what a refresh in this process already built for identical
# input.
# Only rounds before the last are kept: the round in play changes with every hand, and
# its old versions would fill the cache (a round of 300 teams is ~0.3 MB).
ROUND_CACHE_SIZE = 64
_round_cache: OrderedDict[tuple[Any, ...], RoundWork] = OrderedDict()
_round_cache_lock = threading.Lock()


def load(tournament: Tournament) -> Loaded:
    """Competitors, rounds, seats with their table's result, and byes: four queries.

    Each round's rows are hashed as read; a round whose rows this process has already
    turned into entries (the rounds before the one in play, on every refresh) is taken
    from the cache rather than built again.
    """
    competitors = list(
        Competitor.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("pk", "number", "name", "status", "joined_round", "withdrawn_after_round")
    )
    round_status = dict(Round.objects.filter(tournament=tournament).order_by("number").values_list("number", "status"))
    rounds = sorted(round_status)
    seat_rows = _seat_rows(tournament.pk)
    byes = list(
        Bye.objects.filter(round__tournament=tournament)
        .order_by("round__number", "competitor_id")
        .values_list("round__number", "competitor_id", "reason")
    )
    seats_by_round: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in seat_rows:
        seats_by_round[row[2]].append(row)
    byes_by_round: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for round_number, competitor_id, reason in byes:
        byes_by_round[round_number].append((competitor_id, reason))
    policy = (tournament.bye_policy, tournament.bye_points, tournament.late_policy)
    works: dict[int, RoundWork] = {}
    digests: dict[int, str] = {}
    for number in rounds:
        seats, round_byes = seats_by_round.get(number, []), byes_by_round.get(number, [])
        # A round's digest hashes the rows read for it, as read: cheaper than its entries.
        digest = hashlib.sha256(repr([round_status[number], *seats, *round_byes]).encode()).hexdigest()
        digests[number] = digest
        build = partial(_build_round, number, seats, round_byes, tournament)
        key = (tournament.pk, number, digest, *policy)
        works[number] = build() if number == rounds[-1] else _cached_round(key, build)
    return Loaded(tournament, competitors, rounds, works, digests)


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


def _build_round(
    number: int, seats: list[tuple[Any, ...]], byes: list[tuple[int, str]], tournament: Tournament
) -> RoundWork:
    """One round's entries (seats with their table's result, then byes), parties and history."""
    # table id -> (round, table number, totals, finished, winner, {side: [competitors]})
    tables: dict[int, tuple[int, int, list[Any], bool, int | None, dict[int, list[int]]]] = {}
    donnes: dict[int, int] = {}  # table id -> donnes counted so far
    for table_id, table_number, _round, side, competitor_id, totals, finished, winner, played in seats:
        if table_id not in tables:
            tables[table_id] = (number, table_number, fastjson.loads(totals) if totals else [], bool(finished),
                                winner, {})  # fmt: skip
            donnes[table_id] = played or 0
        tables[table_id][5].setdefault(side, []).append(competitor_id)
    entries: dict[int, Entry] = {}
    winners: list[float] = []
    parties_state: dict[int, dict[str, Any]] = {}
    for table_id, (round_number, table_number, totals, finished, winner, sides) in tables.items():
        # One dict per table, shared by its competitors' rows (never modified).
        state = {"round": round_number, "table": table_number, "donnes": donnes[table_id], "finished": finished}
        for side, members in sides.items():
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
            for competitor_id in members:
                entries[competitor_id] = Entry(
                    round_number, table_number, side, result, own, against, opponents,
                    [c for c in members if c != competitor_id], finished,
                )  # fmt: skip
                parties_state[competitor_id] = state
    for competitor_id, reason in byes:
        late = reason == "late"
        if late and tournament.late_policy == Tournament.LatePolicy.ABSENT:
            # Not played, so not won: no points either way, a partie lost (docs/rules.md).
            entries[competitor_id] = Entry(
                round=number, table=None, side=None, result="absent", points=0, against=0, finished=True, late=True
            )
            continue
        if tournament.bye_policy == Tournament.ByePolicy.NONE:
            entries[competitor_id] = Entry(
                round=number, table=None, side=None, result="absent", points=0, against=0, late=late
            )
            continue
        if tournament.bye_policy == Tournament.ByePolicy.FIXED:
            points: float = tournament.bye_points
        else:
            points = _half_up(sum(winners) / len(winners)) if winners else 0
        entries[competitor_id] = Entry(
            round=number, table=None, side=None, result="bye", points=points, against=0, finished=True, late=late
        )
    made = (_partie(competitor_id, entry) for competitor_id, entry in entries.items())
    history = {
        competitor_id: {
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
        for competitor_id, entry in entries.items()
    }
    return RoundWork([partie for partie in made if partie is not None], history, parties_state)


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, separators=(",", ":"), default=str).encode()).hexdigest()


# -- ranking and snapshots -------------------------------------------------------------


def _prefix_digests(loaded: Loaded, config_digest: str) -> dict[int, str]:
    """A digest per round n of everything the ranking after round n depends on."""
    running = _digest([config_digest, [(c[0], c[1], c[2], c[3]) for c in loaded.competitors]])
    out = {}
    for number in loaded.rounds:
        running = _digest([running, number, loaded.round_digests[number]])
        out[number] = running
    return out


def _config(tournament: Tournament) -> tuple[list[str], dict[str, Any]]:
    criteria = list(tournament.criteria or []) or list(engine_standings.default_criteria(tournament.game))
    return criteria, dict(tournament.match_points or {})


def rebuild_locked(tournament: Tournament, *, force: bool = False) -> StandingsSnapshot | None:
    """Write the snapshots whose input changed; the caller holds the tournament's lock.

    Each round's snapshot is rewritten when a result of rounds 1..n changed, lowest
    round first, so that the live snapshot (the last round's) is always the newest
    version. `force` writes the live snapshot even when its input did not change (a
    job marks the switch to new criteria with a new version). Returns the new live
    snapshot, or None when nothing changed.
    """
    loaded = load(tournament)
    criteria, match_points = _config(tournament)
    policies = [tournament.bye_policy, tournament.bye_points, tournament.late_policy]
    config_digest = _digest([criteria, match_points, *policies, tournament.format])
    digests = _prefix_digests(loaded, config_digest)
    stored: dict[int | None, tuple[int, str]] = {}
    for after_round, version, digest in (
        StandingsSnapshot.objects.filter(tournament=tournament)
        .order_by("after_round", "-version")
        .distinct("after_round")
        .values_list("after_round", "version", "digest")
        if connection.vendor == "postgresql"
        else _latest_per_round_portable(tournament)
    ):
        stored[after_round] = (version, digest)
    newest = max((version for version, _digest_ in stored.values()), default=0)
    live_round = loaded.rounds[-1] if loaded.rounds else None
    wanted: list[tuple[int | None, str]] = [(number, digests[number]) for number in loaded.rounds]
    if live_round is None:
        wanted = [(None, config_digest)]
    writes = []
    for after_round, digest in wanted:
        is_live = after_round == live_round
        current = stored.get(after_round)
        up_to_date = current is not None and current[1] == digest
        if is_live:
            up_to_date = up_to_date and current is not None and current[0] == newest and not force
        if not up_to_date:
            writes.append((after_round, digest))
    if not writes:
        return None
    snapshots = []
    for offset, (after_round, digest) in enumerate(writes, start=1):
        rows = rank_rows(loaded, after_round, criteria, match_points)
        snapshots.append(
            StandingsSnapshot(
                tournament=tournament,
                version=newest + offset,
                after_round=after_round,
                rows=rows,
                criteria=criteria,
                digest=digest,
            )
        )
    for snapshot in snapshots:
        # One INSERT each, not bulk_create: on PostgreSQL that passes the rows as a text
        # array, whose elements psycopg escapes quote by quote in Python (~0.1 s a ranking).
        snapshot.save(force_insert=True)
    slug = tournament.slug
    transaction.on_commit(lambda: forget_polled(slug))
    if len(snapshots) > 1 or snapshots[-1].version % PRUNE_EVERY == 0:
        _prune(tournament)
    return snapshots[-1]


def _latest_per_round_portable(tournament: Tournament) -> Iterable[tuple[int | None, int, str]]:
    seen: set[int | None] = set()
    for after_round, version, digest in (
        StandingsSnapshot.objects.filter(tournament=tournament)
        .order_by("-version")
        .values_list("after_round", "version", "digest")
    ):
        if after_round not in seen:
            seen.add(after_round)
            yield after_round, version, digest


def _prune(tournament: Tournament) -> None:
    """Keep the newest KEEP_VERSIONS snapshots of each round (and the live one)."""
    keep: dict[int | None, int] = defaultdict(int)
    doomed = []
    for pk, after_round in (
        StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").values_list("pk", "after_round")
    ):
        keep[after_round] += 1
        if keep[after_round] > KEEP_VERSIONS:
            doomed.append(pk)
    if doomed:
        StandingsSnapshot.objects.filter(pk__in=doomed).delete()


def standings_lock(*, tournament_id: int, wait: bool = True) -> bool:
    """Take the tournament's standings lock until the transaction ends; False if busy.

    A PostgreSQL advisory lock: one writer of snapshots per tournament across every
    web and worker process. SQLite serialises writers by itself.
    """
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        if wait:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_NAMESPACE, tournament_id])
            return True
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [LOCK_NAMESPACE, tournament_id])
        return bool(cursor.fetchone()[0])


@transaction.atomic
def standings_rebuild(*, tournament_id: int) -> StandingsSnapshot:
    """Rebuild a tournament's standings now and return its live snapshot (a new version).

    Waits for a refresh or a job that holds the lock. Every round's snapshot whose input
    changed is rewritten too.
    """
    standings_lock(tournament_id=tournament_id)
    tournament = Tournament.objects.get(pk=tournament_id)
    snapshot = rebuild_locked(tournament, force=True)
    assert snapshot is not None
    transaction.on_commit(lambda: standings_catch_up(tournament_id=tournament_id))
    return snapshot


def standings_catch_up(*, tournament_id: int) -> None:
    """After a rebuild that was not a refresh (a job, a command): serve the tickets left.

    A refresh that found the lock taken left its ticket to the holder; a refresh holder
    goes round again for it, but a rebuild or a job does not, and a hand stored after it
    read the results would wait for the next hand. Call after commit.
    """
    state = StandingsRefresh.objects.filter(pk=tournament_id).values_list("requested", "built").first()
    if state is not None and state[0] > state[1]:
        enqueue(STANDINGS_REFRESH, tournament_id=tournament_id, ticket=state[0])


def standings_schedule_refresh(*, tournament_id: int) -> None:
    """Ask for the live ranking to catch up with what was just stored (call after commit).

    Takes a ticket (one UPSERT) and queues `scoring.standings_refresh` with it; with no
    broker (the embedded default) the task runs here and now.
    """
    ticket = _take_ticket(tournament_id)
    enqueue(STANDINGS_REFRESH, tournament_id=tournament_id, ticket=ticket)


def _take_ticket(tournament_id: int) -> int:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            table = StandingsRefresh._meta.db_table
            cursor.execute(
                f"""
                INSERT INTO {table} (tournament_id, requested, built) VALUES (%s, 1, 0)
                ON CONFLICT (tournament_id) DO UPDATE SET requested = {table}.requested + 1
                RETURNING requested
                """,
                [tournament_id],
            )
            return int(cursor.fetchone()[0])
    with transaction.atomic():
        StandingsRefresh.objects.get_or_create(tournament_id=tournament_id)
        StandingsRefresh.objects.filter(pk=tournament_id).update(requested=F("requested") + 1)
        return int(StandingsRefresh.objects.values_list("requested", flat=True).get(pk=tournament_id))


def standings_refresh(*, tournament_id: int, ticket: int = 0) -> bool:
    """Rebuild the live ranking unless a later refresh already covered `ticket`.

    Returns whether this call rebuilt. When another refresh holds the lock, this one
    leaves: the holder looks at the tickets again once it has committed and goes round
    once more if new ones came in meanwhile.
    """
    for _round in range(REFRESH_ROUNDS):
        state = StandingsRefresh.objects.filter(pk=tournament_id).values_list("requested", "built").first()
        requested, built = state if state is not None else (ticket, 0)
        if ticket and built >= ticket:
            return _round > 0
        with transaction.atomic():
            if not standings_lock(tournament_id=tournament_id, wait=False):
                return False
            # Read the ticket under the lock, before the results: every hand whose ticket
            # is at most this one committed before now, so this rebuild sees it.
            requested = (
                StandingsRefresh.objects.filter(pk=tournament_id).values_list("requested", flat=True).first()
                or requested
            )
            tournament = Tournament.objects.filter(pk=tournament_id).first()
            if tournament is None:
                return False
            with gc_paused():
                rebuild_locked(tournament)
            StandingsRefresh.objects.filter(pk=tournament_id, built__lt=requested).update(
                built=requested, built_at=timezone.now()
            )
        ticket = requested + 1
        latest = StandingsRefresh.objects.filter(pk=tournament_id).values_list("requested", flat=True).first() or 0
        if latest < ticket:
            return True
    # Tickets keep coming: hand the rest to a new task rather than hold this worker, and
    # never drop them (their own tasks may have left while this one held the lock).
    enqueue(STANDINGS_REFRESH, tournament_id=tournament_id, ticket=ticket)
    return True


# -- the engine ------------------------------------------------------------------------


def _criterion_specs(criteria: Sequence[str], match_points: Mapping[str, Any]) -> list[engine_standings.CriterionSpec]:
    specs: list[engine_standings.CriterionSpec] = []
    allowed = engine_standings.MatchPoints.allowed_params
    for key in criteria:
        if key == "match_points":
            specs.append((key, {k: v for k, v in match_points.items() if k in allowed}))
        else:
            specs.append(key)
    return specs


def _partie(competitor_id: int, entry: Entry) -> engine_standings.PartieResult | None:
    if entry.result == "absent" and entry.late and entry.finished:
        # A late arrival's missed round under the `absent` late policy, which ends it as a
        # partie lost (finished); under the `bye` late policy and the `none` bye policy it
        # is the unfinished "absent" below, which counts for nothing.
        return engine_standings.PartieResult(
            round=entry.round, competitor=str(competitor_id), opponents=(), points_for=0, points_against=0,
            outcome="absent",
        )  # fmt: skip
    if entry.result == "absent":
        # The `none` bye policy: the round counts for nothing, not even as a won partie.
        return None
    if entry.result == "bye":
        return engine_standings.PartieResult(
            round=entry.round, competitor=str(competitor_id), opponents=(), points_for=entry.points,
            points_against=0, outcome="bye",
        )  # fmt: skip
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


def rank_rows(
    loaded: Loaded, after_round: int | None, criteria: Sequence[str], match_points: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The snapshot rows of the ranking counting rounds 1..after_round (all when None)."""
    rounds = [n for n in loaded.rounds if after_round is None or n <= after_round]
    results = [partie for number in rounds for partie in loaded.round_parties(number)]
    known = {c[0]: c for c in loaded.competitors}
    histories = [loaded.works[number].history for number in rounds]
    last_work = loaded.works.get(rounds[-1]) if rounds else None
    parties_state = last_work.parties_state if last_work is not None else {}
    standings = engine_standings.rank(
        results, _criterion_specs(criteria, match_points), competitors=[str(pk) for pk in known]
    )
    rows = []
    for standing in standings:
        pk = int(standing.competitor)
        _pk, number, name, status, _joined, _withdrawn_after = known.get(pk, (pk, 0, "?", "", 1, None))
        history = [item for by_competitor in histories if (item := by_competitor.get(pk)) is not None]
        values = dict(standing.values)
        row: dict[str, Any] = {
            "competitor": pk,
            "number": number,
            "name": name,
            "rank": standing.rank,
            # A credited bye is a won partie (docs/rules.md), as the `wins` criterion counts it.
            "wins": standing.wins + standing.byes,
            "points": standing.points_for,
            "against": standing.points_against,
            "difference": standing.points_for - standing.points_against,
            "played": standing.played,
            "byes": standing.byes,
            "absences": standing.absences,
            "withdrawn": status == Competitor.Status.WITHDRAWN,
            **values,
            "values": [values.get(key) for key in criteria],
            "rounds": history,
            "current_partie": parties_state.get(pk),
        }
        rows.append(row)
    if "match_points" not in criteria:
        # Shown and served by the API whatever the criteria: computed once for everyone.
        by_competitor = _match_points(standings, match_points)
        for row in rows:
            row["match_points"] = by_competitor[str(row["competitor"])]
    # Equal competitors share a rank; within it, list them by number as the room knows them.
    rows.sort(key=lambda row: (row["rank"], row["number"]))
    return rows


def _match_points(standings: Sequence[engine_standings.Standing], scheme: Mapping[str, Any]) -> dict[str, Any]:
    """Every competitor's match points by the tournament's scheme (the engine's criterion)."""
    criterion = engine_standings.MatchPoints(
        {k: v for k, v in scheme.items() if k in engine_standings.MatchPoints.allowed_params}
    )
    records = {
        s.competitor: engine_standings.Record(s.competitor, wins=s.wins, draws=s.draws, losses=s.losses, byes=s.byes)
        for s in standings
    }
    return criterion.values(records, records)
