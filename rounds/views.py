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
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from rounds import services
from tournaments import access, selectors
from tournaments.models import Round, Tournament
from tournaments.views import confirm_page, confirmed, refused, tournament_view


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
    force = request.POST.get("force") == "1"
    if force and not confirmed(request):
        return confirm_page(
            request,
            tournament,
            title=_("Force the close of round %(number)s?") % {"number": number},
            consequences=_forced_close_consequences(rnd),
            button=_("Close the round now"),
            fields=[("force", "1")],
        )
    try:
        services.round_close(by=request.user, round=rnd, force=force)
    except ValidationError as error:
        refused(request, error)
    else:
        messages.success(request, _("Round %(number)s closed.") % {"number": number})
    return redirect("manage:dashboard", pk=tournament.pk)


def _forced_close_consequences(rnd: Round) -> list[str]:
    """Each unfinished table and the score it will count with, then what a forced close means."""
    lines = []
    for table in selectors.drawn_tables(rnd):
        if table.finished:
            continue
        totals = " – ".join(str(total) for total in table.result.totals) if table.result else ""
        if table.donnes_played:
            lines.append(
                ngettext(
                    "Table %(number)s: %(count)s donne played, counts as it stands (%(totals)s).",
                    "Table %(number)s: %(count)s donnes played, counts as it stands (%(totals)s).",
                    table.donnes_played,
                )
                % {"number": table.number, "count": table.donnes_played, "totals": totals}
            )
        else:
            lines.append(_("Table %(number)s: not started, counts 0 – 0 with no winner.") % {"number": table.number})
        if table.pending:
            lines.append(
                ngettext(
                    "Table %(number)s: %(count)s donne waits for the other side’s confirmation and will not count.",
                    "Table %(number)s: %(count)s donnes wait for the other side’s confirmation and will not count.",
                    table.pending,
                )
                % {"number": table.number, "count": table.pending}
            )
    lines.append(_("No donne can be entered at these tables any more; the next round can be drawn."))
    return lines
