"""The director's pages for hands: every table's sheet, corrections and deletions with a
reason, the history of every change, and the printable table sheets with their QR codes.

All of them sit under `/manage/t/<slug>/hands/` behind `organiser_tournament` (login,
and an organiser of the tournament's club). The director may change any donne of any
table at any time, round closed or not; the services re-score the whole partie.
"""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from kit.polling import private_polled
from kit.requests import UserRequest
from scoring.access import organiser_tournament
from scoring.forms.base import HandForm, ReasonForm
from scoring.forms.games import hand_form_class
from scoring.hand_words import DonneWords, HandWords
from scoring.models import Hand, HandRevision, RefereeCall
from scoring.partie import table_game, tournament_options_or_defaults
from scoring.selectors.calls import calls_panel, table_calls
from scoring.selectors.tables import hand_check_replacing, round_tables_with_counts, table_sheet, table_sides
from scoring.services import (
    HandRefused,
    hand_correct,
    hand_delete,
    referee_call_handle,
    table_token_renew,
    table_token_revoke,
)
from tournaments import games
from tournaments.models import Round, Table, Tournament
from tournaments.qr import only_this_computer, public_url


def _round(tournament: Tournament, request: UserRequest) -> Round | None:
    """The round asked for (?round=N), else the open one, else the latest."""
    rounds = Round.objects.filter(tournament=tournament)
    asked = request.GET.get("round", "")
    if asked.isdigit():
        return get_object_or_404(rounds, number=int(asked))
    return rounds.filter(status=Round.Status.OPEN).order_by("-number").first() or rounds.order_by("-number").first()


def _table(tournament: Tournament, table_id: int) -> Table:
    tables = Table.objects.select_related("round__tournament")
    return get_object_or_404(tables, pk=table_id, round__tournament=tournament)


def _hand(tournament: Tournament, hand_id: int) -> Hand:
    return get_object_or_404(
        Hand.objects.select_related("table__round__tournament"), pk=hand_id, table__round__tournament=tournament
    )


def _base(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    return {"tournament": tournament, "club": tournament.club, "manage": True, **extra}


@organiser_tournament
def index(request: UserRequest, tournament: Tournament) -> HttpResponse:
    rnd = _round(tournament, request)
    rounds = Round.objects.filter(tournament=tournament).order_by("number")
    tables = round_tables_with_counts(tournament, rnd.number) if rnd is not None else []
    return render(request, "scoring/hands_index.html", _base(tournament, round=rnd, rounds=rounds, tables=tables))


@organiser_tournament
def table_hands(request: UserRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    table = _table(tournament, table_id)
    referee_url = public_url(request, reverse("referee:table", args=[table.token]))
    context = _base(
        tournament,
        table=table,
        sheet=table_sheet(table),
        referee_url=referee_url,
        only_this_computer=only_this_computer(request),
    )
    return render(request, "scoring/hands_table.html", context)


@organiser_tournament
def history(request: UserRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    table = _table(tournament, table_id)
    revisions = list(HandRevision.objects.filter(table=table).select_related("author").order_by("-at", "-pk"))
    sides = table_sides(table)
    words = HandWords(sides)
    for revision in revisions:
        # A whole table re-scored (number 0): its donnes side by side, before and after.
        before, after = revision.before or {}, revision.after or {}
        # Attributes for the template only, beside the revision's own fields.
        revision.donnes = [  # type: ignore[attr-defined]
            (DonneWords(old, words), DonneWords(new, words))
            for old, new in zip(before.get("donnes", []), after.get("donnes", []), strict=False)
        ]
        revision.states = [  # type: ignore[attr-defined]
            (label, DonneWords(state, words))
            for label, state in ((("before", _("Before")), revision.before), (("after", _("After")), revision.after))
            if state
        ]
    calls = list(table_calls(table))
    context = _base(tournament, table=table, revisions=revisions, sides=sides, calls=calls)
    return render(request, "scoring/hands_history.html", context)


def _hand_form(hand: Hand, data: Any = None) -> HandForm:
    tournament = hand.table.round.tournament
    game = table_game(hand.table)
    raw = hand.raw if isinstance(hand.raw, dict) else {}
    return hand_form_class(game.code)(
        data,
        game=game,
        options=tournament_options_or_defaults(tournament),
        sides=table_sides(hand.table),
        initial_raw=None if data is not None else raw,
    )


@require_http_methods(["GET", "POST"])
@organiser_tournament
def edit(request: UserRequest, tournament: Tournament, hand_id: int) -> HttpResponse:
    hand = _hand(tournament, hand_id)
    if request.method == "GET":
        form, reason_form = _hand_form(hand), ReasonForm()
    else:
        form, reason_form = _hand_form(hand, request.POST), ReasonForm(request.POST)
        hand_ok = form.is_valid()
        reason_ok = reason_form.is_valid()
        if hand_ok and reason_ok:
            try:
                hand_correct(hand=hand, raw=form.raw(), reason=reason_form.cleaned_data["reason"], by=request.user)
            except HandRefused as refused:
                form.add_rule_errors([error for error in refused.errors if error.field != "reason"])
            else:
                messages.success(request, _("Donne %(number)s is corrected.") % {"number": hand.number})
                return redirect("hands:table", slug=tournament.slug, table_id=hand.table_id)
        else:
            form.add_rule_errors(hand_check_replacing(hand.table, hand, form.raw()).errors)
    context = _base(
        tournament,
        hand=hand,
        table=hand.table,
        form=form,
        reason_form=reason_form,
        form_body=f"scoring/referee_form_{form.body}.html",
    )
    return render(request, "scoring/hands_edit.html", context)


@require_http_methods(["GET", "POST"])
@organiser_tournament
def delete(request: UserRequest, tournament: Tournament, hand_id: int) -> HttpResponse:
    hand = _hand(tournament, hand_id)
    reason_form = ReasonForm(request.POST or None)
    if request.method == "POST" and reason_form.is_valid():
        try:
            hand_delete(hand=hand, reason=reason_form.cleaned_data["reason"], by=request.user)
        except HandRefused as refused:
            for message in refused.by_field().values():
                reason_form.add_error(None, " ".join(message))
        else:
            messages.success(request, _("Donne %(number)s is deleted.") % {"number": hand.number})
            return redirect("hands:table", slug=tournament.slug, table_id=hand.table_id)
    context = _base(tournament, hand=hand, table=hand.table, reason_form=reason_form)
    return render(request, "scoring/hands_delete.html", context)


@require_POST
@organiser_tournament
def table_link(request: UserRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """Withdraw the table's link, or give it a new one (to print as a new QR code)."""
    table = _table(tournament, table_id)
    action = request.POST.get("action")
    if action == "revoke":
        table_token_revoke(table=table, by=request.user)
        messages.success(request, _("The link of table %(number)s no longer works.") % {"number": table.number})
    elif action == "renew":
        table_token_renew(table=table, by=request.user)
        messages.success(
            request, _("Table %(number)s has a new link: print its sheet again.") % {"number": table.number}
        )
    else:
        raise Http404("unknown action")
    return redirect("hands:table", slug=tournament.slug, table_id=table.pk)


def qr_svg(url: str) -> str:
    """The QR code of `url` as inline SVG (drawn by segno: no image files, prints sharp)."""
    return segno.make(url, error="m").svg_inline(scale=4, border=2)


@organiser_tournament
def sheets(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """One printable sheet per table: who sits where, the QR code of its link, blank rows."""
    rnd = _round(tournament, request)
    # Codes of 127.0.0.1 open on no phone: the sheets say so instead of printing them.
    unreachable = only_this_computer(request)
    printable = []
    if rnd is not None:
        for table in Table.objects.filter(round=rnd).order_by("number"):
            url = public_url(request, reverse("referee:table", args=[table.token]))
            sides = table_sides(table)
            # A row per donne the table plays (more at a table of five with a mort).
            donnes = games.table_donnes(tournament, len(sides))
            printable.append(
                {
                    "table": table,
                    "sides": sides,
                    "url": url,
                    # segno's own output: no user text reaches the SVG but the URL's QR matrix.
                    "qr": "" if unreachable else mark_safe(qr_svg(url)),
                    "blank_rows": range(donnes or 16),
                    "mort": games.table_game_code(tournament.game, len(sides), tournament.table_de_cinq)
                    == games.MORT_TABLE_GAME,
                }
            )
    context = _base(tournament, round=rnd, sheets=printable, only_this_computer=unreachable)
    return render(request, "scoring/hands_sheets.html", context)


@require_safe
@organiser_tournament
def calls(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """The open referee calls alone, polled by the dashboard (304 while nothing moved)."""
    context = calls_panel(tournament)
    return private_polled(
        request, context["calls_etag"], lambda: render_to_string("scoring/calls_list.html", context, request=request)
    )


@require_POST
@organiser_tournament
def call_handled(request: UserRequest, tournament: Tournament, call_id: int) -> HttpResponse:
    """The director marks a call handled: it leaves the dashboard and stays in the table's history."""
    call = get_object_or_404(RefereeCall, pk=call_id, table__round__tournament=tournament)
    referee_call_handle(call=call, by=request.user)
    if request.htmx:
        return render(request, "scoring/calls_list.html", calls_panel(tournament))
    messages.success(request, _("The call of table %(number)s is handled.") % {"number": call.table.number})
    return redirect("manage:dashboard", pk=tournament.pk)
