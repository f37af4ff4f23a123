"""Rounds away from the tables (engine.standings.missed_round): byes and late arrivals.

The rules are docs/rules.md, "Byes and late arrivals": what a bye scores under each bye
policy, what a late arrival's missed round scores under each late policy.
"""

from __future__ import annotations

import pytest

from engine.standings import (
    MissedRound,
    bye_points,
    half_up,
    missed_round,
    missed_round_result,
    rank,
)


def test_an_average_win_bye_scores_the_average_of_the_round_winners_rounded_half_up() -> None:
    assert bye_points(bye_policy="average_win", fixed_points=0, winners=[1001, 1002]) == 1002
    assert bye_points(bye_policy="average_win", fixed_points=0, winners=[900, 1000, 1100]) == 1000


def test_an_average_win_bye_scores_nothing_while_no_table_of_the_round_has_finished() -> None:
    assert bye_points(bye_policy="average_win", fixed_points=500, winners=[]) == 0


def test_a_fixed_bye_scores_the_tournaments_points_whatever_the_winners() -> None:
    assert bye_points(bye_policy="fixed", fixed_points=750, winners=[1200, 1400]) == 750


def test_halves_round_away_from_zero_exactly() -> None:
    assert [half_up(v) for v in (0.5, 1.5, 2.5, 2.4999, 1001.5)] == [1, 2, 3, 2, 1002]


def test_a_bye_is_a_won_partie_with_its_points() -> None:
    missed = missed_round(late=False, bye_policy="fixed", late_policy="absent", fixed_points=600, winners=[])
    assert missed == MissedRound(outcome="bye", points=600, counted=True, finished=True)
    result = missed_round_result(3, "a", missed)
    assert result is not None and (result.outcome, result.points_for, result.opponents) == ("bye", 600, ())


def test_a_bye_under_the_none_policy_counts_for_nothing() -> None:
    missed = missed_round(late=False, bye_policy="none", late_policy="absent", fixed_points=600, winners=[900])
    assert not missed.counted
    assert missed_round_result(2, "a", missed) is None


def test_a_late_arrivals_missed_round_under_absent_is_a_partie_lost_with_no_points() -> None:
    missed = missed_round(late=True, bye_policy="fixed", late_policy="absent", fixed_points=600, winners=[900])
    assert missed == MissedRound(outcome="absent", points=0, counted=True, finished=True)
    result = missed_round_result(1, "late", missed)
    assert result is not None
    (standing,) = rank([result], ["wins", "points"])
    assert (standing.losses, standing.absences, standing.played, standing.points_for) == (1, 1, 0, 0)


def test_a_late_arrivals_missed_round_under_bye_scores_what_a_bye_scores() -> None:
    late = missed_round(late=True, bye_policy="average_win", late_policy="bye", fixed_points=0, winners=[1000, 1001])
    bye = missed_round(late=False, bye_policy="average_win", late_policy="bye", fixed_points=0, winners=[1000, 1001])
    assert late == bye == MissedRound(outcome="bye", points=1001, counted=True, finished=True)


def test_a_late_round_under_bye_with_no_byes_counted_counts_for_nothing() -> None:
    missed = missed_round(late=True, bye_policy="none", late_policy="bye", fixed_points=0, winners=[])
    assert missed_round_result(2, "late", missed) is None


@pytest.mark.parametrize(("bye_policy", "late_policy"), [("sometimes", "absent"), ("fixed", "never"), ("", "bye")])
def test_an_unknown_policy_is_refused(bye_policy: str, late_policy: str) -> None:
    with pytest.raises(ValueError, match="unknown"):
        missed_round(late=False, bye_policy=bye_policy, late_policy=late_policy, fixed_points=0, winners=[])
