"""The Celery application, configured from Django's settings (the CELERY_ prefix)."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "atout.settings")

app = Celery("atout")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def forget_broker_pools(celery_app: Celery = app) -> None:
    """Close every broker pool and make the app open new ones on its next send.

    Celery caches its connection pool (`app._pool`) and its producer pool
    (`app.amqp._producer_pool`, drawn from kombu's registry); closing one without
    dropping both leaves every later send, eager ones included, on a closed pool
    ("Acquire on closed pool"). For whoever points the app at another broker in a
    running process: the tests, the benchmarks.
    """
    from kombu import pools

    pools.reset()
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@signals.task_prerun.connect
@signals.task_postrun.connect
def _database_connections_checked(sender: Any = None, **_kwargs: Any) -> None:
    """Around each task, as Django does around each request: drop a connection that broke or
    outlived CONN_MAX_AGE, keep the others (see CELERY_DB_REUSE_MAX in the settings)."""
    if sender is not None and getattr(sender.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
