"""The one way push/ queues its Celery tasks: by name (as scoring/enqueue.py does).

Sending a notification never runs on a request's path. With a broker, the task goes to a
worker (at `eta` for the clock's warning). With none (`./run`'s embedded default, venue
mode's `--embedded`), Celery would run it here and now, inside the request: so it runs in
a thread of its own instead, at `eta` (a `threading.Timer`), and the request goes on. A
send that fails (the broker away) is logged and dropped: a notification is worth only
its moment, and the pages keep updating by themselves.
"""

from __future__ import annotations

import datetime
import logging
import threading
from typing import Any

from celery import current_app, signature
from django.db import connection
from django.utils import timezone

from kit import redis_guard

log = logging.getLogger(__name__)

ROUND_DRAWN = "push.round_drawn"
CLOCK_WARNING = "push.clock_warning"
TOURNAMENT_FINISHED = "push.tournament_finished"
DELIVER = "push.deliver"


def _run_here(name: str, kwargs: dict[str, Any]) -> None:
    try:
        signature(name, kwargs=kwargs).apply()
    except Exception:
        log.exception("push: task %s failed", name)
    finally:
        # The thread's own database connection: closed with it.
        connection.close()


def enqueue(name: str, *, eta: datetime.datetime | None = None, **kwargs: Any) -> None:
    """Queue the task `name` (off the request's path, see the module docstring)."""
    if current_app.conf.task_always_eager:
        delay = max(0.0, (eta - timezone.now()).total_seconds()) if eta is not None else 0.0
        timer = threading.Timer(delay, _run_here, args=(name, kwargs))
        timer.daemon = True
        timer.name = f"atout-{name}"
        timer.start()
        return
    url = str(current_app.conf.broker_url or "")
    broker = redis_guard.server_of(url) if url.startswith(("redis://", "rediss://")) else None
    if broker is not None and redis_guard.away(broker):
        log.warning("push: task %s not sent (the broker at %s is away): its notifications are dropped", name, broker)
        return
    try:
        signature(name, kwargs=kwargs).apply_async(eta=eta)
    except Exception as error:
        if broker is not None:
            redis_guard.failed(broker, error, what="broker")
        log.warning("push: task %s not sent (%s): its notifications are dropped", name, type(error).__name__)
