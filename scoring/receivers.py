"""Scoring's answers to the signals of the apps below it (connected in `ScoringConfig.ready`)."""

from __future__ import annotations

from typing import Any

from scoring.models import StandingsSnapshot
from scoring.standings import base_forget, standings_schedule_refresh


def standings_refresh(*, tournament_id: int, **_kwargs: Any) -> None:
    """`tournaments.signals.standings_refresh_requested`: queue the live ranking's refresh.

    What the tournament's side changed (a draw, a close, a registration, a late arrival's
    byes in closed rounds) may touch the closed rounds: their stored totals are dropped,
    and the refresh reads every round again.
    """
    base_forget(tournament_id=tournament_id)
    standings_schedule_refresh(tournament_id=tournament_id)


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


def players_merged(*, tournament_ids: list[int], competitor_names: dict[int, str], **_kwargs: Any) -> None:
    """`tournaments.signals.players_merged`: the competitors named after the merged record
    now bear the kept one's name; every ranking snapshot that copied the old name follows."""
    if not competitor_names:
        return
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
