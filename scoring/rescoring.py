"""Re-scoring many tables at once: hands read in bulk, scored by the engine, written in bulk.

The reading of a partie is scoring.partie's (which hands count, how a score is stored,
the table result), as the referees' services apply it one table at a time; a job
re-scoring a whole tournament (scoring/jobs.py) needs the bulk version of it: one query
reads all its hands (through a server-side cursor, in batches), one statement per batch of
about 10,000 hands writes the changed ones and a revision per table, and scoring.partie
writes the table results.

Terms (table work: `TableWork`, table outcome: `TableOutcome`, fingerprint):
docs/glossary.md. Every service that changes a hand raises its version, so the
fingerprint moves with it.

On PostgreSQL the comparison of new and stored scores happens in the database: the new
fields of every hand go in as one JSON document, and one statement updates the hands whose score or
options differ and writes one `rescore` revision per table with the old and new values
(a data-modifying CTE), so no stored score travels to Python and back (measured: doing
the comparison here instead made a re-scoring slower). Elsewhere (SQLite)
the comparison is done here and the ORM writes.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from engine.core import RuleError
from engine.match import End, end_at_table, play
from kit import fastjson
from scoring import partie
from scoring.messages import rule_error_text
from scoring.models import Hand, HandRevision
from scoring.partie import SCORE_FIELDS, ResultFields, ScoreFields
from scoring.pg import server_bound_cursor
from tournaments.models import Round, Seat, Table, Tournament

Fingerprint = tuple[int, int, int]


@dataclass(slots=True)
class StoredHand:
    """A hand as read for re-scoring; `stored` (its score fields and options) off PostgreSQL only."""

    id: int
    number: int
    raw: Any
    status: str
    version: int
    stored: dict[str, Any] | None = None


@dataclass(slots=True)
class TableWork:
    table_id: int
    round_number: int
    table_number: int
    # Competitors seated: a tarot table plays the tarot of its size (scoring.partie).
    seats: int
    hands: list[StoredHand] = field(default_factory=list)

    def fingerprint(self) -> Fingerprint:
        return (
            len(self.hands),
            sum(hand.id for hand in self.hands),
            sum(hand.version for hand in self.hands),
        )


@dataclass(slots=True)
class TableOutcome:
    """A table scored again: each hand with its new score fields, the table's new result."""

    work: TableWork
    scored: list[tuple[StoredHand, ScoreFields]]
    result: ResultFields | None
    errors: list[str]


HANDS_SQL = """
    SELECT h.id, h.table_id, h.number, CAST(h.raw AS TEXT), h.status, h.version, t.number, r.number,
           (SELECT COUNT(*) FROM {seat} s WHERE s.table_id = t.id)
      FROM {hand} h
      JOIN {table} t ON t.id = h.table_id
      JOIN {round} r ON r.id = t.round_id
     WHERE r.tournament_id = %s {only}
     ORDER BY h.table_id, h.number
"""
FINGERPRINTS_SQL = """
    SELECT h.table_id, COUNT(*), SUM(h.id), SUM(h.version)
      FROM {hand} h
      JOIN {table} t ON t.id = h.table_id
      JOIN {round} r ON r.id = t.round_id
     WHERE r.tournament_id = %s
     GROUP BY h.table_id
"""


def _sql(template: str, only: str = "") -> str:
    return template.format(
        hand=Hand._meta.db_table,
        table=Table._meta.db_table,
        round=Round._meta.db_table,
        seat=Seat._meta.db_table,
        only=only,
    )


def tune_transaction() -> None:
    """Settings for the bulk statements of the current transaction (PostgreSQL only).

    The planner's row estimates for arrays passed as parameters are far off, which
    makes it compile the statements with JIT (~100 ms, more than running them) and
    sort in temporary files; both are turned off for this transaction only.
    """
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL jit = off")
            cursor.execute("SET LOCAL work_mem = '64MB'")


# Rows fetched at a time from the server-side cursor of `load_tables`.
READ_BATCH = 5000
# Hands per statement of `write_hands` (whole tables): each statement's JSON document,
# sort and revision aggregation stay the same size whatever the tournament's.
WRITE_BATCH = 10000


def load_tables(tournament_id: int, table_ids: Iterable[int] | None = None) -> list[TableWork]:
    """The tournament's tables that have hands, each with its hands in donne order: one query.

    Plain SQL, the raw entries decoded once here: this is the read of a 10,000-hand
    re-scoring, and the ORM's per-row work would cost more than the scoring itself. On
    PostgreSQL the rows come through a server-side cursor, `READ_BATCH` at a time, so a
    tournament of 100,000 hands is never held twice (rows and decoded entries) at once.
    """
    params: list[Any] = [tournament_id]
    only = ""
    if table_ids is not None:
        ids = list(table_ids)
        only = "AND h.table_id IN (" + ", ".join(["%s"] * len(ids)) + ")" if ids else "AND FALSE"
        params += ids
    work: dict[int, TableWork] = {}
    with transaction.atomic():
        tune_transaction()
        # A named cursor on PostgreSQL (Django's chunked cursor), a plain one elsewhere.
        with connection.chunked_cursor() as cursor:
            cursor.execute(_sql(HANDS_SQL, only), params)
            while rows := cursor.fetchmany(READ_BATCH):
                for pk, table_id, number, raw, status, version, table_number, round_number, seats in rows:
                    table = work.get(table_id)
                    if table is None:
                        table = work[table_id] = TableWork(table_id, round_number, table_number, seats)
                    table.hands.append(StoredHand(pk, number, fastjson.loads(raw), status, version))
    if connection.vendor != "postgresql":
        _attach_stored(work)
    return list(work.values())


def _attach_stored(work: dict[int, TableWork]) -> None:
    """Off PostgreSQL, the comparison is made here: read what each hand stores now."""
    by_id = {hand.id: hand for table in work.values() for hand in table.hands}
    columns = ("pk", *SCORE_FIELDS, "options")
    for pk, *values in Hand.objects.filter(pk__in=list(by_id)).values_list(*columns).iterator(chunk_size=2000):
        by_id[pk].stored = dict(zip((*SCORE_FIELDS, "options"), values, strict=True))


def fingerprints(tournament_id: int) -> dict[int, Fingerprint]:
    """Every table's fingerprint as the database has it now (one grouped query)."""
    with connection.cursor() as cursor:
        cursor.execute(_sql(FINGERPRINTS_SQL), [tournament_id])
        return {table_id: (int(count), int(ids), int(versions)) for table_id, count, ids, versions in cursor.fetchall()}


class TableScorer:
    """Scores tables' hands with the tournament's game (a tarot table: the tarot of its size),
    end and set of options (the engine's partie).

    As scoring.partie reads a partie: every hand is scored in donne order through the
    whole partie (pending hands too, so that their carry is right); the table result
    counts the confirmed prefix when the tournament asks the other side to confirm.
    """

    def __init__(self, tournament: Tournament, end: End, options: Mapping[str, Any], confirmation: bool) -> None:
        self.tournament, self.end, self.options, self.confirmation = tournament, end, dict(options), confirmation

    @classmethod
    def of(cls, tournament: Tournament, options: Mapping[str, Any]) -> TableScorer:
        """A scorer of the tournament's parties with `options` (resolved)."""
        return cls(tournament, partie.tournament_end(tournament), options, tournament.confirmation_required)

    def score(self, work: TableWork) -> TableOutcome:
        if not work.hands:
            return TableOutcome(work, [], None, [])
        # The table's game by its seats; a table with a mort plays a longer partie.
        game = partie.game_for_seats(self.tournament, work.seats)
        end = end_at_table(game, self.end)
        result = play(game, [hand.raw for hand in work.hands], end, self.options)
        if result.errors:
            return TableOutcome(work, [], None, [self._describe(work, error) for error in result.errors])
        scored = list(zip(work.hands, partie.scored_fields(result), strict=True))
        counted = partie.counted_result(result, self.confirmation, (hand.status for hand in work.hands))
        return TableOutcome(work, scored, partie.result_fields(game, counted), [])

    def _describe(self, work: TableWork, error: RuleError) -> str:
        parts = error.field.split(".")
        number = int(parts[1]) + 1 if len(parts) > 1 and parts[1].isdigit() else 0
        return f"R{work.round_number} T{work.table_number} #{number}: {rule_error_text(error)}"


# -- writing ---------------------------------------------------------------------------

# Stored in English like the services' reasons; the history page translates it.
REVISION_REASON = gettext_noop("Re-scored with the tournament's rule options")

PG_WRITE_HANDS = """
    WITH v AS (
        SELECT * FROM jsonb_to_recordset(%(rows)s::jsonb)
                 AS v(id bigint, scores jsonb, outcome text, reserve_in int, reserve_out int, extra jsonb)
    ),
    changed AS (
        -- `o` is the same row as read before this statement: its old values, returned.
        UPDATE {hand} h
           SET scores = v.scores, outcome = v.outcome, reserve_in = v.reserve_in,
               reserve_out = v.reserve_out, extra = v.extra, options = %(options)s::jsonb,
               version = h.version + 1, updated_at = %(now)s
          FROM v JOIN {hand} o ON o.id = v.id
         WHERE h.id = v.id
           AND (o.scores IS DISTINCT FROM v.scores OR o.outcome IS DISTINCT FROM v.outcome
                OR o.reserve_in <> v.reserve_in OR o.reserve_out <> v.reserve_out
                OR o.extra IS DISTINCT FROM v.extra OR o.options IS DISTINCT FROM %(options)s::jsonb)
     RETURNING h.table_id, h.number, o.options AS old_options,
               o.scores AS old_scores, o.outcome AS old_outcome, o.reserve_in AS old_in, o.reserve_out AS old_out,
               v.scores, v.outcome, v.reserve_in, v.reserve_out
    ),
    revision AS (
        -- json, not jsonb, to build (several times faster), stored as jsonb.
        INSERT INTO {revision} (table_id, hand_id, number, action, before, after, reason, author_id, author_label, at)
        SELECT table_id, NULL, 0, 'rescore',
               json_build_object(
                   'options', (array_agg(old_options ORDER BY number))[1],
                   'donnes', json_agg(json_build_object(
                       'number', number, 'scores', old_scores, 'outcome', old_outcome,
                       'reserve_in', old_in, 'reserve_out', old_out) ORDER BY number))::jsonb,
               json_build_object(
                   'options', %(options)s::jsonb,
                   'donnes', json_agg(json_build_object(
                       'number', number, 'scores', scores, 'outcome', outcome,
                       'reserve_in', reserve_in, 'reserve_out', reserve_out) ORDER BY number))::jsonb,
               %(reason)s, %(author)s, %(label)s, %(now)s
          FROM changed
         GROUP BY table_id
        RETURNING 1
    )
    SELECT (SELECT COUNT(*) FROM changed), (SELECT COUNT(*) FROM revision)
"""


def write_hands(
    outcomes: Sequence[TableOutcome], options: Mapping[str, Any], *, author_id: int | None, label: str
) -> int:
    """Store the new scores of the hands whose score or options changed; returns how many.

    Each changed hand gets version + 1, and each table with changed hands one `rescore`
    revision (see `table_revision_sides`): a re-scoring is one change of the whole
    table, and ten thousand revisions of one donne each were half of its cost.
    """
    scored = [(hand, fields) for outcome in outcomes for hand, fields in outcome.scored]
    if not scored:
        return 0
    now = timezone.now()
    if connection.vendor == "postgresql":
        return sum(_write_hands_pg(batch, options, now, author_id, label) for batch in _batches(outcomes))
    tables = {hand.id: outcome.work.table_id for outcome in outcomes for hand, _fields in outcome.scored}
    return _write_hands_portable(scored, tables, dict(options), now, author_id, label)


def _batches(outcomes: Sequence[TableOutcome]) -> Iterable[list[tuple[StoredHand, ScoreFields]]]:
    """The scored hands in batches of whole tables, about `WRITE_BATCH` hands each.

    A table's hands stay in one batch: its `rescore` revision is one row.
    """
    batch: list[tuple[StoredHand, ScoreFields]] = []
    for outcome in outcomes:
        batch.extend(outcome.scored)
        if len(batch) >= WRITE_BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _write_hands_pg(
    batch: list[tuple[StoredHand, ScoreFields]],
    options: Mapping[str, Any],
    now: datetime.datetime,
    author_id: int | None,
    label: str,
) -> int:
    """One set-based statement for a batch: the changed hands updated, a revision per table."""
    params = {
        # One JSON document, sent as a bound parameter: the rows reach PostgreSQL
        # with one parse instead of ten thousand escaped array elements.
        "rows": fastjson.dumps([{"id": hand.id, **fields} for hand, fields in batch]),
        "options": fastjson.dumps(dict(options)),
        "now": now,
        "reason": REVISION_REASON,
        "author": author_id,
        "label": label,
    }
    sql = PG_WRITE_HANDS.format(hand=Hand._meta.db_table, revision=HandRevision._meta.db_table)
    with server_bound_cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.fetchone()[0])


def _write_hands_portable(
    scored: list[tuple[StoredHand, ScoreFields]],
    tables: dict[int, int],
    options: dict[str, Any],
    now: datetime.datetime,
    author_id: int | None,
    label: str,
) -> int:
    changed = []
    for hand, fields in scored:
        stored = hand.stored or {}
        if {name: stored.get(name) for name in SCORE_FIELDS} != fields or stored.get("options") != options:
            changed.append((hand, fields, stored))
    Hand.objects.bulk_update(
        [Hand(pk=h.id, options=options, version=h.version + 1, updated_at=now, **f) for h, f, _s in changed],
        [*SCORE_FIELDS, "options", "version", "updated_at"],
        batch_size=500,
    )
    by_table: dict[int, list[tuple[StoredHand, ScoreFields, dict[str, Any]]]] = {}
    for hand, fields, stored in changed:
        by_table.setdefault(tables[hand.id], []).append((hand, fields, stored))
    revisions = []
    for table_id, hands in by_table.items():
        hands.sort(key=lambda item: item[0].number)
        before, after = table_revision_sides(
            [(hand.number, stored, fields) for hand, fields, stored in hands], hands[0][2].get("options"), options
        )
        revisions.append(
            HandRevision(
                table_id=table_id,
                hand=None,
                number=0,
                action=HandRevision.Action.RESCORE,
                before=before,
                after=after,
                reason=REVISION_REASON,
                author_id=author_id,
                author_label=label,
            )
        )
    HandRevision.objects.bulk_create(revisions, batch_size=500)
    return len(changed)


def table_revision_sides(
    donnes: Sequence[tuple[int, Mapping[str, Any], Mapping[str, Any]]], options_before: Any, options_after: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The before and after of a table's `rescore` revision (number 0: the whole table).

    `donnes` are (number, stored score fields, new score fields) of its changed hands.
    Each side holds the options and, per changed donne in order, what a re-scoring
    changes (scores, outcome, reserves); the entries as typed are the hands' own.
    """

    def side(fields: Mapping[str, Any], number: int) -> dict[str, Any]:
        return {"number": number, **{name: fields.get(name) for name in SCORE_FIELDS if name != "extra"}}

    return (
        {"options": options_before, "donnes": [side(stored, number) for number, stored, _new in donnes]},
        {"options": options_after, "donnes": [side(new, number) for number, _stored, new in donnes]},
    )


def write_results(outcomes: Sequence[TableOutcome]) -> None:
    """Rewrite the table results that changed (scoring.partie writes them)."""
    partie.table_results_write({o.work.table_id: o.result for o in outcomes if o.result is not None})


def moved_tables(before: Mapping[int, TableWork], tournament_id: int) -> list[int]:
    """The tables whose hands changed since `before` was read (added, removed, rewritten)."""
    now = fingerprints(tournament_id)
    seen = {table_id: work.fingerprint() for table_id, work in before.items() if work.hands}
    return sorted(table_id for table_id in set(now) | set(seen) if now.get(table_id) != seen.get(table_id))


def group_errors(outcomes: Iterable[TableOutcome]) -> list[str]:
    return [error for outcome in outcomes for error in outcome.errors]
