"""Registration online: the public « S'inscrire » form (/t/<slug>/register/), the
director's page of entries (/manage/tournament/<pk>/online/). The club's embed page, which
shows the live ranking, is scoring's (scoring/views/embed.py).

The public form is a plain POST with Django's CSRF token, throttled per client address
(`ONLINE_ENTRIES_PER_HOUR`, kit.throttle, as the door's POSTs are) and guarded by a
honeypot field. A refusal comes back beside its field, with everything typed kept. The
page after a POST is reached by a signed reference to the entry (nothing to guess).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core import signing
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from kit.clients import client_address
from kit.requests import SiteRequest, UserRequest
from kit.throttle import count_hit
from tournaments import selectors
from tournaments.forms import add_service_errors
from tournaments.models import OnlineEntry, Tournament
from tournaments.online_forms import OnlineEntryForm, OnlineSettingsForm, PairForm
from tournaments.qr import public_url
from tournaments.services import online
from tournaments.views import refused, tournament_view

SALT = "tournaments.online.entry"


def _limit() -> int:
    return int(settings.ONLINE_ENTRIES_PER_HOUR)


def _public_tournament(slug: str) -> Tournament:
    tournament = selectors.public_tournament(slug)
    if tournament is None:
        raise Http404("no such public tournament")
    return tournament


def _form_page(
    request: SiteRequest, tournament: Tournament, form: OnlineEntryForm | None, status: int = 200
) -> HttpResponse:
    settings_ = online.online_settings(tournament)
    closed = online.online_closed(tournament, settings_)
    context: dict[str, Any] = {
        "tournament": tournament,
        "online": settings_,
        "closed": closed,
        "form": form or OnlineEntryForm(tournament=tournament, online=settings_),
        "full": online.is_full(tournament, settings_),
        "places_left": max(0, settings_.cap - online.places_taken(tournament)) if settings_.cap else None,
    }
    return render(request, "tournaments/online_register.html", context, status=status)


def register(request: SiteRequest, slug: str) -> HttpResponse:
    """« S'inscrire »: the form, its rules in sentences (cap, waiting list, closing date)."""
    tournament = _public_tournament(slug)
    if request.method != "POST":
        return _form_page(request, tournament, None)
    if count_hit(f"online:posts:{client_address(request)}", window=3600) > _limit():
        form = OnlineEntryForm(request.POST, tournament=tournament, online=online.online_settings(tournament))
        form.is_valid()
        form.add_error(None, _("Too many registrations came from this connection. Try again in an hour."))
        return _form_page(request, tournament, form, status=429)
    form = OnlineEntryForm(request.POST, tournament=tournament, online=online.online_settings(tournament))
    if not form.is_valid():
        return _form_page(request, tournament, form, status=400)
    data = form.cleaned_data
    try:
        entry = online.entry_submit(
            tournament=tournament,
            players=form.players(),
            email=data["email"],
            phone=data["phone"],
            name=data.get("name", ""),
            affiliation=data["affiliation"],
            seeking_partner=bool(data.get("seeking_partner")),
            site_url=public_url(request, "/").rstrip("/"),
        )
    except ValidationError as error:
        _add_errors(form, error)
        return _form_page(request, tournament, form, status=400)
    reference = signing.dumps(entry.pk, salt=SALT)
    return redirect(f"{reverse('draw:register_done', kwargs={'slug': slug})}?e={reference}")


def _add_errors(form: forms.BaseForm, error: ValidationError) -> None:
    add_service_errors(form, error)


@require_safe
def register_done(request: SiteRequest, slug: str) -> HttpResponse:
    """What became of the entry just sent: accepted, waiting (and where), pending, seeking."""
    tournament = _public_tournament(slug)
    try:
        entry_id = signing.loads(request.GET.get("e", ""), salt=SALT, max_age=86_400)
    except signing.BadSignature:
        raise Http404("no such entry") from None
    entry = get_object_or_404(OnlineEntry.objects.select_related("competitor"), pk=entry_id, tournament=tournament)
    context = {"tournament": tournament, "entry": entry, "position": online.waiting_position(entry)}
    return render(request, "tournaments/online_done.html", context)


# -- the director's page ---------------------------------------------------------------


def _entries_page(
    request: UserRequest, tournament: Tournament, form: OnlineSettingsForm | None = None, status: int = 200
) -> HttpResponse:
    settings_ = online.online_settings(tournament)
    entries = list(tournament.online_entries.select_related("competitor").order_by("created_at", "pk"))
    seeking = tournament.online_entries.filter(status=OnlineEntry.Status.SEEKING)
    by_status: dict[str, list[OnlineEntry]] = {}
    for entry in entries:
        by_status.setdefault(entry.status, []).append(entry)
    context = {
        "tournament": tournament,
        "club": tournament.club,
        "form": form or OnlineSettingsForm(initial=OnlineSettingsForm.initial_from(settings_)),
        "pair_form": PairForm(seeking=seeking) if seeking.count() >= 2 else None,
        "pending": by_status.get(OnlineEntry.Status.PENDING, []),
        "waiting": by_status.get(OnlineEntry.Status.WAITING, []),
        "seeking": by_status.get(OnlineEntry.Status.SEEKING, []),
        "accepted": by_status.get(OnlineEntry.Status.ACCEPTED, []),
        "refused": by_status.get(OnlineEntry.Status.REFUSED, []),
        "taken": online.places_taken(tournament),
        "online": settings_,
        "public_url": public_url(request, reverse("draw:register", kwargs={"slug": tournament.slug})),
        "embed_url": public_url(request, reverse("club_embed", kwargs={"slug": tournament.club.slug})),
    }
    return render(request, "tournaments/online_entries.html", context, status=status)


@tournament_view
def entries(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """The entries sent online, to accept, refuse or pair; the settings above them."""
    if request.method != "POST":
        return _entries_page(request, tournament)
    form = OnlineSettingsForm(request.POST)
    if not form.is_valid():
        return _entries_page(request, tournament, form, status=400)
    try:
        online.online_settings_update(by=request.user, tournament=tournament, **form.cleaned_data)
    except ValidationError as error:
        _add_errors(form, error)
        return _entries_page(request, tournament, form, status=400)
    messages.success(request, _("Registration online saved."))
    return redirect("manage:online", pk=tournament.pk)


@require_POST
@tournament_view
def entry_decide(request: UserRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = get_object_or_404(OnlineEntry, pk=entry_id, tournament=tournament)
    accept = request.POST.get("decision") == "accept"
    try:
        if accept:
            entry = online.entry_accept(by=request.user, entry=entry)
        else:
            entry = online.entry_refuse(by=request.user, entry=entry)
    except ValidationError as error:
        refused(request, error)
    else:
        if entry.status == OnlineEntry.Status.WAITING:
            messages.info(
                request, _("The tournament is full: %(entry)s is on the waiting list.") % {"entry": entry.label}
            )
        else:
            messages.success(
                request, _("%(entry)s: %(status)s.") % {"entry": entry.label, "status": entry.get_status_display()}
            )
    return redirect("manage:online", pk=tournament.pk)


@require_POST
@tournament_view
def entries_pair(request: UserRequest, tournament: Tournament) -> HttpResponse:
    seeking = tournament.online_entries.filter(status=OnlineEntry.Status.SEEKING)
    form = PairForm(request.POST, seeking=seeking)
    if not form.is_valid():
        refused(request, ValidationError(_("Choose two players looking for a partner.")))
        return redirect("manage:online", pk=tournament.pk)
    try:
        entry = online.entries_pair(by=request.user, **form.cleaned_data)
    except ValidationError as error:
        refused(request, error)
    else:
        messages.success(
            request, _("%(entry)s: %(status)s.") % {"entry": entry.label, "status": entry.get_status_display()}
        )
    return redirect("manage:online", pk=tournament.pk)
