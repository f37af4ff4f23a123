"""A season's ranking (public, also as CSV and PDF), and the organiser's button that rebuilds it.

Each shows the season as its reader may see it: `seasons.selectors.season_seen` decides.
"""

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
from tournaments.access import require_organiser


@require_safe
def season_ranking(request: HttpRequest, slug: str) -> HttpResponse:
    seen = selectors.season_seen(slug, request.user)
    context = {
        "season": seen.season,
        "snapshot": seen.snapshot,
        "rows": seen.rows,
        "tournaments": seen.tournaments,
        "organiser": seen.organiser,
        "job": selectors.season_jobs(seen.season).first() if seen.organiser else None,
    }
    return render(request, "seasons/ranking.html", context)


@require_safe
def season_csv(request: HttpRequest, slug: str) -> HttpResponse:
    seen = selectors.season_seen(slug, request.user)
    response = HttpResponse(exports.season_csv(seen), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{seen.season.slug}-classement.csv"'
    return response


@require_safe
def season_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    seen = selectors.season_seen(slug, request.user)
    response = HttpResponse(exports.season_pdf(seen), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{seen.season.slug}-classement.pdf"'
    return response


@require_POST
@login_required
def season_rebuild(request: UserRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("club"), slug=slug)
    require_organiser(request.user, season.club)
    ranking.season_rebuild_launch(season=season, by=request.user, rescore=request.POST.get("rescore") == "1")
    messages.success(request, _("The season ranking is being rebuilt."))
    return redirect("season:ranking", slug=season.slug)
