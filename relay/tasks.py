"""The sender as a Celery task: one pass, again later with a growing wait while the
hosted site is out of reach (relay/sending.py). Safe to run twice: an item is marked sent
only once taken, and the hosted site ignores an item it already has."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from relay.sending import relay_pass

# Seconds before trying again: 5, 10, 20... at most MAX_WAIT.
FIRST_WAIT = 5
MAX_WAIT = 300


@shared_task(bind=True, max_retries=None, acks_late=True)
def relay_push(self: Any) -> dict[str, int]:
    report = relay_pass()
    if report.unreachable:
        raise self.retry(countdown=min(MAX_WAIT, FIRST_WAIT * 2 ** min(self.request.retries, 10)))
    return {"sent": report.sent, "set_aside": report.set_aside}
