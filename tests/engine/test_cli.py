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


def test_match_input_that_is_not_json_is_a_usage_error_naming_its_line() -> None:
    assert_usage_error(run("match", "belote_classique", stdin='{\n"end": {"donnes": 2},\n"hands": [oops]}'), "line 3")


# -- games and pair ------------------------------------------------------------------


def test_games_lists_the_four_games_with_their_options_and_defaults() -> None:
    done = run("games")
    assert done.returncode == 0
    games = json.loads(done.stdout)
    assert set(games) == {"belote_classique", "belote_moderne", "belote_a_trois", "tarot_a_trois"}
    capot = games["belote_classique"]["options"]["capot_value"]
    assert capot["default"] == 250 and capot["choices"] == [250, 252]
    assert games["belote_moderne"]["sides"] == ["A", "B"]


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
