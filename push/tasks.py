"""push/'s Celery tasks: thin, taking ids, each calling the services (push/services.py).

An event's task (`push.round_drawn`, `push.clock_warning`, `push.tournament_finished`)
sends one `push.deliver` per subscription of the tournament, so that the workers tell the
room's phones side by side, and a slow push service holds up one message, not all. Every
task is idempotent: each subscription is told each thing once (push.models.Notice), a
re-run finds it told. A passing failure of the push service (timeout, 5xx, 429) is tried
again a little later, while the message is still true (the services check that again).
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from celery import Task, shared_task, signature
from django.utils import timezone

from push import services
from push.enqueue import CLOCK_WARNING, DELIVER, ROUND_DRAWN, TOURNAMENT_FINISHED
from push.sender import Outcome
from scoring.jobs import TRANSIENT
from tournaments.models import Round

log = logging.getLogger(__name__)

DRAWN = "drawn"
CLOCK = "clock"
FINAL = "final"
# Tries after the first, for a passing failure of the push service, and the wait before each.
RETRIES = 2
RETRY_AFTER = 20


def _fan_out(kind: str, of_tournament: int, **kwargs: Any) -> int:
    """One `push.deliver` per subscription of the tournament `of_tournament`; how many."""
    ids = services.subscription_ids(of_tournament)
    for subscription_id in ids:
        try:
            signature(DELIVER, kwargs={"kind": kind, "subscription_id": subscription_id, **kwargs}).delay()
        except Exception:
            log.exception("push: %s message to subscription %s not queued", kind, subscription_id)
    return len(ids)


@shared_task(name=ROUND_DRAWN, autoretry_for=TRANSIENT, retry_backoff=1, max_retries=3, ignore_result=True)
def round_drawn(*, round_id: int, tournament_id: int) -> None:
    """A round was drawn (or drawn again): tell each subscribed player their table."""
    _fan_out(DRAWN, tournament_id, round_id=round_id)


@shared_task(bind=True, name=CLOCK_WARNING, autoretry_for=TRANSIENT, retry_backoff=1, max_retries=3, ignore_result=True)
def clock_warning(self: Task[..., None], *, round_id: int, tournament_id: int, ends_at: str) -> None:
    """The round's clock should have 5 minutes left: tell each subscribed player, if it still says so.

    Queued for `ends_at` less 5 minutes whenever the clock is started, started again or
    given more or less time (push/receivers.py); a stale one (the clock changed since)
    finds its state gone and does nothing: the newer state has its own task.
    """
    end = datetime.datetime.fromisoformat(ends_at)
    now = timezone.now()
    rnd = Round.objects.filter(pk=round_id).first()
    if rnd is not None and rnd.clock_ends_at == end and now < end - services.CLOCK_WARNING:
        # Woken early (a worker's clock ahead of the site's): again at the right time.
        raise self.retry(eta=end - services.CLOCK_WARNING, max_retries=None)
    if not services.clock_warning_due(rnd, end, now):
        return
    _fan_out(CLOCK, tournament_id, round_id=round_id, ends_at=ends_at)


@shared_task(name=TOURNAMENT_FINISHED, autoretry_for=TRANSIENT, retry_backoff=1, max_retries=3, ignore_result=True)
def tournament_finished(*, tournament_id: int) -> None:
    """The final ranking is published: tell each subscribed player their rank; the
    subscriptions are deleted with it."""
    _fan_out(FINAL, tournament_id, tournament_id=tournament_id)


@shared_task(bind=True, name=DELIVER, autoretry_for=TRANSIENT, retry_backoff=1, max_retries=RETRIES, ignore_result=True)
def deliver(
    self: Task[..., None],
    *,
    kind: str,
    subscription_id: int,
    round_id: int = 0,
    tournament_id: int = 0,
    ends_at: str = "",
) -> None:
    """Tell one subscription one thing (`kind`: drawn, clock, final)."""
    last_try = self.request.retries >= RETRIES
    if kind == DRAWN:
        outcome = services.round_drawn_deliver(subscription_id=subscription_id, round_id=round_id)
    elif kind == CLOCK:
        end = datetime.datetime.fromisoformat(ends_at)
        outcome = services.clock_warning_deliver(subscription_id=subscription_id, round_id=round_id, ends_at=end)
    elif kind == FINAL:
        outcome = services.final_deliver(
            subscription_id=subscription_id, tournament_id=tournament_id, last_try=last_try
        )
    else:
        log.warning("push: unknown message kind %r", kind)
        return
    if outcome is Outcome.FAILED and not last_try:
        raise self.retry(countdown=RETRY_AFTER)
