"""A task enqueued here runs in a real worker process through Redis."""

from __future__ import annotations

import time

import pytest

from atout.models import WorkerHeartbeat
from atout.tasks import heartbeat


@pytest.mark.celery_worker
def test_a_task_sent_through_redis_is_run_by_the_worker_and_writes_to_the_database(celery_worker) -> None:
    result = heartbeat.delay()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not WorkerHeartbeat.objects.exists():
        time.sleep(0.1)
    beat = WorkerHeartbeat.objects.get()
    assert beat.hostname.startswith(celery_worker.queue)
    assert beat.runs == 1
    # The task went through the broker, not eagerly: its id is a real message id.
    assert result.id
