"""Site-wide writes."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from atout.models import WorkerHeartbeat


@transaction.atomic
def heartbeat_record(*, hostname: str) -> WorkerHeartbeat:
    """Note that the worker `hostname` is alive; safe to run any number of times."""
    now = timezone.now()
    beat, created = WorkerHeartbeat.objects.get_or_create(hostname=hostname, defaults={"seen_at": now, "runs": 1})
    if not created:
        WorkerHeartbeat.objects.filter(pk=beat.pk).update(seen_at=now, runs=F("runs") + 1)
        beat.refresh_from_db()
    return beat
