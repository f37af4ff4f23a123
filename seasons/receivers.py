"""The seasons' answers to the signals of the apps below them (connected in `SeasonsConfig.ready`)."""

from __future__ import annotations

from typing import Any

from scoring.models import Job
from seasons.models import Season, SeasonSnapshot
from seasons.ranking import season_child_finished, season_snapshot_write


def job_finished(*, job: Job, **_kwargs: Any) -> None:
    """`scoring.signals.job_finished`: a tournament job a season job queued is through:
    count it there (once, however often it is announced)."""
    parent = job.params.get("season_job") if isinstance(job.params, dict) else None
    if parent:
        season_child_finished(season_job_id=int(parent), child=job)


def names_erased(*, tournament_ids: list[int], player_names: dict[int, str], **_kwargs: Any) -> None:
    """`tournaments.signals.names_erased`: rewrite the players' names every season snapshot
    of those tournaments copied, the past versions too (an anonymised name must be nowhere)."""
    concerned = Season.objects.filter(tournaments__in=tournament_ids).values("pk")
    snapshots = SeasonSnapshot.objects.filter(season_id__in=concerned).only("pk", "rows")
    for snapshot in snapshots.iterator(chunk_size=50):
        changed = False
        for row in snapshot.rows:
            name = player_names.get(row.get("player"))
            if name is not None and row.get("name") != name:
                row["name"] = name
                changed = True
        if changed:
            snapshot.save(update_fields=["rows"])


def players_merged(*, tournament_ids: list[int], **_kwargs: Any) -> None:
    """`tournaments.signals.players_merged`: a season counting those tournaments ranked the
    two records apart; its ranking is written again from the stored rankings (no re-scoring),
    the kept record one line. A season never ranked yet is left to its first job."""
    concerned = Season.objects.filter(tournaments__in=tournament_ids, snapshots__isnull=False).distinct()
    for season in concerned:
        season_snapshot_write(season=season)
