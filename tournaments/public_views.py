"""Public pages of a tournament that need no login: the draw of a round for the projector,
"where do I sit", a player's phone finding their table by name, the round's clock, and
the printable rules sheet (« Règlement du concours »).

A tournament is public when it is marked so and past its draft; its organisers also see
it when it is not (to check the projector before opening the doors). Anything else is a 404,
which says nothing about whether the tournament exists.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache

from tournaments import access, selectors
from tournaments.models import Round, Tournament
from tournaments.qr import public_url, qr_svg_response
from tournaments.rules_sheet import rules_sheet as build_rules_sheet
from tournaments.screens import screen_context, screen_response
from tournaments.text import matches


def _visible_tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = selectors.public_tournament(slug)
    if tournament is not None:
        return tournament
    tournament = Tournament.objects.filter(slug=slug).select_related("club").first()
    if tournament is not None and access.is_organiser(request.user, tournament.club):
        return tournament
    raise Http404("no such public tournament")


def round_draw_context(request: HttpRequest, slug: str, number: int, *, tables: bool = True) -> dict[str, Any]:
    """What the draw's page of round `number` shows (tournaments/draw.html), 404 when the
    tournament is not visible or has no such round. The page itself is scoring's
    (scoring/views/draw.py): a public tournament's wraps the draw's file, which polls
    itself, and its strip of messages and clock files; `tables`: the round's tables and
    byes, for the page that includes them. The strip and the clock here poll the site's
    addresses by their ETag (the caller puts the files' in their place)."""
    tournament = _visible_tournament(request, slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    context: dict[str, Any] = {
        "tournament": tournament,
        "round": rnd,
        "rounds": list(tournament.rounds.values_list("number", flat=True)),
        "clock_url": reverse("draw:clock", kwargs={"slug": tournament.slug}),
        **screen_context(tournament.pk, url=reverse("draw:screen", kwargs={"slug": tournament.slug})),
    }
    if tables:
        context.update(tables=selectors.drawn_tables(rnd), byes=selectors.round_byes(rnd))
    return context


def screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The director's messages on the projectors, polled (tournaments/screens.py)."""
    tournament = _visible_tournament(request, slug)
    return screen_response(request, tournament.pk, url=reverse("draw:screen", kwargs={"slug": slug}))


@never_cache
def round_clock(request: HttpRequest, slug: str) -> HttpResponse:
    """The time left in the current round, the part that the projectors ask for now and then."""
    tournament = _visible_tournament(request, slug)
    clock = selectors.round_clock(selectors.current_round(tournament))
    return render(request, "tournaments/clock.html", {"clock": clock})


def seat_finder(request: HttpRequest, slug: str) -> HttpResponse:
    """Where do I sit: the latest round's tables searched by a name (accents and case aside)."""
    tournament = _visible_tournament(request, slug)
    rnd = selectors.current_round(tournament)
    query = request.GET.get("q", "")[:100]
    tables = selectors.drawn_tables(rnd) if rnd is not None else []
    context = {
        "tournament": tournament,
        "round": rnd,
        "query": query,
        "found": selectors.seats_matching(tables, query),
        "byes": [
            bye
            for bye in selectors.round_byes(rnd)
            if matches(query, bye.competitor.name, *(p.full_name for p in bye.competitor.players.all()))
        ]
        if rnd is not None and query.split()
        else [],
    }
    return render(request, "tournaments/seat.html", context)


def seat_finder_qr(request: HttpRequest, slug: str) -> HttpResponse:
    """The QR code of "where do I sit", for the poster and the draw on the projector."""
    tournament = _visible_tournament(request, slug)
    return qr_svg_response(public_url(request, reverse("draw:seat", kwargs={"slug": tournament.slug})))


def rules_sheet(request: HttpRequest, slug: str) -> HttpResponse:
    """The « Règlement du concours »: the tournament's rules in sentences, to print on A4."""
    tournament = _visible_tournament(request, slug)
    return render(
        request, "tournaments/rules_sheet.html", {"tournament": tournament, "sheet": build_rules_sheet(tournament)}
    )
