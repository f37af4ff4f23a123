"""One writer of a tournament's standings at a time: a PostgreSQL advisory lock."""

from __future__ import annotations

from django.db import connection

# Namespace of the advisory lock (the second key is the tournament id).
LOCK_NAMESPACE = 0x5354  # "ST"


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
