"""The ratings' Celery task: thin, calling one service.

Safe to run twice (the rebuild starts from nothing each time and writes only what
changed) and to kill half-way (it writes in one transaction at the end: a killed run
leaves the previous ratings). Transient database errors are retried with backoff.
"""

from __future__ import annotations

from celery import shared_task

from ratings import services
from ratings.enqueue import RATINGS_REBUILD
from scoring.jobs import TRANSIENT
from scoring.tasks import OwedTask


# Owed: a finished tournament not yet in the ratings is found by the sweep
# (ratings.services.ratings_owed_resend), so a send that fails is dropped, not raised.
@shared_task(
    base=OwedTask,
    name=RATINGS_REBUILD,
    autoretry_for=TRANSIENT,
    retry_backoff=1,
    retry_backoff_max=30,
    max_retries=5,
    ignore_result=True,
)
def ratings_rebuild() -> None:
    """Rebuild every player's rating from all finished tournaments."""
    services.ratings_rebuild()
