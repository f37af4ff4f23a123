"""Scoring's answers to the signals of the apps below it (connected in `ScoringConfig.ready`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from scoring.models import Hand, TableResult
from scoring.standings import standings_schedule_refresh
from tournaments.models import Round


def standings_refresh(*, tournament_id: int, **_kwargs: Any) -> None:
    """`tournaments.signals.standings_refresh_requested`: queue the live ranking's refresh."""
    standings_schedule_refresh(tournament_id=tournament_id)


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
