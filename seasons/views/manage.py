"""The organiser's season pages: a new season from the club's page, its edit page.

Saving a season queues its rebuild (seasons/ranking.py); the edit page shows the job's
progress with an htmx partial (`seasons/manage_jobs.html`) that polls while it runs.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from kit.requests import UserRequest
from scoring import jobs
from scoring.job_config import ACTIVE
from seasons import ranking, selectors, services
from seasons.forms import SeasonForm
from seasons.models import Season
from tournaments.access import require_organiser
from tournaments.forms import add_service_errors
from tournaments.models import Club


def _season_or_403(request: UserRequest, slug: str) -> Season:
    season = get_object_or_404(Season.objects.select_related("club"), slug=slug)
    require_organiser(request.user, season.club)
    return season


def _jobs_context(season: Season) -> dict[str, object]:
    recent = list(selectors.season_jobs(season)[:3])
    for job in recent:
        job.stale = jobs.job_is_stale(job)  # type: ignore[attr-defined]
        job.percent = int(100 * job.progress / job.total) if job.total else 0  # type: ignore[attr-defined]
    active = any(job.status in ACTIVE and not job.stale for job in recent)  # type: ignore[attr-defined]
    return {"season": season, "jobs": recent, "active": active}


def _save(request: UserRequest, form: SeasonForm, season: Season | None, club: Club) -> Season | None:
    """The season created or updated from a valid form, its rebuild queued; None on errors."""
    data = form.cleaned_data
    fields = {key: data[key] for key in ("name", "starts", "ends", "scheme", "placing_points")}
    try:
        with transaction.atomic():
            if season is None:
                season = services.season_create(by=request.user, club=club, **fields)
            else:
                season = services.season_update(by=request.user, season=season, **fields)
            services.season_tournaments_set(by=request.user, season=season, tournaments=data["tournaments"])
            ranking.season_rebuild_launch(season=season, by=request.user)
    except ValidationError as error:
        add_service_errors(form, error)
        return None
    return season


@login_required
def season_create(request: UserRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    require_organiser(request.user, club)
    placing = ", ".join(str(points) for points in ranking.DEFAULT_PLACING_POINTS)
    form = SeasonForm(request.POST or None, club=club, initial={"placing_points": placing})
    if request.method == "POST" and form.is_valid():
        season = _save(request, form, None, club)
        if season is not None:
            messages.success(request, _("Season created: its ranking is being built."))
            return redirect("season_manage:edit", slug=season.slug)
    return render(request, "seasons/manage_form.html", {"form": form, "club": club, "season": None})


@login_required
def season_edit(request: UserRequest, slug: str) -> HttpResponse:
    season = _season_or_403(request, slug)
    form = SeasonForm(request.POST or None, club=season.club, initial=SeasonForm.initial_for(season))
    if request.method == "POST" and form.is_valid() and _save(request, form, season, season.club) is not None:
        messages.success(request, _("Saved: the season ranking is being rebuilt."))
        return redirect("season_manage:edit", slug=season.slug)
    context = {**_jobs_context(season), "form": form, "club": season.club}
    return render(request, "seasons/manage_form.html", context)


@require_safe
@login_required
def jobs_partial(request: UserRequest, slug: str) -> HttpResponse:
    return render(request, "seasons/manage_jobs.html", _jobs_context(_season_or_403(request, slug)))
