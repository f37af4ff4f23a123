"""`{% push_notify competitor by_link %}`: « Ma soirée »'s « notify me » button and its one line.

A tag rather than a view's context: « Ma soirée » belongs to scoring/, a floor below this
app, and may not import it; a template may (as ratings' `{% player_rating %}`).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from tournaments.models import Competitor

register = template.Library()


@register.inclusion_tag("push/notify.html")
def push_notify(competitor: Competitor, by_link: bool) -> dict[str, Any]:
    if by_link:
        subscribe = reverse("soiree_push:subscribe", kwargs={"token": competitor.link_token})
        unsubscribe = reverse("soiree_push:unsubscribe", kwargs={"token": competitor.link_token})
    else:
        place = {"slug": competitor.tournament.slug, "number": competitor.number}
        subscribe = reverse("public_push:subscribe", kwargs=place)
        unsubscribe = reverse("public_push:unsubscribe", kwargs=place)
    return {
        "subscribe_url": subscribe,
        "unsubscribe_url": unsubscribe,
        "key_url": reverse("push_key"),
        "worker_url": reverse("push_worker"),
    }
