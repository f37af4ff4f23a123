"""A season's ranking (public, also as CSV and PDF), and the organiser's button that rebuilds it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from kit.requests import UserRequest
from seasons import exports, ranking, selectors
from seasons.models import Season
from tournaments.access import is_organiser, require_organiser


@require_safe
def season_ranking(request: HttpRequest, slug: str) -> HttpResponse:
    season, snapshot = selectors.public_season(slug)
    organiser = is_organiser(request.user, season.club)
    job = selectors.season_jobs(season).first() if organiser else None
    context = {
        "season": season,
        "snapshot": snapshot,
        "rows": selectors.season_rows_shown(snapshot.rows if snapshot is not None else [], organiser=organiser),
        "tournaments": selectors.season_tournaments(season, organiser=organiser),
        "organiser": organiser,
        "job": job,
    }
    return render(request, "seasons/ranking.html", context)


@require_safe
def season_csv(request: HttpRequest, slug: str) -> HttpResponse:
    season, snapshot = selectors.public_season(slug)
    # Licence numbers and hidden players' names for the club's organisers only (as the page).
    text = exports.season_csv(season, snapshot, organiser=is_organiser(request.user, season.club))
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{season.slug}-classement.csv"'
    return response


@require_safe
def season_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    season, snapshot = selectors.public_season(slug)
    pdf = exports.season_pdf(season, snapshot, organiser=is_organiser(request.user, season.club))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{season.slug}-classement.pdf"'
    return response


@require_POST
@login_required
def season_rebuild(request: UserRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("club"), slug=slug)
    require_organiser(request.user, season.club)
    ranking.season_rebuild_launch(season=season, by=request.user, rescore=request.POST.get("rescore") == "1")
    messages.success(request, _("The season ranking is being rebuilt."))
    return redirect("season:ranking", slug=season.slug)
