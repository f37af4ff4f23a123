"""Throughput of the live ranking's polls beside a bare Django view, under gunicorn (no nginx).

A public tournament's page polls a static file, `/live/<slug>/<lang>-ranking.html` (a
ranking longer than settings.RANKING_PAGE_ROWS rows: one file a page, `fr-ranking-2.html`,
...), sending `If-Modified-Since` with the file's Last-Modified (docs/live-refresh.md,
"Polls served as files"). nginx serves those files in production; without nginx (./run,
venue mode) the site answers them ahead of its middleware chain
(scoring.middleware.LivePollMiddleware → scoring.live_files.answer), which is what this
bench measures. The old partial (`/t/<slug>/` with `HX-Request` and `If-None-Match`, the
ETag'd fragment through the whole chain) is polled now only by a private tournament's
organisers: it is measured so, for comparison.

What it does (it stops by itself and cleans up after itself; loopback only):

1. creates a PostgreSQL database of its own (`atout_bench_live`), migrates it, and builds
   a public concours of 300 teams after 6 rounds (bench/standings.py's builder) and its
   ranking, and a private copy of it (same draws) with a director (an organiser of the
   club) logged in;
2. starts gunicorn on 127.0.0.1 with DEBUG off, as in production, serving Atout's URLs
   plus `/bench/bare/` (bench/live_page_site): a view that returns "ok" through the same
   middleware, the ceiling of any Django page on this machine; the live files in a
   folder of this run (ATOUT_LIVE_ROOT);
3. opens the public ranking's page once, which publishes its files (every page of the
   ranking: at 300 teams, 3 pages of 100 rows), and reads their Last-Modified;
4. hammers, in turn and in several interleaved rounds, with the same number of client
   processes for the same time: the bare view; a phone polling the file it holds (page 1,
   then a later page: `If-Modified-Since` → 304, answered by LivePollMiddleware); page 1's
   file to a phone that just arrived (200, gzip); and the old partial with its ETag as a
   private copy's director polls it (session cookie, `HX-Request`, `If-None-Match` → 304,
   through the whole chain), beside the bare view as the same director (the session's
   own cost);
5. prints requests per second for each (the median of the rounds), and each one's share
   of the bare view's; the last line, every figure as JSON.

Target: a phone's poll (the file's 304) at 70% or more of the bare view's throughput.

Run: `.venv/bin/python bench/live_page.py` (PostgreSQL on 127.0.0.1:5432 as for the
tests; `--help` for the knobs).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import http.client
import json
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


def server_env(url: str, static_root: str, live_root: str, secret: str) -> dict[str, str]:
    """Atout's settings plus the bare view (bench/live_page_site), production-like; the live
    files in `live_root`; this process's secret (the director's session is made here)."""
    return loopback_production_env(
        url,
        DJANGO_SETTINGS_MODULE="live_page_site.settings",
        PYTHONPATH=os.pathsep.join([str(BENCH), str(ROOT)]),
        STATIC_ROOT=static_root,
        ATOUT_LIVE_ROOT=live_root,
        SECRET_KEY=secret,
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


def get(port: int, path: str, headers: dict[str, str]) -> http.client.HTTPResponse:
    """One request; the answer read (its body on `.body`)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        response.body = response.read()  # type: ignore[attr-defined]
        return response
    finally:
        conn.close()


def director_cookie(user: Any) -> str:
    """A session of `user`, made here as a login would (same database and secret as gunicorn)."""
    from django.conf import settings
    from django.test import Client

    browser = Client()
    browser.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"


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
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the runs")
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
    with tempfile.TemporaryDirectory() as static_root, tempfile.TemporaryDirectory() as live_root:
        try:
            print(f"==> database {args.database}: {args.teams} teams after 6 rounds, public, and a private copy")
            recreate_database(args.postgres, args.database)
            standings_bench.migrate(url)
            # This process shares gunicorn's secret (the director's session) and live folder.
            os.environ["ATOUT_BENCH_LIVE"] = live_root  # standings_bench.production_env's folder
            secret = standings_bench.production_env(url)["SECRET_KEY"]
            env = server_env(url, static_root, live_root, secret)
            subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput"], cwd=ROOT, env=env, check=True,
                           capture_output=True, timeout=300)  # fmt: skip
            standings_bench.setup_django(url)
            from django.conf import settings
            from django.contrib.auth import get_user_model

            from scoring import live_files
            from scoring.selectors.standings import ranking_pages
            from scoring.standings import standings_rebuild
            from scoring.views.public import page_name
            from tournaments.models import Club, Membership

            club = Club.objects.create(name="Club du banc d'essai", slug="banc")
            parties = standings_bench.Parties(donnes=12, count=300)
            tournament = standings_bench.build_concours(club, 1, args.teams, 6, parties, seed=1)
            # The private copy: the same draws, followed by its organisers alone.
            private = standings_bench.build_concours(club, 2, args.teams, 6, parties, seed=1)
            private.is_public = False
            private.save()
            for built in (tournament, private):
                built.status = "running"
                built.save()
                standings_rebuild(tournament_id=built.pk)
            director = get_user_model().objects.create_user("directeur", "directeur@example.org", "banc-d-essai")
            Membership.objects.create(club=club, user=director, role=Membership.Role.ORGANISER)
            cookie = director_cookie(director)
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
            french = {"Accept-Language": "fr"}
            # The page opened once publishes the ranking's files, every page of it.
            opened = get(port, f"/t/{tournament.slug}/", french)
            assert opened.status == 200, f"the ranking's page answered {opened.status}"
            state = live_files.read_state(tournament.slug)
            assert state is not None, "opening the page published no file"
            pages = ranking_pages(args.teams)
            count = len(pages) or 1
            names = {page_name("fr", number) for number in range(1, count + 1)}
            assert names <= set(state.names), f"published {state.names}, not every page of {count}"
            later = page_name("fr", count)  # the last page: a later one when there are several
            first_file = live_files.address(tournament.slug, page_name("fr", 1))
            later_file = live_files.address(tournament.slug, later)
            phone = {**french, "HX-Request": "true", "Accept-Encoding": "gzip, deflate, br"}
            fresh = get(port, first_file, phone)
            since = fresh.getheader("Last-Modified") or ""
            assert fresh.status == 200 and since and fresh.getheader("Content-Encoding") == "gzip", (
                f"the file answered {fresh.status}, Last-Modified {since!r}"
            )
            assert since == state.last_modified, f"the file's time {since!r} is not the publication's"
            for path in (first_file, later_file):
                held = get(port, path, {**phone, "If-Modified-Since": since})
                assert held.status == 304, f"{path} with its If-Modified-Since answered {held.status}"
            page_bytes = {
                name: (live_files.folder(tournament.slug) / f"{name}.html").stat().st_size for name in sorted(names)
            }
            print(
                f"==> {args.teams} teams: the ranking comes in {count} page(s) of at most {settings.RANKING_PAGE_ROWS} "
                f"rows ({', '.join(f'{n}.html {b:,} B' for n, b in page_bytes.items())}); "
                f"page 1 gzip {len(fresh.body):,} B"  # type: ignore[attr-defined]
            )
            # The director of the private copy polls the old partial with the ETag it holds.
            director_htmx = {**french, "HX-Request": "true", "Cookie": cookie, "Accept-Encoding": "gzip, deflate, br"}
            partial = get(port, f"/t/{private.slug}/", director_htmx)
            etag = partial.getheader("ETag") or ""
            assert partial.status == 200 and etag, f"the private partial answered {partial.status} to its director"
            polled = get(port, f"/t/{private.slug}/", {**director_htmx, "If-None-Match": etag})
            assert polled.status == 304, f"the private partial with its ETag answered {polled.status}"
            scenarios: dict[str, tuple[str, dict[str, str], int]] = {
                "bare view": ("/bench/bare/", french, 200),
                "file page 1, 304 (a phone polling)": (first_file, {**phone, "If-Modified-Since": since}, 304),
                f"file page {count}, 304 (a phone polling)": (later_file, {**phone, "If-Modified-Since": since}, 304),
                "file page 1, 200 gzip (a phone arriving)": (first_file, phone, 200),
                # The same signed-in visitor's floor: what the session and the chain cost alone.
                "bare view, as the director": ("/bench/bare/", {**french, "Cookie": cookie}, 200),
                "private partial, 304 (its director polling)": (
                    f"/t/{private.slug}/",
                    {**director_htmx, "If-None-Match": etag},
                    304,
                ),
            }
            if count == 1:
                del scenarios[f"file page {count}, 304 (a phone polling)"]
            rates: dict[str, list[float]] = {name: [] for name in scenarios}
            unexpected: dict[str, list[int]] = {}
            # Interleaved rounds, and the median of each: the machine's other work drifts.
            for _ in range(args.rounds):
                for name, (path, headers, wanted) in scenarios.items():
                    rate, errors, statuses = hammer(port, path, headers, args.clients, args.seconds)
                    rates[name].append(rate)
                    if statuses != [wanted]:
                        unexpected[name] = statuses
                    print(f"    {name}: {rate:,.0f} req/s (statuses {statuses}, errors {errors})", flush=True)
            bare = statistics.median(rates["bare view"])
            figures: dict[str, Any] = {}
            for name in scenarios:
                middle = statistics.median(rates[name])
                share = f" = {100 * middle / bare:.0f}% of the bare view" if name != "bare view" else ""
                print(f"{name}: {middle:,.0f} req/s (median of {args.rounds}){share}")
                figures[name] = {"req_per_s": round(middle, 1), "share_of_bare": round(middle / bare, 3)}
            print("target: a phone's poll (the file's 304) at >= 70% of the bare view")
            for name, statuses in unexpected.items():
                print(f"!! {name}: answered {statuses}, not {scenarios[name][2]} alone", file=sys.stderr)
            # The last line: every figure as JSON.
            print(json.dumps({
                "load": machine_load(), "teams": args.teams, "pages": count, "page_rows": settings.RANKING_PAGE_ROWS,
                "page_bytes": page_bytes, "page1_gzip_bytes": len(fresh.body),  # type: ignore[attr-defined]
                "workers": args.workers, "clients": args.clients, "seconds": args.seconds, "rounds": args.rounds,
                "partial_as": "the director of a private copy", "rates": figures,
            }), flush=True)  # fmt: skip
            return 1 if unexpected else 0
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
            if os.environ.get("ATOUT_BENCH_STATIC"):
                shutil.rmtree(os.environ["ATOUT_BENCH_STATIC"], ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
