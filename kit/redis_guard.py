"""Calls to Redis on a request's path: a short timeout, and a pause after a failure.

Nothing a request answers depends on Redis: the cache (atout.cache) holds only what can be
rebuilt or lost, and a Celery message only carries work already recorded in PostgreSQL,
which the workers' sweep sends again when the message is lost (scoring.tasks.OwedTask).
So a request never waits on Redis; two things see to it:

- **A timeout.** Every connection to Redis gives up after `TIMEOUT` seconds, to connect and
  for each answer (the settings give it to the cache and to the broker). A Redis that is
  frozen (a stopped process, a stalled machine) keeps its connections open, and the
  kernel still accepts new ones, but nothing answers: without a timeout a call waits for
  ever, and gunicorn kills the worker.
- **A pause.** Once a call to a server has failed (refused, reset, timed out), this
  process skips every call to that server for `PAUSE` seconds: the callers take their
  fallback at once (a cache miss, a message left to the sweep) instead of each waiting out
  a timeout of its own, and a request that would call Redis several times waits once.
  After the pause the next call tries again. A *server* is a host and port: the broker and
  the cache usually live in two databases of one Redis, and a frozen Redis freezes both.

The state is per process (each gunicorn worker, each Celery worker finds out for itself)
and shared by its threads.
"""

from __future__ import annotations

import logging
import threading
import time
from urllib.parse import urlsplit

log = logging.getLogger(__name__)

# Seconds to connect to Redis, and to wait for each answer, before counting it away.
TIMEOUT = 1.0
# Seconds during which calls to a server that just failed are skipped.
PAUSE = 5.0

_away_until: dict[str, float] = {}
_lock = threading.Lock()


def server_of(url: str) -> str:
    """The server a Redis URL names (`host:port`), whatever its database and credentials."""
    parts = urlsplit(url)
    return f"{parts.hostname or '127.0.0.1'}:{parts.port or 6379}"


def away(server: str) -> bool:
    """Is `server` within its pause after a failed call (skip the call, take the fallback)?"""
    until = _away_until.get(server)
    return until is not None and time.monotonic() < until


def failed(server: str, error: BaseException, *, what: str) -> None:
    """A call to `server` (for `what`: "cache", "broker") failed: skip its calls for PAUSE seconds."""
    with _lock:
        was_away = away(server)
        _away_until[server] = time.monotonic() + PAUSE
    if not was_away:
        log.warning(
            "redis at %s did not answer the %s (%s); calls to it are skipped for %ss",
            server, what, error or type(error).__name__, PAUSE,
        )  # fmt: skip


def forget() -> None:
    """Forget every failure (the tests, between two servers on one port)."""
    with _lock:
        _away_until.clear()
