"""Public pages of a tournament that need no login: the draw of a round, for the projector.

A tournament is public when it is marked so and past its draft; its organisers also see
it when it is not (to check the projector before opening the doors). Anything else is a 404,
which says nothing about whether the tournament exists.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments import access, selectors
from tournaments.models import Round, Tournament


def _visible_tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = selectors.public_tournament(slug)
    if tournament is not None:
        return tournament
    tournament = Tournament.objects.filter(slug=slug).select_related("club").first()
    if tournament is not None and access.is_organiser(request.user, tournament.club):
        return tournament
    raise Http404("no such public tournament")


def round_draw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _visible_tournament(request, slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    context = {
        "tournament": tournament,
        "round": rnd,
        "tables": selectors.drawn_tables(rnd),
        "byes": selectors.round_byes(rnd),
        "rounds": list(tournament.rounds.values_list("number", flat=True)),
    }
    return render(request, "tournaments/draw.html", context)
