"""Scoring's answers to the signals of the apps below it (connected in `ScoringConfig.ready`)."""

from __future__ import annotations

from typing import Any

from scoring.standings import standings_schedule_refresh


def standings_refresh(*, tournament_id: int, **_kwargs: Any) -> None:
    """`tournaments.signals.standings_refresh_requested`: queue the live ranking's refresh."""
    standings_schedule_refresh(tournament_id=tournament_id)
