"""The night benchmark's pure helpers (bench/night.py): its arguments, its percentiles,
its reading of the ranking's ETag, its hand → visible reckoning and its last line.
The suite never runs the bench itself (it starts servers and takes minutes)."""

from __future__ import annotations

import gzip
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.append(str(BENCH))

import night  # noqa: E402  (bench/night.py, with bench/ on the path as `python bench/night.py` has it)


def test_importing_the_bench_loads_neither_locust_nor_gevent():
    # locust patches the standard library for gevent when imported: only main() may do it.
    code = (
        f"import sys; sys.path.insert(0, {str(BENCH)!r}); import night; "
        "print(sorted({'locust', 'gevent'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


def test_arguments_have_a_real_nights_defaults():
    args = night.parse_args([])
    assert (args.teams, args.rounds, args.donnes, args.pace, args.phones, args.projectors) == (300, 3, 12, 10.0, 2, 4)
    assert night.think_seconds(args.pace) == 15.0


def test_arguments_are_read():
    args = night.parse_args(["--teams", "40", "--rounds", "2", "--pace", "5", "--duration", "90", "--donnes", "6"])
    assert (args.teams, args.rounds, args.pace, args.duration, args.donnes) == (40, 2, 5.0, 90.0, 6)
    assert night.think_seconds(args.pace) == 30.0


@pytest.mark.parametrize(
    "argv",
    [["--teams", "3"], ["--pace", "0"], ["--pace", "nan"], ["--pace", "-2"], ["--rounds", "0"], ["--phones", "-1"]],
)
def test_arguments_out_of_range_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        night.parse_args(argv)
    assert exit_.value.code == 2
    assert "error" in capsys.readouterr().err


def test_percentiles_are_nearest_rank():
    values = [float(v) for v in range(100, 0, -1)]
    assert night.percentile(values, 0.50) == 51.0
    assert night.percentile(values, 0.95) == 95.0
    assert night.percentile(values, 0.99) == 99.0
    assert night.percentile([7.0], 0.99) == 7.0
    assert math.isnan(night.percentile([], 0.95))
    assert night.spread([3.0, 1.0, 2.0]) == {"n": 3, "p50": 2.0, "p95": 3.0, "p99": 3.0}


@pytest.mark.parametrize(
    ("etag", "version"),
    [
        ('"ranking-3-17-1764800000000-fr"', 17),
        ('W/"ranking-12-4-1-en"', 4),
        ('"after-5"', None),
        ("", None),
        (None, None),
    ],
)
def test_the_version_a_poll_shows_is_read_from_its_etag(etag, version):
    assert night.etag_version(etag) == version


def test_a_hand_is_visible_once_a_phone_shows_a_version_built_past_its_ticket():
    # (statement started, tickets requested, ticket built, newest version)
    samples = [(0.9, 5, 4, 10), (1.05, 6, 4, 10), (1.2, 6, 6, 11), (1.6, 7, 7, 12)]
    timelines = {0: [(0.5, 10), (2.0, 11)], 1: [(0.7, 10), (1.5, 11)], 2: [(0.1, 10)]}
    delays, unseen = night.visible_delays(
        [
            (1.0, [0, 1]),  # ticket ≤ 6, built by version 11: phone 1 shows it at 1.5
            (1.0, [0]),  # the same hand seen only by phone 0: at 2.0
            (1.3, [0]),  # ticket ≤ 7, in version 12: no phone ever showed it
            (1.0, [2]),  # a phone that never moved past version 10
            (2.5, [0]),  # acknowledged after the last sample: nothing to read
            (1.0, []),  # nobody polls for these teams
        ],
        samples,
        timelines,
    )
    assert delays == pytest.approx([0.5, 1.0])
    assert unseen == 4


def test_a_phone_that_showed_the_hand_before_its_acknowledgement_counts_zero():
    delays, unseen = night.visible_delays([(1.0, [0])], [(1.01, 3, 3, 8)], {0: [(0.99, 8)]})
    assert (delays, unseen) == ([0.0], 0)


def test_a_phone_shown_an_older_version_for_a_moment_keeps_the_first_that_held_the_hand():
    # Phone 0 sees version 9, then 8 again (another web process, a second behind), then 10.
    timelines = {0: [(1.0, 9), (1.2, 8), (1.4, 10)]}
    delays, unseen = night.visible_delays([(0.5, [0])], [(0.6, 4, 2, 7), (0.9, 5, 4, 9)], timelines)
    assert (delays, unseen) == ([pytest.approx(0.5)], 0)


def test_an_answer_is_read_with_its_bytes_on_the_wire_and_its_body_as_sent():
    body = gzip.compress(b"<table>ranking-1-2-3-fr</table>")
    raw = b'HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nETag: W/"x"\r\nContent-Length: %d\r\n\r\n' % len(body)
    answer = night.read_answer(raw + body)
    assert (answer.status_code, answer.headers["etag"], answer.wire) == (200, 'W/"x"', len(raw) + len(body))
    assert answer.content == body and answer.text == "<table>ranking-1-2-3-fr</table>"
    not_modified = night.read_answer(b'HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n')
    assert (not_modified.status_code, not_modified.content, not_modified.text) == (304, b"", "")
    assert night.read_answer(b"").status_code == 0


def test_the_last_line_is_one_json_object_with_the_required_keys():
    figures = {key: 1 for key in night.SUMMARY_KEYS} | {"visible_p95_ms": float("nan"), "entry_p95_ms": 12.34567}
    line = night.summary_line(figures)
    assert "\n" not in line
    parsed = json.loads(line)
    assert set(night.SUMMARY_KEYS) <= set(parsed)
    assert parsed["visible_p95_ms"] is None
    assert parsed["entry_p95_ms"] == 12.346
    with pytest.raises(KeyError, match="lost"):
        night.summary_line({key: 1 for key in night.SUMMARY_KEYS if key != "lost"})
