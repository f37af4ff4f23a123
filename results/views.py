"""The results files' pages: the downloads of a tournament's file, its schema, a season's import.

The downloads are the club's organisers' (a league's too, for the copies it imported):
the file carries licences, which are never public. The schema is public, at a stable
address every file names (`building.SCHEMA_PATH`).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from kit.requests import SiteRequest, UserRequest
from results import building, selectors
from results.checking import MAX_BYTES, ResultsRefused
from results.importing import results_import
from seasons.models import Season
from tournaments.access import require_organiser
from tournaments.models import Tournament


def _organised_tournament(request: UserRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    require_organiser(request.user, tournament.club)
    return tournament


@require_safe
@login_required
def results_json(request: UserRequest, slug: str) -> HttpResponse:
    tournament = _organised_tournament(request, slug)
    text = building.results_dumps(building.results_file(tournament=tournament))
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-resultats.json"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_safe
@login_required
def results_csv(request: UserRequest, slug: str) -> HttpResponse:
    tournament = _organised_tournament(request, slug)
    text = building.results_csv(building.results_file(tournament=tournament))
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-resultats.csv"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_safe
@cache_control(public=True, max_age=3600)
def schema(request: SiteRequest, version: int) -> HttpResponse:
    if version != building.VERSION:
        return HttpResponse(status=404)
    return HttpResponse(building.SCHEMA_FILE.read_bytes(), content_type="application/schema+json")


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Results file (JSON)"),
        help_text=gettext_lazy("A tournament’s results file, as a club’s Atout downloads it (format atout-results)."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than %(mb)d MB.") % {"mb": MAX_BYTES // 1_000_000})
        return upload


@login_required
def season_import(request: UserRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("club"), slug=slug)
    require_organiser(request.user, season.club)
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            outcome = results_import(by=request.user, season=season, raw=form.cleaned_data["file"].read())
        except ResultsRefused as refused:
            problems = refused.problems
            refusal = ngettext(
                "The file is refused: %(count)d problem, listed below.",
                "The file is refused: %(count)d problems, listed below.",
                len(problems),
            )
            form.add_error("file", refusal % {"count": len(problems)})
        else:
            words = {
                "created": _("“%(name)s” is imported into the season: its ranking is being rebuilt."),
                "updated": _("“%(name)s” is updated from the newer file: the season’s ranking is being rebuilt."),
                "unchanged": _("“%(name)s” was already imported from this very file: nothing changed."),
                "own": _("“%(name)s” is one of the club’s own tournaments: it is counted in the season."),
            }
            messages.success(request, words[outcome.done] % {"name": outcome.tournament.name})
            return redirect("results:season_import", slug=season.slug)
    context = {
        "season": season,
        "club": season.club,
        "form": form,
        "problems": problems,
        "imported": selectors.season_imports(season),
    }
    return render(request, "results/season_import.html", context, status=400 if problems else 200)
