"""`python -m engine`: the command line's contract (docs/engine-cli.md), run as a real process."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, TextIO

import pytest

import engine.pairing
from engine.__main__ import main

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE = """{
  "taker": "A",
  "contract": "hearts",
  "points": {"A": 102, "B": 60},
  "capot": null,
  "belote": ["A"],
  "announcements": {"A": [{"kind": "tierce", "high": "K"}], "B": []},
  "reserve_in": 0,
  "cancelled": false
}
"""


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def lines(text: str) -> list[Any]:
    return [json.loads(line) for line in text.splitlines()]


def hand(a: int, b: int, **fields: Any) -> str:
    return json.dumps({"taker": "A", "contract": "hearts", "points": {"A": a, "B": b}, **fields})


def assert_usage_error(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    for word in words:
        assert word in done.stderr


# -- score ---------------------------------------------------------------------------


def test_score_prints_the_engine_api_example_for_a_pretty_printed_hand() -> None:
    done = run("score", "belote_classique", stdin=EXAMPLE)
    assert done.returncode == 0, done.stderr
    assert done.stdout == '{"scores": {"A": 142, "B": 60}, "outcome": "made", "reserve_out": 0}\n'


def test_score_reads_json_lines_and_prints_one_line_per_hand_in_order() -> None:
    done = run("score", "belote_classique", stdin=f"{hand(92, 70)}\n\n{hand(81, 81)}\n{hand(60, 102)}\n")
    assert done.returncode == 0
    assert [line["outcome"] for line in lines(done.stdout)] == ["made", "litige", "dedans"]


def test_score_exits_1_and_prints_every_problem_of_an_invalid_hand_in_its_place() -> None:
    done = run("score", "belote_classique", stdin=f"{hand(92, 70)}\n{hand(92, 60, taker='C')}\n[1, 2]\n")
    assert done.returncode == 1
    first, second, third = lines(done.stdout)
    assert first["outcome"] == "made"
    assert second == {
        "errors": [
            {"field": "taker", "code": "invalid_choice", "message": second["errors"][0]["message"]},
            {
                "field": "points",
                "code": "points_sum",
                "message": "The two teams' card points must add up to 162, dix de der included, not 152.",
            },
        ]
    }
    assert third == {"errors": [{"field": "", "code": "not_an_object", "message": "Expected an object, got array."}]}


def test_score_gives_dotted_paths_to_nested_problems() -> None:
    bad = hand(92, 70, announcements={"A": [], "B": [{"kind": "quinte", "high": "A"}]})
    [line] = lines(run("score", "belote_classique", stdin=bad).stdout)
    assert line["errors"][0]["field"] == "announcements.B.0.kind"


def test_score_takes_options_as_a_json_object() -> None:
    capot = hand(162, 0, capot="A", belote=["A"])
    assert lines(run("score", "belote_classique", stdin=capot).stdout)[0]["scores"] == {"A": 270, "B": 0}
    done = run("score", "belote_classique", "--options", '{"capot_value": 252}', stdin=capot)
    assert lines(done.stdout)[0]["scores"] == {"A": 272, "B": 0}


def test_score_a_line_that_is_not_json_prints_nothing_and_names_its_line() -> None:
    done = run("score", "belote_classique", stdin=f"{hand(92, 70)}\n\n{{not json\n{hand(92, 70)}\n")
    assert_usage_error(done, "line 3")


def test_score_empty_input_scores_nothing() -> None:
    done = run("score", "belote_classique", stdin="")
    assert (done.returncode, done.stdout) == (0, "")


def test_score_every_game() -> None:
    three = json.dumps({"taker": 0, "contract": "spades", "points": [57, 72, 19]})
    done = run("score", "belote_a_trois", stdin=three)
    assert lines(done.stdout) == [{"scores": [0, 129, 19], "outcome": "dedans", "taker_points_to": [1]}]
    sa = json.dumps({"taker": "B", "contract": "sans_atout", "points": {"A": 70, "B": 60}})
    assert lines(run("score", "belote_moderne", stdin=sa).stdout)[0]["scores"] == {"A": 260, "B": 0}


# Made by 5 with 2 oudlers: D = (25 + 5) x 2 = 60 (whole points, as tarot at four has).
TAROT_EXAMPLE = {"taker": 2, "contract": "garde", "oudlers": 2, "points": 46, "petit_au_bout": None, "poignee": None}


def test_score_tarot_a_quatre_prints_the_issue_example() -> None:
    done = run("score", "tarot_a_quatre", stdin=json.dumps(TAROT_EXAMPLE))
    assert done.returncode == 0, done.stderr
    assert done.stdout == '{"scores": [-60, -60, 180, -60], "outcome": "made", "base": 60}\n'


def test_score_tarot_a_quatre_refuses_a_half_point_with_exit_1() -> None:
    done = run("score", "tarot_a_quatre", stdin=json.dumps({**TAROT_EXAMPLE, "points": 45.5}))
    assert done.returncode == 1
    (error,) = lines(done.stdout)[0]["errors"]
    assert (error["field"], error["code"]) == ("points", "half_point_at_four")


def test_score_tarot_a_quatre_mort_scores_the_mort_0() -> None:
    done = run("score", "tarot_a_quatre_mort", stdin=json.dumps({**TAROT_EXAMPLE, "mort": 0}))
    assert done.returncode == 0, done.stderr
    assert lines(done.stdout) == [{"scores": [0, -60, 180, -60, -60], "outcome": "made", "base": 60}]


def test_score_tarot_a_cinq_prints_the_issue_example_and_refuses_a_partner_off_the_table() -> None:
    hands = [{**TAROT_EXAMPLE, "partner": 4}, {**TAROT_EXAMPLE, "partner": 5}, TAROT_EXAMPLE]
    done = run("score", "tarot_a_cinq", stdin="\n".join(json.dumps(h) for h in hands))
    assert done.returncode == 1
    made, off_table, missing = lines(done.stdout)
    assert made == {"scores": [-60, -60, 120, -60, 60], "outcome": "made", "base": 60}
    assert off_table == {
        "errors": [{"field": "partner", "code": "out_of_range", "message": "5 is out of range: expected 0 to 4."}]
    }
    assert missing == {"errors": [{"field": "partner", "code": "required", "message": "This field is required."}]}


def test_score_tarot_takes_the_options_of_tarot_a_trois() -> None:
    half = json.dumps({**TAROT_EXAMPLE, "contract": "petite", "points": 41.5, "partner": 2})
    done = run("score", "tarot_a_cinq", "--options", '{"half_points": "exact"}', stdin=half)
    assert lines(done.stdout) == [{"scores": [-25.5, -25.5, 102, -25.5, -25.5], "outcome": "made", "base": 25.5}]
    assert_usage_error(run("score", "tarot_a_quatre", "--options", '{"tie": "dedans"}'), "tie")


CONTREE = {"taker": "A", "bid": 110, "contract": "hearts", "coinche": 0, "points": {"A": 113, "B": 49}}


def test_score_belote_contree_prints_the_engine_api_example_and_every_problem_of_a_bad_hand() -> None:
    bad = {**CONTREE, "bid": 115, "coinche": 3, "contract": "sans_atout"}
    done = run("score", "belote_contree", stdin=f"{json.dumps(CONTREE)}\n{json.dumps(bad)}\n")
    assert done.returncode == 1
    made, refused = lines(done.stdout)
    assert made == {"scores": {"A": 220, "B": 50}, "outcome": "made", "reserve_out": 0}
    assert [(e["field"], e["code"]) for e in refused["errors"]] == [
        ("contract", "contract_not_played"),
        ("bid", "bid_not_in_tens"),
        ("coinche", "out_of_range"),
    ]


def test_score_belote_contree_takes_its_options() -> None:
    coinche = json.dumps({**CONTREE, "bid": 120, "points": {"A": 130, "B": 32}, "coinche": 1, "belote": ["A"]})
    assert lines(run("score", "belote_contree", stdin=coinche).stdout)[0]["scores"] == {"A": 580, "B": 0}
    done = run("score", "belote_contree", "--options", '{"belote_multiplied": "yes", "max_bid": "none"}', stdin=coinche)
    assert lines(done.stdout)[0]["scores"] == {"A": 600, "B": 0}
    assert_usage_error(run("score", "belote_contree", "--options", '{"max_bid": 170}', stdin=coinche), "max_bid")
    assert_usage_error(run("score", "belote_contree", "--options", '{"threshold": "totals"}'), "threshold")


def test_match_belote_contree_plays_a_partie_to_a_target() -> None:
    surcoinche = {**CONTREE, "bid": "capot", "coinche": 2, "points": {"A": 162, "B": 0}, "capot": "A"}
    partie = {"end": {"target": 2000}, "hands": [CONTREE, surcoinche]}
    done = run("match", "belote_contree", stdin=json.dumps(partie))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "totals": {"A": 2220, "B": 50},
        "running": [{"A": 220, "B": 50}, {"A": 2220, "B": 50}],
        "finished": True,
        "winner": "A",
    }


# -- usage errors --------------------------------------------------------------------


def test_an_unknown_game_is_a_usage_error() -> None:
    assert_usage_error(run("score", "poker", stdin=hand(92, 70)), "poker")


def test_an_unknown_command_or_none_is_a_usage_error() -> None:
    assert_usage_error(run("deal"), "deal")
    assert_usage_error(run())


@pytest.mark.parametrize(
    ("options", "word"),
    [
        ('{"capot": 250}', "capot"),
        ('{"capot_value": "252"}', "capot_value"),
        ('{"capot_value": 251}', "capot_value"),
        ('{"tie": true}', "tie"),
        ("[1]", "object"),
        ("{oops", "JSON"),
    ],
)
def test_a_bad_option_is_a_usage_error_naming_it(options: str, word: str) -> None:
    assert_usage_error(run("score", "belote_classique", "--options", options, stdin=hand(92, 70)), word)


def test_belote_a_trois_refuses_the_options_of_the_games_at_four() -> None:
    assert_usage_error(run("score", "belote_a_trois", "--options", '{"tie": "dedans"}'), "tie")


# -- match ---------------------------------------------------------------------------


def test_match_prints_totals_running_finished_and_winner() -> None:
    partie = {
        "end": {"donnes": 2},
        "hands": [json.loads(hand(81, 81)), json.loads(hand(62, 100, taker="B"))],
    }
    done = run("match", "belote_classique", stdin=json.dumps(partie, indent=2))
    assert done.returncode == 0
    assert json.loads(done.stdout) == {
        "totals": {"A": 62, "B": 262},
        "running": [{"A": 0, "B": 81}, {"A": 62, "B": 262}],
        "finished": True,
        "winner": "B",
    }


def test_match_exits_1_with_the_errors_of_a_bad_partie() -> None:
    partie = {"end": {"donnes": 1}, "hands": [json.loads(hand(92, 70)), json.loads(hand(92, 70))]}
    done = run("match", "belote_classique", stdin=json.dumps(partie))
    assert done.returncode == 1
    assert json.loads(done.stdout)["errors"][0]["code"] == "partie_finished"


def test_match_plays_a_partie_of_tarot_at_four_and_at_five() -> None:
    four = {"end": {"donnes": 1}, "hands": [TAROT_EXAMPLE]}
    done = run("match", "tarot_a_quatre", stdin=json.dumps(four))
    assert json.loads(done.stdout) == {
        "totals": [-60, -60, 180, -60],
        "running": [[-60, -60, 180, -60]],
        "finished": True,
        "winner": 2,
    }
    alone = {**TAROT_EXAMPLE, "taker": 0, "partner": 0, "points": 31}
    five = {"end": {"donnes": 2}, "hands": [{**TAROT_EXAMPLE, "partner": 4}, alone]}
    done = run("match", "tarot_a_cinq", stdin=json.dumps(five))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "totals": [-340, 10, 190, 10, 130],
        "running": [[-60, -60, 120, -60, 60], [-340, 10, 190, 10, 130]],
        "finished": True,
        "winner": 2,
    }


def test_match_input_that_is_not_json_is_a_usage_error_naming_its_line() -> None:
    assert_usage_error(run("match", "belote_classique", stdin='{\n"end": {"donnes": 2},\n"hands": [oops]}'), "line 3")


# -- games and pair ------------------------------------------------------------------


def test_games_lists_the_games_with_their_options_and_defaults() -> None:
    done = run("games")
    assert done.returncode == 0
    games = json.loads(done.stdout)
    assert set(games) == {
        "belote_classique",
        "belote_moderne",
        "belote_a_trois",
        "tarot_a_trois",
        "tarot_a_quatre",
        "tarot_a_cinq",
        "belote_contree",
    }
    capot = games["belote_classique"]["options"]["capot_value"]
    assert capot["default"] == 250 and capot["choices"] == [250, 252]
    assert games["belote_moderne"]["sides"] == ["A", "B"]
    assert games["tarot_a_cinq"]["sides"] == [0, 1, 2, 3, 4]
    assert games["tarot_a_quatre"]["poignee_trumps"] == {"simple": 10, "double": 13, "triple": 15}
    assert games["tarot_a_cinq"]["options"]["half_points"]["default"] == "to_winner"
    contree = games["belote_contree"]
    assert contree["options"]["max_bid"] == {
        "default": 160,
        "choices": [160, 180, "none"],
        "description": contree["options"]["max_bid"]["description"],
    }
    assert contree["card_values"]["sans_atout"]["A"] == 19


def test_pair_hands_its_streams_to_the_pairing_command(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def fake(stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
        seen.append(stdin.read())
        stdout.write("drawn\n")
        return 0

    monkeypatch.setattr(engine.pairing, "run_pair_command", fake)
    out = io.StringIO()
    assert main(["pair"], io.StringIO("request"), out, io.StringIO()) == 0
    assert seen == ["request"] and out.getvalue() == "drawn\n"
