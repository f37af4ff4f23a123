"""The rows a season's ranking stores (`SeasonSnapshot.rows`, written by seasons/ranking.py).

Read by the season's page, its CSV and PDF, the API and the anonymisation; as scoring's
snapshot rows (scoring/rows.py), keys may be missing from rows written before they existed.
"""

from __future__ import annotations

from typing import TypedDict

from engine.core import Number


class SeasonResult(TypedDict):
    """A player's tournament in a season row: where they finished, what it earned."""

    tournament: str  # the tournament's slug
    name: str
    rank: int
    points: Number


class SeasonRow(TypedDict, total=False):
    """One player of a season ranking."""

    player: int  # the player's id
    name: str
    rank: int
    points: Number  # season points
    played: int  # tournaments played
    best: int  # the best rank
    results: list[SeasonResult]
