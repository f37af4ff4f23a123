"""The rating's arithmetic on tiny known cases (ratings/compute.py): no database."""

from __future__ import annotations

import pytest

from ratings.compute import DEFAULT_ORDINAL, Partie, rate, side_ranks


def test_a_newcomer_starts_at_zero() -> None:
    assert pytest.approx(0.0) == DEFAULT_ORDINAL


def test_side_ranks_put_the_winner_first_then_the_points() -> None:
    assert side_ranks([102, 60], None) == (1, 2)
    assert side_ranks([60, 102], None) == (2, 1)
    # Won on something else than points (a target reached, a forfeit): the winner first.
    assert side_ranks([60, 102], 0) == (1, 2)
    # Equal points share a rank; the next rank is skipped (1, 1, 3).
    assert side_ranks([80, 80, 20], None) == (1, 1, 3)
    assert side_ranks([-60, 120, -30, 10], None) == (4, 1, 3, 2)


def test_winners_go_up_and_losers_down_in_a_partie_of_two_teams() -> None:
    rated = rate([Partie(sides=((1, 2), (3, 4)), ranks=(1, 2))])
    assert rated[1].mu == pytest.approx(26.9643, abs=1e-4)
    assert rated[3].mu == pytest.approx(23.0357, abs=1e-4)
    assert rated[1].mu == rated[2].mu and rated[3].mu == rated[4].mu
    # Both sides are surer of their level after a partie.
    assert rated[1].sigma < 25 / 3 and rated[3].sigma < 25 / 3
    assert rated[1].ordinal > DEFAULT_ORDINAL > rated[3].ordinal
    assert {player: r.parties for player, r in rated.items()} == {1: 1, 2: 1, 3: 1, 4: 1}


def test_a_table_of_three_orders_the_players_by_rank() -> None:
    rated = rate([Partie(sides=((1,), (2,), (3,)), ranks=(2, 1, 3))])
    assert rated[2].mu > rated[1].mu > rated[3].mu


def test_beating_a_strong_player_counts_more_than_beating_a_newcomer() -> None:
    # Player 1 has beaten 2 three times; then 3 beats 1 (the strong one), 4 beats 5 (a newcomer).
    history = [Partie(sides=((1,), (2,)), ranks=(1, 2))] * 3
    rated = rate([*history, Partie(sides=((3,), (1,)), ranks=(1, 2)), Partie(sides=((4,), (5,)), ranks=(1, 2))])
    assert rated[3].mu > rated[4].mu
    assert rated[1].parties == 4


def test_the_same_parties_in_the_same_order_give_the_same_ratings() -> None:
    parties = [
        Partie(sides=((1, 2), (3, 4)), ranks=(1, 2)),
        Partie(sides=((1, 3), (2, 4)), ranks=(2, 1)),
        Partie(sides=((1,), (2,), (3,), (4,)), ranks=(1, 1, 3, 4)),
    ]
    assert rate(parties) == rate(list(parties))
    assert rate(parties) != rate(parties[::-1])
