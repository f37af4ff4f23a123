"""Celery tasks of the seasons app: thin, taking ids, each calling one service.

A season's rebuild runs as a scoring job (its task is `scoring.job_run`, scoring/tasks.py);
only its last step, the aggregation, is a task of its own. Its name is the one it had in
scoring/ (`SEASON_AGGREGATE`), so that a message queued before the move still runs.
"""

from __future__ import annotations

from celery import shared_task

from scoring.tasks import JOB_RETRIES
from seasons import ranking


@shared_task(name=ranking.SEASON_AGGREGATE, **JOB_RETRIES)
def season_aggregate(*, job_id: int) -> None:
    """Write a season's ranking once its tournaments are through (idempotent)."""
    ranking.season_aggregate(job_id=job_id)
