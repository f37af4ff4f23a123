"""The one way scoring's services queue a Celery task: by the task's name.

The tasks (`scoring.tasks`) call the services; a service that imported them back to queue
one would close an import cycle. So the services ask here, by name, and never import
`scoring.tasks`. The names are the ones the tasks register under; `ScoringConfig.ready`
imports the tasks, so that in this process a name finds its task, with its options: with
no broker (the embedded default) the task runs here and now, as `task.delay()` would.

`enqueue` sends at once; `enqueue_on_commit` sends once the transaction in progress
commits (at once outside one), so that a worker never looks for a row not committed yet.
"""

from __future__ import annotations

from celery import signature
from django.db import transaction

JOB_RUN = "scoring.job_run"
STANDINGS_REFRESH = "scoring.standings_refresh"
LIVE_FILES_PUBLISH = "scoring.live_files_publish"
SCREEN_FILES_PUBLISH = "scoring.screen_files_publish"
LIVE_DRAW_PUBLISH = "scoring.live_draw_publish"


def enqueue(name: str, **kwargs: int) -> None:
    """Queue the task registered as `name` with these keyword arguments (ids, all of them)."""
    signature(name, kwargs=kwargs).delay()


def enqueue_later(name: str, seconds: float, **kwargs: int) -> None:
    """`enqueue`, the task run `seconds` from now (at once when it runs here: no broker)."""
    signature(name, kwargs=kwargs).apply_async(countdown=seconds)


def enqueue_on_commit(name: str, **kwargs: int) -> None:
    """`enqueue` once the transaction in progress commits."""
    transaction.on_commit(lambda: enqueue(name, **kwargs))
