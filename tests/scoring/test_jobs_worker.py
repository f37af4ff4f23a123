"""Bulk recalculation through a real Celery worker on Redis, against PostgreSQL.

The worker is a separate process (tests/conftest.py): tasks go through Redis, and the
worker writes to the test database, so these tests commit for real (transactional).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from scoring import jobs
from scoring.models import Hand, Job, StandingsSnapshot, TableResult
from scoring.services import hand_submit
from tests.scoring.tables import director_of, make_table
from tournaments.models import Table, Tournament

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

HAND = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}
ROUNDED = {"rounding": "nearest_ten"}


def wait_for(condition: Callable[[], bool], timeout: float = 60, what: str = "the worker") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def concours(tables: int, hands: int) -> Tournament:
    """A running concours whose ranking the worker has built from `hands` donnes a table."""
    first = make_table(tables=tables)
    for table in Table.objects.filter(round=first.round):
        for _ in range(hands):
            hand_submit(table=table, raw=HAND)
    tournament = first.round.tournament
    # Each stored hand asked the worker for a refresh; the last one brings every point in.
    wait_for(
        lambda: (
            StandingsSnapshot.objects.filter(tournament=tournament).exists()
            and sum(row["points"] for row in live(tournament).rows) == tables * hands * 162
        ),
        what="the live ranking",
    )
    return tournament


def live(tournament: Tournament) -> StandingsSnapshot:
    return StandingsSnapshot.objects.filter(tournament=tournament).latest("version")


def state(tournament: Tournament) -> tuple:
    """Everything a half-done job could have touched."""
    tournament.refresh_from_db()
    return (
        tournament.rule_options.get("rounding", "none"),
        sorted(
            (pk, list(scores), version) for pk, scores, version in Hand.objects.values_list("pk", "scores", "version")
        ),
        sorted((pk, list(totals)) for pk, totals in TableResult.objects.values_list("pk", "totals")),
        live(tournament).version,
        [row["points"] for row in live(tournament).rows],
    )


def change_rounding(tournament: Tournament) -> Job:
    config = {**jobs.tournament_config(tournament), "rule_options": ROUNDED}
    return jobs.standings_rules_change(by=director_of(tournament), tournament=tournament, config=config)


def test_a_rule_option_change_is_rescored_by_the_worker_and_the_ranking_follows(celery_worker) -> None:
    tournament = concours(tables=3, hands=4)
    before = live(tournament).version
    job = change_rounding(tournament)
    wait_for(lambda: Job.objects.get(pk=job.pk).status in ("done", "failed"), what="the job")
    job.refresh_from_db()
    assert (job.status, job.progress, job.total, job.attempts) == ("done", 12, 12, 1)
    assert {tuple(scores) for scores in Hand.objects.values_list("scores", flat=True)} == {(100, 60)}
    assert sorted(row["points"] for row in live(tournament).rows) == [240] * 3 + [400] * 3
    assert live(tournament).version > before
    tournament.refresh_from_db()
    assert tournament.rule_options["rounding"] == "nearest_ten"
    # The worker ran it, through Redis: its log names the job's task.
    assert "scoring.job_run" in celery_worker.log_path.read_text()


@pytest.fixture
def slow_jobs(monkeypatch) -> None:
    """Jobs in the worker pause after each table and inside the swap (set before it starts)."""
    monkeypatch.setenv("ATOUT_TEST_JOB_PAUSE", "0.3")


def test_a_worker_killed_mid_swap_leaves_the_old_ranking_whole_and_a_retry_completes_it(
    slow_jobs, celery_worker, monkeypatch
) -> None:
    tournament = concours(tables=4, hands=3)
    before = state(tournament)
    job = change_rounding(tournament)
    # The swap has begun: the hands and results are rewritten, not yet committed.
    wait_for(lambda: Job.objects.get(pk=job.pk).phase == "swap", what="the swap")
    time.sleep(1.0)
    celery_worker.kill()

    job.refresh_from_db()
    assert job.status == "running"
    assert state(tournament) == before

    # A retry: the director's button once the job is seen to be stale, on a new worker.
    celery_worker.start()
    monkeypatch.setattr(jobs, "STALE_AFTER", jobs.datetime.timedelta(0))
    assert jobs.job_retry(job=job) is True
    wait_for(lambda: Job.objects.get(pk=job.pk).status in ("done", "failed"), what="the retried job")
    job.refresh_from_db()
    assert (job.status, job.attempts) == ("done", 2)
    rounding, hands, results, version, points = state(tournament)
    assert rounding == "nearest_ten"
    assert {tuple(scores) for _pk, scores, _v in hands} == {(100, 60)}
    assert all(hand_version == 2 for _pk, _s, hand_version in hands)
    assert {tuple(totals) for _pk, totals in results} == {(300, 180)}
    assert version > before[3]
    assert sorted(points) == [180] * 4 + [300] * 4
