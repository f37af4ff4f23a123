"""The director's desk: the tournament's dashboard under /manage/ and its in-place actions.

The dashboard shows the competitors (check-in, payment, withdrawal) and the round in play
with how far each table's partie went. Those results are scoring's, so the desk sits
above tournaments/ and scoring/, beside the round's actions (rounds/views.py): it reads
the tables' progress from scoring and hands it to the tournaments' selectors, which
import no app above them. The competitor actions answer htmx in place: the competitors'
list, and the round out of band (a late arrival checked in shows in its byes at once).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from kit.polling import private_polled
from kit.requests import UserRequest
from scoring.selectors.calls import calls_panel
from scoring.selectors.tables import recovered_count, table_progress
from tournaments import access, games, selectors, services
from tournaments.forms import PaymentForm, ScreenMessageForm, add_service_errors
from tournaments.models import Competitor, Door, Round, ScreenMessage, Tournament
from tournaments.qr import only_this_computer, public_url, qr_svg_inline
from tournaments.views import clock_context, confirm_page, confirmed, refused, tournament_view


def _dashboard_context(tournament: Tournament) -> dict[str, Any]:
    rnd = selectors.current_round(tournament)
    competitors = list(selectors.competitors_with_players(tournament))
    counts = {status: 0 for status in Competitor.Status.values}
    for competitor in competitors:
        counts[competitor.status] += 1
    return {
        "tournament": tournament,
        "club": tournament.club,
        "competitors": competitors,
        "counts": counts,
        "cash": selectors.cash_summary(tournament, competitors),
        "payment_choices": PaymentForm.CHOICES,
        # A withdrawal can be taken back until a round is drawn without them.
        "last_round": rnd.number if rnd is not None else 0,
        **_round_context(tournament, rnd),
        **clock_context(tournament, rnd),
        **calls_panel(tournament),
        **_screen_context(tournament),
        **_room_context(tournament),
        "next_statuses": [
            (status, Tournament.Status(status).label) for status in services.TRANSITIONS[tournament.status]
        ],
        "options": games.option_summary(tournament.game, tournament.rule_options),
        "criteria": games.criteria_label(tournament.criteria),
        "seating": games.seating_label(tournament),
        "table_de_cinq": games.table_de_cinq_label(tournament),
        "preset": games.tournament_preset(tournament).label,
        "can_join": tournament.status == Tournament.Status.REGISTRATION
        or (tournament.status == Tournament.Status.RUNNING and (rnd is None or rnd.number < 2)),
    }


def _round_context(tournament: Tournament, rnd: Round | None) -> dict[str, Any]:
    if rnd is None:
        return {"round": None, "tables": [], "byes": [], "repeats": [], "conflicts": []}
    # How far each table's partie went: scoring keeps the results, this floor reads them.
    tables = selectors.drawn_tables(rnd, progress=table_progress(rnd))
    clock = selectors.round_clock(rnd)
    return {
        "round": rnd,
        "tables": tables,
        "clock": clock,
        # When the round's time is up, the tables still playing; before, those far behind.
        "late_tables": selectors.late_tables(tournament, tables, clock),
        "tables_behind": selectors.tables_behind(tournament, tables, clock),
        "finished_count": sum(1 for t in tables if t.finished),
        # Donnes waiting for the other side's confirmation: a table can look idle for them.
        "pending_count": sum(t.pending for t in tables),
        "pending_tables": [t.number for t in tables if t.pending],
        # Each of them with how long it has waited, the longest first.
        "waiting_donnes": sorted((w for t in tables for w in t.waiting), key=lambda w: -w.minutes),
        # Donnes the phones sent again after a copy of the database was restored.
        "recovered_count": recovered_count(rnd),
        "byes": selectors.round_byes(rnd),
        "repeats": selectors.explained_repeats(rnd),
        "conflicts": selectors.named_pairs(rnd, rnd.conflicts),
        "can_draw_next": rnd.status == Round.Status.CLOSED and rnd.number < tournament.rounds_planned,
    }


@tournament_view
def dashboard(request: UserRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "tournaments/dashboard.html", _dashboard_context(tournament))


@tournament_view
def dashboard_round(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """The current round's tables alone: the dashboard polls it to show finished tables."""
    context = {"tournament": tournament, **_round_context(tournament, selectors.current_round(tournament))}
    return render(request, "tournaments/dashboard_round.html", context)


def _back_to_dashboard(
    request: UserRequest, tournament: Tournament, error: ValidationError | None = None
) -> HttpResponse:
    if request.htmx:
        # An htmx action refreshes the competitors' list in place, a refusal shown inside it.
        # The round goes along out of band: a late arrival checked in shows in its byes.
        context = {**_dashboard_context(tournament), "messages_inline": error.messages if error else []}
        competitors = render_to_string("tournaments/dashboard_competitors.html", context, request=request)
        round_ = render_to_string("tournaments/dashboard_round.html", {**context, "swap_oob": True}, request=request)
        return HttpResponse(competitors + round_)
    if error is not None:
        refused(request, error)
    return redirect("manage:dashboard", pk=tournament.pk)


@require_POST
@tournament_view
def competitor_check_in(request: UserRequest, tournament: Tournament, competitor_id: int) -> HttpResponse:
    competitor = access.competitor_of(tournament, competitor_id)
    try:
        services.competitor_check_in(by=request.user, competitor=competitor, present=request.POST.get("present") != "0")
    except ValidationError as error:
        return _back_to_dashboard(request, tournament, error)
    return _back_to_dashboard(request, tournament)


@require_POST
@tournament_view
def check_in_all(request: UserRequest, tournament: Tournament) -> HttpResponse:
    try:
        services.competitors_check_in_all(by=request.user, tournament=tournament)
    except ValidationError as error:
        return _back_to_dashboard(request, tournament, error)
    return _back_to_dashboard(request, tournament)


def _competitor_action(
    request: UserRequest, tournament: Tournament, competitor_id: int, action: Callable[..., Any], done: str
) -> HttpResponse:
    """Run a service on one competitor; say `done` (with their name) or why it was refused."""
    competitor = access.competitor_of(tournament, competitor_id)
    try:
        action(by=request.user, competitor=competitor)
    except ValidationError as error:
        return _back_to_dashboard(request, tournament, error)
    messages.success(request, done % {"name": competitor.name})
    return _back_to_dashboard(request, tournament)


@require_POST
@tournament_view
def competitor_withdraw(request: UserRequest, tournament: Tournament, competitor_id: int) -> HttpResponse:
    if not confirmed(request):
        competitor = access.competitor_of(tournament, competitor_id)
        return confirm_page(
            request,
            tournament,
            title=_("Withdraw %(name)s?") % {"name": competitor.name},
            consequences=[
                _("The results already played stay in the ranking."),
                _("%(name)s is never drawn again, from the next round on.") % {"name": competitor.name},
                _("The withdrawal can be taken back until a round is drawn without them."),
            ],
            button=_("Withdraw"),
        )
    done = _("%(name)s withdrawn: never drawn again.")
    return _competitor_action(request, tournament, competitor_id, services.competitor_withdraw, done)


@require_POST
@tournament_view
def competitor_reinstate(request: UserRequest, tournament: Tournament, competitor_id: int) -> HttpResponse:
    done = _("%(name)s is back: drawn again from the next round.")
    return _competitor_action(request, tournament, competitor_id, services.competitor_reinstate, done)


@require_POST
@tournament_view
def competitor_payment(request: UserRequest, tournament: Tournament, competitor_id: int) -> HttpResponse:
    """The entry fee at check-in: paid (cash, card, transfer), not paid, or free."""
    competitor = access.competitor_of(tournament, competitor_id)
    form = PaymentForm(request.POST)
    if not form.is_valid():
        return _back_to_dashboard(request, tournament, ValidationError(_("Choose paid, not paid or free.")))
    try:
        services.competitor_set_payment(by=request.user, competitor=competitor, **form.service_values())
    except ValidationError as error:
        return _back_to_dashboard(request, tournament, error)
    return _back_to_dashboard(request, tournament)


# -- the competitor's receipt and its « Ma soirée » link -----------------------------------


@tournament_view
def competitor_receipt(request: UserRequest, tournament: Tournament, competitor_id: int) -> HttpResponse:
    """The competitor's receipt, to print or to show at check-in: its number and name, and
    the QR code of its « Ma soirée » link, with the link itself to send, withdraw or renew."""
    competitor = access.competitor_of(tournament, competitor_id)
    url = public_url(request, reverse("soiree:page", args=[competitor.link_token]))
    emails = [player.email for player in competitor.players.all() if player.email]
    context = {
        "tournament": tournament,
        "club": tournament.club,
        "competitor": competitor,
        "players": list(competitor.players.all()),
        "url": url,
        "qr": qr_svg_inline(url),
        "emails": ",".join(emails),
        # Codes of 127.0.0.1 open on no phone: the receipt says so instead of printing one.
        "only_this_computer": only_this_computer(request),
    }
    return render(request, "tournaments/receipt.html", context)


@require_POST
@tournament_view
def competitor_link(request: UserRequest, tournament: Tournament, competitor_id: int) -> HttpResponse:
    """Withdraw the competitor's « Ma soirée » link, or give it a new one (a new receipt to print)."""
    competitor = access.competitor_of(tournament, competitor_id)
    action = request.POST.get("action")
    if action == "revoke":
        services.competitor_link_revoke(by=request.user, competitor=competitor)
        messages.success(request, _("The personal link of %(name)s no longer works.") % {"name": competitor.name})
    elif action == "renew":
        services.competitor_link_renew(by=request.user, competitor=competitor)
        messages.success(
            request, _("%(name)s has a new personal link: print the receipt again.") % {"name": competitor.name}
        )
    else:
        raise Http404("unknown action")
    return redirect("manage:receipt", pk=tournament.pk, competitor_id=competitor.pk)


# -- the door: self check-in (« Pointage ») and the room's count ----------------------------

# Seconds between two polls of the room's count on the dashboard.
ROOM_POLL_SECONDS = 5


def _room_context(tournament: Tournament) -> dict[str, Any]:
    """The desk's count of the room, with the ETag it was drawn with (it moves with every figure)."""
    room = selectors.room_count(tournament)
    etag = f'"room-{tournament.pk}-{room.stamp}-{tournament.entry_fee}-{get_language()}"'
    return {
        "tournament": tournament,
        "room": room,
        "room_etag": etag,
        "room_headers": json.dumps({"If-None-Match": etag}),
        "room_poll": ROOM_POLL_SECONDS,
    }


@tournament_view
def dashboard_room(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """The room's count alone, polled by the dashboard: 304 while nobody came in."""
    context = _room_context(tournament)
    return private_polled(
        request,
        context["room_etag"],
        lambda: render_to_string("tournaments/dashboard_room.html", context, request=request),
    )


def _door_url(request: UserRequest, door: Door) -> str:
    return public_url(request, reverse("door:page", args=[door.token]))


@tournament_view
def door(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """The door's link for the tablet, its poster, and its withdrawal or renewal."""
    found = services.door_open(by=request.user, tournament=tournament)
    context = {
        "tournament": tournament,
        "club": tournament.club,
        "door": found,
        "url": _door_url(request, found),
        "only_this_computer": only_this_computer(request),
    }
    response = render(request, "tournaments/door_manage.html", context)
    response["Referrer-Policy"] = "same-origin"
    return response


@tournament_view
def door_poster(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """The « Pointage » poster: A4, the QR code of the door's link, to pin up at the entrance."""
    found = services.door_open(by=request.user, tournament=tournament)
    url = _door_url(request, found)
    context = {
        "tournament": tournament,
        "door": found,
        "url": url,
        "qr": qr_svg_inline(url),
        "only_this_computer": only_this_computer(request),
    }
    response = render(request, "tournaments/door_poster.html", context)
    response["Referrer-Policy"] = "same-origin"
    return response


@require_POST
@tournament_view
def door_link(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """Withdraw the door's link, or give it a new one (a new poster to print)."""
    action = request.POST.get("action")
    if action == "revoke":
        services.door_link_revoke(by=request.user, tournament=tournament)
        messages.success(request, _("The door’s link no longer works."))
    elif action == "renew":
        services.door_link_renew(by=request.user, tournament=tournament)
        messages.success(request, _("The door has a new link: open it on the tablet and print the poster again."))
    else:
        return HttpResponseBadRequest(_("Unknown action."))
    return redirect("manage:door", pk=tournament.pk)


def _screen_context(tournament: Tournament, form: ScreenMessageForm | None = None, done: str = "") -> dict[str, Any]:
    return {
        "tournament": tournament,
        "screen_form": form or ScreenMessageForm(),
        "screen_messages": selectors.screen_messages(tournament.pk),
        "screen_done": done,
    }


def _screen_answer(
    request: UserRequest, tournament: Tournament, form: ScreenMessageForm | None, done: str
) -> HttpResponse:
    """From htmx the messages' panel in place (a refusal beside its field); else the dashboard."""
    if request.htmx:
        return render(request, "tournaments/dashboard_screen.html", _screen_context(tournament, form, done))
    if form is not None and form.errors:
        context = {**_dashboard_context(tournament), **_screen_context(tournament, form)}
        return render(request, "tournaments/dashboard.html", context, status=200)
    if done:
        messages.success(request, done)
    return redirect("manage:dashboard", pk=tournament.pk)


@require_POST
@tournament_view
def screen_message_post(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """The director's message goes on the projectors and the « Ma soirée » pages."""
    form = ScreenMessageForm(request.POST)
    if form.is_valid():
        try:
            services.screen_message_post(
                by=request.user,
                tournament=tournament,
                text=form.cleaned_data["text"] or "",
                minutes=form.cleaned_data["minutes"],
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            return _screen_answer(request, tournament, None, _("The message is on the screens."))
    return _screen_answer(request, tournament, form, "")


@require_POST
@tournament_view
def screen_message_withdraw(request: UserRequest, tournament: Tournament, message_id: int) -> HttpResponse:
    message = get_object_or_404(ScreenMessage, pk=message_id, tournament=tournament)
    services.screen_message_withdraw(by=request.user, message=message)
    return _screen_answer(request, tournament, None, _("The message is withdrawn from the screens."))
