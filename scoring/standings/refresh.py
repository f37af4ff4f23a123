"""Refreshing a tournament's live ranking: tickets, the refresh task's work, rebuilds.

The ticket is StandingsRefresh.requested. One refresh at a time per tournament (the lock
of scoring/standings/locking.py), so 150 referees storing hands together cost a handful
of rebuilds. Terms (ticket, snapshot): docs/glossary.md.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from kit.gcpause import gc_paused
from scoring.enqueue import STANDINGS_REFRESH, enqueue
from scoring.models import StandingsRefresh, StandingsSnapshot
from scoring.standings.locking import standings_lock
from scoring.standings.snapshots import rebuild_locked
from tournaments.models import Tournament

# A refresh that keeps finding new tickets gives the worker back after this many rounds:
# the last ticket's own task will do the rest.
REFRESH_ROUNDS = 5


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
