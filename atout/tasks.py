"""Site-wide Celery tasks."""

from __future__ import annotations

import socket

from celery import shared_task

from atout.services import heartbeat_record


@shared_task(name="atout.heartbeat")
def heartbeat() -> int:
    """Record that a worker picked up a task; returns the worker's run count."""
    hostname = getattr(heartbeat.request, "hostname", None) or socket.gethostname()
    return heartbeat_record(hostname=hostname).runs
