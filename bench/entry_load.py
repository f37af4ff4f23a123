"""Load on the referee's entry: 150 phones entering a 12-donne partie each, at once.

What it does, start to finish (it stops by itself, and cleans up after itself):

1. creates a PostgreSQL database of its own (`atout_bench` by default), migrates it, and
   seeds a belote concours with round 1 drawn: 300 teams at 150 tables, 12 donnes a
   partie;
2. starts gunicorn on 127.0.0.1 with DEBUG off, as in production (and, when Redis
   answers, a Celery worker so that the live standings are rebuilt as hands come in,
   off the request path);
3. runs 150 simulated referees, one thread each, over http.client on loopback only:
   each opens its table's link, then for each of its 12 donnes waits a moment (its
   *think time*), asks the engine to check the entry (the htmx check while typing) and
   sends it with htmx headers and a fresh idempotency key, as the page does; a request
   that fails on the network is sent again with the same key;
4. prints hands stored per second, the latency of sending a donne (p50/p95/p99), the
   same for the check while typing and for opening the page, the errors, and checks
   that exactly 150 × 12 = 1,800 hands are stored, 12 per table, none doubled.

Target: p95 of sending a donne under 100 ms, zero lost. The think time compresses a
night (a donne every two to four minutes per table) into a few minutes: with the
default 10 s the room sends ~15 donnes a second (and as many checks while typing),
about twenty times the real rate; `--think 3` is a harder stress.

Run: `.venv/bin/python bench/entry_load.py` (PostgreSQL on 127.0.0.1:5432 as for the
tests; `--help` for the knobs). Exit status 0 when every hand is stored exactly once.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import os
import random
import re
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from benchkit import (
    GUNICORN,
    ROOT,
    Server,
    celery_worker_argv,
    database_url,
    drop_database,
    free_port,
    machine_load,
    manage,
    percentile,
    recreate_database,
    redis_answers,
    request,
    server_env,
    start_django,
    wait_ready,
)

sys.path.insert(0, str(ROOT))
STORED = re.compile(rb"(est enregistr\xc3\xa9e|is stored)")
CSRF_INPUT = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class Timings:
    submit: list[float] = field(default_factory=list)
    validate: list[float] = field(default_factory=list)
    page: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    retries: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            getattr(self, kind).append(seconds)

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)


def seed(env: dict[str, str], tables: int, donnes: int) -> list[str]:
    """The concours and its round 1, written through the ORM in this process; the tokens."""
    start_django(env)
    import datetime

    from tournaments.models import Club, Competitor, Round, Seat, Table, Tournament

    club = Club.objects.create(name="Club du banc d'essai", slug="banc")
    tournament = Tournament.objects.create(
        club=club, name="Concours de charge", slug="charge", date=datetime.date(2026, 12, 5),
        game="belote_classique", format="teams", end_rule="donnes", end_value=donnes, status="running",
    )  # fmt: skip
    competitors = Competitor.objects.bulk_create(
        Competitor(tournament=tournament, number=i + 1, name=f"Équipe {i + 1}", status="checked_in")
        for i in range(2 * tables)
    )
    rnd = Round.objects.create(tournament=tournament, number=1, method="random", seed=1)
    drawn = Table.objects.bulk_create(Table(round=rnd, number=i + 1) for i in range(tables))
    Seat.objects.bulk_create(
        Seat(round=rnd, table=table, competitor=competitors[2 * i + side], side=side, position="NE"[side])
        for i, table in enumerate(drawn)
        for side in (0, 1)
    )
    return [table.token for table in drawn]


# -- one referee -----------------------------------------------------------------------


def form_fields(raw: dict[str, Any]) -> dict[str, str]:
    """A belote hand as the referee's form sends it (the taker's side first)."""
    if raw.get("cancelled"):
        return {"cancelled": "on"}
    taker = raw["taker"]
    other = "B" if taker == "A" else "A"
    fields = {
        "taker": taker,
        "contract": raw["contract"],
        "points_taker": str(raw["points"][taker]),
        "points_defence": str(raw["points"][other]),
        "capot": raw.get("capot") or "",
        "belote": (raw.get("belote") or [""])[0],
    }
    for side, items in (raw.get("announcements") or {}).items():
        for row, item in enumerate(items[:3]):
            for key in ("kind", "high", "suit"):
                if item.get(key):
                    fields[f"ann_{side}_{row}_{key}"] = item[key]
    if raw.get("order"):
        fields["order"] = raw["order"]
    return fields


def referee(port: int, token: str, donnes: int, think: float, seed_: int, timings: Timings, stop_at: float) -> None:
    from engine import get_game

    game = get_game("belote_classique")
    rng = random.Random(seed_)
    base = f"/r/{token}/"
    # Tables sit down over the first moments of the round, not all in the same second.
    time.sleep(rng.uniform(0, think))
    started = time.perf_counter()
    status, headers, body = request(port, "GET", base)
    timings.add("page", time.perf_counter() - started)
    if status != 200:
        timings.error(f"{token[:6]}: page {status}")
        return
    cookie = next((v.split(";")[0] for k, v in headers.items() if k.lower() == "set-cookie" and "csrftoken" in v), "")
    found = CSRF_INPUT.search(body)
    if not cookie or not found:
        timings.error(f"{token[:6]}: no CSRF token")
        return
    common = {
        "Cookie": cookie,
        "X-CSRFToken": found.group(1).decode(),
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
        "Referer": f"http://127.0.0.1:{port}{base}",
    }
    number = 1
    while number <= donnes:
        if time.monotonic() > stop_at:
            timings.error(f"{token[:6]}: out of time at donne {number}")
            return
        time.sleep(rng.uniform(0.5, 1.5) * think)
        fields = {"mode": "new", "expected_number": str(number), "idempotency_key": uuid.uuid4().hex}
        fields.update(form_fields(game.random_hand(rng)))
        data = urlencode(fields).encode()
        with contextlib.suppress(OSError):
            started = time.perf_counter()
            status, _h, _b = request(port, "POST", base + "validate/", data, common)
            if status == 200:
                timings.add("validate", time.perf_counter() - started)
        for attempt in range(4):
            started = time.perf_counter()
            try:
                status, _h, body = request(port, "POST", base + "hands/", data, common)
            except OSError as error:
                # The network let go: send the same entry again, same key.
                timings.retries += 1
                if attempt == 3:
                    timings.error(f"{token[:6]}: donne {number}: {error}")
                    return
                time.sleep(0.2 * (attempt + 1))
                continue
            elapsed = time.perf_counter() - started
            if status == 200 and STORED.search(body):
                timings.add("submit", elapsed)
                break
            timings.error(f"{token[:6]}: donne {number}: status {status}")
            return
        number += 1


# -- the run ---------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--donnes", type=int, default=12)
    parser.add_argument("--think", type=float, default=10.0, help="mean seconds between two donnes of a referee")
    parser.add_argument("--workers", type=int, default=(os.cpu_count() or 1) * 2, help="gunicorn workers")
    parser.add_argument("--database", default="atout_bench")
    parser.add_argument(
        "--postgres", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/atout")
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/11", help="Celery broker and cache ('' for none)")
    parser.add_argument(
        "--no-worker",
        action="store_true",
        help="queue the standings refreshes without running them (times the entry path alone)",
    )
    parser.add_argument("--deadline", type=float, default=600, help="seconds before everything is stopped")
    parser.add_argument("--keep", action="store_true", help="keep the bench database afterwards")
    args = parser.parse_args()
    # The machine as the run starts; again at the end (figures move with the load).
    print(f"==> {machine_load()}")
    atexit.register(lambda: print(f"==> at the end: {machine_load()}"))
    if not args.postgres.startswith("postgres"):
        print("entry_load needs PostgreSQL: set DATABASE_URL or --postgres", file=sys.stderr)
        return 2
    deadline = time.monotonic() + args.deadline
    results = ROOT / "bench-results"
    results.mkdir(exist_ok=True)
    broker = args.redis if args.redis and redis_answers(args.redis) else ""
    url = database_url(args.postgres, args.database)
    env = server_env(url, broker)
    servers: list[Server] = []
    try:
        print(f"==> database {args.database}: migrating and seeding {args.tables} tables")
        recreate_database(args.postgres, args.database)
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        manage(env, "compile_catalogues")
        tokens = seed(env, args.tables, args.donnes)
        port = free_port()
        celery = f", Celery on {broker}" + (" (no worker: refreshes queued only)" if args.no_worker else "")
        print(f"==> gunicorn: {args.workers} workers on 127.0.0.1:{port}" + (celery if broker else ""))
        gunicorn = Server(
            "gunicorn",
            [GUNICORN, "atout.wsgi", "-w", str(args.workers), "-b", f"127.0.0.1:{port}", "--timeout", "60"],
            env,
            results / "entry_load-gunicorn.log",
        )
        servers.append(gunicorn)
        if broker and not args.no_worker:
            servers.append(
                Server(
                    "celery",
                    # Below the web workers: the ranking may lag a second, a referee must not.
                    ["nice", "-n", "10", *celery_worker_argv(env["CELERY_QUEUE"], f"{env['CELERY_QUEUE']}@%h")],
                    env,
                    results / "entry_load-celery.log",
                )
            )
        wait_ready(gunicorn, port)

        print(f"==> {len(tokens)} referees, {args.donnes} donnes each, think time ~{args.think}s")
        timings = Timings()
        threads = [
            threading.Thread(
                target=referee, args=(port, token, args.donnes, args.think, i, timings, deadline), daemon=True
            )
            for i, token in enumerate(tokens)
        ]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        wall = time.perf_counter() - started
        unfinished = sum(thread.is_alive() for thread in threads)
    finally:
        for server in reversed(servers):
            server.stop()

    from django.db.models import Count

    from scoring.models import Hand

    stored = Hand.objects.count()
    per_table = Counter(Hand.objects.values("table").annotate(n=Count("pk")).values_list("n", flat=True))
    doubled = Hand.objects.values("table", "number").annotate(n=Count("pk")).filter(n__gt=1).count()
    expected = args.tables * args.donnes
    from django.db import connections

    connections.close_all()
    if not args.keep:
        drop_database(args.postgres, args.database)

    def line(name: str, values: list[float]) -> str:
        ms = [1000 * v for v in values]
        return (
            f"{name:<22} n={len(ms):>5}  p50={percentile(ms, 0.50):7.1f} ms  p95={percentile(ms, 0.95):7.1f} ms  "
            f"p99={percentile(ms, 0.99):7.1f} ms  mean={statistics.fmean(ms) if ms else float('nan'):7.1f} ms"
        )

    print()
    print(f"wall time              {wall:.1f} s  ({unfinished} referees unfinished)")
    print(f"hands stored per s     {len(timings.submit) / wall:.1f}  (submits answered: {len(timings.submit)})")
    print(line("send a donne", timings.submit))
    print(line("check while typing", timings.validate))
    print(line("open the page", timings.page))
    print(f"errors                 {len(timings.errors)}  (network retries: {timings.retries})")
    for message in timings.errors[:10]:
        print(f"  - {message}")
    print(
        f"hands in the database  {stored} of {expected}; tables by hands stored: {dict(per_table)}; doubled: {doubled}"
    )
    p95 = percentile([1000 * v for v in timings.submit], 0.95)
    ok = stored == expected and doubled == 0 and not timings.errors and per_table == {args.donnes: args.tables}
    print(f"target p95 < 100 ms: {'met' if p95 < 100 else 'NOT met'} ({p95:.1f} ms); none lost, none doubled: "
          f"{'yes' if ok else 'NO'}")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
