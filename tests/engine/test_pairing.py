"""The draw of a round (engine.pairing): no avoidable repeat, fair byes, reproducible."""

from __future__ import annotations

import io
import itertools
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.pairing import FORMATS, METHODS, Competitor, Draw, PairingRequest, pair, run_pair_command
from engine.pairing.byes import plan_sit_out
from engine.pairing.costs import REPEAT, build_cost_model
from engine.pairing.groups import ExactSearch, LocalSearch, MeleeTables, ThreeSeatTables
from engine.pairing.methods import get_method
from tests.tiers import examples

ROOT = Path(__file__).resolve().parents[2]
TABLE_SIZE = {"teams": 2, "melee": 4, "individual": 3}

Sides = tuple[tuple[str, ...], ...]


def request(
    fmt: str, competitors: Sequence[Competitor], method: str = "random", seed: int = 1, **kw: object
) -> PairingRequest:
    return PairingRequest(format=fmt, method=method, seed=seed, competitors=tuple(competitors), **kw)  # type: ignore[arg-type]


def players(count: int, prefix: str = "p") -> list[Competitor]:
    return [Competitor(f"{prefix}{k}") for k in range(1, count + 1)]


def seated(draw: Draw) -> list[str]:
    return [name for table in draw.tables for side in table.sides for name in side]


# -- independent bookkeeping for the brute force ---------------------------------------


def meetings(fmt: str, sides: Sides) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(opponent pairs, partner pairs) at one table."""
    opponents = [(a, b) for s, t in itertools.combinations(sides, 2) for a in s for b in t]
    partners = [pair for side in sides for pair in itertools.combinations(side, 2)] if fmt == "melee" else []
    return opponents, partners


def badness(
    fmt: str,
    competitors: Sequence[Competitor],
    tables: Sequence[Sides],
    forbidden: Sequence[tuple[str, str]] = (),
    clubs: bool = False,
) -> tuple[int, int]:
    """(partners drawn again, opponents met again + meetings to avoid) of a whole draw."""
    by_id = {c.id: c for c in competitors}
    apart = {frozenset(p) for p in forbidden}
    partner_repeats = other = 0
    for sides in tables:
        opponents, partners = meetings(fmt, sides)
        for a, b in opponents:
            other += a in by_id[b].opponents or b in by_id[a].opponents
        for a, b in partners:
            partner_repeats += a in by_id[b].partners or b in by_id[a].partners
        for a, b in opponents + partners:
            other += frozenset((a, b)) in apart
            other += clubs and by_id[a].club is not None and by_id[a].club == by_id[b].club
    return partner_repeats, other


def fair_bye_sets(competitors: Sequence[Competitor], count: int) -> Iterator[tuple[str, ...]]:
    """Every set of `count` competitors who may sit out: nobody with more byes than a player."""
    for chosen in itertools.combinations(competitors, count):
        rest = [c for c in competitors if c not in chosen]
        if not chosen or max(c.byes for c in chosen) <= min(c.byes for c in rest):
            yield tuple(c.id for c in chosen)


def partitions(names: Sequence[str], size: int) -> Iterator[list[tuple[str, ...]]]:
    if not names:
        yield []
        return
    first, rest = names[0], names[1:]
    for others in itertools.combinations(rest, size - 1):
        left = [n for n in rest if n not in others]
        for tail in partitions(left, size):
            yield [(first, *others), *tail]


def seatings(fmt: str, group: tuple[str, ...]) -> list[Sides]:
    if fmt == "melee":
        a, b, c, d = group
        return [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]
    return [tuple((name,) for name in group)]


def least_badness(
    fmt: str, competitors: Sequence[Competitor], forbidden: Sequence[tuple[str, str]] = (), clubs: bool = False
) -> tuple[int, int] | None:
    size = TABLE_SIZE[fmt]
    best: tuple[int, int] | None = None
    for byes in fair_bye_sets(competitors, len(competitors) % size):
        names = [c.id for c in competitors if c.id not in byes]
        for groups in partitions(names, size):
            for tables in itertools.product(*(seatings(fmt, g) for g in groups)):
                found = badness(fmt, competitors, tables, forbidden, clubs)
                best = found if best is None or found < best else best
    return best


@st.composite
def small_fields(draw: st.DrawFn, fmt: str) -> tuple[list[Competitor], tuple[tuple[str, str], ...], bool]:
    sizes = {"teams": (6, 7, 8), "individual": (6, 7, 8), "melee": (8, 9)}[fmt]
    count = draw(st.sampled_from(sizes))
    names = [f"c{k}" for k in range(count)]
    pairs = list(itertools.combinations(names, 2))
    met = set(draw(st.lists(st.sampled_from(pairs), max_size=3 * count)))
    partnered = set(draw(st.lists(st.sampled_from(pairs), max_size=count))) if fmt == "melee" else set()
    forbidden = tuple(draw(st.lists(st.sampled_from(pairs), max_size=2, unique=True)))
    clubs = draw(st.booleans())
    competitors = [
        Competitor(
            id=name,
            score=draw(st.integers(0, 4)),
            club=draw(st.sampled_from([None, "x", "y", "z"])),
            opponents=tuple(o for a, b in met for o in ((b,) if a == name else (a,) if b == name else ())),
            partners=tuple(o for a, b in partnered for o in ((b,) if a == name else (a,) if b == name else ())),
            byes=draw(st.integers(0, 1)),
        )
        for name in names
    ]
    return competitors, forbidden, clubs


# -- as few repeats as possible ---------------------------------------------------------


@pytest.mark.parametrize("fmt", ["teams", "individual", "melee"])
@pytest.mark.parametrize("method", ["random", "swiss"])
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_draw_has_as_few_repeats_as_the_best_of_all_possible_draws(
    fmt: str, method: str, data: st.DataObject
) -> None:
    competitors, forbidden, clubs = data.draw(small_fields(fmt))
    draw = pair(request(fmt, competitors, method, seed=3, forbidden=forbidden, avoid_same_club=clubs))
    tables = [t.sides for t in draw.tables]
    assert badness(fmt, competitors, tables, forbidden, clubs) == least_badness(fmt, competitors, forbidden, clubs)


def test_teams_that_met_are_not_drawn_together_again_while_another_draw_exists() -> None:
    teams = [
        Competitor("a", opponents=("b", "c")),
        Competitor("b", opponents=("a",)),
        Competitor("c", opponents=("a",)),
        Competitor("d"),
    ]
    for seed in range(20):
        draw = pair(request("teams", teams, seed=seed))
        assert {frozenset(t.sides[0] + t.sides[1]) for t in draw.tables} == {frozenset("ad"), frozenset("bc")}
        assert draw.repeats == ()


def test_when_every_draw_repeats_a_meeting_the_draw_reports_it() -> None:
    teams = [Competitor("a", opponents=("b",)), Competitor("b", opponents=("a",))]
    draw = pair(request("teams", teams))
    assert [set(p) for p in draw.repeats] == [{"a", "b"}]


def test_a_pair_met_twice_before_is_reported_once() -> None:
    teams = [Competitor("a", opponents=("b", "b")), Competitor("b", opponents=("a", "a"))]
    assert [set(p) for p in pair(request("teams", teams)).repeats] == [{"a", "b"}]


def test_forbidden_meetings_are_kept_apart() -> None:
    teams = players(6, "t")
    forbidden = (("t1", "t2"), ("t3", "t4"), ("t5", "t6"), ("t1", "t3"))
    for seed in range(20):
        draw = pair(request("teams", teams, seed=seed, forbidden=forbidden))
        met = {frozenset(t.sides[0] + t.sides[1]) for t in draw.tables}
        assert not met & {frozenset(p) for p in forbidden}
        assert draw.conflicts == ()


def test_same_club_competitors_are_kept_apart_when_asked() -> None:
    club = {f"t{k}": f"club{k % 4}" for k in range(8)}
    teams = [Competitor(name, club=c) for name, c in club.items()]
    for seed in range(10):
        draw = pair(request("teams", teams, seed=seed, avoid_same_club=True))
        for table in draw.tables:
            (a,), (b,) = table.sides
            assert club[a] != club[b]


def test_same_club_players_never_share_a_melee_table_when_avoidable() -> None:
    field = [Competitor(f"p{k}", club=f"club{k % 4}") for k in range(8)]
    for seed in range(10):
        draw = pair(request("melee", field, seed=seed, avoid_same_club=True))
        for table in draw.tables:
            clubs = [int(name[1:]) % 4 for side in table.sides for name in side]
            assert len(set(clubs)) == 4
        assert draw.conflicts == ()


def test_same_club_meetings_are_allowed_unless_asked() -> None:
    teams = [Competitor("a", club="x"), Competitor("b", club="x")]
    assert pair(request("teams", teams)).conflicts == ()
    assert [set(p) for p in pair(request("teams", teams, avoid_same_club=True)).conflicts] == [{"a", "b"}]


# -- byes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "count"), [("teams", 7), ("teams", 13), ("melee", 10), ("melee", 15), ("individual", 8)]
)
@pytest.mark.parametrize("method", ["random", "swiss"])
def test_nobody_sits_out_twice_before_everyone_sat_out_once(fmt: str, count: int, method: str) -> None:
    rng = random.Random(count)
    byes: Counter[str] = Counter()
    scores: Counter[str] = Counter()
    names = [f"c{k}" for k in range(count)]
    for round_number in range(1, 3 * count):
        field = [Competitor(n, score=scores[n], byes=byes[n]) for n in names]
        draw = pair(request(fmt, field, method, seed=round_number))
        assert len(draw.byes) == count % TABLE_SIZE[fmt]
        byes.update(draw.byes)
        assert max(byes[n] for n in names) - min(byes[n] for n in names) <= 1
        for table in draw.tables:
            for name in rng.choice(table.sides):
                scores[name] += 1


def test_the_swiss_bye_goes_to_the_lowest_score_among_those_with_fewest_byes() -> None:
    teams = [
        Competitor("a", score=5),
        Competitor("b", score=4),
        Competitor("c", score=1, byes=1),
        Competitor("d", score=2),
        Competitor("e", score=3),
    ]
    assert pair(request("teams", teams, "swiss")).byes == ("d",)


def test_a_melee_field_sits_out_its_remainder_of_four() -> None:
    for count in range(4, 14):
        draw = pair(request("melee", players(count)))
        assert len(draw.byes) == count % 4
        assert len(draw.tables) == count // 4


# -- seeds ----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["teams", "melee", "individual"])
def test_the_same_seed_gives_the_same_draw(fmt: str) -> None:
    field = players(37)
    assert pair(request(fmt, field, seed=11)) == pair(request(fmt, field, seed=11))


@pytest.mark.parametrize("fmt", ["teams", "melee", "individual"])
def test_different_seeds_give_different_random_draws(fmt: str) -> None:
    field = players(36)
    assert pair(request(fmt, field, seed=1)).tables != pair(request(fmt, field, seed=2)).tables


# -- tables of three and four -----------------------------------------------------------------


def test_melee_tables_seat_two_pairs_of_partners() -> None:
    draw = pair(request("melee", players(12)))
    assert all(len(t.sides) == 2 and all(len(side) == 2 for side in t.sides) for t in draw.tables)


def test_melee_players_never_get_the_same_partner_twice_over_a_tournament() -> None:
    names = [f"p{k}" for k in range(24)]
    partners: dict[str, list[str]] = {n: [] for n in names}
    opponents: dict[str, list[str]] = {n: [] for n in names}
    for round_number in range(1, 7):
        field = [Competitor(n, opponents=tuple(opponents[n]), partners=tuple(partners[n])) for n in names]
        draw = pair(request("melee", field, seed=round_number))
        assert draw.repeats == ()
        for table in draw.tables:
            for s, side in enumerate(table.sides):
                for name in side:
                    partners[name].extend(p for p in side if p != name)
                    opponents[name].extend(table.sides[1 - s])
    assert all(len(set(p)) == len(p) == 6 for p in partners.values())


def test_a_partner_repeat_is_avoided_before_an_opponent_repeat() -> None:
    # Four players, one table: a-b partnered before and c-d faced each other before, so
    # either a and b partner again, or c and d face each other again. The latter it is.
    field = [
        Competitor("a", partners=("b",)),
        Competitor("b", partners=("a",)),
        Competitor("c", opponents=("d",)),
        Competitor("d", opponents=("c",)),
    ]
    for seed in range(10):
        draw = pair(request("melee", field, seed=seed))
        (table,) = draw.tables
        assert {frozenset(side) for side in table.sides} != {frozenset("ab"), frozenset("cd")}
        assert [frozenset(p) for p in draw.repeats] == [frozenset("cd")]


def test_individual_tables_seat_three_players_each_on_their_own() -> None:
    draw = pair(request("individual", players(14)))
    assert [len(t.sides) for t in draw.tables] == [3, 3, 3, 3]
    assert all(len(side) == 1 for t in draw.tables for side in t.sides)
    assert len(draw.byes) == 2


def test_individual_players_meet_new_opponents_every_round() -> None:
    # Six rounds: each player meets 12 of the 20 others (a seventh round cannot avoid
    # repeats after these six, as an exhaustive search shows).
    names = [f"j{k}" for k in range(21)]
    met: dict[str, list[str]] = {n: [] for n in names}
    for round_number in range(1, 7):
        field = [Competitor(n, score=len(met[n]) % 5, opponents=tuple(met[n])) for n in names]
        draw = pair(request("individual", field, "swiss", seed=round_number))
        assert draw.repeats == ()
        for table in draw.tables:
            for (a,), (b,) in itertools.permutations(table.sides, 2):
                met[a].append(b)


def repeats_in(tables: ThreeSeatTables | MeleeTables, groups: list[list[int]]) -> int:
    return sum(tables.cost(g) for g in groups) // REPEAT


@pytest.mark.parametrize("shape", [ThreeSeatTables, MeleeTables])
def test_the_local_search_for_large_draws_finds_as_few_repeats_as_exhaustive_search(
    shape: type[ThreeSeatTables | MeleeTables],
) -> None:
    rng = random.Random(5)
    for _ in range(25):
        count = rng.choice([9, 12]) if shape is ThreeSeatTables else rng.choice([8, 12])
        names = [f"c{k}" for k in range(count)]
        met = {p for p in itertools.combinations(names, 2) if rng.random() < 0.35}
        field = [
            Competitor(n, score=rng.randint(0, 3), opponents=tuple(b if a == n else a for a, b in met if n in (a, b)))
            for n in names
        ]
        method = get_method("swiss")
        costs = build_cost_model(field, (), False, True, method.bye_costs(field))
        sit_out = plan_sit_out([0] * count, count % shape.size)
        tables = shape(costs)
        exact_groups, _ = ExactSearch(tables, sit_out).run()
        local_groups, _ = LocalSearch(tables, sit_out, random.Random(1)).run()

        assert repeats_in(tables, local_groups) == repeats_in(tables, exact_groups)


# -- the système suisse ----------------------------------------------------------------------


def test_swiss_pairs_neighbours_in_the_standings_with_the_top_at_table_one() -> None:
    teams = [Competitor(f"t{k}", score=10 - k) for k in range(8)]
    draw = pair(request("teams", teams, "swiss"))
    assert [t.sides for t in draw.tables] == [
        (("t0",), ("t1",)),
        (("t2",), ("t3",)),
        (("t4",), ("t5",)),
        (("t6",), ("t7",)),
    ]


def test_swiss_skips_an_opponent_met_before_for_the_next_closest() -> None:
    teams = [
        Competitor("t0", score=9, opponents=("t1",)),
        Competitor("t1", score=8, opponents=("t0",)),
        Competitor("t2", score=7),
        Competitor("t3", score=1),
    ]
    draw = pair(request("teams", teams, "swiss"))
    assert [t.sides for t in draw.tables] == [(("t0",), ("t2",)), (("t1",), ("t3",))]


def test_swiss_gathers_close_scores_at_tables_of_three() -> None:
    field = [Competitor(f"j{k}", score=100 - 10 * k) for k in range(9)]
    draw = pair(request("individual", field, "swiss"))
    assert [t.sides for t in draw.tables] == [
        (("j0",), ("j1",), ("j2",)),
        (("j3",), ("j4",), ("j5",)),
        (("j6",), ("j7",), ("j8",)),
    ]


def test_swiss_melee_seats_the_top_four_at_table_one_best_with_weakest() -> None:
    field = [Competitor(f"p{k}", score=20 - k) for k in range(8)]
    draw = pair(request("melee", field, "swiss"))
    assert draw.tables[0].sides == (("p0", "p3"), ("p1", "p2"))
    assert draw.tables[1].sides == (("p4", "p7"), ("p5", "p6"))


def test_large_swiss_draws_have_no_repeat_when_scores_and_history_allow() -> None:
    rng = random.Random(9)
    names = [f"t{k}" for k in range(200)]
    met: dict[str, list[str]] = {n: [] for n in names}
    wins: Counter[str] = Counter()
    for round_number in range(1, 8):
        ranked = sorted(names, key=lambda n: -wins[n])
        field = [Competitor(n, score=wins[n], opponents=tuple(met[n])) for n in ranked]
        draw = pair(request("teams", field, "swiss" if round_number > 1 else "random", seed=round_number))
        assert draw.repeats == ()
        for table in draw.tables:
            (a,), (b,) = table.sides
            met[a].append(b)
            met[b].append(a)
            wins[rng.choice((a, b))] += 1
        # Table 1 holds the leader.
        assert draw.tables[0].sides[0][0] == ranked[0] or round_number == 1


# -- everyone exactly once ---------------------------------------------------------------------


@settings(max_examples=examples(60), deadline=None)
@given(
    fmt=st.sampled_from(sorted(FORMATS)),
    method=st.sampled_from(sorted(METHODS)),
    count=st.integers(4, 90),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_every_competitor_sits_at_exactly_one_table_or_sits_out(
    fmt: str, method: str, count: int, seed: int, data: st.DataObject
) -> None:
    names = [f"c{k}" for k in range(count)]
    rng = random.Random(seed)
    field = [
        Competitor(
            n,
            score=rng.randint(0, 6),
            opponents=tuple(rng.sample(names[:k] + names[k + 1 :], rng.randint(0, min(8, count - 1)))),
            byes=data.draw(st.integers(0, 2)),
        )
        for k, n in enumerate(names)
    ]
    draw = pair(request(fmt, field, method, seed=seed))
    everyone = seated(draw) + list(draw.byes)
    assert sorted(everyone) == sorted(names)
    assert len(draw.byes) == count % TABLE_SIZE[fmt]
    assert [t.number for t in draw.tables] == list(range(1, len(draw.tables) + 1))
    sitting = {c.byes for c in field if c.id in draw.byes}
    playing = {c.byes for c in field if c.id not in draw.byes}
    assert not sitting or max(sitting) <= min(playing)


# -- bad requests ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "doublette"}, "unknown pairing format 'doublette'"),
        ({"method": "monrad"}, "unknown pairing method 'monrad'"),
        ({"competitors": (Competitor("a"), Competitor("a"))}, "'a' is listed twice"),
        ({"forbidden": (("a", "zz"),)}, "unknown competitor 'zz'"),
        ({"forbidden": (("a", "a"),)}, "same competitor twice"),
        ({"competitors": (Competitor("a"),)}, "at least 2 competitors"),
        ({"competitors": (Competitor("a", byes=-1), Competitor("b"))}, "byes must be"),
        ({"competitors": (Competitor("a", partners=("b",)), Competitor("b"))}, "partners are drawn only"),
        ({"competitors": (Competitor("a", opponents=("a",)), Competitor("b"))}, "lists itself"),
        ({"competitors": (Competitor("a", score=float("nan")), Competitor("b"))}, "finite number"),
    ],
)
def test_a_bad_request_is_refused_with_a_clear_message(change: dict[str, object], message: str) -> None:
    base = {"format": "teams", "method": "random", "seed": 1, "competitors": (Competitor("a"), Competitor("b"))}
    with pytest.raises(ValueError, match=message):
        pair(PairingRequest(**{**base, **change}))  # type: ignore[arg-type]


def test_opponents_who_left_the_tournament_are_ignored() -> None:
    teams = [Competitor("a", opponents=("gone",)), Competitor("b")]
    assert pair(request("teams", teams)).repeats == ()


# -- the command line -------------------------------------------------------------------------

REQUEST = {
    "format": "teams",
    "method": "swiss",
    "seed": 7,
    "competitors": [
        {"id": "t1", "score": 3, "club": "c1", "opponents": ["t2"], "partners": [], "byes": 0},
        {"id": "t2", "score": 3, "opponents": ["t1"]},
        {"id": "t3", "score": 1},
        {"id": "t4", "score": 0},
        {"id": "t5", "score": 0, "byes": 0},
    ],
    "forbidden": [["t1", "t3"]],
}


def run_command(payload: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_pair_command(io.StringIO(payload), out, err)
    return code, out.getvalue(), err.getvalue()


def test_the_pair_command_prints_the_draw_as_json() -> None:
    code, out, err = run_command(json.dumps(REQUEST))
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "tables": [{"number": 1, "sides": [["t1"], ["t4"]]}, {"number": 2, "sides": [["t2"], ["t3"]]}],
        "byes": ["t5"],
        "repeats": [],
    }


def test_the_pair_command_seats_a_tarot_evening_at_the_table_sizes_asked_for() -> None:
    players = [{"id": f"p{n}"} for n in range(1, 23)]
    request = {"format": "individual", "method": "random", "seed": 3, "competitors": players}
    for sizes, expected in (([4, 5], [4, 4, 4, 5, 5]), ([5, 4], [4, 4, 4, 5, 5]), ([5, 4, 3], [4, 4, 4, 5, 5])):
        code, out, err = run_command(json.dumps({**request, "table_sizes": sizes}))
        assert (code, err) == (0, "")
        draw = json.loads(out)
        assert sorted(len(table["sides"]) for table in draw["tables"]) == expected
        assert draw["byes"] == []
    # Seven players: a table of 5 and two sitting out, unless a table of 3 is allowed.
    seven = {**request, "competitors": players[:7]}
    crowded = json.loads(run_command(json.dumps({**seven, "table_sizes": [4, 5]}))[1])
    assert ([len(t["sides"]) for t in crowded["tables"]], len(crowded["byes"])) == ([5], 2)
    allowed = json.loads(run_command(json.dumps({**seven, "table_sizes": [4, 5, 3]}))[1])
    assert (sorted(len(t["sides"]) for t in allowed["tables"]), allowed["byes"]) == ([3, 4], [])


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        ("not json", "Expecting value"),
        ("[]", "JSON object"),
        (json.dumps({**REQUEST, "format": "triplette"}), "unknown pairing format"),
        (json.dumps({**REQUEST, "forbidden": [["t1", "t99"]]}), "unknown competitor 't99'"),
        (json.dumps({**REQUEST, "competitors": [{"id": "x"}, {"id": "x"}]}), "listed twice"),
        (json.dumps({**REQUEST, "avoid_same_clubs": True}), "unknown field 'avoid_same_clubs'"),
        (json.dumps({**REQUEST, "seed": "7"}), "seed must be an integer"),
        (json.dumps({k: v for k, v in REQUEST.items() if k != "method"}), "no 'method'"),
        (json.dumps({**REQUEST, "table_sizes": 4}), "'table_sizes' must be a list"),
        (json.dumps({**REQUEST, "table_sizes": [2]}), "table_sizes is for the"),
        (json.dumps({**REQUEST, "format": "individual", "table_sizes": [4, 6]}), "6 is not a table size"),
    ],
)
def test_the_pair_command_refuses_bad_input_with_exit_2_and_one_line(payload: str, words: str) -> None:
    code, out, err = run_command(payload)
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert words in err


def test_python_m_engine_pair_draws_end_to_end() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "pair"],
        input=json.dumps({**REQUEST, "avoid_same_club": True}),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["byes"] == ["t5"]


def test_python_m_engine_pair_exits_2_on_bad_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "pair"],
        input=json.dumps({**REQUEST, "method": "monrad"}),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    assert "unknown pairing method 'monrad'" in done.stderr
