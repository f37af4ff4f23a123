"""The referee calls: the director's open ones, and a table's for its history."""

from __future__ import annotations

import json
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone, translation

from scoring.models import RefereeCall
from tournaments.models import Table, Tournament


def open_calls(tournament: Tournament) -> list[RefereeCall]:
    """The tournament's calls not handled yet, oldest first (the longest wait on top)."""
    return list(
        RefereeCall.objects.filter(table__round__tournament=tournament, handled_at=None)
        .select_related("table__round")
        .order_by("opened_at", "pk")
    )


def table_calls(table: Table) -> QuerySet[RefereeCall]:
    """Every call of `table`, newest first, with who handled it."""
    return RefereeCall.objects.filter(table=table).select_related("handled_by").order_by("-opened_at", "-pk")


def calls_stamp(calls: list[RefereeCall]) -> str:
    """What the dashboard's ETag says of the open calls: it moves when one comes, changes or goes."""
    return ".".join(f"{call.pk}:{call.repeats}:{call.reason}" for call in calls) or "none"


# Seconds between two polls of the dashboard's calls: a call shows "at once".
CALLS_POLL_SECONDS = 4


def calls_panel(tournament: Tournament) -> dict[str, Any]:
    """The dashboard's panel of open referee calls, with the ETag it was drawn with.

    The ETag moves when a call comes, changes or goes, and each minute (the panel says
    how long ago each call was made)."""
    calls = open_calls(tournament)
    now = timezone.now()
    minute = int(now.timestamp() // 60)
    for call in calls:
        # For the template only: whole minutes since the call (0: just now).
        call.minutes_ago = max(0, int((now - call.opened_at).total_seconds() // 60))  # type: ignore[attr-defined]
    etag = f'"calls-{tournament.pk}-{calls_stamp(calls)}-{minute}-{translation.get_language()}"'
    return {
        "tournament": tournament,
        "calls": calls,
        "calls_etag": etag,
        "calls_headers": json.dumps({"If-None-Match": etag}),
        "calls_poll": CALLS_POLL_SECONDS,
    }
