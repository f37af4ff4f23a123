"""The director's standings page: the ranking as it stands, what it depends on, the jobs.

Mounted at /manage/t/<slug>/standings/ (namespace "standings_manage"). Saving the form
queues a job (scoring/jobs.py) that re-scores the hands when a rule option changed and
rebuilds the ranking; the page shows the job's progress with an htmx partial
(`manage_jobs.html`) that polls while a job is queued or running.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring import jobs
from scoring.access import organiser_tournament
from scoring.forms.standings import StandingsRulesForm
from scoring.job_config import ACTIVE, pending_config
from scoring.models import Job
from scoring.selectors import standings as selectors
from scoring.standings import columns_for
from tournaments.forms import add_service_errors
from tournaments.models import Tournament


def _jobs_context(tournament: Tournament) -> dict[str, object]:
    recent = selectors.latest_jobs(tournament)
    for job in recent:
        job.stale = jobs.job_is_stale(job)  # type: ignore[attr-defined]
        job.percent = int(100 * job.progress / job.total) if job.total else 0  # type: ignore[attr-defined]
    active = any(job.status in ACTIVE and not job.stale for job in recent)  # type: ignore[attr-defined]
    return {"tournament": tournament, "jobs": recent, "active": active}


@organiser_tournament
def index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    config = pending_config(tournament)
    if request.method == "POST":
        form = StandingsRulesForm(request.POST, tournament=tournament)
        if form.is_valid():
            try:
                jobs.standings_rules_change(
                    by=request.user, tournament=tournament, config=form.config(), rescore=form.cleaned_data["rescore"]
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, _("Saved: the ranking is being recalculated."))
                return redirect("standings_manage:index", slug=tournament.slug)
    else:
        form = StandingsRulesForm(initial=StandingsRulesForm.initial_for(tournament, config), tournament=tournament)
    snapshot = selectors.live_snapshot(tournament)
    context = {
        **_jobs_context(tournament),
        "form": form,
        "club": tournament.club,
        "snapshot": snapshot,
        # The ranking as it stands, parties played included, under the rules that made it.
        "columns": columns_for(snapshot.criteria if snapshot is not None else []),
        "competitor_base": reverse("public:ranking", kwargs={"slug": tournament.slug}) + "c/",
        # What the ranking counts, as the public pages say it above the table.
        "progress": selectors.ranking_progress(snapshot),
        "in_play_count": selectors.parties_in_play(snapshot),
    }
    return render(request, "scoring/standings/manage.html", context)


@require_safe
@organiser_tournament
def jobs_partial(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "scoring/standings/manage_jobs.html", _jobs_context(tournament))


@require_POST
@organiser_tournament
def recalculate(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Re-score every hand with the current options and rebuild the ranking."""
    jobs.job_launch(tournament=tournament, by=request.user, rescore=True)
    messages.success(request, _("Recalculation queued."))
    return redirect("standings_manage:index", slug=tournament.slug)


@require_POST
@organiser_tournament
def retry(request: HttpRequest, tournament: Tournament, job_id: int) -> HttpResponse:
    job = get_object_or_404(Job, pk=job_id, tournament=tournament)
    if jobs.job_retry(job=job):
        messages.success(request, _("The job is queued again."))
    else:
        messages.error(request, _("This job cannot be retried: it is done, still running, or replaced by a newer one."))
    return redirect("standings_manage:index", slug=tournament.slug)
