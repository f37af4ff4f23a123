"""Scoring's answers to the signals of the apps below it (connected in `ScoringConfig.ready`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from scoring import live_ranking
from scoring.models import Hand, StandingsSnapshot, TableResult
from scoring.standings import base_forget, standings_schedule_refresh
from tournaments.models import Round


def standings_refresh(*, tournament_id: int, **_kwargs: Any) -> None:
    """`tournaments.signals.standings_refresh_requested`: queue the live ranking's refresh.

    What the tournament's side changed (a draw, a close, a registration, a late arrival's
    byes in closed rounds) may touch the closed rounds: their stored totals are dropped,
    and the refresh reads every round again.
    """
    base_forget(tournament_id=tournament_id)
    standings_schedule_refresh(tournament_id=tournament_id)


def newest_announced(*, tournament_id: int, version: int, **_kwargs: Any) -> None:
    """`scoring.standings.signals.snapshot_written` (in the process that wrote it, once
    committed): every web process's polls learn of the new version from the shared cache."""
    live_ranking.newest_written(tournament_id, version)


@dataclass(frozen=True, slots=True)
class TableProgress:
    """A table's result as `tournaments.selectors.TableProgress` reads it, with the donnes
    waiting for the other side's confirmation (entered, not counted yet)."""

    finished: bool
    forced: bool
    donnes_played: int
    totals: list[int]
    pending: int


def table_results(*, round: Round, **_kwargs: Any) -> dict[int, TableProgress]:
    """`tournaments.signals.table_results_wanted`: the round's table results by table id,
    for every table with a donne counted or waiting."""
    results = {r.table_id: r for r in TableResult.objects.filter(table__round=round)}
    waiting = dict(
        Hand.objects.filter(table__round=round, status=Hand.Status.PENDING)
        .values("table_id")
        .annotate(count=Count("pk"))
        .values_list("table_id", "count")
    )
    answer = {}
    for table_id in results.keys() | waiting.keys():
        result = results.get(table_id)
        answer[table_id] = TableProgress(
            finished=result is not None and result.finished,
            forced=result is not None and result.forced,
            donnes_played=result.donnes_played if result is not None else 0,
            totals=list(result.totals) if result is not None else [],
            pending=waiting.get(table_id, 0),
        )
    return answer


def names_erased(
    *,
    tournament_ids: list[int],
    competitor_names: dict[int, str],
    player_names: dict[int, str],
    **_kwargs: Any,
) -> None:
    """`tournaments.signals.names_erased`: rewrite the names every ranking snapshot copied.

    Every version is rewritten, the past ones too (the ranking after each round): an
    anonymised name must be nowhere. The results in them are left as they are. The
    seasons' snapshots are rewritten by seasons/receivers.py.
    """
    snapshots = StandingsSnapshot.objects.filter(tournament_id__in=tournament_ids).only("pk", "rows")
    for snapshot in snapshots.iterator(chunk_size=50):
        if _rename(snapshot.rows, "competitor", competitor_names):
            snapshot.save(update_fields=["rows"])


def _rename(rows: list[dict[str, Any]], key: str, names: dict[int, str]) -> bool:
    changed = False
    for row in rows:
        name = names.get(row.get(key))  # type: ignore[arg-type]
        if name is not None and row.get("name") != name:
            row["name"] = name
            changed = True
    return changed
