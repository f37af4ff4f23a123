"""The draw of a round on the projector (`draw:round`, /t/<slug>/round/<n>/draw/).

The page is tournaments' (tournaments.public_views.round_draw); its strip of the
director's messages and its clock are, for a tournament anyone may follow, the files
nginx serves their polls from (scoring/live_screens.py), which tournaments/, a floor
below, does not read: this view hands them over.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from scoring import live_files, live_screens
from tournaments import public_views
from tournaments.selectors import public_tournament


def round_draw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = public_tournament(slug)
    screens = None
    if tournament is not None and live_files.served_as_files(tournament):
        screen_url = reverse("draw:screen", kwargs={"slug": tournament.slug})
        screens = live_screens.page_parts(tournament, screen_url=screen_url, clock=True)
    return public_views.round_draw(request, slug, number, screens=screens)
