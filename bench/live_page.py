"""Throughput of the live ranking's htmx partial beside a bare Django view, under gunicorn.

What it does (it stops by itself and cleans up after itself; loopback only):

1. creates a PostgreSQL database of its own (`atout_bench_live`), migrates it, and builds
   a concours of 300 teams after 6 rounds (bench/standings.py's builder) and its ranking;
2. starts gunicorn on 127.0.0.1 with DEBUG off, as in production, serving Atout's URLs
   plus `/bench/bare/` (bench/live_page_site): a view that returns "ok" through the same
   middleware, the ceiling of any Django page on this machine;
3. hammers, in turn and in several interleaved rounds, with the same number of client processes for the
   same time: the bare view; the ranking partial as a phone polls it (`HX-Request` and
   the ETag it holds: 304 Not Modified); the partial with no ETag (a phone that just
   arrived: 200 and the whole ranking, rendered once per version and then cached);
4. prints requests per second for each (the median of the rounds), and each partial's
   share of the bare view's.

Target: the polling partial at 70% or more of the bare view's throughput.

Run: `.venv/bin/python bench/live_page.py` (PostgreSQL on 127.0.0.1:5432 as for the
tests; `--help` for the knobs).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import http.client
import multiprocessing
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))

import standings as standings_bench  # noqa: E402  (bench/standings.py: the database and the concours)
from benchkit import (  # noqa: E402
    GUNICORN,
    PYTHON,
    database_url,
    drop_database,
    free_port,
    loopback_production_env,
    machine_load,
    recreate_database,
)


def server_env(url: str, static_root: str) -> dict[str, str]:
    """Atout's settings plus the bare view (bench/live_page_site), production-like."""
    return loopback_production_env(
        url,
        DJANGO_SETTINGS_MODULE="live_page_site.settings",
        PYTHONPATH=os.pathsep.join([str(BENCH), str(ROOT)]),
        STATIC_ROOT=static_root,
    )


def client(port: int, path: str, headers: dict[str, str], seconds: float, start: float, out: Any) -> None:
    """One client process: request `path` again and again until the time is up."""
    while time.time() < start:
        time.sleep(0.001)
    done, errors, statuses = 0, 0, set()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    deadline = start + seconds
    while time.time() < deadline:
        try:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            statuses.add(response.status)
            done += 1
        except (OSError, http.client.HTTPException):
            errors += 1
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.close()
    out.put((done, errors, sorted(statuses)))


def hammer(port: int, path: str, headers: dict[str, str], clients: int, seconds: float) -> tuple[float, int, list[int]]:
    queue: multiprocessing.Queue[Any] = multiprocessing.Queue()
    start = time.time() + 0.5
    procs = [
        multiprocessing.Process(target=client, args=(port, path, headers, seconds, start, queue))
        for _ in range(clients)
    ]
    for proc in procs:
        proc.start()
    results = [queue.get(timeout=seconds + 60) for _ in procs]
    for proc in procs:
        proc.join(10)
    done = sum(r[0] for r in results)
    errors = sum(r[1] for r in results)
    statuses = sorted({s for r in results for s in r[2]})
    return done / seconds, errors, statuses


def wait_until_up(port: int, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("gunicorn exited: see bench-results/live_page-gunicorn.log")
        with contextlib.suppress(OSError, http.client.HTTPException):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/bench/bare/")
            if conn.getresponse().status == 200:
                return
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--postgres", default=os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/atout"
    )
    parser.add_argument("--database", default="atout_bench_live")
    parser.add_argument("--teams", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--clients", type=int, default=4, help="client processes")
    parser.add_argument("--seconds", type=float, default=5, help="length of each run")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the three runs")
    parser.add_argument("--deadline", type=float, default=600)
    args = parser.parse_args()
    # The machine as the run starts; again at the end (figures move with the load).
    print(f"==> {machine_load()}")
    atexit.register(lambda: print(f"==> at the end: {machine_load()}"))

    def out_of_time(*_: Any) -> None:
        raise standings_bench.Deadline(f"stopped after {args.deadline:.0f} s (--deadline)")

    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(int(args.deadline))
    url = database_url(args.postgres, args.database)
    results = ROOT / "bench-results"
    results.mkdir(exist_ok=True)
    gunicorn: subprocess.Popen[bytes] | None = None
    with tempfile.TemporaryDirectory() as static_root:
        try:
            print(f"==> database {args.database}: {args.teams} teams after 6 rounds")
            recreate_database(args.postgres, args.database)
            standings_bench.migrate(url)
            env = server_env(url, static_root)
            subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput"], cwd=ROOT, env=env, check=True,
                           capture_output=True, timeout=300)  # fmt: skip
            standings_bench.setup_django(url)
            from scoring.standings import standings_rebuild
            from tournaments.models import Club

            club = Club.objects.create(name="Club du banc d'essai", slug="banc")
            parties = standings_bench.Parties(donnes=12, count=300)
            tournament = standings_bench.build_concours(club, 1, args.teams, 6, parties, seed=1)
            tournament.status = "running"
            tournament.save()
            standings_rebuild(tournament_id=tournament.pk)
            from django.db import connections

            connections.close_all()

            port = free_port()
            print(f"==> gunicorn: {args.workers} sync workers on 127.0.0.1:{port}; {args.clients} client processes")
            log = (results / "live_page-gunicorn.log").open("wb")
            gunicorn = subprocess.Popen(
                [GUNICORN, "atout.wsgi", "-w", str(args.workers), "-b", f"127.0.0.1:{port}", "--timeout", "60"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
            wait_until_up(port, gunicorn)
            ranking = f"/t/{tournament.slug}/"
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            probe.request("GET", ranking, headers={"HX-Request": "true", "Accept-Language": "fr"})
            first = probe.getresponse()
            first.read()
            etag = first.getheader("ETag") or ""
            assert first.status == 200 and etag, f"the partial answered {first.status}"
            htmx = {"HX-Request": "true", "Accept-Language": "fr"}
            scenarios = {
                "bare view": ("/bench/bare/", {"Accept-Language": "fr"}),
                "partial, 304 (polling)": (ranking, {**htmx, "If-None-Match": etag}),
                "partial, 200 (cached render)": (ranking, htmx),
            }
            rates: dict[str, list[float]] = {name: [] for name in scenarios}
            # Interleaved rounds, and the median of each: the machine's other work drifts.
            for _ in range(args.rounds):
                for name, (path, headers) in scenarios.items():
                    rate, errors, statuses = hammer(port, path, headers, args.clients, args.seconds)
                    rates[name].append(rate)
                    print(f"    {name}: {rate:,.0f} req/s (statuses {statuses}, errors {errors})")
            bare = statistics.median(rates["bare view"])
            for name in scenarios:
                middle = statistics.median(rates[name])
                share = f" = {100 * middle / bare:.0f}% of the bare view" if name != "bare view" else ""
                print(f"{name}: {middle:,.0f} req/s (median of {args.rounds}){share}")
            print("target: the polling partial (304) at >= 70% of the bare view")
            return 0
        except standings_bench.Deadline as stop:
            print(f"!! {stop}", file=sys.stderr)
            return 1
        finally:
            signal.alarm(0)
            if gunicorn is not None:
                gunicorn.terminate()
                try:
                    gunicorn.wait(15)
                except subprocess.TimeoutExpired:
                    gunicorn.kill()
            with contextlib.suppress(Exception):
                from django.db import connections

                connections.close_all()
            drop_database(args.postgres, args.database)
            shutil.rmtree(os.environ.get("ATOUT_BENCH_STATIC", ""), ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
