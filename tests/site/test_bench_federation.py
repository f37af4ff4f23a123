"""The federation benchmark (bench/federation.py): its arguments, the concours' sizes it
draws, the users it places concours by concours, its last line; and one tiny run of the
whole bench, nginx (serving/nginx.py's configuration: tests/site/test_nginx_conf.py), two
gunicorn nodes, a Celery worker, PostgreSQL and Redis, checked for its last line and for
no hand lost or doubled (a `production` test: it starts servers of its own)."""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from serving.nginx import nginx_binary
from tests.conftest import REDIS_URL

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.append(str(BENCH))

import federation  # noqa: E402  (bench/federation.py, with bench/ on the path as `python bench/federation.py` has it)
import nightkit  # noqa: E402

ROOT = BENCH.parent


def test_importing_the_bench_loads_neither_locust_nor_gevent():
    code = (
        f"import sys; sys.path.insert(0, {str(BENCH)!r}); import federation; "
        "print(sorted({'locust', 'gevent'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


def test_arguments_have_a_federation_saturdays_defaults():
    args = federation.parse_args([])
    assert (args.tournaments, args.teams_total, args.min_teams, args.max_teams) == (40, 4000, 20, 300)
    assert (args.phones, args.projectors, args.soirees, args.nodes, args.pace) == (2, 1, 0, 2, 10.0)


@pytest.mark.parametrize(
    "argv",
    [
        ["--teams-total", "4001"],
        ["--tournaments", "40", "--teams-total", "700"],
        ["--tournaments", "2", "--teams-total", "1000"],
        ["--min-teams", "40", "--max-teams", "20"],
        ["--min-teams", "21"],
        ["--pace", "0"],
        ["--nodes", "0"],
        ["--nginx-workers", "none"],
    ],
)
def test_arguments_out_of_range_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        federation.parse_args(argv)
    assert exit_.value.code == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize("seed", range(5))
def test_a_saturdays_concours_are_even_within_bounds_and_sum_to_the_total(seed):
    sizes = federation.concours_sizes(40, 4000, 20, 300, random.Random(seed))
    assert len(sizes) == 40 and sum(sizes) == 4000
    assert all(20 <= size <= 300 and size % 2 == 0 for size in sizes)
    # Many small concours, a few big ones: the median below the mean.
    assert sorted(sizes)[20] < 100


def test_sizes_at_the_bounds_are_all_the_smallest_or_all_the_biggest():
    rng = random.Random(1)
    assert federation.concours_sizes(3, 60, 20, 300, rng) == [20, 20, 20]
    assert federation.concours_sizes(3, 900, 20, 300, rng) == [300, 300, 300]
    assert federation.concours_sizes(1, 8, 4, 8, rng) == [8]


def test_users_are_placed_concours_by_concours():
    counts = [3, 0, 2]
    assert [nightkit.placed(counts, index) for index in range(5)] == [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1)]
    with pytest.raises(IndexError):
        nightkit.placed(counts, 5)


def test_polls_of_every_concours_are_added_by_kind():
    args = federation.parse_args([])
    first, second = (nightkit.Night(args=args, slug=s, api_key="k", teams=4) for s in ("a", "b"))
    for night, statuses in ((first, [200, 304]), (second, [304, 0])):
        for status in statuses:
            night.tally("ranking", nightkit.Answer(status, {}, b"", 100))
    merged = nightkit.merged_polls([first, second])
    assert (merged["ranking"].polls, merged["ranking"].status[304], merged["ranking"].failed) == (4, 2, 1)
    assert merged["ranking"].bytes_per_poll == 100.0


def test_the_last_line_carries_the_federations_keys():
    figures = {key: 1 for key in federation.SUMMARY_KEYS} | {"nginx_cpu_ms_per_poll": float("nan")}
    parsed = json.loads(federation.summary_line(figures))
    assert set(federation.SUMMARY_KEYS) <= set(parsed) and parsed["nginx_cpu_ms_per_poll"] is None
    with pytest.raises(KeyError, match="polls_per_s"):
        federation.summary_line({key: 1 for key in federation.SUMMARY_KEYS if key != "polls_per_s"})
    assert nightkit.per_request_ms(0.5, 250) == 2.0 and math.isnan(nightkit.per_request_ms(1.0, 0))


# -- one tiny Saturday, every part running ---------------------------------------------------


def apt_can_install() -> bool:
    return shutil.which("apt-get") is not None and (os.geteuid() == 0 or shutil.which("sudo") is not None)


@pytest.mark.production
def test_a_tiny_saturday_stores_every_hand_once_and_ends_with_its_figures():
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith("postgres"):
        pytest.skip("the bench needs PostgreSQL (DATABASE_URL)")
    if not REDIS_URL:
        pytest.skip("the bench needs Redis (ATOUT_TEST_REDIS_URL)")
    if nginx_binary() is None and not apt_can_install():
        pytest.skip("nginx is missing and apt cannot install it here")
    name = f"{urlsplit(database).path.lstrip('/') or 'atout'}_federation_{uuid.uuid4().hex[:6]}"
    argv = [
        sys.executable, "bench/federation.py", "--postgres", database, "--database", name, "--redis", REDIS_URL,
        "--tournaments", "2", "--teams-total", "12", "--min-teams", "4", "--max-teams", "8", "--rounds", "1",
        "--donnes", "2", "--pace", "30", "--duration", "90", "--cold", "2", "--arrive", "0.5", "--workers", "1",
        "--nginx-workers", "1",
    ]  # fmt: skip
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    ran = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=420, check=False)
    output = ran.stdout + ran.stderr
    assert ran.returncode == 0, output[-4000:]
    figures = json.loads(ran.stdout.strip().splitlines()[-1])
    assert set(federation.SUMMARY_KEYS) <= set(figures)
    assert (figures["tournaments"], figures["teams"], figures["lost"], figures["doubled"], figures["errors"]) == (
        2, 12, 0, 0, 0,
    )  # fmt: skip
    # Hands went through nginx to the nodes and the phones' polls came back, measured.
    assert figures["hands"] >= 6 and figures["entry_p95_ms"] > 0
    assert figures["polls_per_s"] > 0 and figures["polls"]["ranking"]["failed"] == 0
    # Every kind of poll of a public concours is a file nginx sends (ranking, projector,
    # messages, clock): the nodes' CPU per poll is what few polls reached them, often none.
    assert 0 <= figures["gunicorn_cpu_ms_per_poll"] < figures["nginx_cpu_ms_per_poll"]
    # The rankings' polls were answered by nginx from the files: at most the first of each
    # file (missing until then) reached a node.
    ranking = figures["polls"]["ranking"]
    assert ranking["not_modified"] > 0 and ranking["served"] < ranking["polls"] / 2
    assert "how it differs from a real Saturday" in ran.stdout
