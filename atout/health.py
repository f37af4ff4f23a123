"""What /healthz checks: the database, and the Celery broker when one is configured."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import connection

from kit import redis_guard


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


def check_database() -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"; say which
        return Check("database", False, f"{type(exc).__name__}: {exc}".strip()[:200])
    return Check("database", True, connection.vendor)


def check_broker() -> Check | None:
    url = settings.CELERY_BROKER_URL
    if not url or url == settings.EMBEDDED_BROKER_URL:
        return None
    from atout.celery import app

    # What the requests see: a broker that failed a moment ago is skipped, without a call.
    server = redis_guard.server_of(url) if url.startswith(("redis://", "rediss://")) else None
    if server is not None and redis_guard.away(server):
        return Check("broker", False, f"did not answer a moment ago; tried again within {redis_guard.PAUSE:g} s")
    try:
        with app.connection_for_write() as conn:
            # One try, within the broker's timeouts (settings): a probe never hangs.
            conn.ensure_connection(max_retries=0)
    except Exception as exc:  # kombu raises many kinds; all of them mean "unreachable"
        if server is not None:
            redis_guard.failed(server, exc, what="health check")
        return Check("broker", False, f"{type(exc).__name__}: {exc}".strip()[:200])
    return Check("broker", True, "reachable")


def run_checks() -> list[Check]:
    return [check for check in (check_database(), check_broker()) if check is not None]
