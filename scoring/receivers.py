"""Scoring's answers to the signals of the apps below it (connected in `ScoringConfig.ready`)."""

from __future__ import annotations

from typing import Any

from scoring.models import TableResult
from scoring.standings import standings_schedule_refresh
from tournaments.models import Round


def standings_refresh(*, tournament_id: int, **_kwargs: Any) -> None:
    """`tournaments.signals.standings_refresh_requested`: queue the live ranking's refresh."""
    standings_schedule_refresh(tournament_id=tournament_id)


def table_results(*, round: Round, **_kwargs: Any) -> dict[int, TableResult]:
    """`tournaments.signals.table_results_wanted`: the round's table results by table id."""
    return {r.table_id: r for r in TableResult.objects.filter(table__round=round)}
