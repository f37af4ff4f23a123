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

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from kit.requests import SiteRequest
from scoring import live_screens
from scoring.access import competitor_by_link
from scoring.selectors import soiree as selectors
from scoring.selectors import standings as standings_selectors
from scoring.views import soiree_parts
from scoring.views.public import _base_context, _etag, _page, _polled
from tournaments.models import Competitor, Tournament
from tournaments.screens import screen_response


def _soiree(
    request: SiteRequest, tournament: standings_selectors.PublicTournament, competitor: Competitor, *, secret: bool
) -> HttpResponse:
    # The director's messages: by the personal link for a personal page (any tournament
    # past its draft), by the public screens' address for the public one.
    if secret:
        screen_url = reverse("soiree:screen", args=[competitor.link_token])
    else:
        screen_url = reverse("draw:screen", kwargs={"slug": tournament.slug})
    language = get_language()
    stamp = selectors.evening_stamp(tournament, competitor)
    etag = _etag("soiree", competitor.pk, stamp.etag, language)
    evening: selectors.Evening | None = None if request.htmx else selectors.evening(tournament, competitor)
    response = get_conditional_response(request, etag=etag) if request.htmx else None
    if response is None:

        def read() -> selectors.Evening:
            nonlocal evening
            if evening is None:
                evening = selectors.evening(tournament, competitor)
            return evening

        def draw_night() -> soiree_parts.Night:
            return soiree_parts.draw_night(read(), stamp.night, public_links=tournament.is_public)

        def draw_partie() -> soiree_parts.PartieDrawn:
            return soiree_parts.draw_partie(
                selectors.partie_of(read()), stamp.partie, public_links=tournament.is_public, slug=tournament.slug
            )

        # `draw_*` always draw.
        night = soiree_parts.kept(soiree_parts.Night, competitor.pk, language, stamp.night, draw_night)
        partie = soiree_parts.kept(soiree_parts.PartieDrawn, competitor.pk, language, stamp.partie, draw_partie)
        assert night is not None and partie is not None
        part = soiree_parts.live_part(
            night,
            partie,
            selectors.served_ranking(tournament),
            number=competitor.number,
            finished=tournament.status == Tournament.Status.FINISHED,
            public_links=tournament.is_public,
            slug=tournament.slug,
            path=request.path,
            etag=etag,
        )
        if request.htmx:
            response = HttpResponse(part)
        else:
            assert evening is not None
            # `by_link`: which address the notifications' button subscribes at (push/).
            values = {
                **_base_context(tournament, evening=evening, public_links=tournament.is_public),
                # A public tournament's strip is its file (scoring/live_screens.py), by either address.
                **live_screens.page_parts(tournament, screen_url=screen_url),
                "by_link": secret,
                "soiree_live": part,
            }
            response = _page(request, "scoring/public/soiree.html", values, etag)
    if request.htmx:
        response = _polled(response, etag)
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
