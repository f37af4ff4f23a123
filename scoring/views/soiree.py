"""« Ma soirée »: a competitor's live page, by its secret link or from the seat finder.

Two addresses show the same page (scoring.selectors.soiree): the personal link
`/soiree/<token>/` (printed as a QR code on the competitor's receipt, or sent by the
director; scoring.access.competitor_by_link), which opens it for any tournament past its
draft, and `/t/<slug>/c/<number>/soiree/`, where the seat finder leads, which follows the
tournament's public pages (a 404 where they are). Like the live ranking, the page
includes one partial that polls its own address with htmx, sending the ETag it was drawn
with, and gets 304 Not Modified until the competitor's night moves
(`scoring.selectors.soiree.evening_stamp`).

The personal link's page holds its secret (the partial polls its own address): it is
never gzip-compressed (atout.middleware.PublicGZipMiddleware compresses listed views
only), never cached by anyone but its reader, and sends no Referer to the pages it
links to.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from kit.requests import SiteRequest
from scoring.access import competitor_by_link
from scoring.selectors import soiree as selectors
from scoring.selectors import standings as standings_selectors
from scoring.views.public import _base_context, _etag, _live, _page
from tournaments.models import Competitor
from tournaments.screens import screen_context, screen_response


def _soiree(
    request: SiteRequest, tournament: standings_selectors.PublicTournament, competitor: Competitor, *, secret: bool
) -> HttpResponse:
    # The director's messages: by the personal link for a personal page (any tournament
    # past its draft), by the public screens' address for the public one.
    if secret:
        screen_url = reverse("soiree:screen", args=[competitor.link_token])
    else:
        screen_url = reverse("draw:screen", kwargs={"slug": tournament.slug})
    etag = _etag("soiree", competitor.pk, selectors.evening_stamp(tournament, competitor), get_language())

    def context() -> dict[str, Any]:
        evening = selectors.evening(tournament, competitor)
        values = _base_context(tournament, evening=evening, public_links=tournament.is_public)
        # Never more often than the ranking's own polls (a finished tournament's are slower).
        values["poll_seconds"] = max(values["poll_seconds"], settings.SOIREE_POLL_SECONDS)
        return values

    if request.htmx:
        response = _live(request, etag, "scoring/public/soiree_live.html", context)
    else:
        # `by_link`: which address the notifications' button subscribes at (push/).
        values = {**context(), **screen_context(tournament.pk, url=screen_url), "by_link": secret}
        response = _page(request, "scoring/public/soiree.html", values, etag)
    if secret:
        patch_cache_control(response, private=True)
        response["Referrer-Policy"] = "no-referrer"
        response["X-Robots-Tag"] = "noindex"
    return response


@require_safe
@competitor_by_link
def by_link(request: SiteRequest, competitor: Competitor) -> HttpResponse:
    """« Ma soirée » by the competitor's personal link."""
    tournament = standings_selectors.followed_tournament(competitor.tournament_id)
    return _soiree(request, tournament, competitor, secret=True)


@require_safe
@competitor_by_link
def screen(request: SiteRequest, competitor: Competitor) -> HttpResponse:
    """The director's messages on a personal « Ma soirée » page, polled (tournaments/screens.py)."""
    response = screen_response(
        request, competitor.tournament_id, url=reverse("soiree:screen", args=[competitor.link_token])
    )
    patch_cache_control(response, private=True)
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex"
    return response


@require_safe
def public(request: SiteRequest, slug: str, number: int) -> HttpResponse:
    """« Ma soirée » of a public tournament's competitor, where the seat finder leads."""
    tournament = standings_selectors.visible_tournament(slug, request.user)
    competitor = get_object_or_404(Competitor, tournament=tournament, number=number)
    return _soiree(request, tournament, competitor, secret=False)
