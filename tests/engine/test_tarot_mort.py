"""Tarot à 4 at a table of five, the dealer sitting each donne out as the mort
(`tarot_a_quatre_mort`, the tournament's `table_de_cinq: mort`; issue 27)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.match import End, end_at_table, play

GAME = engine.get_game("tarot_a_quatre_mort")


def hand(**fields: Any) -> dict[str, Any]:
    """Player 2 takes a garde with 2 oudlers and 46 points (made by 5: D = 60); player 0 is mort."""
    return {"mort": 0, "taker": 2, "contract": "garde", "oudlers": 2, "points": 46, **fields}


def codes(h: Any) -> list[tuple[str, str]]:
    return [(e.field, e.code) for e in GAME.validate(h, GAME.resolve_options({}))]


def test_it_is_a_table_game_not_a_tournament_game() -> None:
    assert "tarot_a_quatre_mort" in engine.TABLE_GAMES
    assert "tarot_a_quatre_mort" not in engine.GAMES
    assert (GAME.players_per_table, GAME.sides, GAME.players_per_donne) == (5, (0, 1, 2, 3, 4), 4)


def test_the_four_who_play_score_tarot_a_4_and_the_mort_scores_0() -> None:
    score = GAME.score(hand(), GAME.resolve_options({}))
    assert score.scores == (0, -60, 180, -60, -60)
    assert sum(score.scores) == 0
    assert GAME.score(hand(mort=4, taker=0), GAME.resolve_options({})).scores == (180, -60, -60, -60, 0)


def test_the_options_are_tarot_a_4s() -> None:
    assert GAME.resolve_options({}) == engine.GAMES["tarot_a_quatre"].resolve_options({})
    fft = GAME.resolve_options({"primes": "fft"})
    poignee = hand(poignee={"by": "taker", "size": "simple"})
    assert GAME.score(poignee, fft).scores[2] == 3 * ((25 + 5) * 2 + 20)


def test_the_mort_is_required_and_is_one_of_the_five() -> None:
    bare = hand()
    del bare["mort"]
    assert codes(bare) == [("mort", "required")]
    assert codes(hand(mort=5)) == [("mort", "out_of_range")]
    assert codes(hand(mort="1")) == [("mort", "not_an_integer")]


def test_the_mort_cannot_take() -> None:
    (error,) = GAME.validate(hand(mort=2), GAME.resolve_options({}))
    assert (error.field, error.code) == ("taker", "taker_is_mort")
    assert error.message == (
        "Player 2 is the mort of this donne and does not play: choose the taker among the four others."
    )


def test_points_are_whole_as_at_four() -> None:
    assert codes(hand(points=45.5)) == [("points", "half_point_at_four")]


@pytest.mark.parametrize(("donnes", "at_five"), [(4, 5), (12, 15), (5, 7), (1, 2), (8, 10)])
def test_a_partie_of_n_donnes_lasts_n_times_5_over_4_at_the_table_of_five(donnes: int, at_five: int) -> None:
    assert end_at_table(GAME, End(donnes=donnes)) == End(donnes=at_five)
    # Tables where everyone plays, and a target, are left as they are.
    assert end_at_table(engine.GAMES["tarot_a_quatre"], End(donnes=donnes)) == End(donnes=donnes)
    assert end_at_table(GAME, End(target=500)) == End(target=500)


def test_a_partie_of_five_donnes_each_player_mort_once_plays_four_each() -> None:
    hands = [hand(mort=m, taker=(m + 1) % 5) for m in range(5)]
    out = play(GAME, hands, end_at_table(GAME, End(donnes=4)))
    assert out.finished and out.donnes_played == 5
    # Each player took once (+180), defended three times (-180) and sat out once: 0 each.
    assert out.totals == (0, 0, 0, 0, 0)


@given(seed=st.integers(0, 2**32))
def test_random_hands_are_valid_with_a_mort_who_does_not_take(seed: int) -> None:
    h = GAME.random_hand(random.Random(seed))
    assert GAME.validate(h, GAME.resolve_options({})) == []
    assert h["taker"] != h["mort"]
    assert GAME.score(h, GAME.resolve_options({})).scores[h["mort"]] == 0
