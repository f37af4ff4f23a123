"""Background jobs on a tournament's scores: re-score every hand, rebuild the standings.

Terms (job, score phase, swap phase, stale job): docs/glossary.md. A job is run by the
Celery task `scoring.tasks.job_run`, which takes only its id; its `params` hold the whole
configuration it installs (`rule_options`, `criteria`, `match_points`, `bye_policy`,
`bye_points`). During the score phase only the job's progress is written (and committed).
The swap phase also writes a `rescore` revision per changed hand and marks the job done;
PostgreSQL rolls it back when the connection drops. A job is stale after `STALE_AFTER`
without a heartbeat; a redelivered message, the director's button, the workers' sweep or
the management command retries it.

Hands entered while a job scores are not lost: the swap locks every table of the
tournament (as the referees' services do, one table each), re-reads which hands exist
and at which version, and scores again the tables that moved meanwhile.

A season's rebuild is a job too (kind `season`), but its work belongs to seasons/, an
app above this one, and so does its task (`seasons.job_run`): that task uses this module
as a library, calling down into `job_work` (the claim, the failures, the announcement of
the end) with its own work, and `job_retry` with its own task's name. This app's task
runs only its own kinds (`TOURNAMENT_KINDS`) and leaves any other alone, and its sweep
(`owed_work_resend`) retries only those. The one thing that goes up is the signal
`scoring.signals.job_finished`, sent when any job ends to whoever listens (a season job
counts its tournaments' jobs): nothing here knows or imports seasons.
"""

from __future__ import annotations

import datetime
import os
import time
from collections.abc import Collection, Iterable, Mapping
from typing import Any, Protocol

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

import engine
from engine.core import OptionError
from kit.gcpause import gc_paused
from scoring import partie, rescoring, standings
from scoring.enqueue import JOB_RUN, enqueue_on_commit
from scoring.job_config import CONFIG_FIELDS, JobConfig, config_of, pending_config, tournament_config
from scoring.models import Hand, Job, StandingsRefresh
from scoring.rescoring import TableOutcome, TableScorer
from scoring.signals import job_finished
from tournaments.access import require_organiser
from tournaments.models import Table, Tournament
from tournaments.rules import rules_check

# A running job whose heartbeat is older than this lost its worker; a queued one, its
# message. Shorter in the fault tests (ATOUT_JOB_STALE_SECONDS), never 0.
STALE_AFTER = datetime.timedelta(seconds=float(os.environ.get("ATOUT_JOB_STALE_SECONDS") or 60))
# Progress is written (one UPDATE, committed) at most this often.
PROGRESS_EVERY = 0.25
# Test hook: seconds to sleep after each table scored and once inside the swap, so that a
# test can kill the worker in the middle of a job. Unset (0) everywhere but in tests.
TEST_PAUSE = float(os.environ.get("ATOUT_TEST_JOB_PAUSE") or 0)
MAX_ERRORS_SHOWN = 20
# Errors worth a retry: the database went away or asked to try again (deadlock...).
TRANSIENT = (OperationalError, InterfaceError)


class JobFailed(Exception):
    """The job cannot complete (a hand no longer valid, a bad option): nothing was swapped."""


# The kinds of job this app runs (its task, `scoring.job_run`); any other kind is an app
# above's, run by that app's own task through `job_work` (a season's: seasons/tasks.py).
TOURNAMENT_KINDS = (Job.Kind.RESCORE, Job.Kind.REBUILD)


class JobWork(Protocol):
    """The work of one kind of job, done once `job_work` has claimed a job of that kind."""

    def __call__(self, *, job: Job) -> None: ...


# -- launching -------------------------------------------------------------------------


@transaction.atomic
def job_launch(
    *,
    tournament: Tournament,
    by: User | None = None,
    config: Mapping[str, Any] | None = None,
    rescore: bool | None = None,
    enqueue: bool = True,
) -> Job:
    """Queue a job installing `config` (default: the current one) and rebuilding the ranking.

    `rescore` None decides by itself: the hands are re-scored when the rule options
    change; a rescore is forced with True (after corrections made outside the services).
    Older queued jobs of the tournament are superseded: the new one carries everything.
    `enqueue` False leaves the job for the caller to run (`manage.py rebuild_standings`).
    """
    # On top of what a job still waiting would install: replacing it must not lose it.
    target: JobConfig = {**pending_config(tournament), **config_of(config or {})}
    if rescore is None:
        # Against the options the hands were scored with, the tournament's own.
        rescore = _resolved(tournament, target["rule_options"]) != _resolved(tournament, tournament.rule_options)
    kind = Job.Kind.RESCORE if rescore else Job.Kind.REBUILD
    Job.objects.filter(
        tournament=tournament, status=Job.Status.QUEUED, kind__in=(Job.Kind.RESCORE, Job.Kind.REBUILD)
    ).update(status=Job.Status.FAILED, error=gettext_noop("Replaced by a newer job."), finished_at=timezone.now())
    job = Job.objects.create(
        kind=kind,
        tournament=tournament,
        params=target,
        created_by=by if by is not None and by.is_authenticated else None,
    )
    if enqueue:
        enqueue_on_commit(JOB_RUN, job_id=job.pk)
    return job


@transaction.atomic
def standings_rules_change(*, by: User, tournament: Tournament, config: JobConfig, rescore: bool = False) -> Job:
    """The director changes what the ranking depends on; a job installs it (see module doc).

    Unlike `tournaments.services.tournament_update`, this works while the tournament runs
    and after it ends: the job re-scores what was entered with the new options, and the
    ranking switches over in one piece. Raises ValidationError keyed by form field.
    """
    require_organiser(by, tournament.club)
    rules, errors = rules_check(
        game=tournament.game,
        rule_options=config.get("rule_options"),
        criteria=config.get("criteria"),
        bye_policy=config.get("bye_policy"),
        bye_points=config.get("bye_points"),
        # Fixed once play starts: not the page's to change, checked as the tournament has it.
        late_policy=tournament.late_policy,
    )
    if rules is None:
        # The page's criteria are its slots; the other fields have the tournament's names.
        raise ValidationError({("criterion_1" if name == "criteria" else name): text for name, text in errors.items()})
    return job_launch(
        tournament=tournament,
        by=by,
        config={
            **config,
            "rule_options": rules.rule_options,
            "criteria": rules.criteria,
            "bye_policy": rules.bye_policy,
            "bye_points": rules.bye_points,
        },
        rescore=True if rescore else None,
    )


def _resolved(tournament: Tournament, options: Any) -> dict[str, Any] | None:
    # {} and the defaults spelt out are the same rules; options the game refuses compare
    # as None, so that the job runs and fails with the engine's reason.
    try:
        return engine.get_game(tournament.game).resolve_options(options or {})
    except OptionError:
        return None


@transaction.atomic
def job_retry(*, job: Job, task: str = JOB_RUN) -> bool:
    """Queue a failed or stale job again; False when it is done, alive, or replaced.

    Stale is a running job whose heartbeat stopped, or a job queued for longer than
    STALE_AFTER: its message was lost (a broker restarted empty), and sending another is
    harmless, since the claim lets one run in. A job that a newer one of the same
    tournament replaced is never run again: the newer one carries the whole
    configuration, and running the older after it would undo it.

    `task` is the name of the task that runs the job's kind: this app's own for its
    kinds; an app above that runs a kind of its own names its task (a season's job:
    seasons.ranking.season_job_retry). Scoring's task would leave any other kind alone,
    so a job of another kind is not queued under it (False).
    """
    if task == JOB_RUN and job.kind not in TOURNAMENT_KINDS:
        return False
    if job.tournament_id is not None and _newer_jobs(job, job.tournament_id).exists():
        return False
    stale = timezone.now() - STALE_AFTER
    requeued = (
        Job.objects.filter(pk=job.pk)
        .filter(
            Q(status=Job.Status.FAILED)
            | Q(status=Job.Status.RUNNING, heartbeat_at__lt=stale)
            | Q(status=Job.Status.RUNNING, heartbeat_at__isnull=True)
            | Q(status=Job.Status.QUEUED, created_at__lt=stale)
        )
        .update(status=Job.Status.QUEUED, error="", phase="", progress=0)
    )
    if requeued:
        enqueue_on_commit(task, job_id=job.pk)
    return bool(requeued)


def _newer_jobs(job: Job, tournament_id: int) -> QuerySet[Job]:
    """The jobs of the tournament (`job`'s) queued after `job` that may still install something."""
    return Job.objects.filter(
        tournament_id=tournament_id, pk__gt=job.pk, kind__in=(Job.Kind.RESCORE, Job.Kind.REBUILD)
    ).exclude(status=Job.Status.FAILED)


def owed_work_resend() -> tuple[int, int]:
    """Send again what lost messages left undone; (jobs queued again, refreshes sent).

    The workers' sweep (atout.celery) calls it: a broker restarted empty loses every
    message it held, and a broker away loses those sent meanwhile (scoring.tasks.OwedTask).
    A stale job is retried (`job_retry`: one claim lets one run in, however many messages
    arrive); a tournament whose standings tickets outrun what was built gets a refresh,
    which does nothing if one already covered them. Only the kinds this app runs are
    retried here: the sweep calls the app that runs any other kind beside this
    (seasons.ranking.season_jobs_resend for the season jobs).
    """
    candidates = stale_jobs().filter(kind__in=TOURNAMENT_KINDS)
    retried = sum(job_retry(job=job) for job in candidates.order_by("pk"))
    owed = list(StandingsRefresh.objects.filter(requested__gt=F("built")).values_list("tournament_id", flat=True))
    for tournament_id in owed:
        standings.standings_catch_up(tournament_id=tournament_id)
    return retried, len(owed)


def stale_jobs() -> QuerySet[Job]:
    """The jobs, of every kind, that lost their message (queued for longer than STALE_AFTER)
    or their worker (running without a heartbeat for as long)."""
    stale = timezone.now() - STALE_AFTER
    return Job.objects.filter(
        Q(status=Job.Status.QUEUED, created_at__lt=stale)
        | Q(status=Job.Status.RUNNING, heartbeat_at__lt=stale)
        | Q(status=Job.Status.RUNNING, heartbeat_at__isnull=True, started_at__lt=stale)
    )


def job_is_stale(job: Job) -> bool:
    stale = timezone.now() - STALE_AFTER
    if job.status == Job.Status.QUEUED:
        return job.created_at < stale
    return job.status == Job.Status.RUNNING and (job.heartbeat_at is None or job.heartbeat_at < stale)


# -- running ---------------------------------------------------------------------------


def job_claim(*, job_id: int, kinds: Collection[str] = TOURNAMENT_KINDS) -> bool:
    """Take the job for this worker: one conditional UPDATE, so two workers never both do.

    A queued job is taken; so is a running one whose heartbeat stopped (its worker died:
    this is the retry). A job done, failed, or alive elsewhere is not, nor one of a kind
    outside `kinds` (the kinds the caller runs: another task runs the others).
    """
    now = timezone.now()
    return bool(
        Job.objects.filter(pk=job_id, kind__in=list(kinds))
        .filter(Q(status=Job.Status.QUEUED) | Q(status=Job.Status.RUNNING, heartbeat_at__lt=now - STALE_AFTER))
        .update(
            status=Job.Status.RUNNING,
            attempts=F("attempts") + 1,
            started_at=now,
            heartbeat_at=now,
            phase="score",
            progress=0,
            error="",
        )
    )


def job_run(*, job_id: int) -> Job | None:
    """Run one re-scoring or rebuild job to the end if this worker can claim it (`job_work`).

    A job of another kind (a season's) is left as it is, for the task that runs it: a
    message sent under this task's name before that task existed is then answered by the
    sweep, which queues the job again under the right name once it is stale.
    """
    return job_work(job_id=job_id, kinds=TOURNAMENT_KINDS, work=_tournament_job)


def job_work(*, job_id: int, kinds: Collection[str], work: JobWork) -> Job | None:
    """Claim the job if it is of `kinds` and free, do `work(job=...)` on it, announce its end.

    Every task that runs jobs goes through here (`job_run` for this app's kinds, an app
    above for its own): the claim, the failures and the announcement are the same for
    all. `work` may raise `JobFailed` (the job fails with that text, and nothing else
    happens) or a transient database error (the claim is given back and the error raised
    again, for the task's retry); anything else fails the job and is raised again. The
    job ends as `work` leaves it: done, or still running while it waits on jobs it queued.
    Returns the job (as found when it could not be claimed), None when there is none.

    Safe to run twice or to kill: the claim lets one worker at a time in, and the only
    write of a tournament job that matters is the swap, one transaction that checks the
    job again.
    """
    if not job_claim(job_id=job_id, kinds=kinds):
        return Job.objects.filter(pk=job_id).first()
    job = Job.objects.select_related("tournament").get(pk=job_id)
    try:
        work(job=job)
    except JobFailed as failure:
        _finish(job, status=Job.Status.FAILED, error=str(failure))
    except TRANSIENT:
        # Give the claim back, so that the task's retry can take the job again at once.
        Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING).update(status=Job.Status.QUEUED, phase="")
        raise
    except Exception as error:
        _finish(job, status=Job.Status.FAILED, error=f"{type(error).__name__}: {error}")
        raise
    job.refresh_from_db()
    if job.status in (Job.Status.DONE, Job.Status.FAILED):
        # Whoever waits on this job hears of it (a season job counts its tournaments'),
        # without this app knowing who listens.
        job_finished.send(sender=Job, job=job)
    return job


def _finish(job: Job, *, status: str, error: str = "") -> None:
    Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING).update(
        status=status, error=error, finished_at=timezone.now(), phase=""
    )


def _tournament_job(*, job: Job) -> None:
    """A re-scoring or a rebuild: the score phase, then the swap (module doc)."""
    with gc_paused():
        _tournament_job_phases(job)


def _tournament_job_phases(job: Job) -> None:
    tournament = job.tournament
    if tournament is None:
        raise JobFailed(gettext_noop("The tournament is gone."))
    config: JobConfig = {**tournament_config(tournament), **config_of(job.params)}
    game = engine.get_game(tournament.game)
    try:
        options = game.resolve_options(config["rule_options"] or {})
    except OptionError as error:
        raise JobFailed(str(error)) from None
    work = rescoring.load_tables(tournament.pk) if job.kind == Job.Kind.RESCORE else []
    total = sum(len(table.hands) for table in work)
    Job.objects.filter(pk=job.pk).update(total=total)
    scorer = TableScorer.of(tournament, options)
    outcomes: dict[int, TableOutcome] = {}
    meter = _Progress(job.pk, total)
    for table in work:
        outcomes[table.table_id] = scorer.score(table)
        meter.add(len(table.hands))
        if TEST_PAUSE:
            time.sleep(TEST_PAUSE)
    meter.flush()
    _raise_errors(outcomes.values())
    Job.objects.filter(pk=job.pk).update(phase="swap", heartbeat_at=timezone.now())
    _swap(job, config, options, scorer if job.kind == Job.Kind.RESCORE else None, outcomes)
    if job.kind == Job.Kind.RESCORE:
        stragglers_rescore(tournament_id=tournament.pk)


class _Progress:
    """Writes a job's progress now and then (committed at once: the director watches it)."""

    def __init__(self, job_id: int, total: int) -> None:
        self.job_id, self.total, self.done = job_id, total, 0
        self.last = time.monotonic()

    def add(self, count: int) -> None:
        self.done += count
        if time.monotonic() - self.last >= PROGRESS_EVERY:
            self.flush()

    def flush(self) -> None:
        self.last = time.monotonic()
        Job.objects.filter(pk=self.job_id).update(progress=self.done, heartbeat_at=timezone.now())


def _raise_errors(outcomes: Iterable[TableOutcome]) -> None:
    errors = [error for outcome in outcomes for error in outcome.errors]
    if errors:
        shown = errors[:MAX_ERRORS_SHOWN]
        more = len(errors) - len(shown)
        text = "\n".join(shown) + (f"\n(+{more})" if more else "")
        raise JobFailed(text)


# -- the swap --------------------------------------------------------------------------


@transaction.atomic
def _swap(
    job: Job,
    config: JobConfig,
    options: Mapping[str, Any],
    scorer: TableScorer | None,
    outcomes: dict[int, TableOutcome],
) -> None:
    tournament_id = job.tournament_id
    assert tournament_id is not None
    rescoring.tune_transaction()
    standings.standings_lock(tournament_id=tournament_id)
    locked = Job.objects.select_for_update().filter(pk=job.pk).first()
    if locked is None or locked.status != Job.Status.RUNNING:
        # Another attempt finished it (or it was cancelled) meanwhile: nothing to do.
        return
    if _newer_jobs(job, tournament_id).filter(status=Job.Status.DONE).exists():
        Job.objects.filter(pk=job.pk).update(
            status=Job.Status.FAILED, error=gettext_noop("Replaced by a newer job."), finished_at=timezone.now()
        )
        return
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    if scorer is not None:
        # Every table, as the referees' services lock one: hands stop moving until commit.
        list(Table.objects.select_for_update().filter(round__tournament_id=tournament_id).values_list("pk"))
        _catch_up(tournament_id, scorer, outcomes)
        rescoring.write_hands(list(outcomes.values()), options, author_id=job.created_by_id, label=f"job {job.pk}")
        rescoring.write_results(list(outcomes.values()))
    changed = [name for name in CONFIG_FIELDS if getattr(tournament, name) != config[name]]
    for name in changed:
        setattr(tournament, name, config[name] if name != "rule_options" else dict(options))
    if changed:
        tournament.save(update_fields=[*changed, "updated_at"])
    if TEST_PAUSE:
        time.sleep(TEST_PAUSE * 20)
    # Only the rankings whose input moved get a new version (the criteria, match points
    # and bye policy are part of that input): a re-scoring that changed nothing writes none.
    standings.rebuild_locked(tournament)
    transaction.on_commit(lambda: standings.standings_catch_up(tournament_id=tournament_id))
    Job.objects.filter(pk=job.pk).update(
        status=Job.Status.DONE, phase="", progress=F("total"), finished_at=timezone.now(), heartbeat_at=timezone.now()
    )


def _catch_up(tournament_id: int, scorer: TableScorer, outcomes: dict[int, TableOutcome]) -> None:
    """Score again the tables whose hands moved since the score phase read them."""
    moved = rescoring.moved_tables({table_id: outcome.work for table_id, outcome in outcomes.items()}, tournament_id)
    if not moved:
        return
    for table_id in moved:
        outcomes.pop(table_id, None)
    for work in rescoring.load_tables(tournament_id, moved):
        outcomes[work.table_id] = scorer.score(work)
    _raise_errors(outcomes[table_id] for table_id in moved if table_id in outcomes)


# -- after the swap --------------------------------------------------------------------


def stragglers_rescore(*, tournament_id: int) -> int:
    """Score again the hands stored with other options than the tournament's; returns how many.

    A referee's entry that read the tournament just before the swap committed was scored
    with the old options. Locking every table waits until such an entry has committed;
    then the hands whose options differ from the tournament's are found and scored again.
    """
    with transaction.atomic():
        rescoring.tune_transaction()
        tournament = Tournament.objects.get(pk=tournament_id)
        options = partie.tournament_options(tournament)
        list(Table.objects.select_for_update().filter(round__tournament_id=tournament_id).values_list("pk"))
        stale = set(
            Hand.objects.filter(table__round__tournament_id=tournament_id)
            .exclude(options=options)
            .values_list("table_id", flat=True)
        )
        if not stale:
            return 0
        scorer = TableScorer.of(tournament, options)
        outcomes = [scorer.score(work) for work in rescoring.load_tables(tournament_id, stale)]
        outcomes = [outcome for outcome in outcomes if not outcome.errors]
        changed = rescoring.write_hands(outcomes, options, author_id=None, label="late entry")
        rescoring.write_results(outcomes)
        transaction.on_commit(lambda: standings.standings_schedule_refresh(tournament_id=tournament_id))
        return changed
