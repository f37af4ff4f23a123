"""A season ranking: a club's players ranked over several of its tournaments.

Terms (season, its `placing` and `points` schemes, season job): docs/glossary.md. The
placing table is `placing_points` (e.g. 25, 20, 16...); the engine
(`engine.standings.season_ranking`) does the counting and the ranking.

A season job is a `scoring.Job` of kind `season`, run by this app's task
`seasons.job_run` (`season_job_work`), which claims it through scoring's job machinery,
called downwards as a library (`scoring.jobs.job_work`: the same claim, failures and
retries as every job), and does `season_job_run`: it queues one tournament job per
tournament, under scoring's own task (scoring/jobs.py). Each of those, once through, is
counted in the season job with one conditional UPDATE (`season_child_finished`, on
scoring's `job_finished` signal), and the last one queues the season's aggregation, which
writes a new SeasonSnapshot. Every step is idempotent: a redelivered message finds its
work done. What lost messages leave undone, the workers' sweep sends again
(`season_jobs_resend`, beside scoring's own).

A season row: `player` (id), `name`, `rank` (shared), `points`, `played` (tournaments),
`best` (best rank), `results`: one entry per tournament played (`tournament` slug,
`name`, `rank`, `points`).
"""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext_noop

import engine.standings as engine_standings
from scoring.enqueue import JOB_RUN, enqueue, enqueue_on_commit
from scoring.job_config import pending_config
from scoring.jobs import JobFailed, job_retry, job_work, stale_jobs
from scoring.models import Job, StandingsSnapshot
from scoring.rows import SnapshotRow
from seasons.models import Season, SeasonJob, SeasonSnapshot
from seasons.rows import SeasonRow
from tournaments.access import require_organiser
from tournaments.models import Competitor

# The season job's task (seasons/tasks.py). Before it existed, a season job was queued
# under scoring's `scoring.job_run`, which now leaves it alone: the sweep sends it here.
SEASON_JOB_RUN = "seasons.job_run"
# The aggregation's task keeps the name it had when seasons lived in scoring/: a message
# queued before the move still finds it.
SEASON_AGGREGATE = "scoring.season_aggregate"
SEASON_KINDS = (Job.Kind.SEASON,)
DEFAULT_PLACING_POINTS = [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
KEEP_SEASON_VERSIONS = 3


@transaction.atomic
def season_rebuild_launch(*, season: Season, by: User | None = None, rescore: bool = True) -> Job:
    """Queue a season job: every tournament re-scored (or only re-ranked), then the season."""
    if by is not None:
        require_organiser(by, season.club)
    job = Job.objects.create(
        kind=Job.Kind.SEASON,
        params={"rescore": rescore},
        created_by=by if by is not None and by.is_authenticated else None,
    )
    SeasonJob.objects.create(job=job, season=season)
    enqueue_on_commit(SEASON_JOB_RUN, job_id=job.pk)
    return job


def season_job_work(*, job_id: int) -> Job | None:
    """Run a season job if this worker can claim it (`seasons.job_run`'s work); None if none."""
    return job_work(job_id=job_id, kinds=SEASON_KINDS, work=season_job_run)


def season_job_retry(*, job: Job) -> bool:
    """Queue a failed or stale season job again, under this app's task (`scoring.jobs.job_retry`)."""
    return job_retry(job=job, task=SEASON_JOB_RUN)


def season_jobs_resend() -> int:
    """Queue again the season jobs that lost their message or their worker; how many.

    The workers' sweep (atout.celery) calls it beside scoring's own, which leaves these
    jobs to this app. A season job queued for longer than STALE_AFTER lost its message,
    or was queued under `scoring.job_run` before this app had a task, and that task left
    it alone. A running one without a heartbeat for as long lost its worker, unless it is
    waiting on its tournaments' jobs, which gives it no heartbeat but each one's end: it is
    retried only once none of them is queued or running any more (one ended uncounted,
    replaced by a director's job, or the aggregation's message was lost), and the retry
    counts them again and aggregates (`season_job_run`).
    """
    retried = 0
    for job in stale_jobs().filter(kind=Job.Kind.SEASON).order_by("pk"):
        waiting = Job.objects.filter(params__season_job=job.pk, status__in=(Job.Status.QUEUED, Job.Status.RUNNING))
        if job.status == Job.Status.RUNNING and waiting.exists():
            continue
        retried += season_job_retry(job=job)
    return retried


def season_of(job: Job) -> Season | None:
    """The season a season job rebuilds; None once that season is deleted."""
    link = SeasonJob.objects.filter(job=job).select_related("season__club").first()
    return link.season if link is not None else None


def season_job_run(*, job: Job) -> None:
    """Queue the season's tournament jobs (once), or aggregate at once when there are none.

    The work of a season job once claimed (`season_job_work`); it raises `JobFailed`
    when the season is gone. The job stays running while its tournaments' jobs run.
    """
    season = season_of(job)
    if season is None:
        raise JobFailed(gettext_noop("The season is gone."))
    children = Job.objects.filter(params__season_job=job.pk)
    if not children.exists():
        tournaments = list(season.tournaments.all())
        with transaction.atomic():
            created = [
                Job.objects.create(
                    kind=Job.Kind.RESCORE if job.params.get("rescore", True) else Job.Kind.REBUILD,
                    tournament=tournament,
                    params={**pending_config(tournament), "season_job": job.pk},
                    created_by_id=job.created_by_id,
                )
                for tournament in tournaments
            ]
            Job.objects.filter(pk=job.pk).update(total=len(created), progress=0, phase="tournaments")
            for child in created:
                enqueue_on_commit(JOB_RUN, job_id=child.pk)
        if not created:
            season_aggregate(job_id=job.pk)
        return
    # A retry of the season job: the tournament jobs exist. Count again those through
    # (the claim reset the count), and queue again those that are not.
    Job.objects.filter(pk=job.pk).update(
        total=children.count(), progress=children.filter(params__has_key="counted").count(), phase="tournaments"
    )
    for child in children.filter(status__in=(Job.Status.QUEUED, Job.Status.RUNNING)):
        enqueue(JOB_RUN, job_id=child.pk)
    if not children.filter(status__in=(Job.Status.QUEUED, Job.Status.RUNNING)).exists():
        season_aggregate(job_id=job.pk)


def season_child_finished(*, season_job_id: int, child: Job) -> None:
    """Count one tournament job in its season job; the last one queues the aggregation.

    `params.counted` on the child makes the count idempotent: a child run twice (a
    redelivered message) is counted once.
    """
    with transaction.atomic():
        marked = (
            Job.objects.filter(pk=child.pk)
            .exclude(params__has_key="counted")
            .update(params={**child.params, "counted": True})
        )
        if not marked:
            return
        Job.objects.filter(pk=season_job_id).update(progress=F("progress") + 1, heartbeat_at=timezone.now())
        parent = Job.objects.filter(pk=season_job_id).values("progress", "total").first()
    if parent is not None and parent["progress"] >= parent["total"]:
        enqueue(SEASON_AGGREGATE, job_id=season_job_id)


def season_rows(season: Season) -> list[SeasonRow]:
    """The season ranking from each tournament's live snapshot (engine.standings.season_ranking).

    Each player of a ranked competitor stands in that tournament with the competitor's
    rank and points; the engine turns placings into season points and ranks the season.
    Three queries.
    """
    tournaments = {t.pk: t for t in season.tournaments.all()}
    latest = (
        StandingsSnapshot.objects.filter(tournament_id__in=list(tournaments))
        .values("tournament_id")
        .annotate(version=Max("version"))
    )
    wanted = {(row["tournament_id"], row["version"]) for row in latest}
    snapshots = [
        s
        for s in StandingsSnapshot.objects.filter(
            tournament_id__in=[t for t, _v in wanted], version__in=[v for _t, v in wanted]
        ).only("tournament_id", "version", "rows")
        if (s.tournament_id, s.version) in wanted
    ]
    members: dict[int, list[int]] = defaultdict(list)
    names: dict[int, str] = {}
    through = Competitor.players.through
    for competitor_id, player_id, first, last in through.objects.filter(
        competitor__tournament_id__in=list(tournaments)
    ).values_list("competitor_id", "player_id", "player__first_name", "player__last_name"):
        members[competitor_id].append(player_id)
        names[player_id] = f"{first} {last}".strip()
    by_tournament = {
        tournaments[snapshot.tournament_id].slug: [
            _standing(player_id, row) for row in snapshot.rows for player_id in members.get(row.get("competitor"), [])
        ]
        for snapshot in snapshots
    }
    if season.scheme == Season.Scheme.PLACING:
        table = list(season.placing_points or DEFAULT_PLACING_POINTS)
        ranked = engine_standings.season_ranking(
            by_tournament, "table", {"table": {place: points for place, points in enumerate(table, start=1)}}
        )
    else:
        ranked = engine_standings.season_ranking(by_tournament, "points")
    titles = {t.slug: t.name for t in tournaments.values()}
    return [
        {
            "player": int(line.key),
            "name": names.get(int(line.key), "?"),
            "rank": line.rank,
            "points": line.total,
            "played": line.tournaments,
            "best": min(rank for _slug, rank, _points in line.results),
            "results": [
                {"tournament": slug, "name": titles.get(slug, slug), "rank": rank, "points": points}
                for slug, rank, points in sorted(line.results)
            ],
        }
        for line in ranked
    ]


def _standing(player_id: int, row: SnapshotRow) -> engine_standings.Standing:
    """A player's line in one tournament: their competitor's rank and points."""
    return engine_standings.Standing(
        competitor=str(player_id),
        rank=int(row.get("rank") or 0),
        values={},
        played=int(row.get("played") or 0),
        wins=int(row.get("wins") or 0),
        draws=0,
        losses=0,
        byes=int(row.get("byes") or 0),
        points_for=row.get("points") or 0,
        points_against=row.get("against") or 0,
    )


@transaction.atomic
def season_snapshot_write(*, season: Season) -> SeasonSnapshot:
    """A new SeasonSnapshot version with the season's current ranking; old versions pruned."""
    Season.objects.select_for_update().filter(pk=season.pk).first()
    rows = season_rows(season)
    last = SeasonSnapshot.objects.filter(season=season).aggregate(v=Max("version"))["v"] or 0
    snapshot = SeasonSnapshot.objects.create(season=season, version=last + 1, rows=rows)
    SeasonSnapshot.objects.filter(season=season, version__lte=last + 1 - KEEP_SEASON_VERSIONS).delete()
    return snapshot


def season_aggregate(*, job_id: int) -> Job | None:
    """Write the season's ranking and finish its job (nothing when already finished)."""
    job = Job.objects.filter(pk=job_id, kind=Job.Kind.SEASON).first()
    season = season_of(job) if job is not None else None
    if job is None or season is None or job.status == Job.Status.DONE:
        return job
    with transaction.atomic():
        locked = Job.objects.select_for_update().get(pk=job_id)
        if locked.status == Job.Status.DONE:
            return locked
        season_snapshot_write(season=season)
        failed = Job.objects.filter(params__season_job=job_id, status=Job.Status.FAILED).count()
        Job.objects.filter(pk=job_id).update(
            status=Job.Status.DONE,
            phase="",
            finished_at=timezone.now(),
            error=f"{failed} tournament job(s) failed: their previous ranking was used." if failed else "",
        )
    job.refresh_from_db()
    return job
