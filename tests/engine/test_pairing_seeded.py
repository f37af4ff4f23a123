"""The `seeded` method: a round drawn by rating, the strongest apart (engine/pairing/methods.py)."""

from __future__ import annotations

from engine.pairing import Competitor, pair
from tests.engine.test_pairing import request


def rated(count: int, prefix: str = "r") -> list[Competitor]:
    """`count` competitors, r0 the best rated; given in a shuffled order on purpose."""
    field = [Competitor(f"{prefix}{k}", score=100 - 3 * k) for k in range(count)]
    return field[1::2] + field[::2]


def test_eight_teams_meet_first_against_eighth_second_against_seventh() -> None:
    draw = pair(request("teams", rated(8), "seeded"))
    assert [t.sides for t in draw.tables] == [
        (("r0",), ("r7",)),
        (("r1",), ("r6",)),
        (("r2",), ("r5",)),
        (("r3",), ("r4",)),
    ]
    assert draw.byes == ()


def test_the_lowest_rated_sits_out_and_the_others_are_still_split_in_halves() -> None:
    draw = pair(request("teams", rated(9), "seeded"))
    assert draw.byes == ("r8",)
    assert [t.sides for t in draw.tables] == [
        (("r0",), ("r7",)),
        (("r1",), ("r6",)),
        (("r2",), ("r5",)),
        (("r3",), ("r4",)),
    ]


def test_the_fair_bye_rule_comes_before_the_rating() -> None:
    field = [*rated(4), Competitor("r9", score=0, byes=1)]
    # r9 is the weakest but has sat out already: the weakest of the others sits out.
    assert pair(request("teams", field, "seeded")).byes == ("r3",)


def test_the_four_best_melee_players_sit_at_four_different_tables() -> None:
    draw = pair(request("melee", rated(16), "seeded"))
    tables = [{name for side in t.sides for name in side} for t in draw.tables]
    assert tables[0] == {"r0", "r7", "r8", "r15"}
    for best in ("r0", "r1", "r2", "r3"):
        assert sum(best in table for table in tables) == 1
    assert all(len(table & {"r0", "r1", "r2", "r3"}) == 1 for table in tables)


def test_tarot_tables_of_four_and_five_take_one_player_of_each_band() -> None:
    draw = pair(request("individual", rated(22), "seeded", table_sizes=(4, 5)))
    sizes = sorted(len(t.sides) for t in draw.tables)
    assert sizes == [4, 4, 4, 5, 5]
    strongest = {f"r{k}" for k in range(5)}
    for table in draw.tables:
        assert len({name for (name,) in table.sides} & strongest) == 1


def test_a_rematch_is_still_avoided_before_the_rating_is_followed() -> None:
    field = [Competitor(f"r{k}", score=100 - k, opponents=("r3",) if k == 0 else ()) for k in range(4)]
    field[3] = Competitor("r3", score=97, opponents=("r0",))
    draw = pair(request("teams", field, "seeded"))
    assert draw.repeats == ()
    assert ("r0",) in draw.tables[0].sides and ("r3",) not in draw.tables[0].sides


def test_the_same_ratings_give_the_same_draw_whatever_the_seed() -> None:
    first = pair(request("teams", rated(12), "seeded", seed=1))
    assert pair(request("teams", rated(12), "seeded", seed=99)).tables == first.tables
