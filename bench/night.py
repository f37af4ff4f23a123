"""A night at the club: a belote concours of N teams over several rounds, on the
production stack, driven by locust (headless, from Python).

What it does, start to finish (it stops by itself and cleans up after itself):

1. creates a PostgreSQL database of its own (`atout_night_bench` by default, dropped and
   created again), migrates it, and seeds a club, its organiser (with an API token) and a
   belote concours of N teams, all checked in; flushes its Redis database (give it one of
   its own);
2. starts gunicorn on 127.0.0.1 with DEBUG off, as in production (benchkit's
   environment, as bench/entry_load.py; production's configuration file, the site's WSGI
   app inside benchkit's CpuMeter, below), a Celery worker on Redis that rebuilds the
   ranking as hands come in and writes its files (the live ranking's and the projector's,
   a folder of nginx's temporary one: ATOUT_LIVE_ROOT of gunicorn and the worker), and
   nginx in front of gunicorn as production's proxy (bench/nightkit.py's `start_nginx`:
   serving/nginx.py's configuration, with docker/nginx-live.conf: the live ranking's polls
   answered from those files by nginx itself, everything else passed to gunicorn), Debian's
   nginx installed with apt when missing (serving/nginx.py's `install_nginx`);
3. plays the night with locust's library API (`locust.env.Environment`, a local runner,
   its request statistics), everyone over HTTP on loopback, through nginx:
   - the director (one user) draws each round through the API, hands each table's secret
     to its referee, corrects hands meanwhile (`PUT …/hands/<n>/`, a new random donne and
     a reason), closes the round once every partie is over and draws the next one;
   - one referee per table enters the donnes through the path the scoring app uses:
     `POST /api/v1/table/hands/` with the table's secret (`X-Table-Token`), the donne it
     expects and a fresh `Idempotency-Key` (sent again, same key, when the network lets
     go), with valid random hands from the engine (`random_hand`);
   - two phones per team open the ranking and poll its file
     (`/live/<slug>/fr-ranking.html`) as the page's htmx does (`HX-Request`, `HX-Target`,
     `HX-Current-URL`, `If-Modified-Since` with the date the page's `hx-headers` give, then
     after each 200 its Last-Modified, `Accept-Encoding: gzip` like a browser), every
     `hx-trigger` seconds: 304 from nginx until the worker writes the file again;
   - one phone per team (`--soirees`) opens its « Ma soirée » page by the personal link
     (`/soiree/<token>/`, Competitor.link_token) and polls it the same way: the live part
     (its own address, with the ETag of its `hx-headers`, 304 until the competitor's night
     moves) every 3 s and the director's messages (`/soiree/<token>/screen/`,
     tournaments/screens.py) every 10 s;
   - four projectors poll the projector's file (`/live/<slug>/fr-projector.html`) the
     same way, and its messages (`/t/<slug>/screen/`) and round clock (`/t/<slug>/clock/`,
     at load and every 30 s), which gunicorn serves;
   each page's polled parts, addresses, periods, first dates or ETags and the version
   shown are read from the page as served (`polled_parts`), as htmx reads them;
4. prints the figures (below), the machine's load and cores at the start and at the end,
   and last one JSON line.

The pace: a real night enters a donne per table about every 2.5 minutes
(REAL_DONNE_SECONDS); `--pace 10` (the default) has each referee wait 15 s on average
(uniformly 0.5 to 1.5 times that), ten times a real night.

The figures:
- entry: the time of `POST /api/v1/table/hands/` until its 2xx (p50/p95/p99), cold (the
  first `--cold` seconds of play, fresh processes and caches) and warm (the rest), and
  per round;
- hand → visible on a polling phone: from the entry's 2xx until the first poll of one of
  the four phones of the table's two teams whose ranking includes it. The ranking
  version a phone shows is the `data-version` of the ranking it was last given: the
  page's, then each 200's body (a 304 keeps it; a part polled by ETag, the ETag's
  version). Which version includes a hand is read from
  the product's ticket (scoring/standings.py): a watcher reads, in one statement every
  WATCH_SECONDS, the tickets taken (`requested`), the ticket the last committed refresh
  read under its lock before the results (`built`) and the newest version. A hand
  acknowledged at time t has a ticket at most the `requested` of the first sample
  started after t; the first sample whose `built` reaches that ticket names a version
  that includes the hand. The figure is thus an upper bound, by about one sample and
  one refresh at most;
- per kind of poll (the phones' ranking, « Ma soirée », its messages, the projectors'
  ranking, messages and clock): polls, 200 and 304 counts, failures, and bytes per poll
  on the wire: status line, headers and the body as sent (compressed when the server
  compressed it), as the client read them off its connection, 200 and 304 together;
- gunicorn's CPU per poll, by kind of the polls it served (the ranking's and the
  projector's files only when one is missing: nginx answers the rest itself), and
  `gunicorn_cpu_ms_per_poll`: its CPU on every poll it served, all kinds, over every poll
  the clients made. gunicorn's processes serve the hands and every other kind of poll
  alike, so their whole CPU says nothing of one kind. Its workers run the site
  inside benchkit's CpuMeter, which reads the CPU clock of the serving thread
  (`time.thread_time`) when the app is called and when gunicorn closes the answer it has
  written, and sums it by kind of request (benchkit.REQUEST_KINDS) in each process: the
  CPU of that very request, at the moment of the night it was served, 200 or 304 as it
  came. What no request's clock holds (gunicorn accepting and reading requests, its
  master, its workers' idle loop: gunicorn's whole CPU from psutil less the sum the
  meters counted over the same window) is spread evenly over every request served and
  added, and printed apart ("in the request + the rest"). The meter costs about 5 µs a
  request (a regular expression and two clock readings), counted in gunicorn's CPU. Not
  a calibration window at the end where one kind polls alone: by then the ranking no
  longer moves, every poll is a 304, and a night's polls are mostly 200s at this pace;
- nginx's CPU per request (`nginx_cpu_ms_per_poll`): its master's and workers' CPU (user
  + system, psutil) over the window, divided by every request the clients made (locust's
  count: all went through nginx), a file, a 304 or a request passed to gunicorn alike;
- CPU seconds per stored hand, for gunicorn (the master and its workers) and the Celery
  worker apart (psutil, user + system), cold and warm; the web's share of the server's
  CPU (`web_cpu_share`: gunicorn's over gunicorn's and the worker's, over the night;
  `web_cpu_share_with_nginx`: nginx counted as web too);
- lost and doubled: every acknowledged (table, donne) must be one row of scoring_hand,
  none missing, none twice; errors: the director's and the referees' refusals, and every
  « Ma soirée » page or poll answered neither 200 nor 304 (a failed poll of the ranking
  or a projector is counted beside its kind, as before, not as an error).

The last line carries, beside the night's figures, `gunicorn_cpu_ms_per_poll` and
`nginx_cpu_ms_per_poll` (above), `polls_per_s` (every kind), `soiree_bytes_per_poll` and
`soiree_cpu_ms_per_poll`, and `polls`: each kind's counts, bytes, the polls gunicorn
served and its CPU a poll it served.

How it differs from a real night: the pace is `--pace` times a real one, so the ranking
moves `--pace` times as often per poll, and « Ma soirée », whose ETag moves with the
ranking's version, is drawn again (a 200) `--pace` times as often; every phone and every
« Ma soirée » page polls from the first second (in a real night phones come and go and
sleep, and not every team opens its page); each « Ma soirée » is opened by its personal
link, none by the seat finder's public address (the same page, found by the tournament's
public pages instead of the link); all clients share the machine with the server
(the load generator takes CPU from nginx, gunicorn, PostgreSQL and the worker: the phones, the
« Ma soirée » pages and the projectors therefore speak HTTP through a bare socket each,
`raw_get`, counted in
locust's statistics all the same, while the referees and the director use locust's
FastHttpUser); loopback has no
latency or loss; partie length is `--donnes` donnes (a real concours often plays 12 or
to a score); the director corrects a hand every REAL_CORRECTION_SECONDS / pace seconds;
nginx keeps no access log (a real site's writes a line a poll) and speaks plain HTTP (no
TLS to decrypt); the live ranking's files are on this machine's disk (a site's volume may
be slower); the Celery worker runs at `nice 10` (production's compose gives it a
container of its own, at the same priority as the site), so that on these shared cores
the refresh yields to the entries.

Run: `.venv/bin/python bench/night.py --teams 300` (PostgreSQL on 127.0.0.1:5432 as for
the tests, Redis on 127.0.0.1:6379; `--help` for the knobs). Exit status 0 when every
acknowledged hand is stored exactly once and every round was played; 2 when PostgreSQL,
Redis or nginx is missing.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import nightkit
from benchkit import (
    ROOT,
    Server,
    database_url,
    drop_database,
    free_port,
    machine_load,
    percentile,
    read_cpu_meters,
    server_env,
    wait_ready,
)
from nightkit import (
    PAGE_ROWS,
    REAL_DONNE_SECONDS,
    WATCH_SECONDS,
    Ack,
    Night,
    PollTally,
    celery_worker,
    cpu_by_kind,
    cpu_seconds,
    fresh_folder,
    gunicorn_node,
    live_folder,
    lost_and_doubled,
    more_files,
    ms,
    per_request_ms,
    phones_of_night,
    poll_figures,
    poll_table,
    polls_cpu_ms_per_poll,
    prepare_database,
    seed,
    spread,
    start_nginx,
    stored_rows,
    think_seconds,
    user_classes,
    visible_delays,
    watch,
)

# The checkout before bench/ (where `python bench/night.py` puts this folder first): the
# apps, not a bench of the same name (bench/ratings.py and the ratings app).
sys.path.insert(0, str(ROOT))

# The keys the last line always carries.
SUMMARY_KEYS = (
    "teams", "entry_p95_ms", "visible_p95_ms", "poll_bytes_avg", "gunicorn_cpu_ms_per_poll", "nginx_cpu_ms_per_poll",
    "lost", "doubled", "web_cpu_share",
)  # fmt: skip


# -- the arguments (tests/site/test_bench_night.py) ---------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=300, help="teams checked in (two per table)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds played (each drawn, played, closed)")
    parser.add_argument("--donnes", type=int, default=12, help="donnes a partie")
    parser.add_argument(
        "--pace",
        type=float,
        default=10.0,
        help=f"multiple of a real night's pace (a donne every {REAL_DONNE_SECONDS:g} s)",
    )
    parser.add_argument("--duration", type=float, default=1800, help="seconds of play at most; then it stops")
    parser.add_argument("--cold", type=float, default=30, help="first seconds of play counted as cold")
    parser.add_argument(
        "--phones",
        type=float,
        default=2,
        help="phones polling the ranking, per team (a fraction: fewer, spread over the field)",
    )
    parser.add_argument(
        "--soirees", type=int, default=1, help="« Ma soirée » pages open by the personal link, per team"
    )
    parser.add_argument("--arrive", type=float, default=30, help="seconds over which phones open the page")
    parser.add_argument("--projectors", type=int, default=4)
    parser.add_argument(
        "--workers", type=int, default=None, help="gunicorn workers (default: production's, serving/gunicorn_conf.py)"
    )
    parser.add_argument("--threads", type=int, default=None, help="threads per gunicorn worker (default: production's)")
    parser.add_argument("--nginx-workers", default="auto", help="nginx's worker_processes (auto: one a core)")
    parser.add_argument("--database", default="atout_night_bench")
    parser.add_argument(
        "--postgres", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/atout")
    )
    parser.add_argument(
        "--redis", default="redis://127.0.0.1:6379/12", help="Celery broker and cache (a database of its own: flushed)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the bench database afterwards")
    args = parser.parse_args(argv)
    if args.teams < 4:
        parser.error("--teams: at least 4")
    if args.rounds < 1 or args.donnes < 1:
        parser.error("--rounds and --donnes: at least 1")
    if not args.pace > 0 or not math.isfinite(args.pace):
        parser.error("--pace: a positive number")
    if args.phones < 0 or args.soirees < 0 or args.projectors < 0 or args.arrive < 0:
        parser.error("--phones, --soirees, --projectors and --arrive: 0 or more")
    if args.nginx_workers != "auto" and not (args.nginx_workers.isdigit() and int(args.nginx_workers) > 0):
        parser.error("--nginx-workers: auto or a positive number")
    return args


def summary_line(figures: dict[str, Any]) -> str:
    """The last line: one JSON object with at least SUMMARY_KEYS (NaN written as null)."""
    return nightkit.summary_line(figures, SUMMARY_KEYS)


# -- the run -----------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    # Celery's Django fix-up puts the working directory first on the path: the checkout's,
    # not bench/ (whose ratings.py would hide the ratings app).
    os.chdir(ROOT)
    # Every address here is a numeric loopback one: gevent's default resolver would send
    # each new connection's getaddrinfo through a small thread pool (gunicorn's sync
    # workers close every connection), where the clients queue for nothing.
    os.environ.setdefault("GEVENT_RESOLVER", "block")
    # locust patches the standard library for gevent: before Django opens anything.
    import gevent
    from locust import stats as locust_stats
    from locust.env import Environment

    ready = nightkit.preflight("night", args.postgres, args.redis)
    if ready is None:
        return 2
    load_start, reference_ms = ready
    from serving.nginx import install_nginx

    try:
        nginx = install_nginx()
    except RuntimeError as error:
        print(f"night needs nginx: {error}", file=sys.stderr)
        return 2
    files = more_files()
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    results = ROOT / "bench-results"
    results.mkdir(exist_ok=True)
    url = database_url(args.postgres, args.database)
    # nginx's folder, and in it the live ranking's files: the worker writes them, nginx serves them.
    folder = Path(tempfile.mkdtemp(prefix="atout-nginx-"))
    live_root = live_folder(folder)
    # gunicorn behind nginx on this machine: X-Forwarded-For believed from it alone.
    env = {**server_env(url, args.redis), "TRUSTED_PROXIES": "127.0.0.1", "ATOUT_LIVE_ROOT": str(live_root)}
    tables = args.teams // 2
    servers: list[Server] = []
    night: Night | None = None
    try:
        print(f"==> database {args.database}: migrating and seeding {args.teams} teams")
        prepare_database(args.postgres, args.database, env)
        (seeded,) = seed(env, [args.teams], args.rounds, args.donnes)
        site = free_port()
        meters = fresh_folder(results / "night-cpu")
        gunicorn = gunicorn_node(
            env, name="gunicorn", port=site, meters=meters, log=results / "night-gunicorn.log",
            workers=args.workers, threads=args.threads,
        )  # fmt: skip
        servers.append(gunicorn)
        celery = celery_worker(env, results / "night-celery.log")
        servers.append(celery)
        wait_ready(gunicorn, site)
        port = free_port()
        proxy = start_nginx(
            nginx, folder, port=port, sites=[site], live_root=live_root, workers=args.nginx_workers, files=files,
            env=env, log=results / "night-nginx.log",
        )  # fmt: skip
        servers.append(proxy)
        wait_ready(proxy, port)
        print(
            f"==> nginx ({nginx}, {args.nginx_workers} workers) on 127.0.0.1:{port}, serving the live ranking's "
            f"files from {live_root}, in front of gunicorn (serving/gunicorn_conf.py: {args.workers or 'default'} "
            f"workers, {args.threads or 'default'} threads each) on 127.0.0.1:{site}; a Celery worker on {args.redis}"
        )

        night = Night(args=args, slug=seeded.slug, api_key=seeded.api_key, teams=args.teams, soiree_tokens=seeded.links)
        classes = user_classes([night])
        phones = phones_of_night(args.phones, args.teams)
        users = 1 + tables + phones + args.soirees * args.teams + args.projectors
        print(
            f"==> {args.rounds} rounds of {args.donnes} donnes at {tables} tables; pace {args.pace:g}× a real night "
            f"(a donne per table every {think_seconds(args.pace):.1f} s on average, "
            f"{tables / think_seconds(args.pace):.1f} hands/s in all); "
            f"{phones} phones on the ranking, {args.soirees * args.teams} on « Ma soirée », "
            f"{args.projectors} projectors, 1 director ({users} locust users, up to {files} open files)"
        )
        environment = Environment(user_classes=classes, host=f"http://127.0.0.1:{port}")
        runner = environment.create_local_runner()
        night.started = time.monotonic()
        cpu_start = (cpu_seconds(gunicorn.process.pid), cpu_seconds(celery.process.pid))
        nginx_start = cpu_seconds(proxy.process.pid)
        metered_start = read_cpu_meters(meters)
        # This process alone: the servers are its children.
        clients_start = cpu_seconds(os.getpid(), children=False)
        cpu_cold: list[tuple[float, float]] = []

        def mark_cold() -> None:
            cpu_cold.append((cpu_seconds(gunicorn.process.pid), cpu_seconds(celery.process.pid)))

        gevent.spawn_later(args.cold, mark_cold)
        watcher = gevent.spawn(watch, [night])
        runner.start(users, spawn_rate=min(100, max(50, users / 5)))
        while not night.finished_at and time.monotonic() < night.stop_at + 60:
            gevent.sleep(1)
            gone = [server.name for server in servers if not server.alive()]
            if gone:
                night.errors.append(f"{', '.join(gone)} exited: see bench-results/night-*.log")
                break
        night.finished_at = night.finished_at or time.monotonic()
        cpu_end = (cpu_seconds(gunicorn.process.pid), cpu_seconds(celery.process.pid))
        nginx_end = cpu_seconds(proxy.process.pid)
        # Every request the clients made so far went through nginx (polls, hands, pages alike).
        requests = environment.stats.total.num_requests
        metered_end = read_cpu_meters(meters)
        clients_cpu = cpu_seconds(os.getpid(), children=False) - clients_start
        runner.quit()
        watcher.join(5)
        wall = night.finished_at - night.started
        nginx_errors = (folder / "error.log").read_text(errors="replace").splitlines()
    finally:
        for server in reversed(servers):
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)

    assert night is not None
    rows = stored_rows([night.slug])
    if not args.keep:
        drop_database(args.postgres, args.database)

    # -- the figures ----------------------------------------------------------------------
    acked = {(ack.table, ack.number) for ack in night.acks}
    lost, doubled, unacknowledged = lost_and_doubled(night.acks, rows)
    cold_end = night.started + args.cold
    entry_all = ms([ack.seconds for ack in night.acks])
    entry_cold = ms([ack.seconds for ack in night.acks if ack.at <= cold_end])
    entry_warm = ms([ack.seconds for ack in night.acks if ack.at > cold_end])
    phones_of: dict[int, list[int]] = defaultdict(list)
    for phone, team in night.phone_team.items():
        phones_of[team].append(phone)

    def delays(chosen: list[Ack]) -> tuple[list[float], int]:
        return visible_delays(
            # With fewer phones than teams, any phone shows the ranking.
            [(ack.at, [p for team in ack.teams for p in phones_of[team]] or list(night.phone_team)) for ack in chosen],
            night.samples,
            night.timelines,
        )

    visible_all, unseen = delays(night.acks)
    visible_cold, _unseen = delays([ack for ack in night.acks if ack.at <= cold_end])
    visible_warm, _unseen = delays([ack for ack in night.acks if ack.at > cold_end])
    ranking = night.polls.get("ranking", PollTally())
    poll_avg = ranking.bytes_per_poll
    served, rest_ms = cpu_by_kind(cpu_end[0] - cpu_start[0], metered_start, metered_end)

    def cpu_ms_per_poll(kind: str) -> float:
        return nightkit.cpu_ms_per_poll(served, rest_ms, kind)

    all_polls = sum(tally.polls for tally in night.polls.values())
    gunicorn_per_poll = polls_cpu_ms_per_poll(night.polls, served, rest_ms)
    nginx_per_request = per_request_ms(nginx_end - nginx_start, requests)

    hands = len(night.acks)
    cold_hands = len(entry_cold)
    cpu_mid = cpu_cold[0] if cpu_cold else cpu_end

    def per_hand(cpu_from: float, cpu_to: float, count: int) -> float:
        return (cpu_to - cpu_from) / count if count else float("nan")

    web_per_hand = per_hand(cpu_start[0], cpu_end[0], hands)
    worker_per_hand = per_hand(cpu_start[1], cpu_end[1], hands)

    def line(name: str, values: list[float]) -> str:
        figures = spread(values)
        return (
            f"{name:<34} n={figures['n']:>6}  p50={figures['p50']:8.1f} ms  p95={figures['p95']:8.1f} ms  "
            f"p99={figures['p99']:8.1f} ms"
        )

    print()
    print("locust's statistics (every request, over the whole night):")
    for text in locust_stats.get_stats_summary(environment.stats, current=False):
        print("  " + text)
    print()
    print(f"wall time of play                  {wall:.1f} s; rounds closed {night.rounds_closed} of {args.rounds}")
    print(
        f"hands acknowledged                 {hands} ({hands / wall:.1f}/s); network resends {night.retries}; "
        f"refused after the time was up (round closed by the director) {night.cut_short}"
    )
    print(line("entry (all)", entry_all))
    print(line(f"entry cold (first {args.cold:g} s)", entry_cold))
    if not entry_cold:
        print(f"  (no hand fell in the first {args.cold:g} s at this pace: the night has no cold figure)")
    print(line("entry warm", entry_warm))
    for number in sorted(night.round_tables):
        print(line(f"entry, round {number}", ms([ack.seconds for ack in night.acks if ack.round == number])))
    print(line("hand → visible on a phone (all)", ms(visible_all)))
    print(line("hand → visible, cold", ms(visible_cold)))
    print(line("hand → visible, warm", ms(visible_warm)))
    print(
        f"  (upper bound by ~{1000 * WATCH_SECONDS:.0f} ms and one refresh; {unseen} hands no phone saw before the "
        f"end; {len(night.samples)} watcher samples{'; watcher: ' + night.watch_error if night.watch_error else ''})"
    )
    for text in poll_table(night.polls, served, rest_ms):
        print(text)
    print(
        f"web CPU per poll                   gunicorn {gunicorn_per_poll:.3f} ms (its CPU on the polls it served, "
        f"every kind, over the {all_polls} polls the clients made, those nginx answered from a file included); "
        f"nginx {nginx_per_request:.3f} ms a request ({nginx_end - nginx_start:.1f} s over the {requests} "
        "requests the clients made, polls, pages and hands alike)"
    )
    print(
        f"CPU s per stored hand              web {web_per_hand:.3f}, worker {worker_per_hand:.3f} (whole night); "
        f"cold web {per_hand(cpu_start[0], cpu_mid[0], cold_hands):.3f} worker "
        f"{per_hand(cpu_start[1], cpu_mid[1], cold_hands):.3f}; warm web "
        f"{per_hand(cpu_mid[0], cpu_end[0], hands - cold_hands):.3f} worker "
        f"{per_hand(cpu_mid[1], cpu_end[1], hands - cold_hands):.3f}"
    )
    print(
        f"  (web: gunicorn serves the polls too; CPU in all: web {cpu_end[0] - cpu_start[0]:.1f} s, worker "
        f"{cpu_end[1] - cpu_start[1]:.1f} s; the clients, this process: {clients_cpu:.1f} s of the same cores)"
    )
    web_share, web_share_nginx = nightkit.web_shares(
        cpu_end[0] - cpu_start[0], cpu_end[1] - cpu_start[1], nginx_end - nginx_start
    )
    print(
        f"the web's share of the server's CPU {100 * web_share:.1f} % (gunicorn over gunicorn and the worker; "
        f"{100 * web_share_nginx:.1f} % with nginx counted as web)"
    )
    print(
        f"corrections                        {len(night.corrections)} stored "
        f"(p95 {percentile(ms(night.corrections), 0.95):.1f} ms), {len(night.corrections_refused)} refused"
    )
    for message in night.corrections_refused[:3]:
        print(f"  - {message}")
    print(
        f"lost / doubled                     {lost} / {doubled} "
        f"(acknowledged {len(acked)}, rows {sum(rows.values())}, stored but never acknowledged {unacknowledged})"
    )
    print(f"errors                             {len(night.errors)}")
    for message in night.errors[:10]:
        print(f"  - {message}")
    if nginx_errors:
        print(f"nginx's error log                  {len(nginx_errors)} lines, the last:")
        for text in nginx_errors[-5:]:
            print(f"  {text}")
    print(
        f"how it differs from a real night   {args.pace:g}× the pace; every phone and « Ma soirée » page polls "
        "from the start and never sleeps; one « Ma soirée » page per team opened by its link, none by the "
        "seat finder; the clients share the machine with nginx, gunicorn and the worker; loopback, no radio, "
        f"no TLS (nginx would also decrypt); nginx keeps no access log; {args.donnes} donnes a partie; the live "
        "ranking's files on this machine's disk (a site's volume may be slower), read by nginx at each poll; "
        "the Celery worker at nice 10; gunicorn's app in benchkit's CpuMeter"
        + f"; a phone opens the page of the ranking its team's number falls on ({PAGE_ROWS} rows a page past "
        f"{PAGE_ROWS} teams; a player would also turn pages)"
        + (
            f"; {args.phones:g} phone a team, spread over the field (a real room has one or two a team: each "
            "poll costs nginx the same file, the clients fewer)"
            if args.phones < 1
            else ""
        )
    )
    load_end = machine_load()
    print(f"==> at the start: {load_start}")
    print(f"==> at the end: {load_end}")
    entry = spread(entry_all)
    visible = spread(ms(visible_all))
    figures: dict[str, Any] = {
        "teams": args.teams,
        "nginx_workers": args.nginx_workers,
        "tables": tables,
        "rounds": args.rounds,
        "rounds_closed": night.rounds_closed,
        "donnes": args.donnes,
        "pace": args.pace,
        "hands": hands,
        "entry_p50_ms": entry["p50"],
        "entry_p95_ms": entry["p95"],
        "entry_p99_ms": entry["p99"],
        "entry_cold_p95_ms": spread(entry_cold)["p95"],
        "entry_warm_p95_ms": spread(entry_warm)["p95"],
        "visible_p50_ms": visible["p50"],
        "visible_p95_ms": visible["p95"],
        "visible_cold_p95_ms": spread(ms(visible_cold))["p95"],
        "visible_warm_p95_ms": spread(ms(visible_warm))["p95"],
        "poll_bytes_avg": poll_avg,
        "gunicorn_cpu_ms_per_poll": gunicorn_per_poll,
        "nginx_cpu_ms_per_poll": nginx_per_request,
        "polls_per_s": all_polls / wall if wall > 0 else float("nan"),
        "soirees": args.soirees * args.teams,
        "soiree_polls": night.polls.get("soirée", PollTally()).polls,
        "soiree_bytes_per_poll": night.polls.get("soirée", PollTally()).bytes_per_poll,
        "soiree_cpu_ms_per_poll": cpu_ms_per_poll("soirée"),
        "gunicorn_cpu_ms_outside_requests": rest_ms,
        "polls": poll_figures(night.polls, served, rest_ms),
        "web_cpu_s_per_hand": web_per_hand,
        "worker_cpu_s_per_hand": worker_per_hand,
        "web_cpu_share": web_share,
        "web_cpu_share_with_nginx": web_share_nginx,
        "clients_cpu_s": clients_cpu,
        "corrections": len(night.corrections),
        "lost": lost,
        "doubled": doubled,
        "errors": len(night.errors),
        "load_start": load_start,
        "reference_cpu_ms": reference_ms,
        "load_end": load_end,
        "cores": os.cpu_count() or 1,
    }
    print(summary_line(figures))
    ok = not lost and not doubled and not night.errors and night.rounds_closed == args.rounds
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
