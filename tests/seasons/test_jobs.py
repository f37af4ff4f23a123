"""A season's rebuild runs as scoring's jobs do, under a task of the seasons app's own.

`seasons.job_run` claims and runs the job through scoring's job machinery, called
downwards (scoring.jobs.job_work); scoring tells seasons when each tournament job ends
(scoring.signals.job_finished) and knows nothing else of it. A season job queued under
the task name it had before (`scoring.job_run`) is left alone there and sent to
`seasons.job_run` by the workers' sweep (seasons.ranking.season_jobs_resend); the
aggregation keeps its old name (`scoring.season_aggregate`).
"""

from __future__ import annotations

from typing import Any

import pytest
from celery import signature
from celery.signals import task_prerun
from django.utils import translation

from scoring import jobs
from scoring.models import Job
from seasons import ranking
from seasons.models import Season, SeasonJob, SeasonSnapshot
from tests.factories import ClubFactory, TournamentFactory
from tests.scoring.test_jobs_worker import wait_for
from tests.seasons.test_ranking import club_season  # noqa: F401  (a fixture)


@pytest.mark.django_db
def test_a_season_job_whose_season_was_deleted_fails_and_says_so(django_capture_on_commit_callbacks) -> None:
    season = Season.objects.create(club=ClubFactory(), name="Saison", slug="saison")
    with django_capture_on_commit_callbacks(execute=False):
        job = ranking.season_rebuild_launch(season=season)
    season.delete()
    ranking.season_job_work(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", "The season is gone.")
    with translation.override("fr"):
        assert translation.gettext(job.error) == "La saison n’existe plus."


@pytest.mark.django_db
def test_a_season_job_is_queued_under_the_seasons_task_and_runs_there(
    club_season,  # noqa: F811
    django_capture_on_commit_callbacks,
) -> None:
    season, _players = club_season
    ran: list[str] = []

    def started(sender: Any = None, **_kwargs: Any) -> None:
        ran.append(sender.name)

    task_prerun.connect(started)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            job = ranking.season_rebuild_launch(season=season, rescore=False)  # run here: no broker
    finally:
        task_prerun.disconnect(started)
    job.refresh_from_db()
    assert (job.status, job.attempts, job.progress, job.total) == ("done", 1, 2, 2)
    assert SeasonSnapshot.objects.filter(season=season).count() == 1
    assert ran == ["seasons.job_run", "scoring.job_run", "scoring.job_run", "scoring.season_aggregate"]


@pytest.mark.django_db
def test_the_seasons_task_leaves_a_tournament_job_alone() -> None:
    job = jobs.job_launch(tournament=TournamentFactory(), enqueue=False)
    assert ranking.season_job_work(job_id=job.pk) == job
    job.refresh_from_db()
    assert (job.status, job.attempts, job.error) == ("queued", 0, "")


@pytest.mark.django_db
def test_the_sweep_sends_a_season_job_whose_message_was_lost_to_the_seasons_task(
    club_season,  # noqa: F811
    django_capture_on_commit_callbacks,
    monkeypatch,
) -> None:
    season, _players = club_season
    with django_capture_on_commit_callbacks(execute=False):
        job = ranking.season_rebuild_launch(season=season, rescore=False)
    # Scoring's task (the name a season job had before) and its sweep leave it alone.
    signature("scoring.job_run", kwargs={"job_id": job.pk}).delay()
    monkeypatch.setattr(jobs, "STALE_AFTER", jobs.datetime.timedelta(0))
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.owed_work_resend() == (0, 0)
    assert Job.objects.get(pk=job.pk).status == "queued"
    with django_capture_on_commit_callbacks(execute=True):
        assert ranking.season_jobs_resend() == 1
    job.refresh_from_db()
    assert (job.status, job.attempts, job.progress, job.total, job.error) == ("done", 1, 2, 2, "")
    assert SeasonSnapshot.objects.filter(season=season).count() == 1
    # Done: nothing more to send.
    assert ranking.season_jobs_resend() == 0


@pytest.mark.django_db
def test_the_sweep_leaves_a_season_job_waiting_on_its_tournaments_and_takes_it_when_they_end_uncounted(
    club_season,  # noqa: F811
    django_capture_on_commit_callbacks,
    monkeypatch,
) -> None:
    season, _players = club_season
    with django_capture_on_commit_callbacks(execute=False):
        job = ranking.season_rebuild_launch(season=season, rescore=False)
        ranking.season_job_work(job_id=job.pk)
    children = Job.objects.filter(params__season_job=job.pk)
    assert children.filter(status="queued").count() == 2
    # Its heartbeat is old, but its tournaments' jobs are still queued: it is waiting.
    monkeypatch.setattr(jobs, "STALE_AFTER", jobs.datetime.timedelta(0))
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert ranking.season_jobs_resend() == 0
    assert sent == []
    # The director queues a job on each tournament: it replaces the season's, which ends
    # without anyone counting it, and the season job would wait for ever.
    for tournament in season.tournaments.all():
        jobs.job_launch(tournament=tournament, enqueue=False)
    assert children.filter(status="failed").count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        assert ranking.season_jobs_resend() == 1
    job.refresh_from_db()
    assert (job.status, job.attempts, job.error) == (
        "done",
        2,
        "2 tournament job(s) failed: their previous ranking was used.",
    )
    assert SeasonSnapshot.objects.filter(season=season).count() == 1


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_a_season_job_under_its_task_and_its_tournaments_and_aggregation_under_scorings(
    club_season,  # noqa: F811
    celery_worker,
) -> None:
    season, _players = club_season
    job = ranking.season_rebuild_launch(season=season, rescore=False)
    wait_for(lambda: Job.objects.get(pk=job.pk).status in ("done", "failed"), what="the season job")
    job.refresh_from_db()
    assert (job.status, job.progress, job.total, job.error, job.attempts) == ("done", 2, 2, "", 1)
    assert Job.objects.filter(kind="rebuild", status="done", params__counted=True).count() == 2
    assert SeasonSnapshot.objects.filter(season=season).count() == 1
    # The worker found each task by its name, through Redis; the aggregation by its old one.
    log = celery_worker.log_path.read_text()
    assert "Task seasons.job_run[" in log
    assert "Task scoring.job_run[" in log and "Task scoring.season_aggregate[" in log


# The worker's sweep, quick (as in the fault tests): a job is stale after STALE_SECONDS.
STALE_SECONDS = 3


@pytest.fixture
def quick_sweep(monkeypatch) -> None:
    """The worker sweeps every second and calls a job stale after STALE_SECONDS (set before it starts)."""
    monkeypatch.setenv("ATOUT_JOB_STALE_SECONDS", str(STALE_SECONDS))
    monkeypatch.setenv("ATOUT_SWEEP_SECONDS", "1")


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_season_job_queued_under_its_old_task_name_runs_through_the_sweep(
    club_season,  # noqa: F811
    quick_sweep,
    celery_worker,
) -> None:
    season, _players = club_season
    # As queued before the upgrade: the job stored, its message sent under scoring's task.
    job = Job.objects.create(kind=Job.Kind.SEASON, params={"rescore": True})
    SeasonJob.objects.create(job=job, season=season)
    message = signature("scoring.job_run", kwargs={"job_id": job.pk}).delay()
    wait_for(
        lambda: f"Task scoring.job_run[{message.id}] succeeded" in celery_worker.log_path.read_text(),
        what="the old message",
    )
    # Scoring's task left it as it was: neither run nor failed.
    job.refresh_from_db()
    assert (job.status, job.attempts, job.error) == ("queued", 0, "")
    # Once stale, the sweep sends it to the seasons' task, which runs it to the end.
    wait_for(lambda: Job.objects.get(pk=job.pk).status in ("done", "failed"), what="the season job")
    job.refresh_from_db()
    assert (job.status, job.progress, job.total, job.error, job.attempts) == ("done", 2, 2, "", 1)
    assert Job.objects.filter(kind="rescore", status="done", params__counted=True).count() == 2
    assert SeasonSnapshot.objects.filter(season=season).count() == 1
    log = celery_worker.log_path.read_text()
    assert "Task seasons.job_run[" in log and "Task scoring.season_aggregate[" in log
