"""The director's desk: several players registered at once, two records of one player
merged, and the club's log.

Registering many: the tournament's registration page lists the club's players not yet in
(searched without accents or case) to tick, and takes a pasted list of names. A pasted
list is read first (each line matched, nothing written), then registered once every
line is settled; the text stays in the form all along. Merging: choose the two records,
read what moves, confirm. Every write is a service's (tournaments/services/bulk.py,
merge.py); a refusal comes back beside its field.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from kit.requests import UserRequest
from tournaments import selectors, services
from tournaments.club_views import club_admin_view
from tournaments.desk_forms import MergeForm, PasteForm, TickForm
from tournaments.forms import RegistrationForm, add_service_errors
from tournaments.models import Club, Competitor, Player, Tournament
from tournaments.views import club_view, confirmed, tournament_view

# The club's players listed to tick at once; a search narrows a longer list.
TICK_LIMIT = 60
LOG_LIMIT = 200


def available_players(tournament: Tournament, search: str = "") -> QuerySet[Player]:
    """The club's players not registered in the tournament (withdrawn ones aside), searched."""
    registered = Player.objects.filter(competitors__tournament=tournament).exclude(
        competitors__status=Competitor.Status.WITHDRAWN
    )
    return selectors.club_players(tournament.club, search).filter(anonymised_at__isnull=True).exclude(pk__in=registered)


def bulk_context(request: UserRequest, tournament: Tournament, tick: TickForm | None = None) -> dict[str, Any]:
    """What the registration page shows to register several players at once."""
    search = request.GET.get("q", "")[:100]
    available = available_players(tournament, search)
    listed = list(available[: TICK_LIMIT + 1])
    if tick is None:
        tick = TickForm(available=available.filter(pk__in=[p.pk for p in listed[:TICK_LIMIT]]))
    return {
        "bulk_search": search,
        "tick": tick,
        "more_than_listed": len(listed) > TICK_LIMIT,
        "tick_limit": TICK_LIMIT,
        "paste": PasteForm(),
        "teams": _teams(tournament),
    }


def _register_page(
    request: UserRequest,
    tournament: Tournament,
    form: RegistrationForm | None = None,
    tick: TickForm | None = None,
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "club": tournament.club,
        "form": form or RegistrationForm(tournament=tournament),
        **bulk_context(request, tournament, tick),
    }
    return render(request, "tournaments/register.html", context)


@tournament_view
def register(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """One team or player at a time; the same page ticks or pastes several (below)."""
    form = RegistrationForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            competitor = services.competitor_register(
                by=request.user,
                tournament=tournament,
                players=form.players(),
                name=form.cleaned_data.get("name", ""),
                checked_in=form.cleaned_data["checked_in"],
            )
        except ValidationError as error:
            form.add_refusal(error)
        else:
            messages.success(
                request,
                _("%(name)s registered (no. %(number)s).") % {"name": competitor.name, "number": competitor.number},
            )
            if "again" in request.POST:
                return redirect("manage:register", pk=tournament.pk)
            if "receipt" in request.POST:
                return redirect("manage:receipt", pk=tournament.pk, competitor_id=competitor.pk)
            return redirect("manage:dashboard", pk=tournament.pk)
    return _register_page(request, tournament, form=form)


def _result_page(request: UserRequest, tournament: Tournament, result: services.BulkResult) -> HttpResponse:
    context = {"tournament": tournament, "club": tournament.club, "result": result}
    return render(request, "tournaments/register_many_done.html", context)


@require_POST
@tournament_view
def register_ticked(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """Register the players ticked in the list, in the list's order."""
    available = available_players(tournament)
    tick = TickForm(request.POST, available=available)
    if tick.is_valid():
        try:
            result = services.competitors_register_many(
                by=request.user,
                tournament=tournament,
                players=tick.ticked(request.POST.getlist("players")),
                checked_in=tick.cleaned_data["checked_in"],
            )
        except ValidationError as error:
            add_service_errors(tick, error)
        else:
            return _result_page(request, tournament, result)
    # The list shown again with the ticks kept: the players ticked, and the first of the rest.
    ticked = [pk for pk in request.POST.getlist("players") if pk.isdigit()]
    shown = ticked + [str(p.pk) for p in available[:TICK_LIMIT]]
    players = tick.fields["players"]
    assert isinstance(players, forms.ModelMultipleChoiceField)
    players.queryset = available.filter(pk__in=shown)
    return _register_page(request, tournament, tick=tick)


@require_POST
@tournament_view
def register_pasted(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """Read a pasted list (step « check »), then register it once every line is settled
    (step « register », only for the text that was read: an edited text is read again)."""
    paste = PasteForm(request.POST)
    context: dict[str, Any] = {"tournament": tournament, "club": tournament.club, "teams": _teams(tournament)}
    if not paste.is_valid():
        return render(request, "tournaments/register_many.html", context | {"paste": paste})
    text = paste.cleaned_data["text"]
    try:
        lines = services.pasted_lines_read(by=request.user, club=tournament.club, text=text)
    except ValidationError as error:
        add_service_errors(paste, error)
        return render(request, "tournaments/register_many.html", context | {"paste": paste})
    data = request.POST.copy()
    for line in lines:
        # A new player's name as read from the line, until the director corrects it.
        if line.status == "new":
            data.setdefault(f"first_{line.line}", line.first_name)
            data.setdefault(f"last_{line.line}", line.last_name)
    paste = PasteForm(data, lines=lines)
    paste.is_valid()
    if request.POST.get("step") == "register" and request.POST.get("read") == text:
        players = paste.players()
        if players:
            try:
                result = services.competitors_register_many(
                    by=request.user, tournament=tournament, players=players, checked_in=paste.cleaned_data["checked_in"]
                )
            except ValidationError as error:
                add_service_errors(paste, error)
            else:
                return _result_page(request, tournament, result)
    return render(request, "tournaments/register_many.html", context | {"paste": paste, "read": text})


def _teams(tournament: Tournament) -> bool:
    return tournament.format == Tournament.Format.TEAMS


# -- two records of one player -------------------------------------------------------------


@club_view
def players_merge(request: UserRequest, club: Club) -> HttpResponse:
    """Choose the two records -> read what moves -> confirm (then the players' list)."""
    initial = {"kept": request.GET.get("kept", "")}
    form = MergeForm(request.POST or None, club=club, initial=initial)
    preview: services.MergePreview | None = None
    if request.method == "POST" and form.is_valid():
        kept, merged = form.cleaned_data["kept"], form.cleaned_data["merged"]
        try:
            # Confirmed for the pair previewed only: a choice changed since shows its own preview.
            if confirmed(request) and request.POST.get("previewed") == f"{kept.pk}:{merged.pk}":
                done = services.players_merge(by=request.user, kept=kept, merged=merged)
                messages.success(
                    request,
                    _("%(merged)s merged into %(kept)s.")
                    % {"merged": done.merged.full_name, "kept": done.kept.full_name},
                )
                return redirect("manage:players", club_id=club.pk)
            preview = services.players_merge_preview(by=request.user, kept=kept, merged=merged)
        except ValidationError as error:
            add_service_errors(form, error)
    return render(request, "tournaments/players_merge.html", {"club": club, "form": form, "preview": preview})


@club_admin_view
def club_log(request: UserRequest, club: Club) -> HttpResponse:
    """The club's log, newest first: for its administrators."""
    entries = club.log_entries.select_related("by")[:LOG_LIMIT]
    return render(request, "tournaments/club_log.html", {"club": club, "entries": entries, "limit": LOG_LIMIT})
