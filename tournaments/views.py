"""The organiser's pages under /manage/: clubs, players, tournaments, the night's dashboard.

Every view is behind login and loads its club or tournament through `tournaments.access`
(the `club_view` and `tournament_view` decorators): a missing id is a 404, another club's
a 403. Views stay thin: a form checks the request's shape, a service does the write, and
a refused write comes back as the form's errors (200) or as a message on the dashboard.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from kit.requests import UserRequest
from tournaments import access, csv_import, games, selectors, services
from tournaments.forms import (
    CLOCK_ADJUST,
    CLOCK_START,
    ClockForm,
    CsvConfirmForm,
    CsvUploadForm,
    ForbiddenPairForm,
    PlayerForm,
    StatusForm,
    TournamentForm,
    add_service_errors,
    same_person_offers,
)
from tournaments.models import Club, ForbiddenPair, Player, Round, Tournament

View = Callable[..., HttpResponse]


def club_view(view: View) -> View:
    @login_required
    @functools.wraps(view)
    def wrapper(request: HttpRequest, club_id: int, **kwargs: Any) -> HttpResponse:
        return view(request, access.club_for_user_or_403(request.user, club_id), **kwargs)

    return wrapper


def tournament_view(view: View) -> View:
    @login_required
    @functools.wraps(view)
    def wrapper(request: HttpRequest, pk: int, **kwargs: Any) -> HttpResponse:
        return view(request, access.tournament_for_user_or_403(request.user, pk), **kwargs)

    return wrapper


def refused(request: UserRequest, error: ValidationError) -> None:
    """A refused write, its messages shown on the next page (the director's pages share it)."""
    for message in error.messages:
        messages.error(request, message)


def confirmed(request: UserRequest) -> bool:
    """Whether the director confirmed a destructive action on the page that explained it."""
    return request.POST.get("confirmed") == "1"


def confirm_page(
    request: UserRequest,
    tournament: Tournament,
    *,
    title: str,
    consequences: list[str],
    button: str,
    fields: Sequence[tuple[str, str]] = (),
) -> HttpResponse:
    """Ask before acting: what the action will do, a button to go on and a way back.

    The action's own URL answers the first POST with this page; the button posts again
    with `confirmed=1`. It works without JavaScript and a mistap changes nothing.
    """
    context = {
        "tournament": tournament,
        "club": tournament.club,
        "title": title,
        "consequences": consequences,
        "button": button,
        "action": request.path,
        "fields": fields,
    }
    return render(request, "tournaments/confirm.html", context)


# -- clubs and players -----------------------------------------------------------------


@login_required
def clubs(request: UserRequest) -> HttpResponse:
    site_admin = access.is_site_admin(request.user)
    context = {
        "clubs": access.clubs_of(request.user),
        "site_admin": site_admin,
        "may_create_club": access.may_create_club(request.user),
        "all_clubs": Club.objects.all() if site_admin else Club.objects.none(),
    }
    return render(request, "tournaments/clubs.html", context)


@club_view
def club(request: UserRequest, club: Club) -> HttpResponse:
    context = {
        "club": club,
        "tournaments": selectors.club_tournaments(club),
        "player_count": club.players.count(),
        "is_club_admin": access.is_club_admin(request.user, club),
    }
    return render(request, "tournaments/club.html", context)


@club_view
def players(request: UserRequest, club: Club) -> HttpResponse:
    search = request.GET.get("q", "")[:100]
    context = {"club": club, "players": selectors.club_players(club, search), "search": search}
    return render(request, "tournaments/players.html", context)


@club_view
def player_add(request: UserRequest, club: Club) -> HttpResponse:
    form = PlayerForm(request.POST or None)
    twin: Player | None = None
    if request.method == "POST" and form.is_valid():
        try:
            player = services.player_create(by=request.user, club=club, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
            # The player typed is one the club has: their record is offered instead.
            twin_id = next(iter(same_person_offers(error).values()), None)
            twin = club.players.filter(pk=twin_id).first() if twin_id else None
        else:
            messages.success(request, _("%(player)s added.") % {"player": player.full_name})
            return redirect("manage:players", club_id=club.pk)
    context = {"club": club, "form": form, "player": None, "twin": twin}
    return render(request, "tournaments/player_form.html", context)


@club_view
def player_edit(request: UserRequest, club: Club, player_id: int) -> HttpResponse:
    player = access.player_for_user_or_403(request.user, club, player_id)
    form = PlayerForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        try:
            # The service reads the form's values; the instance the form touched is reloaded.
            services.player_update(by=request.user, player=player, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("%(player)s saved.") % {"player": player.full_name})
            return redirect("manage:players", club_id=club.pk)
    context = {
        "club": club,
        "form": form,
        "player": player,
        "can_anonymise": player.anonymised_at is None and access.is_club_admin(request.user, club),
    }
    return render(request, "tournaments/player_form.html", context)


@club_view
def players_import(request: UserRequest, club: Club) -> HttpResponse:
    """Upload -> preview (nothing written) -> confirm (written only if every row is valid)."""
    upload = CsvUploadForm()
    preview, confirm = None, None
    if request.method == "POST" and "text" in request.POST:
        confirm = CsvConfirmForm(request.POST)
        if confirm.is_valid():
            try:
                created = services.players_import(by=request.user, club=club, text=confirm.cleaned_data["text"])
            except ValidationError:
                preview = services.players_import_preview(by=request.user, club=club, text=confirm.cleaned_data["text"])
            else:
                messages.success(request, _("%(count)s players imported.") % {"count": len(created)})
                return redirect("manage:players", club_id=club.pk)
    elif request.method == "POST":
        upload = CsvUploadForm(request.POST, request.FILES)
        if upload.is_valid():
            try:
                text = csv_import.decode(upload.cleaned_data["file"].read(csv_import.MAX_BYTES + 1))
            except csv_import.ImportFileError as error:
                upload.add_error("file", str(error))
            else:
                preview = services.players_import_preview(by=request.user, club=club, text=text)
                confirm = CsvConfirmForm(initial={"text": text})
    context = {"club": club, "upload": upload, "preview": preview, "confirm": confirm}
    return render(request, "tournaments/players_import.html", context)


# -- tournaments -----------------------------------------------------------------------


def _chosen_game(request: UserRequest, default: str) -> str:
    game = request.POST.get("game") or request.GET.get("game") or default
    return game if game in games.game_codes() else default


@club_view
def tournament_create(request: UserRequest, club: Club) -> HttpResponse:
    game = _chosen_game(request, Tournament.Game.BELOTE_CLASSIQUE)
    if request.method == "POST":
        form = TournamentForm(request.POST, game=game)
        if form.is_valid():
            try:
                tournament = services.tournament_create(by=request.user, club=club, **form.service_values())
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, _("Tournament created. Open registration when you are ready."))
                return redirect("manage:dashboard", pk=tournament.pk)
    else:
        form = TournamentForm(initial={"game": game, "end_rule": "donnes", "bye_policy": "average_win"}, game=game)
    if request.htmx and request.method == "GET":
        return render(request, "tournaments/tournament_form_options.html", {"form": form})
    return render(request, "tournaments/tournament_form.html", {"club": club, "form": form, "tournament": None})


@tournament_view
def tournament_edit(request: UserRequest, tournament: Tournament) -> HttpResponse:
    # What the status fixes is shown disabled with its reason, and what is posted for it
    # is ignored: the form keeps the tournament's value (Django's disabled fields).
    frozen = services.tournament_frozen_fields(tournament=tournament)
    game = tournament.game if "game" in frozen else _chosen_game(request, tournament.game)
    if request.method == "POST":
        form = TournamentForm(
            request.POST,
            initial=TournamentForm.initial_from(tournament),
            game=game,
            criteria=tournament.criteria,
            frozen=frozen,
        )
        if form.is_valid():
            try:
                services.tournament_update(by=request.user, tournament=tournament, **form.service_values())
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, _("Tournament saved."))
                return redirect("manage:dashboard", pk=tournament.pk)
    else:
        initial = TournamentForm.initial_from(tournament)
        if game != tournament.game:
            initial.update(game=game, options_for=game, table_preference=games.usual_table_preference(game))
        form = TournamentForm(initial=initial, game=game, criteria=tournament.criteria, frozen=frozen)
    if request.htmx and request.method == "GET":
        return render(request, "tournaments/tournament_form_options.html", {"form": form})
    context = {"club": tournament.club, "form": form, "tournament": tournament}
    return render(request, "tournaments/tournament_form.html", context)


def clock_context(tournament: Tournament, rnd: Round | None, form: ClockForm | None = None) -> dict[str, Any]:
    """The dashboard's clock panel: the time left and the form that fits (start, or change).

    `form` is a refused form to show again with its errors beside the field.
    """
    clock = selectors.round_clock(rnd)
    action = CLOCK_ADJUST if clock is not None else CLOCK_START
    if form is None or form.data.get("clock-action") != action:
        initial = {"action": action, "minutes": 5 if clock else selectors.default_clock_minutes(tournament)}
        form = ClockForm(action=action, initial=initial)
    return {"tournament": tournament, "round": rnd, "clock": clock, "clock_form": form}


@require_POST
@tournament_view
def tournament_status(request: UserRequest, tournament: Tournament) -> HttpResponse:
    form = StatusForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Unknown status."))
    elif form.cleaned_data["status"] == Tournament.Status.FINISHED and not confirmed(request):
        return confirm_page(
            request,
            tournament,
            title=_("Finish %(name)s?") % {"name": tournament.name},
            consequences=[
                _("No round can be drawn and no donne entered any more: the ranking becomes final."),
                _("Only the name, the date and the visibility can still be changed."),
            ],
            button=_("Finish the tournament"),
            fields=[("status", Tournament.Status.FINISHED)],
        )
    else:
        try:
            services.tournament_set_status(by=request.user, tournament=tournament, status=form.cleaned_data["status"])
        except ValidationError as error:
            refused(request, error)
    return redirect("manage:dashboard", pk=tournament.pk)


@tournament_view
def forbidden(request: UserRequest, tournament: Tournament) -> HttpResponse:
    form = ForbiddenPairForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            services.forbidden_pair_add(by=request.user, tournament=tournament, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("They will be kept apart."))
            return redirect("manage:forbidden", pk=tournament.pk)
    pairs = tournament.forbidden_pairs.select_related("first", "second").order_by("first__number")
    context = {"tournament": tournament, "club": tournament.club, "form": form, "pairs": pairs}
    return render(request, "tournaments/forbidden.html", context)


@require_POST
@tournament_view
def forbidden_delete(request: UserRequest, tournament: Tournament, pair_id: int) -> HttpResponse:
    pair = get_object_or_404(ForbiddenPair, pk=pair_id, tournament=tournament)
    services.forbidden_pair_remove(by=request.user, pair=pair)
    return redirect("manage:forbidden", pk=tournament.pk)


# -- rounds (drawn and closed in rounds/views.py) ---------------------------------------


@tournament_view
def round_print(request: UserRequest, tournament: Tournament, number: int) -> HttpResponse:
    rnd = access.round_of(tournament, number)
    context = {
        "tournament": tournament,
        "round": rnd,
        "tables": selectors.drawn_tables(rnd),
        "byes": selectors.round_byes(rnd),
    }
    return render(request, "tournaments/round_print.html", context)
