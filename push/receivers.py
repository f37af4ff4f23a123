"""push/'s answers to the signals of the floors below (connected in `PushConfig.ready`).

Each queues a task (push/enqueue.py, off the request's path) only when some player of
the tournament asked to be told: a night without subscriptions costs one small query.
"""

from __future__ import annotations

import datetime
from typing import Any

from push import enqueue
from push.models import Subscription
from push.services import CLOCK_WARNING


def _followed(tournament_id: int) -> bool:
    return Subscription.objects.filter(competitor__tournament_id=tournament_id).exists()


def round_drawn(*, round_id: int, tournament_id: int, **_kwargs: Any) -> None:
    """`tournaments.signals.round_drawn`: tell each subscribed player their table."""
    if _followed(tournament_id):
        enqueue.enqueue(enqueue.ROUND_DRAWN, round_id=round_id, tournament_id=tournament_id)


def round_clock_changed(
    *, round_id: int, tournament_id: int, ends_at: datetime.datetime | None, **_kwargs: Any
) -> None:
    """`rounds.signals.round_clock_changed`: the warning at 5 minutes left, for this clock state."""
    if ends_at is not None and _followed(tournament_id):
        enqueue.enqueue(
            enqueue.CLOCK_WARNING,
            eta=ends_at - CLOCK_WARNING,
            round_id=round_id,
            tournament_id=tournament_id,
            ends_at=ends_at.isoformat(),
        )


def tournament_finished(*, tournament_id: int, **_kwargs: Any) -> None:
    """`tournaments.signals.tournament_finished`: the final rank, then the subscriptions go."""
    if _followed(tournament_id):
        enqueue.enqueue(enqueue.TOURNAMENT_FINISHED, tournament_id=tournament_id)
