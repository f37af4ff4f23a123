"""The director's messages as the screens show them: a strip on the projectors (ranking
and draw) and on every « Ma soirée » page, polled by htmx with its ETag.

The strip polls its own address (`draw:screen` for the public screens, `soiree:screen`
for a personal « Ma soirée » link) and gets 304 Not Modified while the same messages
are on; a message withdrawn or past its time leaves on the next poll."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_vary_headers

from tournaments.selectors import screen_messages, screen_messages_stamp

# Seconds between two polls of the strip.
SCREEN_POLL_SECONDS = 10


def screen_context(tournament_id: int, *, url: str) -> dict[str, Any]:
    """What the strip's template needs: the messages on now, its address and ETag."""
    shown = screen_messages(tournament_id)
    etag = f'"screen-{tournament_id}-{screen_messages_stamp(shown)}"'
    return {
        "screen_messages": shown,
        "screen_url": url,
        "screen_etag": etag,
        "screen_headers": json.dumps({"If-None-Match": etag}),
        "screen_poll": SCREEN_POLL_SECONDS,
    }


def screen_response(request: HttpRequest, tournament_id: int, *, url: str) -> HttpResponse:
    """The strip alone for its poll: 304 while the same messages are on."""
    context = screen_context(tournament_id, url=url)
    etag = context["screen_etag"]
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(render_to_string("tournaments/screen_messages.html", context, request=request))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["HX-Request"])
    return response
