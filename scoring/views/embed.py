"""A club's embed page, /club/<slug>/embed/: a small page the club pastes in its own
website in an `<iframe>` (no script): its next public concours, « S'inscrire » while
registration online is open (opening in a new tab), and on the night the top of the
live ranking with the time it was built and a link to load it again. No reload by itself:
a page that refreshes on a timer takes the page away from someone reading it (axe's
meta-refresh, WCAG 2.2.1), and a timer wants a script.

This page alone may be framed by any site: it drops X-Frame-Options and widens the
CSP's frame-ancestors (django-csp), for this view only. It lives in scoring, which
reads the ranking; the registration rules are tournaments/services/online.py's.
"""

from __future__ import annotations

from typing import Any

from csp.constants import SELF
from csp.decorators import csp_replace
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_cache_control
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from kit.requests import SiteRequest
from scoring.selectors import standings as selectors
from tournaments import selectors as tournament_selectors
from tournaments.models import Club, Tournament
from tournaments.services import online

# The rows of the ranking the embed shows: a club's website gives it a corner of a page.
TOP = 10


@require_safe
@xframe_options_exempt
def club_embed(request: SiteRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    tournament = tournament_selectors.club_next_tournament(club)
    context: dict[str, Any] = {"club": club, "tournament": tournament, "top": [], "open": False, "built_at": None}
    if tournament is not None:
        settings_ = online.online_settings(tournament)
        context["open"] = not online.online_closed(tournament, settings_)
        context["full"] = online.is_full(tournament, settings_)
        if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
            snapshot = selectors.live_snapshot(tournament)
            if snapshot is not None:
                context["top"], context["built_at"] = list(snapshot.rows[:TOP]), snapshot.built_at
    response = render(request, "scoring/public/club_embed.html", context)
    patch_cache_control(response, max_age=30)
    return response


# Any site may frame this page (its own frame-ancestors; the site's default is 'none').
club_embed_framed = csp_replace({"frame-ancestors": [SELF, "https:", "http:"]})(club_embed)  # type: ignore[arg-type]
