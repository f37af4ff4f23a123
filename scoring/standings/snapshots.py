"""Snapshots: the stored rankings, one new version whenever what they count changed.

A snapshot row of StandingsSnapshot holds `rows` in ranking order (scoring/standings/
ranking.py), `criteria` (the columns), `after_round` (the last round it counts) and
`digest` (a hash of its input); a round's snapshot is rewritten when a correction changes
that round. A round's status (in play, closed) is part of its digest: closing a round
writes a new version, so that the pages saying which rounds the ranking counts follow.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any

import psycopg
from django.db import connection, transaction
from django.utils import timezone

from engine.standings import PartieResult, records_of
from kit import fastjson
from scoring import live_ranking
from scoring.enqueue import LIVE_FILES_PUBLISH, enqueue
from scoring.models import StandingsSnapshot
from scoring.signals import snapshots_written
from scoring.standings.base import base_generation, base_read, base_records, base_store
from scoring.standings.kept import KeptTournament, head_digest, kept_for, stored_totals, summed_records
from scoring.standings.ranking import rank_rows, ranked_rows, ranking_config
from scoring.standings.reading import Loaded, fingerprint, load
from tournaments.models import Round, Tournament

# Versions kept per `after_round` (the live ranking's and each round's); older ones go,
# looked for every PRUNE_EVERY versions rather than on every hand.
KEEP_VERSIONS = 3
PRUNE_EVERY = 10


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, separators=(",", ":"), default=str).encode()).hexdigest()


def _config_digest(tournament: Tournament, criteria: list[str], match_points: dict[str, Any]) -> str:
    policies = [tournament.bye_policy, tournament.bye_points, tournament.late_policy]
    return _digest([criteria, match_points, *policies, tournament.format])


def _head_digest(config_digest: str, competitors: Sequence[tuple[Any, ...]]) -> str:
    """The start of the digest chain: the configuration and the competitors as ranked.

    Hashed as a round's rows are (`fingerprint`): read on every refresh, json would cost more.
    """
    return fingerprint([config_digest, [c[:4] for c in competitors]])


def _chain(running: str, loaded: Loaded) -> dict[int, str]:
    """A digest per round n read of everything the ranking after round n depends on,
    continuing `running` (the digest through the round before the first read)."""
    out = {}
    for number in loaded.rounds:
        running = _digest([running, number, loaded.round_digests[number]])
        out[number] = running
    return out


def closed_through(statuses: Mapping[int, str]) -> int:
    """The last of the leading closed rounds (0 when round 1 is not closed)."""
    through = 0
    for number in sorted(statuses):
        if statuses[number] != Round.Status.CLOSED:
            break
        through = number
    return through


def _stored(tournament: Tournament) -> dict[int | None, tuple[int, str]]:
    """The newest stored version and digest of each round's snapshot (and the one before round 1)."""
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
    return stored


def _writes(
    stored: Mapping[int | None, tuple[int, str]], wanted: Sequence[tuple[int | None, str]], live_round: int | None,
    *, force: bool,
) -> list[tuple[int | None, str]]:  # fmt: skip
    """The snapshots to write: those whose input changed, and the live one unless it is the newest."""
    newest = max((version for version, _digest_ in stored.values()), default=0)
    writes = []
    for after_round, digest in wanted:
        current = stored.get(after_round)
        up_to_date = current is not None and current[1] == digest
        if after_round == live_round:
            up_to_date = up_to_date and current is not None and current[0] == newest and not force
        if not up_to_date:
            writes.append((after_round, digest))
    return writes


def rebuild_locked(tournament: Tournament, *, force: bool = False) -> StandingsSnapshot | None:
    """Write the snapshots whose input changed; the caller holds the tournament's lock.

    Each round's snapshot is rewritten when a result of rounds 1..n changed, lowest
    round first, so that the live snapshot (the last round's) is always the newest
    version. `force` writes the live snapshot even when its input did not change (a
    job marks the switch to new criteria with a new version). Returns the new live
    snapshot, or None when nothing changed.

    Without `force`, the stored totals of the closed rounds (scoring/standings/base.py)
    are used when they still hold: only the rounds after them are read and added
    (`live_update`). Otherwise, every round is read again (`full_rebuild`).
    """
    criteria, match_points = ranking_config(tournament)
    config_digest = _config_digest(tournament, criteria, match_points)
    if not force:
        outcome = live_update(tournament, criteria, match_points, config_digest)
        if outcome is not FULL:
            return outcome  # type: ignore[return-value]
    return full_rebuild(tournament, criteria, match_points, config_digest, force=force)


# What `live_update` answers when the stored totals do not hold.
FULL = object()


def live_update(
    tournament: Tournament, criteria: list[str], match_points: dict[str, Any], config_digest: str
) -> StandingsSnapshot | object | None:
    """The live ranking from the stored totals of the closed rounds plus the rounds after them.

    Reads the competitors and the rounds after the base's (seats, results, byes: the
    round in play), adds those rounds' results to the stored records, and ranks the
    small rows, with what this process kept of the tournament's last refresh
    (scoring/standings/kept.py; docs/live-refresh.md). Returns FULL when the base is
    missing or no longer matches the tournament (another round closed, a competitor or a
    rule changed).
    """
    base = base_read(tournament.pk)
    if base is None:
        return FULL
    kept = kept_for(tournament.pk, base.token)
    loaded = load(tournament, from_round=base.through_round + 1, last_tables=kept.tables)
    if not loaded.statuses or closed_through(loaded.statuses) != base.through_round:
        return FULL
    competitors = loaded.competitors
    head = head_digest(kept, config_digest, competitors, partial(_head_digest, config_digest, competitors))
    if head != base.head:
        return FULL
    in_play = loaded.works.get(loaded.rounds[-1]) if loaded.rounds else None
    if in_play is not None and in_play.tables is not None:
        kept.tables = in_play.tables
    digests = _chain(base.prefix, loaded)
    live_round = max(loaded.statuses)
    wanted: list[tuple[int | None, str]] = [(number, digests[number]) for number in loaded.rounds]
    if not wanted:
        wanted = [(base.through_round, base.prefix)]
    writes = _writes(_stored(tournament), wanted, live_round, force=False)
    if not writes:
        return None
    stored = stored_totals(kept, partial(base_records, tournament.pk))
    competitor_ids = [str(competitor[0]) for competitor in competitors]
    rows_by_round: dict[int | None, list[dict[str, Any]]] = {}
    texts: dict[int | None, str] = {}
    for after_round, _ in writes:
        assert after_round is not None
        added: dict[str, tuple[PartieResult, ...]] = {}
        for number in loaded.rounds:
            if base.through_round < number <= after_round:
                for partie in loaded.round_parties(number):
                    added[partie.competitor] = (*added.get(partie.competitor, ()), partie)
        # What the last hand's refresh kept serves the live ranking; a round's own
        # ranking, rewritten after a correction, is summed afresh.
        live = after_round == live_round
        if live:
            records = summed_records(kept, stored, competitor_ids, added)
        else:
            records = summed_records(KeptTournament(base.token), stored, competitor_ids, added)
        work = loaded.works.get(after_round)
        if work is None:
            # No round read: the ranking through the base's round, from the stored totals.
            # Its current parties are its last round's (read again, one round).
            work = load(tournament, from_round=after_round).works.get(after_round)
        parties_state = work.parties_state if work is not None else {}
        rows_by_round[after_round] = ranked_rows(
            records, competitors, criteria, match_points, parties_state, kept if live else None
        )
        if live:
            texts[after_round] = kept.text
    return _write(tournament, writes, rows_by_round, criteria, texts)


def full_rebuild(
    tournament: Tournament, criteria: list[str], match_points: dict[str, Any], config_digest: str, *, force: bool
) -> StandingsSnapshot | None:
    """Every round read and ranked again: the check and repair path. Stores the closed rounds' totals."""
    generation = base_generation(tournament.pk)
    loaded = load(tournament)
    head = _head_digest(config_digest, loaded.competitors)
    digests = _chain(head, loaded)
    stored = _stored(tournament)
    live_round = loaded.rounds[-1] if loaded.rounds else None
    wanted: list[tuple[int | None, str]] = [(number, digests[number]) for number in loaded.rounds]
    if live_round is None:
        wanted = [(None, config_digest)]
    through = closed_through(loaded.statuses)
    base_results = [partie for number in loaded.rounds if number <= through for partie in loaded.round_parties(number)]
    base_store(
        tournament_id=tournament.pk,
        generation=generation,
        through_round=through,
        head=head,
        prefix=digests[through] if through else head,
        records=records_of(base_results, [str(c[0]) for c in loaded.competitors]),
    )
    writes = _writes(stored, wanted, live_round, force=force)
    if not writes:
        return None
    rows_by_round = {
        after_round: rank_rows(loaded, after_round, criteria, match_points) for after_round, _digest_ in writes
    }
    return _write(tournament, writes, rows_by_round, criteria)


def _write(
    tournament: Tournament,
    writes: Sequence[tuple[int | None, str]],
    rows_by_round: Mapping[int | None, list[dict[str, Any]]],
    criteria: list[str],
    texts: Mapping[int | None, str] | None = None,
) -> StandingsSnapshot:
    """Store the snapshots of `writes` as new versions; `texts` holds the JSON text of
    some rounds' rows when the caller has it (the live ranking's, `KeptTournament.text`)."""
    newest = (
        StandingsSnapshot.objects.filter(tournament=tournament)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
        or 0
    )
    snapshots = [
        StandingsSnapshot(
            tournament=tournament,
            version=newest + offset,
            after_round=after_round,
            rows=rows_by_round[after_round],
            criteria=criteria,
            digest=digest,
        )
        for offset, (after_round, digest) in enumerate(writes, start=1)
    ]
    for snapshot in snapshots:
        # One INSERT each, not bulk_create: on PostgreSQL that passes the rows as a text
        # array, whose elements psycopg escapes quote by quote in Python (~0.1 s a ranking).
        _insert(snapshot, (texts or {}).get(snapshot.after_round))
    announce(tournament, snapshots[-1].version)
    snapshots_written.send(sender=StandingsSnapshot, tournament=tournament, snapshots=snapshots)
    if len(snapshots) > 1 or snapshots[-1].version % PRUNE_EVERY == 0:
        _prune(tournament)
    return snapshots[-1]


INSERT_SQL = """
    INSERT INTO {table} (tournament_id, version, after_round, rows, criteria, digest, built_at)
    VALUES (%s, %s, %s, %s, %s::jsonb, %s, %s)
    RETURNING id
"""


class _BoundCursor(psycopg.Cursor[Any]):
    """A cursor sending its parameters apart from the statement, never prepared (a pooler
    in transaction mode would lose a prepared statement)."""

    def execute(
        self, query: Any, params: Any = None, *, prepare: bool | None = None, binary: bool | None = None
    ) -> Any:
        return super().execute(query, params, prepare=False, binary=binary)


def _insert(snapshot: StandingsSnapshot, text: str | None = None) -> None:
    """Store a new snapshot: what `save(force_insert=True)` does, on PostgreSQL with its
    rows sent as a parameter apart from the statement (`text`, their JSON, when given).

    Django's cursors bind parameters into the statement's text, which the server then
    reads through: ~5 ms for the 850 KB of a ranking of 3,000 teams, after every hand.
    """
    if connection.vendor != "postgresql":
        snapshot.save(force_insert=True)
        return
    snapshot.built_at = timezone.now()  # as `auto_now_add` sets it
    connection.ensure_connection()
    # Wrapped as Django wraps its own cursors: logged with the queries, seen by the execute wrappers.
    wrap: Callable[[Any], Any] = connection.make_debug_cursor if connection.queries_logged else connection.make_cursor
    with wrap(_BoundCursor(connection.connection)) as cursor:
        cursor.execute(
            INSERT_SQL.format(table=StandingsSnapshot._meta.db_table),
            [
                snapshot.tournament_id,
                snapshot.version,
                snapshot.after_round,
                fastjson.dumps(snapshot.rows) if text is None else text,
                json.dumps(snapshot.criteria),
                snapshot.digest,
                snapshot.built_at,
            ],
        )
        snapshot.pk = cursor.fetchone()[0]
    snapshot._state.adding = False
    snapshot._state.db = connection.alias


def announce(tournament: Tournament, version: int) -> None:
    """Tell the readers of this process, once committed, that a new live version exists."""
    tournament_id, slug = tournament.pk, tournament.slug

    def written() -> None:
        live_ranking.written_here(tournament_id=tournament_id, slug=slug, version=version)
        # The public ranking's files follow (scoring/live_files.py), at their own pace.
        enqueue(LIVE_FILES_PUBLISH, tournament_id=tournament_id)

    transaction.on_commit(written)


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
