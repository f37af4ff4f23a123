"""Celery tasks of the seasons app: thin, taking ids, each calling one service.

A season's rebuild is a scoring `Job` run by this app's own task, `seasons.job_run`, which
claims and runs it through scoring's job machinery called downwards (seasons/ranking.py);
its tournaments' jobs run under scoring's task. The aggregation, its last step, keeps the
name it had in scoring/ (`SEASON_AGGREGATE`), so that a message queued before the move
still runs; a season job queued then under `scoring.job_run` is sent here by the sweep.
Both are owed tasks (`scoring.tasks.OwedTask`): the job row is stored before they are
sent, so a send that fails loses nothing.
"""

from __future__ import annotations

from celery import shared_task

from scoring.tasks import JOB_RETRIES, OwedTask
from seasons import ranking


@shared_task(base=OwedTask, name=ranking.SEASON_JOB_RUN, **JOB_RETRIES)
def job_run(*, job_id: int) -> None:
    """Run a season job (claimed first: at most one worker runs it)."""
    ranking.season_job_work(job_id=job_id)


@shared_task(base=OwedTask, name=ranking.SEASON_AGGREGATE, **JOB_RETRIES)
def season_aggregate(*, job_id: int) -> None:
    """Write a season's ranking once its tournaments are through (idempotent)."""
    ranking.season_aggregate(job_id=job_id)
