"""A federation's Saturday on one site: many concours at once (40 of 20 to 300 teams, 4,000
teams in all by default) behind nginx, on two gunicorn nodes, a Celery worker, PostgreSQL
and Redis, driven by locust (headless, from Python) as bench/night.py drives one concours.

What it does, start to finish (it stops by itself and cleans up after itself):

1. draws the concours' sizes (`concours_sizes`: `--tournaments` sizes between
   `--min-teams` and `--max-teams`, even, summing to `--teams-total`, most of them small
   and a few big, as a Saturday's are);
2. creates a PostgreSQL database of its own (`atout_federation_bench` by default, dropped
   and created again), migrates it, and seeds a club per concours, each with its director
   (an API token) and its concours of N teams, all checked in (bench/nightkit.py's
   `seed`); flushes its Redis database (give it one of its own);
3. installs Debian's nginx with apt when it is missing (serving/nginx.py's
   `install_nginx`: `apt-get install -y nginx`, with `sudo -n` when not root, as
   scripts/setup.sh does; nothing else is downloaded), starts two gunicorn nodes
   (production's configuration file, the site's WSGI app in benchkit's CpuMeter, as
   bench/night.py starts one), a Celery worker, and nginx on a port of its own
   (bench/nightkit.py's `start_nginx`: serving/nginx.py's configuration in a temporary
   folder, its pid, logs and temporary files there; one upstream of the nodes' addresses;
   the live rankings' files, which the worker writes to a folder in it, ATOUT_LIVE_ROOT of
   the nodes and the worker, served by nginx itself as production's docker/nginx.conf does,
   with the same docker/nginx-live.conf);
4. plays every concours at once with bench/nightkit.py's users, every one of them through
   nginx: per concours a director (draws each round, hands the tables' secrets to the
   referees, corrects hands, closes the round and draws the next), a referee per table
   (a donne every REAL_DONNE_SECONDS / `--pace` seconds on average, with its secret, the
   donne it expects and an `Idempotency-Key`), `--phones` phones per team polling the
   live ranking's file as its htmx does (`If-Modified-Since` with the date of the file it
   shows, gzip) and `--projectors` projectors (the projector's file, its messages and its
   round clock); « Ma soirée » pages only when `--soirees` asks (none by default);
5. prints the figures, the machine's cores and load at the start and the end, how the run
   differs from a real Saturday, and last one JSON line.

The figures (bench/night.py's docstring says how each is read; here they are summed over
every concours):
- entry: `POST /api/v1/table/hands/` until its 2xx, p50/p95/p99, through nginx, cold and
  warm (the first `--cold` seconds and the rest);
- hand → visible on a polling phone, p50/p95: from the entry's 2xx to the first poll of
  one of its table's phones showing a ranking version built past the hand's ticket (the
  watcher samples every concours in one statement every WATCH_SECONDS);
- polls a second, all kinds together and by kind; bytes per poll by kind (as the clients
  read them off their connection to nginx: status line, headers and body as sent);
- web CPU per poll, nginx and gunicorn apart. gunicorn: the CpuMeter's CPU of each
  request by kind on both nodes, plus their CPU outside requests spread over every
  request (bench/night.py); `gunicorn_cpu_ms_per_poll` is its CPU on every poll it served,
  all kinds, over every poll the clients made (most of the rankings' nginx answered from
  their files). nginx: the CPU of its master and workers (user + system, from
  /proc/<pid>/stat through psutil) over the window, divided by every request the clients
  made (locust's count: every one went through nginx), a file served, a 304 or a request
  passed to a node alike, so one figure per request;
- lost and doubled (every acknowledged (table, donne) is one row, none missing, none
  twice) and errors (the directors' and referees' refusals, and a server that exited).

Run: `.venv/bin/python bench/federation.py` (PostgreSQL on 127.0.0.1:5432 as for the
tests, Redis on 127.0.0.1:6379; `--help` for the knobs; tiny:
`--tournaments 2 --teams-total 12 --min-teams 4 --max-teams 8 --rounds 1 --donnes 2`).
Exit status 0 when every acknowledged hand is stored exactly once, nothing was refused
and every concours played its rounds; 2 when a service or nginx is missing.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import sys
import tempfile
import time
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
    Night,
    celery_worker,
    cpu_by_kind,
    cpu_seconds,
    fresh_folder,
    gunicorn_node,
    live_folder,
    lost_and_doubled,
    merged_polls,
    more_files,
    ms,
    per_request_ms,
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

# The checkout before bench/ (where `python bench/federation.py` puts this folder first):
# the apps, not a bench of the same name (bench/ratings.py and the ratings app).
sys.path.insert(0, str(ROOT))

# The keys the last line always carries.
SUMMARY_KEYS = (
    "tournaments", "teams", "entry_p95_ms", "visible_p95_ms", "polls_per_s", "gunicorn_cpu_ms_per_poll",
    "nginx_cpu_ms_per_poll", "lost", "doubled", "errors",
)  # fmt: skip


# -- pure helpers (tests/site/test_bench_federation.py) -----------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=40, help="concours played at once")
    parser.add_argument("--teams-total", type=int, default=4000, help="teams in all the concours together")
    parser.add_argument("--min-teams", type=int, default=20, help="teams in the smallest concours possible")
    parser.add_argument("--max-teams", type=int, default=300, help="teams in the biggest concours possible")
    parser.add_argument("--rounds", type=int, default=3, help="rounds each concours plays")
    parser.add_argument("--donnes", type=int, default=12, help="donnes a partie")
    parser.add_argument(
        "--pace",
        type=float,
        default=10.0,
        help=f"multiple of a real night's pace (a donne per table every {REAL_DONNE_SECONDS:g} s)",
    )
    parser.add_argument("--duration", type=float, default=1800, help="seconds of play at most; then it stops")
    parser.add_argument("--cold", type=float, default=30, help="first seconds of play counted as cold")
    parser.add_argument(
        "--phones",
        type=float,
        default=2,
        help="phones polling the ranking, per team (a fraction: fewer, spread over the field)",
    )
    parser.add_argument("--soirees", type=int, default=0, help="« Ma soirée » pages open by the link, per team")
    parser.add_argument("--projectors", type=int, default=1, help="projectors per concours")
    parser.add_argument("--arrive", type=float, default=30, help="seconds over which phones open the page")
    parser.add_argument("--nodes", type=int, default=2, help="gunicorn nodes behind nginx")
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="gunicorn workers a node (default: production's, serving/gunicorn_conf.py)",
    )
    parser.add_argument("--threads", type=int, default=None, help="threads per gunicorn worker (default: production's)")
    parser.add_argument("--nginx-workers", default="auto", help="nginx's worker_processes (auto: one a core)")
    parser.add_argument("--database", default="atout_federation_bench")
    parser.add_argument(
        "--postgres", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/atout")
    )
    parser.add_argument(
        "--redis", default="redis://127.0.0.1:6379/13", help="Celery broker and cache (a database of its own: flushed)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the bench database afterwards")
    args = parser.parse_args(argv)
    if args.tournaments < 1:
        parser.error("--tournaments: at least 1")
    if args.min_teams < 4 or args.min_teams % 2 or args.max_teams % 2 or args.max_teams < args.min_teams:
        parser.error("--min-teams and --max-teams: even, at least 4, the smallest first")
    if (
        args.teams_total % 2
        or not args.tournaments * args.min_teams <= args.teams_total <= args.tournaments * args.max_teams
    ):
        parser.error(
            f"--teams-total: even, and between {args.tournaments} × {args.min_teams} and "
            f"{args.tournaments} × {args.max_teams} teams"
        )
    if args.rounds < 1 or args.donnes < 1 or args.nodes < 1:
        parser.error("--rounds, --donnes and --nodes: at least 1")
    if not args.pace > 0 or not math.isfinite(args.pace):
        parser.error("--pace: a positive number")
    if args.phones < 0 or args.soirees < 0 or args.projectors < 0 or args.arrive < 0:
        parser.error("--phones, --soirees, --projectors and --arrive: 0 or more")
    if args.nginx_workers != "auto" and not (args.nginx_workers.isdigit() and int(args.nginx_workers) > 0):
        parser.error("--nginx-workers: auto or a positive number")
    return args


def concours_sizes(count: int, total: int, low: int, high: int, rng: random.Random) -> list[int]:
    """`count` concours sizes, even, between `low` and `high` (even themselves), summing to
    `total` (even, between count × low and count × high).

    A Saturday has many small concours and a few big ones: each concours gets `low` teams
    and a share of the rest drawn from an exponential distribution, capped at `high` (what
    a cap leaves goes to the others), then rounded to pairs of teams, the last pairs
    added or taken where there is room."""
    pairs, low_pairs, high_pairs = total // 2, low // 2, high // 2
    weights = [rng.expovariate(1.0) for _ in range(count)]
    extra = [0.0] * count
    left = float(pairs - count * low_pairs)
    open_ = set(range(count))
    # Share what is left among the concours under the cap, until nothing is left or all are full.
    while left > 1e-9 and open_:
        weight = sum(weights[i] for i in open_)
        given = 0.0
        for i in sorted(open_):
            room = high_pairs - low_pairs - extra[i]
            share = min(room, left * weights[i] / weight)
            extra[i] += share
            given += share
            if room - share <= 1e-9:
                open_.discard(i)
        left -= given
    sizes = [low_pairs + int(share) for share in extra]
    # Rounding down left a few pairs out: to the concours with room, at random.
    order = list(range(count))
    while sum(sizes) < pairs:
        rng.shuffle(order)
        for i in order:
            if sizes[i] < high_pairs and sum(sizes) < pairs:
                sizes[i] += 1
    return [2 * size for size in sizes]


def summary_line(figures: dict[str, Any]) -> str:
    """The last line: one JSON object with at least SUMMARY_KEYS (NaN written as null)."""
    return nightkit.summary_line(figures, SUMMARY_KEYS)


# -- the run -----------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    # Celery's Django fix-up puts the working directory first on the path: the checkout's,
    # not bench/ (whose ratings.py would hide the ratings app).
    os.chdir(ROOT)
    # bench/night.py says why: numeric loopback addresses, no resolver's thread pool.
    os.environ.setdefault("GEVENT_RESOLVER", "block")
    # locust patches the standard library for gevent: before Django opens anything.
    import gevent
    from locust import stats as locust_stats
    from locust.env import Environment

    ready = nightkit.preflight("federation", args.postgres, args.redis)
    if ready is None:
        return 2
    load_start, reference_ms = ready
    from serving.nginx import install_nginx

    try:
        nginx = install_nginx()
    except RuntimeError as error:
        print(f"federation needs nginx: {error}", file=sys.stderr)
        return 2
    files = more_files()
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    rng = random.Random(args.seed)
    sizes = concours_sizes(args.tournaments, args.teams_total, args.min_teams, args.max_teams, rng)
    results = ROOT / "bench-results"
    results.mkdir(exist_ok=True)
    url = database_url(args.postgres, args.database)
    # nginx's folder, and in it the live ranking's files: the worker writes them, nginx serves them.
    folder = Path(tempfile.mkdtemp(prefix="atout-nginx-"))
    live_root = live_folder(folder)
    # gunicorn behind nginx on this machine: X-Forwarded-For believed from it alone.
    env = {**server_env(url, args.redis), "TRUSTED_PROXIES": "127.0.0.1", "ATOUT_LIVE_ROOT": str(live_root)}
    servers: list[Server] = []
    nights: list[Night] = []
    try:
        print(
            f"==> database {args.database}: migrating and seeding {len(sizes)} concours, {sum(sizes)} teams "
            f"(sizes {min(sizes)} to {max(sizes)}, median {sorted(sizes)[len(sizes) // 2]})"
        )
        prepare_database(args.postgres, args.database, env)
        seeded = seed(env, sizes, args.rounds, args.donnes)
        meters = fresh_folder(results / "federation-cpu")
        sites = [free_port() for _ in range(args.nodes)]
        nodes = [
            gunicorn_node(
                env,
                name=f"gunicorn node {n + 1}",
                port=sites[n],
                meters=meters,
                log=results / f"federation-gunicorn-{n + 1}.log",
                workers=args.workers,
                threads=args.threads,
            )
            for n in range(args.nodes)
        ]
        servers.extend(nodes)
        celery = celery_worker(env, results / "federation-celery.log")
        servers.append(celery)
        for node, port in zip(nodes, sites, strict=True):
            wait_ready(node, port)
        port = free_port()
        proxy = start_nginx(
            nginx, folder, port=port, sites=sites, live_root=live_root, workers=args.nginx_workers, files=files,
            env=env, log=results / "federation-nginx.log",
        )  # fmt: skip
        servers.append(proxy)
        wait_ready(proxy, port)
        print(
            f"==> nginx ({nginx}, {args.nginx_workers} workers) on 127.0.0.1:{port}, serving the live rankings' "
            f"files from {live_root}, in front of {args.nodes} gunicorn nodes (serving/gunicorn_conf.py, "
            f"{args.workers or 'default'} workers each); a Celery worker on {args.redis}"
        )

        nights = [
            Night(args=args, slug=one.slug, api_key=one.api_key, teams=teams, soiree_tokens=one.links)
            for one, teams in zip(seeded, sizes, strict=True)
        ]
        classes = user_classes(nights)
        tables = sum(night.tables for night in nights)
        teams = sum(sizes)
        phones = sum(nightkit.phones_of_night(args.phones, night.teams) for night in nights)
        users = len(nights) * (1 + args.projectors) + tables + phones + args.soirees * teams
        print(
            f"==> {len(nights)} concours, {args.rounds} rounds of {args.donnes} donnes at {tables} tables; pace "
            f"{args.pace:g}× a real night (a donne per table every {think_seconds(args.pace):.1f} s on average, "
            f"{tables / think_seconds(args.pace):.1f} hands/s in all); {phones} phones on the rankings, "
            f"{args.soirees * teams} on « Ma soirée », {args.projectors * len(nights)} projectors, "
            f"{len(nights)} directors ({users} locust users, up to {files} open files)"
        )
        environment = Environment(user_classes=classes, host=f"http://127.0.0.1:{port}")
        runner = environment.create_local_runner()
        started = time.monotonic()
        for night in nights:
            night.started = started

        def web_cpu() -> tuple[float, float, float]:
            """gunicorn's nodes, nginx, the Celery worker: CPU seconds so far."""
            return (
                sum(cpu_seconds(node.process.pid) for node in nodes),
                cpu_seconds(proxy.process.pid),
                cpu_seconds(celery.process.pid),
            )

        cpu_start = web_cpu()
        metered_start = read_cpu_meters(meters)
        clients_start = cpu_seconds(os.getpid(), children=False)
        watcher = gevent.spawn(watch, nights)
        runner.start(users, spawn_rate=max(100, users / 10))
        stop_at = started + args.duration
        while not all(night.finished_at for night in nights) and time.monotonic() < stop_at + 60:
            gevent.sleep(1)
            gone = [server.name for server in servers if not server.alive()]
            if gone:
                nights[0].errors.append(f"{', '.join(gone)} exited: see bench-results/federation-*.log")
                break
        ended = time.monotonic()
        for night in nights:
            night.finished_at = night.finished_at or ended
        cpu_end = web_cpu()
        # Every request the clients made so far went through nginx (polls, hands, pages alike).
        requests = environment.stats.total.num_requests
        metered_end = read_cpu_meters(meters)
        clients_cpu = cpu_seconds(os.getpid(), children=False) - clients_start
        runner.quit()
        watcher.join(5)
        wall = ended - started
        nginx_errors = (folder / "error.log").read_text(errors="replace").splitlines()
    finally:
        for server in reversed(servers):
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)

    rows = stored_rows([night.slug for night in nights])
    if not args.keep:
        drop_database(args.postgres, args.database)
    return report(
        args, nights, sizes, rows, wall=wall, cpu=(cpu_start, cpu_end), metered=(metered_start, metered_end),
        requests=requests, clients_cpu=clients_cpu, nginx_errors=nginx_errors, load_start=load_start,
        reference_ms=reference_ms, stats=locust_stats.get_stats_summary(environment.stats, current=False),
    )  # fmt: skip


def report(
    args: argparse.Namespace, nights: Sequence[Night], sizes: Sequence[int], rows: dict[tuple[str, int], int], *,
    wall: float, cpu: tuple[tuple[float, float, float], tuple[float, float, float]],
    metered: tuple[dict[str, tuple[int, float]], dict[str, tuple[int, float]]], requests: int, clients_cpu: float,
    nginx_errors: list[str], load_start: str, reference_ms: float, stats: list[str],
) -> int:  # fmt: skip
    """Print the figures and the last line; the exit status."""
    (web_start, nginx_start, worker_start), (web_end, nginx_end, worker_end) = cpu
    acks = [ack for night in nights for ack in night.acks]
    errors = [message for night in nights for message in night.errors]
    lost, doubled, unacknowledged = lost_and_doubled(acks, rows)
    cold_end = nights[0].started + args.cold
    entry_all = ms([ack.seconds for ack in acks])
    entry_cold = ms([ack.seconds for ack in acks if ack.at <= cold_end])
    entry_warm = ms([ack.seconds for ack in acks if ack.at > cold_end])
    visible: list[float] = []
    unseen = 0
    for night in nights:
        phones_of: dict[int, list[int]] = {}
        for phone, team in night.phone_team.items():
            phones_of.setdefault(team, []).append(phone)
        delays, missed = visible_delays(
            # With fewer phones than teams, any phone of the concours shows its ranking.
            [
                (ack.at, [p for team in ack.teams for p in phones_of.get(team, [])] or list(night.phone_team))
                for ack in night.acks
            ],
            night.samples,
            night.timelines,
        )
        visible += delays
        unseen += missed
    polls = merged_polls(nights)
    served, rest_ms = cpu_by_kind(web_end - web_start, *metered)
    passed = sum(count for count, _ms in served.values())
    nginx_ms = per_request_ms(nginx_end - nginx_start, requests)
    all_polls = sum(tally.polls for tally in polls.values())
    gunicorn_per_poll = polls_cpu_ms_per_poll(polls, served, rest_ms)
    ranking = polls.get("ranking", nightkit.PollTally())
    hands = len(acks)
    rounds_closed = sum(night.rounds_closed for night in nights)
    corrections = [seconds for night in nights for seconds in night.corrections]
    refused = [message for night in nights for message in night.corrections_refused]

    def line(name: str, values: list[float]) -> str:
        figures = spread(values)
        return (
            f"{name:<34} n={figures['n']:>6}  p50={figures['p50']:8.1f} ms  p95={figures['p95']:8.1f} ms  "
            f"p99={figures['p99']:8.1f} ms"
        )

    print()
    print("locust's statistics (every request, over the whole run):")
    for text in stats:
        print("  " + text)
    print()
    print(
        f"concours                           {len(nights)} of {min(sizes)} to {max(sizes)} teams, {sum(sizes)} in all; "
        f"rounds closed {rounds_closed} of {args.rounds * len(nights)}"
    )
    print(f"wall time of play                  {wall:.1f} s")
    print(
        f"hands acknowledged                 {hands} ({hands / wall:.1f}/s); network resends "
        f"{sum(night.retries for night in nights)}; refused after the time was up (round closed by its "
        f"director) {sum(night.cut_short for night in nights)}"
    )
    print(line("entry (all, through nginx)", entry_all))
    print(line(f"entry cold (first {args.cold:g} s)", entry_cold))
    print(line("entry warm", entry_warm))
    print(line("hand → visible on a phone", ms(visible)))
    print(
        f"  (upper bound by ~{1000 * WATCH_SECONDS:.0f} ms and one refresh; {unseen} hands no phone saw before the "
        f"end; {sum(len(night.samples) for night in nights)} watcher samples"
        f"{'; watcher: ' + nights[0].watch_error if nights[0].watch_error else ''})"
    )
    print(
        f"polls a second                     {all_polls / wall:.1f} "
        f"(all kinds; {ranking.polls / wall:.1f} the phones' ranking)"
    )
    for text in poll_table(polls, served, rest_ms):
        print(text)
    print(
        f"web CPU per poll                   gunicorn {gunicorn_per_poll:.3f} ms (its CPU on the polls it served, "
        f"every kind, over the {all_polls} polls the clients made, those nginx answered from a file included); "
        f"nginx {nginx_ms:.3f} ms a request ({nginx_end - nginx_start:.1f} s over the {requests} requests the "
        f"clients made, polls, pages and hands alike; {passed} of them passed to gunicorn)"
    )
    print(
        f"CPU in all                         gunicorn's {args.nodes} nodes {web_end - web_start:.1f} s, nginx "
        f"{nginx_end - nginx_start:.1f} s, the Celery worker {worker_end - worker_start:.1f} s, the clients (this "
        f"process) {clients_cpu:.1f} s, of {os.cpu_count() or 1} cores × {wall:.0f} s"
    )
    print(
        f"corrections                        {len(corrections)} stored "
        f"(p95 {percentile(ms(corrections), 0.95):.1f} ms), {len(refused)} refused"
    )
    for message in refused[:3]:
        print(f"  - {message}")
    print(
        f"lost / doubled                     {lost} / {doubled} "
        f"(acknowledged {len({(a.table, a.number) for a in acks})}, "
        f"rows {sum(rows.values())}, stored but never acknowledged {unacknowledged})"
    )
    print(f"errors                             {len(errors)}")
    for message in errors[:10]:
        print(f"  - {message}")
    if nginx_errors:
        print(f"nginx's error log                  {len(nginx_errors)} lines, the last:")
        for text in nginx_errors[-5:]:
            print(f"  {text}")
    print(
        f"how it differs from a real Saturday  {args.pace:g}× the pace; every concours starts in the same second "
        "and plays the same number of rounds (a Saturday's concours start over the afternoon and play their own "
        "number of rounds); every "
        "phone polls from the start and never sleeps; the two gunicorn nodes, nginx, PostgreSQL, Redis, the "
        "Celery worker and the clients share this one machine's cores (a site would give the nodes machines of "
        "their own); loopback, no radio, no TLS (nginx would also decrypt); no access log; no static files asked "
        "(a phone's browser caches them); the live rankings' files on this machine's disk (a site's volume may "
        "be slower); "
        f"{args.donnes} donnes a partie; the Celery worker at nice 10, one for every concours"
        + f"; a phone opens the page of the ranking its team's number falls on ({PAGE_ROWS} rows a page past "
        f"{PAGE_ROWS} teams; a player would also turn pages)"
        + (
            f"; {args.phones:g} phone a team, spread over the field (a real Saturday has one or two a team: "
            "each poll costs nginx the same file, the clients fewer)"
            if args.phones < 1
            else ""
        )
    )
    load_end = machine_load()
    print(f"==> at the start: {load_start}")
    print(f"==> at the end: {load_end}")
    entry = spread(entry_all)
    shown = spread(ms(visible))
    figures: dict[str, Any] = {
        "tournaments": len(nights),
        "teams": sum(sizes),
        "sizes": list(sizes),
        "tables": sum(night.tables for night in nights),
        "nodes": args.nodes,
        "rounds": args.rounds,
        "rounds_closed": rounds_closed,
        "donnes": args.donnes,
        "pace": args.pace,
        "wall_s": wall,
        "hands": hands,
        "entry_p50_ms": entry["p50"],
        "entry_p95_ms": entry["p95"],
        "entry_p99_ms": entry["p99"],
        "entry_cold_p95_ms": spread(entry_cold)["p95"],
        "entry_warm_p95_ms": spread(entry_warm)["p95"],
        "visible_p50_ms": shown["p50"],
        "visible_p95_ms": shown["p95"],
        "unseen": unseen,
        "polls_per_s": all_polls / wall if wall > 0 else float("nan"),
        "ranking_polls_per_s": ranking.polls / wall if wall > 0 else float("nan"),
        "poll_bytes_avg": ranking.bytes_per_poll,
        "gunicorn_cpu_ms_per_poll": gunicorn_per_poll,
        "gunicorn_cpu_ms_outside_requests": rest_ms,
        "nginx_cpu_ms_per_poll": nginx_ms,
        "polls": poll_figures(polls, served, rest_ms),
        "web_cpu_s": web_end - web_start,
        "nginx_cpu_s": nginx_end - nginx_start,
        "worker_cpu_s": worker_end - worker_start,
        "clients_cpu_s": clients_cpu,
        "cut_short": sum(night.cut_short for night in nights),
        "corrections": len(corrections),
        "lost": lost,
        "doubled": doubled,
        "errors": len(errors),
        "load_start": load_start,
        "load_end": load_end,
        "reference_cpu_ms": reference_ms,
        "cores": os.cpu_count() or 1,
    }
    print(summary_line(figures))
    ok = not lost and not doubled and not errors and rounds_closed == args.rounds * len(nights)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
