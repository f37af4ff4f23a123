"""What /healthz checks: the database, and the Celery broker when one is configured."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import connection


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

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # kombu raises many kinds; all of them mean "unreachable"
        return Check("broker", False, f"{type(exc).__name__}: {exc}".strip()[:200])
    return Check("broker", True, "reachable")


def run_checks() -> list[Check]:
    return [check for check in (check_database(), check_broker()) if check is not None]
