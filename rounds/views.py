"""The director's round actions under /manage/: draw the next round, draw one again, close one.

They sit above tournaments/ and scoring/, as their services do (drawing reads the ranking,
closing writes the results of the tables still playing). Each one comes back to the
tournament's dashboard with a message, as the tournaments' own actions do.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import access, services
from tournaments.models import Tournament
from tournaments.views import refused, tournament_view


@require_POST
@tournament_view
def round_draw(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        rnd = services.round_draw(by=request.user, tournament=tournament)
    except ValidationError as error:
        refused(request, error)
    else:
        messages.success(request, _("Round %(number)s drawn.") % {"number": rnd.number})
    return redirect("manage:dashboard", pk=tournament.pk)


@require_POST
@tournament_view
def round_redraw(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    rnd = access.round_of(tournament, number)
    try:
        services.round_redraw(by=request.user, round=rnd)
    except ValidationError as error:
        refused(request, error)
    else:
        messages.success(request, _("Round %(number)s drawn again: print the new table list.") % {"number": number})
    return redirect("manage:dashboard", pk=tournament.pk)


@require_POST
@tournament_view
def round_close(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    rnd = access.round_of(tournament, number)
    try:
        services.round_close(by=request.user, round=rnd, force=request.POST.get("force") == "1")
    except ValidationError as error:
        refused(request, error)
    else:
        messages.success(request, _("Round %(number)s closed.") % {"number": number})
    return redirect("manage:dashboard", pk=tournament.pk)
