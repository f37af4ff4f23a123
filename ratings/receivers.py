"""Ratings' answers to the signals of tournaments/ (connected in `RatingsConfig.ready`)."""

from __future__ import annotations

from typing import Any

from ratings.enqueue import enqueue_rebuild


def tournament_finished(*, tournament_id: int, **_kwargs: Any) -> None:
    """`tournaments.signals.tournament_finished`: rebuild the ratings with its parties."""
    enqueue_rebuild()


def players_merged(**_kwargs: Any) -> None:
    """`tournaments.signals.players_merged`: the merged record's parties now count for the
    kept one, and its rating is gone: rebuild every rating once the merge commits."""
    enqueue_rebuild()
