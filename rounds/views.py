"""The director's round actions under /manage/: draw the next round, draw one again, close
one, and run the round's clock.

They sit above tournaments/ and scoring/, as their services do (drawing reads the ranking,
closing writes the results of the tables still playing). Each one comes back to the
tournament's dashboard with a message, as the tournaments' own actions do.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from kit.requests import UserRequest
from rounds import services
from scoring.selectors.tables import table_progress
from tournaments import access, selectors
from tournaments.forms import CLOCK_ADJUST, CLOCK_START, ClockForm, add_service_errors
from tournaments.models import Round, Tournament
from tournaments.views import clock_context, confirm_page, confirmed, refused, tournament_view


@require_POST
@tournament_view
def round_draw(request: UserRequest, tournament: Tournament) -> HttpResponse:
    try:
        rnd = services.round_draw(by=request.user, tournament=tournament)
    except ValidationError as error:
        refused(request, error)
    else:
        messages.success(request, _("Round %(number)s drawn.") % {"number": rnd.number})
    return redirect("manage:dashboard", pk=tournament.pk)


@require_POST
@tournament_view
def round_redraw(request: UserRequest, tournament: Tournament, number: int) -> HttpResponse:
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
def round_close(request: UserRequest, tournament: Tournament, number: int) -> HttpResponse:
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
    for table in selectors.drawn_tables(rnd, progress=table_progress(rnd)):
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


@require_POST
@tournament_view
def round_clock(request: UserRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Start, change or stop the round's clock. From htmx the clock panel comes back in
    place, a refusal beside the minutes; without it, the dashboard with a message."""
    rnd = access.round_of(tournament, number)
    action = request.POST.get("clock-action", "")
    form = ClockForm(request.POST, action=action)
    done = ""
    if form.is_valid():
        minutes = form.cleaned_data["minutes"]
        try:
            if action == CLOCK_START:
                rnd = services.round_clock_start(by=request.user, round=rnd, minutes=minutes)
                done = ngettext(
                    "Clock of round %(number)s started: %(minutes)s minute.",
                    "Clock of round %(number)s started: %(minutes)s minutes.",
                    minutes,
                ) % {
                    "number": number,
                    "minutes": minutes,
                }
            elif action == CLOCK_ADJUST:
                rnd = services.round_clock_adjust(by=request.user, round=rnd, minutes=minutes)
                done = ngettext(
                    "Round %(number)s now lasts %(minutes)s minute.",
                    "Round %(number)s now lasts %(minutes)s minutes.",
                    rnd.clock_minutes or 0,
                ) % {
                    "number": number,
                    "minutes": rnd.clock_minutes,
                }
            else:
                rnd = services.round_clock_stop(by=request.user, round=rnd)
                done = _("Clock of round %(number)s stopped.") % {"number": number}
        except ValidationError as error:
            add_service_errors(form, error)
    if request.htmx:
        context = clock_context(tournament, rnd, form=None if done else form)
        return render(request, "tournaments/dashboard_clock.html", {**context, "clock_done": done})
    if done:
        messages.success(request, done)
    else:
        for message in [*form.non_field_errors(), *form.errors.get("minutes", [])]:
            messages.error(request, message)
    return redirect("manage:dashboard", pk=tournament.pk)
