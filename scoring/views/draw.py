"""The draw's page of a round (`draw:round`): the room's screen with the tables and seats.

A public tournament past its draft has its draw served as files (scoring/live_draw.py):
the page wraps the round's file, which polls itself every few seconds and is answered by
the web server without Python (304 while the draw has not moved). A private tournament's
page (its organisers alone) includes the tables itself and reloads every minute, as the
draw's page always did. The rest of the page (the clock, the director's messages, the
rounds, "Find my table") is tournaments'; for a public tournament its strip of messages
and its clock are files too (scoring/live_screens.py).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scoring import live_draw, live_screens
from scoring.views.public import served_as_files
from tournaments import selectors
from tournaments.public_views import round_draw_context


@require_safe
def round_draw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    context = round_draw_context(request, slug, number, tables=False)
    tournament, rnd = context["tournament"], context["round"]
    fragment = None
    if served_as_files(tournament):
        fragment = live_draw.draw_file_text(tournament, live_draw.file_name(get_language(), number))
        screen_url = reverse("draw:screen", kwargs={"slug": tournament.slug})
        context.update(live_screens.page_parts(tournament, screen_url=screen_url, clock=True))
    if fragment is not None:
        context["draw_fragment"] = fragment
    else:
        # Private, or its file could not be had (its folder's lock held too long).
        context.update(tables=selectors.drawn_tables(rnd), byes=selectors.round_byes(rnd))
    return render(request, "tournaments/draw.html", context)
