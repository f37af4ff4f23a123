"""Bulk recalculation, run in-process (no broker: Celery runs tasks eagerly here).

The same jobs through a real worker on Redis, and a worker killed in the middle, are in
test_jobs_worker.py.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from atout.celery import app as celery_app
from scoring import jobs, rescoring
from scoring.models import Hand, HandRevision, Job, StandingsSnapshot, TableResult
from scoring.services import hand_submit
from scoring.tasks import job_run as job_run_task
from tests.scoring.tables import director_of, make_table, outsider
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db

# Scores 102-60 as entered; 100-60 once scores are rounded to the nearest ten.
HAND = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}
# Equal best announcements: fine by default, refused under `announcement_tie: first_in_play`
# (which needs to know who announced first).
EQUAL_ANNOUNCEMENTS = {
    "taker": "A",
    "contract": "hearts",
    "points": {"A": 102, "B": 60},
    "announcements": {
        "A": [{"kind": "tierce", "high": "K", "suit": "clubs"}],
        "B": [{"kind": "tierce", "high": "K", "suit": "spades"}],
    },
}


@pytest.fixture
def played(django_capture_on_commit_callbacks) -> Table:
    """Two tables of round 1 with three donnes each, the ranking built."""
    table = make_table(tables=2)
    with django_capture_on_commit_callbacks(execute=True):
        for each in Table.objects.filter(round=table.round):
            for _ in range(3):
                hand_submit(table=each, raw=HAND)
    return table


def change(tournament: Tournament, capture, **config) -> Job:
    with capture(execute=True):
        job = jobs.standings_rules_change(
            by=director_of(tournament), tournament=tournament, config={**jobs.tournament_config(tournament), **config}
        )
    job.refresh_from_db()
    return job


def live(tournament: Tournament) -> StandingsSnapshot:
    return StandingsSnapshot.objects.filter(tournament=tournament).latest("version")


def test_a_rule_option_change_rescores_every_hand_and_the_ranking_in_one_go(
    played: Table, django_capture_on_commit_callbacks
) -> None:
    tournament = played.round.tournament
    before = live(tournament)
    job = change(tournament, django_capture_on_commit_callbacks, rule_options={"rounding": "nearest_ten"})
    assert (job.kind, job.status, job.progress, job.total, job.error) == ("rescore", "done", 6, 6, "")
    assert [list(s) for s in Hand.objects.values_list("scores", flat=True)] == [[100, 60]] * 6
    assert all(hand.options["rounding"] == "nearest_ten" for hand in Hand.objects.all())
    assert TableResult.objects.get(table=played).totals == [300, 180]
    tournament.refresh_from_db()
    assert tournament.rule_options["rounding"] == "nearest_ten"
    after = live(tournament)
    assert after.version > before.version
    assert {row["points"] for row in after.rows} == {300, 180}
    # Each table keeps the trace of its re-scoring, every donne's score before and after.
    revisions = HandRevision.objects.filter(action="rescore")
    assert sorted(revisions.values_list("table_id", flat=True)) == sorted(
        Table.objects.filter(round=played.round).values_list("pk", flat=True)
    )
    for revision in revisions:
        assert [d["number"] for d in revision.before["donnes"]] == [1, 2, 3]
        assert [d["scores"] for d in revision.before["donnes"]] == [[102, 60]] * 3
        assert [d["scores"] for d in revision.after["donnes"]] == [[100, 60]] * 3


def test_a_rescore_read_and_written_in_small_batches_keeps_each_table_whole(
    played: Table, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    # Batches of two rows read and two hands written: the two tables of three donnes
    # each go in two statements, each table whole, with its one revision.
    monkeypatch.setattr(rescoring, "READ_BATCH", 2)
    monkeypatch.setattr(rescoring, "WRITE_BATCH", 2)
    tournament = played.round.tournament
    job = change(tournament, django_capture_on_commit_callbacks, rule_options={"rounding": "nearest_ten"})
    assert (job.status, job.progress, job.error) == ("done", 6, "")
    assert [list(s) for s in Hand.objects.values_list("scores", flat=True)] == [[100, 60]] * 6
    revisions = HandRevision.objects.filter(action="rescore")
    assert revisions.count() == 2
    for revision in revisions:
        assert [d["number"] for d in revision.after["donnes"]] == [1, 2, 3]


def test_the_history_shows_a_rescored_table_donne_by_donne_with_the_options_before_and_after(
    played: Table, django_capture_on_commit_callbacks
) -> None:
    tournament = played.round.tournament
    change(tournament, django_capture_on_commit_callbacks, rule_options={"rounding": "nearest_ten"})
    revision = HandRevision.objects.get(table=played, action="rescore")
    # A re-scoring keeps what it changed; the entries as typed stay the hands' own.
    assert (revision.number, revision.hand) == (0, None)
    assert revision.before["donnes"][0] == {
        "number": 1,
        "scores": [102, 60],
        "outcome": revision.before["donnes"][0]["outcome"],
        "reserve_in": 0,
        "reserve_out": 0,
    }
    assert (revision.before["options"]["rounding"], revision.after["options"]["rounding"]) == ("none", "nearest_ten")
    client = Client()
    client.force_login(director_of(tournament))
    page = client.get(reverse("hands:history", args=[tournament.slug, played.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    text = page.content.decode()
    assert page.status_code == 200
    assert "Toutes les donnes de la table : Recalculée" in text
    # Three donnes re-scored in the table of the re-scoring, after three entered at 102 – 60.
    assert text.count("100 – 60") == 3 and text.count("102 – 60") == 6


def test_a_criteria_change_rebuilds_the_ranking_without_touching_the_hands(
    played: Table, django_capture_on_commit_callbacks
) -> None:
    tournament = played.round.tournament
    versions = dict(Hand.objects.values_list("pk", "version"))
    job = change(tournament, django_capture_on_commit_callbacks, criteria=["points", "wins"])
    assert (job.kind, job.status) == ("rebuild", "done")
    assert dict(Hand.objects.values_list("pk", "version")) == versions
    assert live(tournament).criteria == ["points", "wins"]
    tournament.refresh_from_db()
    assert tournament.criteria == ["points", "wins"]


def test_an_option_that_makes_a_stored_hand_invalid_fails_and_changes_nothing(
    django_capture_on_commit_callbacks,
) -> None:
    table = make_table()
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=table, raw=EQUAL_ANNOUNCEMENTS)
    tournament = table.round.tournament
    before = (live(tournament).version, list(Hand.objects.values_list("scores", "options")))
    job = change(tournament, django_capture_on_commit_callbacks, rule_options={"announcement_tie": "first_in_play"})
    assert job.status == "failed"
    assert "R1 T1 #1" in job.error
    tournament.refresh_from_db()
    assert tournament.rule_options.get("announcement_tie", "nobody") == "nobody"
    assert (live(tournament).version, list(Hand.objects.values_list("scores", "options"))) == before


def test_a_job_run_twice_does_its_work_once(played: Table, django_capture_on_commit_callbacks) -> None:
    tournament = played.round.tournament
    job = change(tournament, django_capture_on_commit_callbacks, rule_options={"rounding": "nearest_ten"})
    version = live(tournament).version
    again = jobs.job_run(job_id=job.pk)
    assert again is not None and (again.status, again.attempts) == ("done", 1)
    assert live(tournament).version == version
    # One revision per table re-scored (two tables), not one per attempt.
    assert HandRevision.objects.filter(action="rescore").count() == 2


def test_a_transient_database_error_is_retried_and_the_job_completes(played: Table, monkeypatch) -> None:
    real_swap = jobs._swap
    calls = []

    def flaky_swap(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real_swap(*args, **kwargs)

    monkeypatch.setattr(jobs, "_swap", flaky_swap)
    job = jobs.job_launch(tournament=played.round.tournament, rescore=True, enqueue=False)
    # Run as a worker would: the task retries itself rather than raise to its caller.
    propagates = celery_app.conf.task_eager_propagates
    celery_app.conf.task_eager_propagates = False
    try:
        job_run_task.apply(kwargs={"job_id": job.pk})
    finally:
        celery_app.conf.task_eager_propagates = propagates
    job.refresh_from_db()
    assert (job.status, job.attempts, len(calls)) == ("done", 2, 2)


def test_scorings_task_its_sweep_and_its_retry_leave_a_job_of_another_kind_alone(
    monkeypatch, django_capture_on_commit_callbacks
) -> None:
    # A season's job: seasons/ runs it under a task of its own. A message sent under
    # scoring's name before that task existed must neither run it nor fail it.
    job = Job.objects.create(kind=Job.Kind.SEASON)
    job_run_task.delay(job_id=job.pk)
    assert jobs.job_run(job_id=job.pk) == job
    job.refresh_from_db()
    assert (job.status, job.attempts, job.error, job.started_at) == ("queued", 0, "", None)
    # Stale at once: scoring's sweep and retry leave it to the app whose kind it is.
    monkeypatch.setattr(jobs, "STALE_AFTER", jobs.datetime.timedelta(0))
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert jobs.owed_work_resend() == (0, 0)
        assert jobs.job_retry(job=job) is False
    assert sent == []
    job.refresh_from_db()
    assert (job.status, job.attempts, job.error) == ("queued", 0, "")


def test_a_newer_job_replaces_a_queued_one(played: Table) -> None:
    tournament = played.round.tournament
    first = jobs.job_launch(tournament=tournament, config={"criteria": ["points"]}, enqueue=False)
    second = jobs.job_launch(tournament=tournament, config={"criteria": ["wins"]}, enqueue=False)
    first.refresh_from_db()
    assert first.status == "failed" and second.status == "queued"
    # Running the replaced job (a message delivered late) does nothing.
    assert jobs.job_run(job_id=first.pk).status == "failed"
    assert jobs.job_retry(job=first) is False
    jobs.job_run(job_id=second.pk)
    tournament.refresh_from_db()
    assert tournament.criteria == ["wins"]


def test_a_job_whose_worker_died_is_taken_over_by_a_retry(played: Table, monkeypatch) -> None:
    job = jobs.job_launch(tournament=played.round.tournament, rescore=True, enqueue=False)
    assert jobs.job_claim(job_id=job.pk)
    # Alive: nobody else may take it, and the director cannot retry it yet.
    assert not jobs.job_claim(job_id=job.pk)
    assert jobs.job_retry(job=job) is False
    monkeypatch.setattr(jobs, "STALE_AFTER", jobs.datetime.timedelta(0))
    assert jobs.job_run(job_id=job.pk).status == "done"


def test_a_hand_entered_while_the_job_scores_is_rescored_too(
    played: Table, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    real_load = rescoring.load_tables
    other = Table.objects.get(round=played.round, number=2)

    def load_then_a_referee_enters_a_hand(tournament_id, table_ids=None):
        work = real_load(tournament_id, table_ids)
        if table_ids is None:
            hand_submit(table=other, raw={"taker": "B", "contract": "spades", "points": {"A": 40, "B": 122}})
        return work

    monkeypatch.setattr(rescoring, "load_tables", load_then_a_referee_enters_a_hand)
    change(played.round.tournament, django_capture_on_commit_callbacks, rule_options={"rounding": "nearest_ten"})
    late = Hand.objects.get(table=other, number=4)
    assert (list(late.scores), late.options["rounding"]) == ([40, 120], "nearest_ten")
    assert TableResult.objects.get(table=other).totals == [340, 300]


def test_a_hand_stored_with_the_old_options_after_the_swap_is_caught_up(played: Table) -> None:
    tournament = played.round.tournament
    tournament.rule_options = {**tournament.rule_options, "rounding": "nearest_ten"}
    tournament.save()
    assert jobs.stragglers_rescore(tournament_id=tournament.pk) == 6
    assert TableResult.objects.get(table=played).totals == [300, 180]
    assert jobs.stragglers_rescore(tournament_id=tournament.pk) == 0


def test_the_director_rules_change_is_checked_field_by_field(played: Table) -> None:
    tournament = played.round.tournament
    config = {**jobs.tournament_config(tournament), "criteria": ["wins", "luck"], "rule_options": {"rounding": "x"}}
    with pytest.raises(ValidationError) as refused:
        jobs.standings_rules_change(by=director_of(tournament), tournament=tournament, config=config)
    assert set(refused.value.message_dict) == {"criterion_1", "option_rounding"}
    assert not Job.objects.exists()


# -- the director's page ---------------------------------------------------------------


def page(table: Table, name: str = "index") -> str:
    return reverse(f"standings_manage:{name}", kwargs={"slug": table.round.tournament.slug})


def test_only_the_club_organisers_reach_the_standings_page(played: Table, client: Client) -> None:
    assert client.get(page(played)).status_code == 302
    client.force_login(outsider())
    assert client.get(page(played)).status_code == 403
    client.force_login(director_of(played.round.tournament))
    body = client.get(page(played)).content.decode()
    assert "rounding" in body and "criterion_1" in body


def test_the_director_changes_an_option_and_watches_the_job_until_it_is_done(
    played: Table, client: Client, django_capture_on_commit_callbacks
) -> None:
    tournament = played.round.tournament
    client.force_login(director_of(tournament))
    shown = client.get(page(played)).context["form"]
    form = {name: value for name, value in shown.initial.items() if value is not None}
    form.update(option_rounding='"nearest_ten"', criterion_1="wins", criterion_2="points")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(page(played), form)
    assert response.status_code == 302
    assert Job.objects.get().status == "done"
    jobs_partial = client.get(page(played, "jobs"), headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in jobs_partial and "Terminé" in jobs_partial and "6 donnes sur 6" in jobs_partial
    # Nothing left running: the partial stops polling.
    assert "hx-trigger" not in jobs_partial
    tournament.refresh_from_db()
    assert tournament.rule_options["rounding"] == "nearest_ten"


def test_the_job_partial_polls_while_a_job_waits_or_runs(played: Table, client: Client) -> None:
    tournament = played.round.tournament
    client.force_login(director_of(tournament))
    jobs.job_launch(tournament=tournament, rescore=True, enqueue=False)
    waiting = client.get(page(played, "jobs"), headers={"HX-Request": "true"}).content.decode()
    assert 'hx-trigger="every 1s"' in waiting and "En attente" in waiting


def test_a_form_with_a_criterion_twice_is_shown_again_with_the_error(played: Table, client: Client) -> None:
    client.force_login(director_of(played.round.tournament))
    response = client.post(page(played), {"criterion_1": "wins", "criterion_2": "wins", "bye_policy": "x"})
    assert response.status_code == 200
    assert not Job.objects.exists()
    assert response.context["form"].errors.keys() >= {"criterion_2", "bye_policy", "match_win"}


# -- from a shell ----------------------------------------------------------------------


def test_rebuild_standings_runs_the_job_for_one_tournament_or_all(played: Table, capsys) -> None:
    tournament = played.round.tournament
    call_command("rebuild_standings", tournament=tournament.slug)
    assert Job.objects.get().status == "done"
    call_command("rebuild_standings", "--all", "--standings-only")
    assert Job.objects.filter(kind="rebuild", status="done").count() == Tournament.objects.count()
    with pytest.raises(CommandError):
        call_command("rebuild_standings", tournament="no-such")


def test_a_recalculation_queued_after_a_rules_change_keeps_the_change(played: Table) -> None:
    tournament = played.round.tournament
    jobs.job_launch(tournament=tournament, config={"rule_options": {"rounding": "nearest_ten"}}, enqueue=False)
    again = jobs.job_launch(tournament=tournament, rescore=True, enqueue=False)
    assert again.params["rule_options"] == {"rounding": "nearest_ten"}
    jobs.job_run(job_id=again.pk)
    tournament.refresh_from_db()
    assert tournament.rule_options["rounding"] == "nearest_ten"
    assert TableResult.objects.get(table=played).totals == [300, 180]


def test_a_rescore_that_changes_nothing_writes_no_revision_and_no_new_ranking(played: Table) -> None:
    tournament = played.round.tournament
    version = live(tournament).version
    job = jobs.job_launch(tournament=tournament, rescore=True, enqueue=False)
    assert jobs.job_run(job_id=job.pk).status == "done"
    assert live(tournament).version == version
    assert not HandRevision.objects.filter(action="rescore").exists()


def test_a_job_whose_message_was_lost_is_sent_again_by_a_retry(
    played: Table, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    # Queued, but the broker lost its message (restarted empty): nothing will run it.
    job = jobs.job_launch(tournament=played.round.tournament, rescore=True, enqueue=False)
    assert jobs.job_retry(job=job) is False
    monkeypatch.setattr(jobs, "STALE_AFTER", jobs.datetime.timedelta(0))
    assert jobs.job_is_stale(Job.objects.get(pk=job.pk))
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.job_retry(job=job) is True
    assert Job.objects.get(pk=job.pk).status == "done"
