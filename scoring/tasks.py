"""Celery tasks of the scoring app: thin, taking ids, each calling one service.

Every task is idempotent and safe to kill: `standings_refresh` skips a ticket already
built, and `job_run` claims its job with a conditional UPDATE and swaps its result in one
transaction (scoring/jobs.py). Transient database errors (a dropped connection, a
deadlock, a serialisation failure) are retried with backoff; anything else fails the
task, and a job then shows as failed with its error.

Both are *owed* tasks: what they are for is recorded in the database before they are
sent (a standings ticket, a queued job), so a message that never arrives loses nothing
(see `OwedTask`).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from celery.exceptions import Retry
from django.core.cache import cache
from kombu.exceptions import OperationalError as BrokerUnreachable

from kit import redis_guard
from scoring import jobs, live_draw, live_files, live_screens, standings
from scoring.enqueue import (
    JOB_RUN,
    LIVE_DRAW_PUBLISH,
    LIVE_FILES_PUBLISH,
    SCREEN_FILES_PUBLISH,
    STANDINGS_REFRESH,
    enqueue_later,
)
from scoring.views.public import publish_files, publish_files_when_due

log = logging.getLogger(__name__)
TRANSIENT = jobs.TRANSIENT


class OwedTask(Task[..., None]):
    """A task whose work is owed in the database: sending it never fails nor holds the caller.

    The callers send after their commit (a hand stored, a job queued): an error then would
    answer "failed" for what was done. So a send that fails for a passing reason (the
    broker away, restarting or frozen; with no broker, the task run here and the database
    away) is logged and dropped. Nothing is lost: the ticket or the job row is there, the
    next send covers it, and the worker's sweep sends what is still owed
    (jobs.owed_work_resend). A send gives up after kit.redis_guard's short timeout, and
    for a few seconds after one failed the sends to that broker are dropped at once.
    """

    def apply_async(self, *args: Any, **kwargs: Any) -> Any:
        broker = _broker_server(self)
        if broker is not None and redis_guard.away(broker):
            log.warning("task %s not sent now (the broker at %s is away); the sweep sends it again", self.name, broker)
            return None
        try:
            return super().apply_async(*args, **kwargs)
        except BrokerUnreachable as error:
            if broker is not None:
                redis_guard.failed(broker, error, what="broker")
            log.warning("task %s not sent now (%s); the sweep sends it again", self.name, error)
            return None
        except (Retry, *TRANSIENT) as error:
            log.warning("task %s not sent now (%s); the sweep sends it again", self.name, error)
            return None


def _broker_server(task: Task[..., Any]) -> str | None:
    """The Redis server `task` is sent to; None when it runs here (no broker) or not on Redis."""
    conf = task.app.conf
    url = str(conf.broker_url or "")
    if conf.task_always_eager or not url.startswith(("redis://", "rediss://")):
        return None
    return redis_guard.server_of(url)


# The jobs' tasks: a job is long and its claim survives a retry, so back off further.
JOB_RETRIES: dict[str, Any] = {
    "autoretry_for": TRANSIENT,
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "max_retries": 5,
    "ignore_result": True,
}


# A publication's files (the ranking's, the messages' and clock's, the draw's): a few short
# retries, the workers' sweep or the next change catching what they miss.
PUBLISH_RETRIES: dict[str, Any] = {
    "autoretry_for": TRANSIENT,
    "retry_backoff": 1,
    "retry_backoff_max": 5,
    "max_retries": 3,
    "ignore_result": True,
}


@shared_task(
    base=OwedTask,
    name=STANDINGS_REFRESH,
    autoretry_for=TRANSIENT,
    # A factor of whole seconds: Celery rounds any smaller one up to 1 (it once said 0.5).
    retry_backoff=1,
    retry_backoff_max=10,
    max_retries=5,
    ignore_result=True,
)
def standings_refresh(*, tournament_id: int, ticket: int = 0) -> None:
    """Bring a tournament's live ranking up to date with everything stored so far."""
    standings.standings_refresh(tournament_id=tournament_id, ticket=ticket)


@shared_task(base=OwedTask, name=LIVE_FILES_PUBLISH, **PUBLISH_RETRIES)
def live_files_publish(*, tournament_id: int, due: int = 0) -> None:
    """Publish a tournament's newest ranking as files (scoring/live_files.py).

    Sent after each new version: published at once when the last publication is
    RANKING_PUBLISH_SECONDS old, else once, that much after it (`due`: the publication
    sent for later; one at a time, behind a marker in the shared cache). Owed: a send
    lost leaves the files one version behind until the next hand or the next page load
    (scoring.views.public.live_file_text publishes what is due).
    """
    marker = f"live-files-due:{tournament_id}"
    if due:
        cache.delete(marker)
        publish_files(tournament_id)
        return
    wait = publish_files_when_due(tournament_id)
    if wait > 0 and cache.add(marker, 1, timeout=int(wait) + 5):
        enqueue_later(LIVE_FILES_PUBLISH, wait, tournament_id=tournament_id, due=1)


@shared_task(base=OwedTask, name=SCREEN_FILES_PUBLISH, **PUBLISH_RETRIES)
def screen_files_publish(*, tournament_id: int, screen: int = 1, clock: int = 0) -> None:
    """Publish a tournament's strip of messages (`screen`) and its clock (`clock`) as files
    (scoring/live_screens.py): sent for the moment a message leaves, or a little later
    when the tournament's lock was held. A send lost is caught by the workers' sweep for
    an expiry (live_screens.expired_publish), by the next change or page load otherwise."""
    kinds = [kind for kind, wanted in ((live_screens.SCREEN, screen), (live_screens.CLOCK, clock)) if wanted]
    for kind in kinds:
        live_screens.publish(tournament_id, kind)


@shared_task(base=OwedTask, name=LIVE_DRAW_PUBLISH, **PUBLISH_RETRIES)
def live_draw_publish(*, tournament_id: int) -> None:
    """Publish a tournament's draws as files (scoring/live_draw.py), sent once a change of
    its tables, seats, byes or names has committed. Only the files a page asked for are
    drawn, and an unchanged one is left as it is: a send for nothing costs a rendering.
    A send lost leaves the screens on the draw as it was until the next change; a page
    loaded meanwhile shows the file as it stands."""
    try:
        live_draw.publish_draw(tournament_id)
    except live_files.LockTimeout:
        log.warning("draw files of tournament %s not published: their lock is held", tournament_id)


@shared_task(base=OwedTask, name=JOB_RUN, **JOB_RETRIES)
def job_run(*, job_id: int) -> None:
    """Run a re-scoring or rebuild job (claimed first: at most one worker runs it).

    A job of another kind is left alone: its app runs it under a task of its own (a
    season's: `seasons.job_run`), and the sweep sends a message it lost there.
    """
    jobs.job_run(job_id=job_id)
