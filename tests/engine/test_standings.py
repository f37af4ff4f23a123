"""Standings (engine.standings): criteria, shared ranks, tiebreaks, the season ranking."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.standings import (
    CRITERIA,
    PartieResult,
    Standing,
    allowed_criteria,
    default_criteria,
    rank,
    rank_order,
    records_of,
    season_ranking,
    table_outcomes,
)
from tests.tiers import examples


def partie(round_number: int, a: str, b: str, points_a: int, points_b: int) -> list[PartieResult]:
    """Both sides of a partie between two teams."""
    outcome_a = "win" if points_a > points_b else "loss" if points_a < points_b else "draw"
    outcome_b = {"win": "loss", "loss": "win", "draw": "draw"}[outcome_a]
    return [
        PartieResult(round_number, a, (b,), points_a, points_b, outcome_a),
        PartieResult(round_number, b, (a,), points_b, points_a, outcome_b),
    ]


def bye(round_number: int, who: str, points: int = 0) -> PartieResult:
    return PartieResult(round_number, who, (), points, 0, "bye")


def table(standings: list[Standing], *keys: str) -> list[tuple[object, ...]]:
    return [(s.rank, s.competitor, *(s.values[k] for k in keys)) for s in standings]


# A small concours: four teams, two rounds.
#   round 1: a 1000-600 b, c 900-700 d
#   round 2: a 500-1100 c, b 800-800 d
CONCOURS = [
    *partie(1, "a", "b", 1000, 600),
    *partie(1, "c", "d", 900, 700),
    *partie(2, "a", "c", 500, 1100),
    *partie(2, "b", "d", 800, 800),
]


def test_wins_rank_first_then_points() -> None:
    standings = rank(CONCOURS, ["wins", "points"])
    assert table(standings, "wins", "points") == [
        (1, "c", 2, 2000),
        (2, "a", 1, 1500),
        (3, "d", 0, 1500),
        (4, "b", 0, 1400),
    ]


def test_the_standing_carries_the_played_parties_and_totals() -> None:
    c = rank(CONCOURS, ["wins"])[0]
    assert (c.competitor, c.played, c.wins, c.draws, c.losses, c.byes) == ("c", 2, 2, 0, 0, 0)
    assert (c.points_for, c.points_against) == (2000, 1200)
    assert [r.round for r in c.rounds] == [1, 2]


def test_difference_is_points_scored_minus_conceded() -> None:
    standings = rank(CONCOURS, ["difference"])
    assert table(standings, "difference") == [(1, "c", 800), (2, "a", -200), (2, "d", -200), (4, "b", -400)]


def test_fewer_points_against_rank_higher() -> None:
    standings = rank(CONCOURS, ["against"])
    assert table(standings, "against") == [(1, "c", 1200), (2, "a", 1700), (2, "d", 1700), (4, "b", 1800)]


def test_equal_competitors_share_a_rank_and_the_next_rank_is_skipped() -> None:
    results = [*partie(1, "a", "b", 10, 0), *partie(1, "c", "d", 10, 0)]
    standings = rank(results, ["wins"], competitors=["e"])
    assert [(s.rank, s.competitor) for s in standings] == [(1, "a"), (1, "c"), (3, "b"), (3, "d"), (3, "e")]


def test_ties_are_never_broken_by_name_but_listed_by_id() -> None:
    results = [*partie(1, "zed", "amy", 5, 5)]
    standings = rank(results, ["wins", "points"])
    assert [(s.rank, s.competitor) for s in standings] == [(1, "amy"), (1, "zed")]


def test_match_points_follow_the_tournament_scheme() -> None:
    # The Rennes challenge: 4 a win, 2 a loss, 3 a bye.
    results = [*partie(1, "a", "b", 900, 700), bye(1, "c", 1000), *partie(2, "a", "c", 600, 800), bye(2, "b", 1000)]
    scheme = ("match_points", {"win": 4, "loss": 2, "bye": 3})
    standings = rank(results, [scheme, "points"])
    assert table(standings, "match_points", "points") == [
        (1, "c", 7, 1800),
        (2, "a", 6, 1500),
        (3, "b", 5, 1700),
    ]


def test_match_points_default_to_two_a_win_one_a_draw_and_a_bye_as_a_win() -> None:
    results = [*partie(1, "a", "b", 5, 5), *partie(2, "a", "c", 9, 1), bye(2, "b")]
    values = {s.competitor: s.values["match_points"] for s in rank(results, ["match_points"])}
    assert values == {"a": 3, "b": 3, "c": 0}


def test_a_bye_counts_as_a_won_partie_with_its_credited_points() -> None:
    results = [*partie(1, "a", "b", 700, 500), bye(1, "c", 700)]
    standings = rank(results, ["wins", "points"])
    assert table(standings, "wins", "points") == [(1, "a", 1, 700), (1, "c", 1, 700), (3, "b", 0, 500)]
    c = next(s for s in standings if s.competitor == "c")
    assert (c.played, c.byes, c.wins) == (0, 1, 0)


def test_a_bye_need_not_count_as_a_win() -> None:
    results = [*partie(1, "a", "b", 700, 500), bye(1, "c", 0)]
    values = {s.competitor: s.values["wins"] for s in rank(results, [("wins", {"bye_is_win": False})])}
    assert values == {"a": 1, "b": 0, "c": 0}


def test_a_round_missed_scores_nothing_and_counts_as_lost_but_not_as_played() -> None:
    # Round 1 of the concours; e joins in round 2 and beats b there: its round 1 is a round missed.
    results = [*CONCOURS[:4], PartieResult(1, "e", (), 0, 0, "absent"), *partie(2, "e", "b", 900, 400)]
    standings = {s.competitor: s for s in rank(results, ["wins", "points", "difference", "match_points"])}
    e = standings["e"]
    assert (e.wins, e.losses, e.absences, e.played, e.byes) == (1, 1, 1, 1, 0)
    assert (e.points_for, e.points_against, e.values["difference"]) == (900, 400, 500)
    # Two points for the win, a loss's nothing for the round missed.
    assert e.values["match_points"] == 2
    scheme = {"win": 4, "draw": 3, "loss": 2}
    by_scheme = {s.competitor: s.values["match_points"] for s in rank(results, [("match_points", scheme)])}
    assert by_scheme["e"] == 4 + 2


def test_a_round_missed_adds_nothing_to_the_buchholz_of_anyone() -> None:
    results = [*partie(1, "a", "b", 900, 700), PartieResult(1, "e", (), 0, 0, "absent"), *partie(2, "e", "a", 1, 0)]
    values = {s.competitor: s.values["buchholz"] for s in rank(results, ["buchholz"])}
    # e met a (one win); a met b (no win) and e (one win).
    assert values == {"a": 1, "b": 1, "e": 1}


def test_buchholz_adds_up_the_wins_of_the_opponents_met() -> None:
    # Round 1: a beats b, c beats d. Round 2: a beats c, b beats d.
    results = [
        *partie(1, "a", "b", 2, 1),
        *partie(1, "c", "d", 2, 1),
        *partie(2, "a", "c", 2, 1),
        *partie(2, "b", "d", 2, 1),
    ]
    values = {s.competitor: s.values["buchholz"] for s in rank(results, ["wins", "buchholz"])}
    # Wins: a 2, b 1, c 1, d 0. a met b and c (1 + 1); b met a and d (2 + 0); and so on.
    assert values == {"a": 2, "b": 2, "c": 2, "d": 2}
    # Round 3: d beats e. Now b and c met a stronger d, and d met c, b and e.
    standings = rank([*results, *partie(3, "d", "e", 2, 1)], ["wins", "buchholz"])
    assert table(standings, "wins", "buchholz") == [
        (1, "a", 2, 2),
        (2, "b", 1, 3),
        (2, "c", 1, 3),
        (4, "d", 1, 2),
        (5, "e", 0, 1),
    ]


def test_buchholz_breaks_a_tie_in_wins() -> None:
    # x and y both won once; x beat a strong team (two wins), y a weak one (none).
    results = [
        *partie(1, "x", "strong", 2, 1),
        *partie(1, "y", "weak", 2, 1),
        *partie(2, "strong", "weak", 2, 1),
        *partie(3, "strong", "other", 2, 1),
    ]
    standings = rank(results, ["wins", "buchholz"])
    ranks = {s.competitor: s.rank for s in standings}
    assert ranks["x"] < ranks["y"]


def test_head_to_head_decides_between_tied_competitors_only() -> None:
    # Everyone wins once; a and b also tie on points (1200), and b beat a.
    results = [
        *partie(1, "b", "a", 600, 500),
        *partie(2, "a", "c", 700, 100),
        *partie(2, "b", "d", 600, 700),
        *partie(3, "c", "d", 300, 200),
    ]
    standings = rank(results, ["wins", "points", "head_to_head"])
    assert [(s.rank, s.competitor) for s in standings] == [(1, "b"), (2, "a"), (3, "d"), (4, "c")]
    assert standings[0].values["head_to_head"] == 1
    assert standings[1].values["head_to_head"] == 0


def test_head_to_head_leaves_a_tie_when_the_tied_never_met() -> None:
    results = [*partie(1, "a", "c", 5, 1), *partie(1, "b", "d", 5, 1)]
    standings = rank(results, ["wins", "points", "head_to_head"])
    assert [(s.rank, s.competitor) for s in standings][:2] == [(1, "a"), (1, "b")]


def test_head_to_head_at_tables_of_three_compares_finishing_order() -> None:
    # Round 1, one table: a 120, b 90, c 30. Round 2 at other tables: b wins with 130,
    # a loses with 100. a and b tie on points (220) and wins (1); a finished above b.
    results = [
        PartieResult(1, "a", ("b", "c"), 120, None, "win"),
        PartieResult(1, "b", ("a", "c"), 90, None, "loss"),
        PartieResult(1, "c", ("a", "b"), 30, None, "loss"),
        PartieResult(2, "b", ("d", "e"), 130, None, "win"),
        PartieResult(2, "a", ("f", "g"), 100, None, "loss"),
    ]
    standings = rank(results, ["points", "wins", "head_to_head"])
    assert [(s.rank, s.competitor) for s in standings] == [(1, "a"), (2, "b"), (3, "c")]


def test_tables_of_three_rank_by_points_then_wins_without_points_against() -> None:
    results = [
        PartieResult(1, "a", ("b", "c"), 40, None, "loss"),
        PartieResult(1, "b", ("a", "c"), 100, None, "win"),
        PartieResult(1, "c", ("a", "b"), 40, None, "loss"),
    ]
    standings = rank(results, default_criteria("tarot_a_trois"))
    assert [(s.rank, s.competitor) for s in standings] == [(1, "b"), (2, "a"), (2, "c")]
    with pytest.raises(ValueError, match="'difference' needs points_against"):
        rank(results, ["difference"])


def test_the_winner_of_a_table_of_three_is_the_highest_total() -> None:
    assert table_outcomes({"a": 40, "b": 100, "c": -20}) == {"a": "loss", "b": "win", "c": "loss"}
    assert table_outcomes({"a": 100, "b": 100, "c": -20}) == {"a": "draw", "b": "draw", "c": "loss"}


def test_a_partie_in_progress_counts_its_points_but_not_its_outcome() -> None:
    results = [
        PartieResult(1, "a", ("b",), 300, 100, "win", finished=False),
        PartieResult(1, "b", ("a",), 100, 300, "loss", finished=False),
    ]
    a = rank(results, ["wins", "points"])[0]
    assert (a.competitor, a.points_for, a.wins, a.played) == ("a", 300, 0, 0)


def test_defaults_follow_the_rule_decisions() -> None:
    assert default_criteria("belote_classique") == ("wins", "points", "difference")
    assert default_criteria("belote_moderne") == ("wins", "points", "difference")
    assert default_criteria("belote_a_trois") == ("points", "wins")
    assert default_criteria("tarot_a_trois") == ("points", "wins")
    with pytest.raises(ValueError, match="unknown game 'poker'"):
        default_criteria("poker")


def test_every_game_allows_every_criterion_and_its_defaults_are_among_them() -> None:
    for code in engine.GAMES:
        assert allowed_criteria(code) == tuple(CRITERIA)
        assert set(default_criteria(code)) <= set(allowed_criteria(code))
    with pytest.raises(ValueError, match="unknown game 'poker'"):
        allowed_criteria("poker")


@pytest.mark.parametrize(
    ("criteria", "message"),
    [
        (["elo"], "unknown ranking criterion 'elo'"),
        (["wins", "wins"], "'wins' is listed twice"),
        ([("match_points", {"wim": 3})], "unknown parameter 'wim'"),
        ([("match_points", {"win": "three"})], "'win' must be a number"),
        ([("buchholz", {"of": "difference"})], "'of' must be"),
    ],
)
def test_a_bad_criterion_is_refused_with_a_clear_message(criteria: list[object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rank(CONCOURS, criteria)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("result", "message"),
    [
        (PartieResult(1, "a", ("b",), 1, 0, "won"), "unknown outcome 'won'"),
        (PartieResult(0, "a", ("b",), 1, 0, "win"), "round must be"),
        (PartieResult(1, "a", (), 1, 0, "win"), "at least one opponent"),
        (PartieResult(1, "a", ("b",), 1, 0, "bye"), "a bye has no opponents"),
        (PartieResult(1, "a", ("b",), 0, 0, "absent"), "a round missed has no opponents"),
        (PartieResult(1, "a", ("b",), float("inf"), 0, "win"), "finite number"),
    ],
)
def test_a_bad_result_is_refused_with_a_clear_message(result: PartieResult, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rank([result], ["wins"])


def test_two_results_for_one_competitor_in_one_round_are_refused() -> None:
    with pytest.raises(ValueError, match="two results in round 1"):
        rank([*partie(1, "a", "b", 1, 0), *partie(1, "a", "c", 1, 0)], ["wins"])


def test_every_criterion_of_the_registry_ranks_a_concours() -> None:
    for key in CRITERIA:
        standings = rank(CONCOURS, [key])
        assert sorted(s.competitor for s in standings) == ["a", "b", "c", "d"]


@settings(max_examples=examples(50), deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("abcdef"), st.sampled_from("abcdef"), st.integers(0, 162), st.integers(0, 162)),
        max_size=12,
    )
)
def test_ranks_never_decrease_and_equal_values_share_a_rank(games: list[tuple[str, str, int, int]]) -> None:
    results = []
    for round_number, (a, b, pa, pb) in enumerate(games, start=1):
        if a != b:
            results.extend(partie(round_number, a, b, pa, pb))
    criteria = ["wins", "points", "difference", "buchholz"]
    standings = rank(results, criteria, competitors="abcdef")
    assert [s.rank for s in standings] == sorted(s.rank for s in standings)
    for before, after in itertools.pairwise(standings):
        same = all(before.values[k] == after.values[k] for k in criteria)
        assert (before.rank == after.rank) == same
    for position, standing in enumerate(standings, start=1):
        assert standing.rank == 1 + sum(1 for s in standings if s.rank < standing.rank)
        assert standing.rank <= position


@settings(max_examples=examples(80), deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("abcdefgh"), st.sampled_from("abcdefgh"), st.integers(0, 4), st.integers(0, 4)),
        max_size=16,
    ),
    st.lists(st.sampled_from(["wins", "points", "difference", "against", "match_points", "buchholz"]), min_size=1,
             max_size=4, unique=True),
)  # fmt: skip
def test_the_ranking_orders_by_every_criterion_in_turn_and_shares_ranks_of_equal_values(
    games: list[tuple[str, str, int, int]], criteria: list[str]
) -> None:
    # Few distinct points, so that ties are frequent and every criterion is reached.
    results = []
    for round_number, (a, b, pa, pb) in enumerate(games, start=1):
        if a != b:
            results.extend(partie(round_number, a, b, pa * 40, pb * 40))
    records = records_of(results, "abcdefgh")
    order = rank_order(records, criteria)
    # Said otherwise: best values first (fewest conceded for `against`), ids within a tie;
    # a rank is one more than the number of competitors with strictly better values.
    lower = {"against"}

    def key(values: dict[str, float]) -> tuple[float, ...]:
        return tuple(values[k] if k in lower else -values[k] for k in criteria)

    values = {competitor: found for competitor, _rank, found in order}
    expected = sorted(values, key=lambda c: (key(values[c]), c))
    assert [competitor for competitor, _rank, _values in order] == expected
    for _competitor, shared, found in order:
        assert shared == 1 + sum(1 for other in values.values() if key(other) < key(found))


# -- season ranking -------------------------------------------------------------------------


def final(*ranks: tuple[str, int]) -> list[Standing]:
    return [Standing(name, r, {}, 4, 0, 0, 0, 0, 1000 - 100 * r, 0) for name, r in ranks]


def test_a_season_adds_up_points_by_placing_from_the_table() -> None:
    season = season_ranking(
        {"spring": final(("ann", 1), ("bob", 2), ("cat", 3)), "autumn": final(("bob", 1), ("ann", 2), ("dan", 3))},
        "table",
        {"table": {1: 100, 2: 80, 3: 65}},
    )
    assert [(s.rank, s.key, s.total, s.tournaments) for s in season] == [
        (1, "ann", 180, 2),
        (1, "bob", 180, 2),
        (3, "cat", 65, 1),
        (3, "dan", 65, 1),
    ]
    assert season[0].results == (("spring", 1, 100), ("autumn", 2, 80))


def test_a_shared_placing_earns_the_points_of_its_rank_and_placings_past_the_table_none() -> None:
    season = season_ranking(
        {"cup": final(("ann", 1), ("bob", 1), ("cat", 3), ("dan", 4))}, "table", {"table": {"1": 10, "2": 8, "3": 6}}
    )
    assert {s.key: s.total for s in season} == {"ann": 10, "bob": 10, "cat": 6, "dan": 0}


def test_a_season_by_field_size_gives_n_minus_rank_plus_one() -> None:
    season = season_ranking({"cup": final(("ann", 1), ("bob", 2), ("cat", 2), ("dan", 4))}, "field")
    assert {s.key: s.total for s in season} == {"ann": 4, "bob": 3, "cat": 3, "dan": 1}


def test_a_season_by_total_points_adds_the_points_scored() -> None:
    season = season_ranking({"a": final(("ann", 1)), "b": final(("ann", 2), ("bob", 1))}, "points")
    assert [(s.key, s.total) for s in season] == [("ann", 1700), ("bob", 900)]


def test_a_bad_season_scheme_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown season scoring 'best_of'"):
        season_ranking({}, "best_of")
    with pytest.raises(ValueError, match="needs a 'table'"):
        season_ranking({}, "table")
    with pytest.raises(ValueError, match="ranks 'ann' twice"):
        season_ranking({"cup": final(("ann", 1), ("ann", 2))}, "field")
