"""The rows a ranking snapshot stores, as every reader of them sees them.

`StandingsSnapshot.rows` is JSON written by scoring/standings/ (`SnapshotRow`); the
public and the organisers' pages, the API, the CSV and PDF exports, the seasons
(seasons/; a season's own rows: seasons/rows.py) and the anonymisation read them. Keys
are optional (`total=False`): a snapshot written before a key existed lacks it, and
readers say what they do without it.
"""

from __future__ import annotations

from typing import TypedDict

from engine.core import Number


class PartieItem(TypedDict, total=False):
    """A competitor's partie in one round: an item of `round_histories` (scoring/standings/),
    and of a row's `rounds` in the snapshots written before the histories left them."""

    round: int
    table: int | None  # None: a round away from the tables (a bye, a round missed)
    side: int | None  # an index into the game's sides
    result: str  # win, loss, draw, pending, bye, absent
    points: Number
    against: Number
    opponents: list[int]  # competitor ids
    partners: list[int]  # competitor ids (mêlée)
    late: bool  # a round missed by a late arrival; present only when true


class PartieState(TypedDict):
    """Where a competitor's partie of the last round counted stands (`current_partie`)."""

    round: int
    table: int
    donnes: int  # donnes counted so far
    finished: bool


class SnapshotRow(TypedDict, total=False):
    """One ranked competitor. Each criterion's value is also under its own key
    (engine.standings: `buchholz`, `head_to_head`...), as `values` lists them in order."""

    competitor: int  # the competitor's id
    number: int
    name: str
    rank: int  # shared by equals: 1, 2, 2, 4
    wins: Number
    points: Number
    against: Number
    difference: Number
    played: int
    byes: int
    absences: int
    withdrawn: bool
    values: list[Number | None]  # the criteria's values, in the columns' order
    rounds: list[PartieItem]  # older snapshots only: round_histories reads them now
    current_partie: PartieState | None
    match_points: Number
    buchholz: Number
    head_to_head: Number
