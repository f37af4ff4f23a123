"""The referee calls: the director's open ones, and a table's for its history."""

from __future__ import annotations

from django.db.models import QuerySet

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
