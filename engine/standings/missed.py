"""Rounds spent away from a table: byes and late arrivals (docs/rules.md, "Byes and late
arrivals"): what such a round scores, as the ranking counts it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from engine.standings.records import Number, PartieResult

BYE_POLICIES = ("average_win", "fixed", "none")
LATE_POLICIES = ("absent", "bye")


@dataclass(frozen=True, slots=True)
class MissedRound:
    """What a round spent away from any table scores, as the ranking counts it.

    `outcome` is "bye" (a won partie with `points`) or "absent"; `counted` says whether
    the round enters the ranking at all (the `none` bye policy counts it for nothing);
    `finished` is false only for a round that counts for nothing.
    """

    outcome: str
    points: Number
    counted: bool
    finished: bool


def half_up(value: Number) -> int:
    """`value` rounded to a whole number, halves away from zero (2.5 -> 3), exactly."""
    return int(Decimal(str(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def bye_points(*, bye_policy: str, fixed_points: Number, winners: Sequence[Number], step: int = 1) -> Number:
    """The points a bye is credited with: `winners` are the points of the round's winning sides.

    `average_win`: their average rounded half up to a multiple of `step` (the game's
    rounding: `Game.score_step`, 10 for a contrée that rounds to the ten), 0 while no
    table has finished; `fixed`: the tournament's `fixed_points`; `none`: 0 (the bye
    counts for nothing).
    """
    if bye_policy not in BYE_POLICIES:
        raise ValueError(f"unknown bye policy {bye_policy!r} (one of {', '.join(BYE_POLICIES)})")
    if bye_policy == "fixed":
        return fixed_points
    if bye_policy == "average_win":
        return half_up(sum(winners) / len(winners) / step) * step if winners else 0
    return 0


def missed_round(
    *,
    late: bool,
    bye_policy: str,
    late_policy: str,
    fixed_points: Number,
    winners: Sequence[Number],
    step: int = 1,
) -> MissedRound:
    """What one round away from the tables scores: a bye, or a late arrival's missed round.

    A late arrival's round under the `absent` late policy is a partie lost with no points,
    not played; under the `bye` late policy it scores what a bye scores. A bye under the
    `none` bye policy counts for nothing, not even as played.
    """
    if late_policy not in LATE_POLICIES:
        raise ValueError(f"unknown late policy {late_policy!r} (one of {', '.join(LATE_POLICIES)})")
    if late and late_policy == "absent":
        return MissedRound(outcome="absent", points=0, counted=True, finished=True)
    if bye_policy == "none":
        return MissedRound(outcome="absent", points=0, counted=False, finished=False)
    points = bye_points(bye_policy=bye_policy, fixed_points=fixed_points, winners=winners, step=step)
    return MissedRound(outcome="bye", points=points, counted=True, finished=True)


def missed_round_result(round_number: int, competitor: str, missed: MissedRound) -> PartieResult | None:
    """The engine's partie result of a missed round, or None when it counts for nothing."""
    if not missed.counted:
        return None
    return PartieResult(
        round=round_number,
        competitor=competitor,
        opponents=(),
        points_for=missed.points,
        points_against=0,
        outcome=missed.outcome,
    )
