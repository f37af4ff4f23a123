"""`{% relay_live tournament %}`: the hosted ranking's line « en direct depuis la salle,
mis à jour il y a N s » while a tournament is relayed from its venue (relay/)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone
from django.utils.html import format_html

from relay.models import RelayReceipt
from tournaments.models import Tournament
from tournaments.selectors import iso_moment

register = template.Library()


@register.inclusion_tag("relay/live_line.html")
def relay_live(tournament: Tournament) -> dict[str, Any]:
    """The line for a running tournament that took an item from its venue; nothing otherwise."""
    if tournament.status != Tournament.Status.RUNNING:
        return {"seconds": None}
    latest = (
        RelayReceipt.objects.filter(tournament=tournament)
        .order_by("-received_at")
        .values_list("received_at", flat=True)
        .first()
    )
    if latest is None:
        return {"seconds": None}
    now = timezone.now()
    seconds = max(0, int((now - latest).total_seconds()))
    return {
        "seconds": seconds,
        "seconds_html": format_html('<span class="relay-seconds">{}</span>', seconds),
        "at_iso": iso_moment(latest),
        "now_iso": iso_moment(now),
    }
