"""A season's rebuild runs as scoring's jobs do, though its work is the seasons app's.

Scoring claims and runs the job through what seasons registers, and tells seasons when
each tournament job ends (scoring.jobs.job_kind_register, scoring.signals.job_finished).
The task names are the ones from before seasons had an app: a message queued then runs.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring import jobs
from scoring.models import Job
from seasons import ranking
from seasons.models import Season, SeasonSnapshot
from tests.factories import ClubFactory
from tests.scoring.test_jobs_worker import wait_for
from tests.seasons.test_ranking import club_season  # noqa: F401  (a fixture)


@pytest.mark.django_db
def test_a_season_job_whose_season_was_deleted_fails_and_says_so(django_capture_on_commit_callbacks) -> None:
    season = Season.objects.create(club=ClubFactory(), name="Saison", slug="saison")
    with django_capture_on_commit_callbacks(execute=False):
        job = ranking.season_rebuild_launch(season=season)
    season.delete()
    jobs.job_run(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", "The season is gone.")
    with translation.override("fr"):
        assert translation.gettext(job.error) == "La saison n’existe plus."


@pytest.mark.django_db
def test_a_job_of_a_kind_no_installed_app_runs_fails_and_says_so(monkeypatch) -> None:
    # As when seasons/ is not installed: nobody registered the season jobs' runner.
    monkeypatch.setattr(jobs, "_runners", {})
    job = Job.objects.create(kind=Job.Kind.SEASON)
    jobs.job_run(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", "No installed app runs this kind of job.")


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_a_season_job_and_its_aggregation_under_their_old_names(
    club_season,  # noqa: F811
    celery_worker,
) -> None:
    season, _players = club_season
    job = ranking.season_rebuild_launch(season=season, rescore=False)
    wait_for(lambda: Job.objects.get(pk=job.pk).status in ("done", "failed"), what="the season job")
    job.refresh_from_db()
    assert (job.status, job.progress, job.total, job.error) == ("done", 2, 2, "")
    assert Job.objects.filter(kind="rebuild", status="done", params__counted=True).count() == 2
    assert SeasonSnapshot.objects.filter(season=season).count() == 1
    # The worker found both tasks by the names they had in scoring/, through Redis.
    log = celery_worker.log_path.read_text()
    assert "Task scoring.job_run[" in log and "Task scoring.season_aggregate[" in log
