"""The one way ratings' code queues its Celery task: by name (as scoring/enqueue.py does).

The task (`ratings.tasks`) calls the service; the receivers that ask for it must not
import the tasks back. `RatingsConfig.ready` imports the tasks, so that the name finds its
task in this process (run here and now when there is no broker).
"""

from __future__ import annotations

from celery import signature
from django.db import transaction

RATINGS_REBUILD = "ratings.rebuild"


def enqueue_rebuild() -> None:
    """Queue a rebuild of every rating, once the transaction in progress commits."""
    transaction.on_commit(lambda: signature(RATINGS_REBUILD).delay())
