"""`{% relay_live tournament %}`: the hosted ranking's line « en direct depuis la salle,
mis à jour il y a N s » while a tournament is relayed from its venue (relay/)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from relay.models import RelayReceipt
from tournaments.models import Tournament

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
    return {"seconds": max(0, int((timezone.now() - latest).total_seconds())), "at": latest}
