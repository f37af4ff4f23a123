"""The Celery application, configured from Django's settings (the CELERY_ prefix).

Each worker also runs the *sweep*, a thread that sends again now and then what lost
messages left undone (scoring.jobs.owed_work_resend, seasons.ranking.season_jobs_resend,
ratings.services.ratings_owed_resend): a broker restarted empty, or away while the site
sent, loses messages, never the work they stood for. It also deletes the notification
subscriptions a finished tournament's lost final message left (push.services), and publishes
the public rankings' files left behind, the strips of messages past a message's expiry and
the running draws' files behind their draw (scoring.views.public.files_behind_publish,
scoring.live_screens.expired_publish, scoring.live_draw.running_draws_publish). Each app
sends its own tasks: the roof, which may import every app, asks each in turn.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from celery import Celery, signals
from celery.worker.consumer import Consumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "atout.settings")

log = logging.getLogger(__name__)
# Seconds between two sweeps of a worker (shorter in the fault tests).
SWEEP_EVERY = float(os.environ.get("ATOUT_SWEEP_SECONDS") or 30)

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
    # Private attributes, which the stubs do not list.
    celery_app._pool = None  # type: ignore[attr-defined]
    celery_app.amqp._producer_pool = None  # type: ignore[attr-defined]


class BrokerLossConsumer(Consumer):
    """The worker's consumer (CELERY_WORKER_CONSUMER), which outlives a broker dropped while
    a message is unacknowledged.

    Celery 5.7.0, on a connection lost, first collects the connection (which detaches its
    transport from it) and then closes it. When the collect could not close the channel
    (Redis went away while the consumer waited on BRPOP) and a message is still
    unacknowledged (CELERY_TASK_ACKS_LATE: every task running or reserved), that close tries
    to give the message back to Redis through the detached transport and raises
    AttributeError ("'NoneType' object has no attribute 'hostname'"), which is not a
    connection error: the consumer dies and the worker with it ("Unrecoverable error"), on
    every node whose Redis restarts mid-task. Here that error ends the old connection's
    cleanup and the consumer reconnects as it does after any other loss. The message is
    not given back: Redis gives an unacknowledged message back after its visibility timeout
    when it still holds it, and the work it stood for is owed in the database anyway
    (scoring.tasks.OwedTask, the sweep above). Tests: tests/production/test_worker_broker_restart.py
    (a worker holding a message, Redis restarted empty) and test_two_nodes.py.
    """

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        try:
            super().on_connection_error_after_connected(exc)
        except AttributeError:
            log.warning("the broker's lost connection could not be closed cleanly; reconnecting", exc_info=True)
            self.connection = None


@signals.task_prerun.connect
@signals.task_postrun.connect
def _database_connections_checked(sender: Any = None, **_kwargs: Any) -> None:
    """Around each task, as Django does around each request: drop a connection that broke or
    outlived CONN_MAX_AGE, keep the others (see CELERY_DB_REUSE_MAX in the settings)."""
    if sender is not None and getattr(sender.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()


@signals.worker_ready.connect
def _sweep_started(sender: Any = None, **_kwargs: Any) -> None:
    threading.Thread(target=_sweep_forever, name="atout-sweep", daemon=True).start()


def _sweep_forever() -> None:
    """Every SWEEP_EVERY seconds, whatever the broker and the database are doing meanwhile."""
    from django.db import close_old_connections

    from push.services import finished_subscriptions_drop
    from ratings.services import ratings_owed_resend
    from scoring.jobs import owed_work_resend
    from scoring.live_draw import running_draws_publish
    from scoring.live_screens import expired_publish
    from scoring.views.public import files_behind_publish
    from seasons.ranking import season_jobs_resend

    while True:
        time.sleep(SWEEP_EVERY)
        try:
            # This thread's connection, checked as around a task (it may have broken).
            close_old_connections()
            retried, refreshed = owed_work_resend()
            retried += season_jobs_resend()
            if ratings_owed_resend():
                log.info("sweep: the players' ratings owe a rebuild; sent")
            published = files_behind_publish()
            if published:
                log.info("sweep: %s public ranking(s) published again (their files were behind)", published)
            expired = expired_publish()
            if expired:
                log.info("sweep: %s strip(s) of messages published again (a message's time was up)", expired)
            redrawn = running_draws_publish()
            if redrawn:
                log.info("sweep: %s public draw(s) published again (their files were behind)", redrawn)
            dropped = finished_subscriptions_drop()
            if dropped:
                log.info("sweep: %s notification subscription(s) of finished tournaments deleted", dropped)
        except Exception:  # the sweep must outlive any one failure
            log.warning("sweep failed; trying again in %ss", SWEEP_EVERY, exc_info=True)
            continue
        if retried or refreshed:
            # "asked": with the broker away a send is dropped (scoring.tasks.OwedTask), and the
            # next sweep asks again while the tickets still outrun what was built.
            log.info("sweep: %s job(s) queued again, %s standings refresh(es) asked again", retried, refreshed)
