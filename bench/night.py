"""A night at the club: a belote concours of N teams over several rounds, on the
production stack, driven by locust (headless, from Python).

What it does, start to finish (it stops by itself and cleans up after itself):

1. creates a PostgreSQL database of its own (`atout_night_bench` by default, dropped and
   created again), migrates it, and seeds a club, its organiser (with an API token) and a
   belote concours of N teams, all checked in; flushes its Redis database (give it one of
   its own);
2. starts gunicorn on 127.0.0.1 with DEBUG off, as in production (benchkit's
   environment, as bench/entry_load.py; production's configuration file, the site's WSGI
   app inside benchkit's CpuMeter, below), and a Celery worker on Redis that rebuilds the
   ranking as hands come in;
3. plays the night with locust's library API (`locust.env.Environment`, a local runner,
   its request statistics), everyone over HTTP on loopback:
   - the director (one user) draws each round through the API, hands each table's secret
     to its referee, corrects hands meanwhile (`PUT …/hands/<n>/`, a new random donne and
     a reason), closes the round once every partie is over and draws the next one;
   - one referee per table enters the donnes through the path the scoring app uses:
     `POST /api/v1/table/hands/` with the table's secret (`X-Table-Token`), the donne it
     expects and a fresh `Idempotency-Key` (sent again, same key, when the network lets
     go), with valid random hands from the engine (`random_hand`);
   - two phones per team open the ranking and poll its partial as the page's htmx does
     (`HX-Request`, `HX-Target`, `HX-Current-URL`, `If-None-Match` with the ETag it was
     drawn with, `Accept-Encoding: gzip` like a browser), every `hx-trigger` seconds;
   - one phone per team (`--soirees`) opens its « Ma soirée » page by the personal link
     (`/soiree/<token>/`, Competitor.link_token) and polls it the same way: the live part
     (its own address, with the ETag of its `hx-headers`, 304 until the competitor's night
     moves) every 3 s and the director's messages (`/soiree/<token>/screen/`,
     tournaments/screens.py) every 10 s;
   - four projectors poll the projector's partial the same way, and its messages
     (`/t/<slug>/screen/`) and round clock (`/t/<slug>/clock/`, at load and every 30 s);
   each page's polled parts, addresses, periods and first ETags are read from the page
   as served (`polled_parts`), as htmx reads them;
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
  version a poll shows is read from its ETag. Which version includes a hand is read from
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
- gunicorn's CPU per poll, by kind. gunicorn's processes serve the hands and every kind
  of poll alike, so their whole CPU says nothing of one kind. Its workers run the site
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
- CPU seconds per stored hand, for gunicorn (the master and its workers) and the Celery
  worker apart (psutil, user + system), cold and warm;
- lost and doubled: every acknowledged (table, donne) must be one row of scoring_hand,
  none missing, none twice; errors: the director's and the referees' refusals, and every
  « Ma soirée » page or poll answered neither 200 nor 304 (a failed poll of the ranking
  or a projector is counted beside its kind, as before, not as an error).

The last line carries, beside the night's figures, `gunicorn_cpu_ms_per_poll` (the
phones' ranking polls), `soiree_bytes_per_poll` and `soiree_cpu_ms_per_poll`, and
`polls`: each kind's counts, bytes and CPU per poll.

How it differs from a real night: the pace is `--pace` times a real one, so the ranking
moves `--pace` times as often per poll, and « Ma soirée », whose ETag moves with the
ranking's version, is drawn again (a 200) `--pace` times as often; every phone and every
« Ma soirée » page polls from the first second (in a real night phones come and go and
sleep, and not every team opens its page); each « Ma soirée » is opened by its personal
link, none by the seat finder's public address (the same page, found by the tournament's
public pages instead of the link); all clients share the machine with the server
(the load generator takes CPU from gunicorn, PostgreSQL and the worker: the phones, the
« Ma soirée » pages and the projectors therefore speak HTTP through a bare socket each,
`raw_get`, counted in
locust's statistics all the same, while the referees and the director use locust's
FastHttpUser); loopback has no
latency or loss; partie length is `--donnes` donnes (a real concours often plays 12 or
to a score); the director corrects a hand every REAL_CORRECTION_SECONDS / pace seconds;
there is no proxy: the phones and projectors send the ranking's and the projector's htmx
polls to gunicorn's polls' address (GUNICORN_POLL_BIND) themselves, as the proxy of
docs/operating.md ("Polls apart") would, and every other poll (« Ma soirée », the
messages, the clock) to the site's address, as that proxy does too (`polled_apart`),
unless `--polls-together` puts them all in the site's queue with the hands; the Celery worker
runs at `nice 10` (production's compose gives it a container of its own, at the same
priority as the site), so that on these shared cores the refresh yields to the entries.

Run: `.venv/bin/python bench/night.py --teams 300` (PostgreSQL on 127.0.0.1:5432 as for
the tests, Redis on 127.0.0.1:6379; `--help` for the knobs). Exit status 0 when every
acknowledged hand is stored exactly once and every round was played.
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import gzip
import html
import json
import math
import os
import random
import re
import socket
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from benchkit import (
    CPU_METER_DIR,
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
    read_cpu_meters,
    recreate_database,
    redis_answers,
    reference_cpu_ms,
    request_kind,
    server_env,
    start_django,
    wait_ready,
)

# The checkout before bench/ (where `python bench/night.py` puts this folder first): the
# apps, not a bench of the same name (bench/ratings.py and the ratings app).
sys.path.insert(0, str(ROOT))

# A real night: a donne per table about every two to three minutes.
REAL_DONNE_SECONDS = 150.0
# A busy director corrects about one hand every two minutes of a real night.
REAL_CORRECTION_SECONDS = 120.0
# The watcher's period: the bound on the error of "hand → visible".
WATCH_SECONDS = 0.05
# The keys the last line always carries.
SUMMARY_KEYS = ("teams", "entry_p95_ms", "visible_p95_ms", "poll_bytes_avg", "lost", "doubled")
VERSION_IN_ETAG = re.compile(r"ranking-\d+-(\d+)-")
# An element of a page that htmx polls: its opening tag (attributes hold no ">": the
# templates escape their values), and in it the attributes read here.
POLLED_TAG = re.compile(r"<[a-z][a-z0-9]*\s[^>]*\bhx-trigger=\"[^\"]*\bevery\b[^>]*>")
TAG_ATTRIBUTE = re.compile(r'\s([a-z-]+)=(?:"([^"]*)"|\'([^\']*)\')')
EVERY = re.compile(r"\bevery (\d+(?:\.\d+)?)s\b")
# The htmx polls a proxy sends to the polls' address (docs/operating.md, "Polls apart": its
# nginx `location`): the live ranking's and the projector's; every other one goes to the site's.
POLLED_APART = re.compile(r"/t/[^/]+/(?:projector/)?")
# The kinds of poll (benchkit.REQUEST_KINDS), in the order they are printed: who polls
# them, and their name in the last line.
POLL_KINDS = {
    "ranking": ("phones' ranking", "ranking"),
    "soirée": ("« Ma soirée »", "soiree"),
    "soirée screen": ("« Ma soirée »'s messages", "soiree_screen"),
    "projector": ("projectors' ranking", "projector"),
    "screen": ("projectors' messages", "screen"),
    "clock": ("projectors' clock", "clock"),
}


# -- pure helpers (tests/site/test_bench_night.py) ----------------------------------------


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
    parser.add_argument("--phones", type=int, default=2, help="phones polling the ranking, per team")
    parser.add_argument(
        "--soirees", type=int, default=1, help="« Ma soirée » pages open by the personal link, per team"
    )
    parser.add_argument("--arrive", type=float, default=30, help="seconds over which phones open the page")
    parser.add_argument("--projectors", type=int, default=4)
    parser.add_argument(
        "--workers", type=int, default=None, help="gunicorn workers (default: production's, serving/gunicorn_conf.py)"
    )
    parser.add_argument("--threads", type=int, default=None, help="threads per gunicorn worker (default: production's)")
    parser.add_argument(
        "--polls-together",
        action="store_true",
        help="polls on the site's address, in the same queue as the hands (default: apart, on GUNICORN_POLL_BIND, "
        "as the proxy of docs/operating.md sends them)",
    )
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
    return args


def think_seconds(pace: float) -> float:
    """A referee's mean wait between two donnes at `pace` times a real night."""
    return REAL_DONNE_SECONDS / pace


def etag_version(etag: str | None) -> int | None:
    """The ranking version an ETag of the ranking's partial names (None when it names none)."""
    found = VERSION_IN_ETAG.search(etag or "")
    return int(found.group(1)) if found else None


@dataclass
class PolledPart:
    """A part of a page that htmx polls: its kind (benchkit.request_kind), address, id
    (htmx's HX-Target), period, the ETag its hx-headers send, whether it also fires at load."""

    kind: str
    path: str
    target: str
    seconds: float
    etag: str
    at_load: bool


def polled_parts(page: str) -> dict[str, PolledPart]:
    """The parts of a page that poll (an `hx-get` with an `hx-trigger` "every Ns"), by kind."""
    found: dict[str, PolledPart] = {}
    for tag in POLLED_TAG.finditer(page):
        attributes = {
            name: html.unescape(double or single)
            for name, double, single in TAG_ATTRIBUTE.findall(tag.group(0).replace("\n", " "))
        }
        trigger = attributes.get("hx-trigger", "")
        every = EVERY.search(trigger)
        path = attributes.get("hx-get", "")
        if not every or not path:
            continue
        try:
            sent = json.loads(attributes.get("hx-headers") or "{}")
        except ValueError:
            sent = {}
        etag = str(sent.get("If-None-Match", "")) if isinstance(sent, dict) else ""
        kind = request_kind("GET", urlsplit(path).path, True)
        at_load = "load" in (part.strip() for part in trigger.split(","))
        found.setdefault(kind, PolledPart(kind, path, attributes.get("id", ""), float(every.group(1)), etag, at_load))
    return found


def polled_apart(path: str) -> bool:
    """Whether a proxy as docs/operating.md's sends this htmx poll to the polls' address."""
    return bool(POLLED_APART.fullmatch(urlsplit(path).path))


def poll_headers(part: PolledPart, url: str) -> dict[str, str]:
    """What htmx sends for a poll of `part` from the page at `url` (its hx-headers included)."""
    headers = {"HX-Request": "true", "HX-Current-URL": url}
    if part.target:
        headers["HX-Target"] = headers["HX-Trigger"] = part.target
    headers.update({"Accept": "*/*", "Accept-Language": "fr-FR,fr;q=0.9", "Accept-Encoding": "gzip, deflate, br"})
    if part.etag:
        headers["If-None-Match"] = part.etag
    return headers


def ms(values: Sequence[float]) -> list[float]:
    return [1000 * value for value in values]


def spread(values_ms: Sequence[float]) -> dict[str, float | int]:
    ordered = list(values_ms)
    return {
        "n": len(ordered),
        "p50": percentile(ordered, 0.50),
        "p95": percentile(ordered, 0.95),
        "p99": percentile(ordered, 0.99),
    }


def visible_delays(
    acks: Sequence[tuple[float, Sequence[int]]],
    samples: Sequence[tuple[float, int, int, int]],
    timelines: dict[int, Sequence[tuple[float, int]]],
) -> tuple[list[float], int]:
    """Seconds from each entry's 2xx to the first poll of one of its phones that shows it.

    `acks`: (time of the 2xx, the phones of the table's teams); `samples`: the watcher's
    (time the statement started, requested, built, newest version), in time order;
    `timelines`: per phone, (time a poll answered, the version it showed) each time the
    version moved, in time order. Returns the delays and how many hands no phone saw.
    """
    starts = [sample[0] for sample in samples]
    builts = [sample[2] for sample in samples]
    # Per phone, the highest version shown so far (a poll answered by another web
    # process may show an older one for a moment): the first poll showing at least V is
    # then a bisection.
    shown: dict[int, tuple[list[float], list[int]]] = {}
    for phone, line in timelines.items():
        moments, highest, best = [], [], -1
        for moment, version in line:
            best = max(best, version)
            moments.append(moment)
            highest.append(best)
        shown[phone] = (moments, highest)
    delays: list[float] = []
    unseen = 0
    for acked, phones in acks:
        after = bisect.bisect_right(starts, acked)
        if after == len(samples):
            unseen += 1
            continue
        ticket = samples[after][1]
        covering = bisect.bisect_left(builts, ticket)
        if covering == len(samples):
            unseen += 1
            continue
        version = samples[covering][3]
        seen = []
        for phone in phones:
            moments, highest = shown.get(phone, ([], []))
            first = bisect.bisect_left(highest, version)
            if first < len(moments):
                seen.append(moments[first])
        if not seen:
            unseen += 1
            continue
        delays.append(max(0.0, min(seen) - acked))
    return delays, unseen


def cpu_by_kind(
    web_seconds: float, before: dict[str, tuple[int, float]], after: dict[str, tuple[int, float]]
) -> tuple[dict[str, tuple[int, float]], float]:
    """The web's CPU over a window, by kind of request, from gunicorn's whole CPU over it
    (`web_seconds`) and benchkit's CpuMeter totals at its start and end (`before`, `after`:
    kind → requests, CPU s in them). Returns, by kind, the requests and the CPU ms each one
    took in the request (a mean), and the rest of gunicorn's CPU (accepting and reading
    requests, its master, its idle loop) spread evenly over every request of the window, in ms."""
    counted: dict[str, tuple[int, float]] = {}
    inside = 0.0
    requests = 0
    for kind, (count, seconds) in after.items():
        count -= before.get(kind, (0, 0.0))[0]
        seconds -= before.get(kind, (0, 0.0))[1]
        if count <= 0:
            continue
        counted[kind] = (count, 1000 * seconds / count)
        inside += seconds
        requests += count
    rest = 1000 * max(0.0, web_seconds - inside) / requests if requests else float("nan")
    return counted, rest


def summary_line(figures: dict[str, Any]) -> str:
    """The last line: one JSON object with at least SUMMARY_KEYS (NaN written as null)."""
    missing = [key for key in SUMMARY_KEYS if key not in figures]
    if missing:
        raise KeyError(f"missing figures: {', '.join(missing)}")

    def plain(value: Any) -> Any:
        if isinstance(value, float):
            return None if not math.isfinite(value) else round(value, 3)
        if isinstance(value, dict):
            return {key: plain(item) for key, item in value.items()}
        return value

    return json.dumps({key: plain(value) for key, value in figures.items()}, sort_keys=False)


# -- the night's shared state ------------------------------------------------------------


@dataclass
class Slot:
    number: int
    token: str
    teams: tuple[int, ...]


@dataclass
class Ack:
    at: float
    seconds: float
    round: int
    table: str
    number: int
    teams: tuple[int, ...]
    cancelled: bool = False


@dataclass
class PollTally:
    """The polls of one kind as their clients read them: how many, by status, the bytes on the wire."""

    polls: int = 0
    status: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    wire: int = 0

    def add(self, status: int, wire: int) -> None:
        self.polls += 1
        self.status[status] += 1
        self.wire += wire

    @property
    def failed(self) -> int:
        """Polls answered neither 200 nor 304 (0: no answer at all)."""
        return self.polls - self.status.get(200, 0) - self.status.get(304, 0)

    @property
    def bytes_per_poll(self) -> float:
        return self.wire / self.polls if self.polls else float("nan")


@dataclass
class Night:
    args: argparse.Namespace
    slug: str
    api_key: str
    # Where the phones and projectors poll (GUNICORN_POLL_BIND), None: the site's address.
    poll_port: int | None = None
    round_tables: dict[int, list[Slot]] = field(default_factory=dict)
    done: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    acks: list[Ack] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    retries: int = 0
    corrections: list[float] = field(default_factory=list)
    corrections_refused: list[str] = field(default_factory=list)
    timelines: dict[int, list[tuple[float, int]]] = field(default_factory=dict)
    phone_team: dict[int, int] = field(default_factory=dict)
    # Each competitor's « Ma soirée » link, by its number.
    soiree_tokens: dict[int, str] = field(default_factory=dict)
    polls: dict[str, PollTally] = field(default_factory=dict)
    samples: list[tuple[float, int, int, int]] = field(default_factory=list)
    watch_error: str = ""
    rounds_closed: int = 0
    started: float = 0.0
    finished_at: float = 0.0
    counters: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def tally(self, kind: str, answer: Answer) -> None:
        """Count a poll of `kind` as its client read it."""
        self.polls.setdefault(kind, PollTally()).add(answer.status_code, answer.wire)

    def next_index(self, kind: str) -> int:
        index = self.counters[kind]
        self.counters[kind] += 1
        return index

    @property
    def stop_at(self) -> float:
        return self.started + self.args.duration


@dataclass
class Answer:
    """One HTTP answer as a phone's client read it: the body as sent (still compressed)."""

    status_code: int
    headers: dict[str, str]
    content: bytes
    wire: int

    @property
    def text(self) -> str:
        body = self.content
        if self.headers.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        return body.decode("utf-8", "replace")


def read_answer(raw: bytes) -> Answer:
    """An HTTP/1.1 answer read to the end of the connection: status, headers (lower-case
    names), the body as sent and the bytes on the wire (status line, headers and body)."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Answer(status, headers, body, len(raw))


def raw_get(host: str, port: int, path: str, headers: dict[str, str], timeout: float = 60.0) -> Answer:
    """A GET on a connection of its own, read until the server closes it (gunicorn's sync
    workers close after each answer, `Connection: close` asks it anyway).

    The phones' client: thousands of pollers cost the load generator a socket and a few
    string operations each, not a full HTTP library's work, so that the clients, which
    share the machine with the server, take less of it. (A real phone's client is another
    device altogether.)
    """
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    chunks = []
    with socket.create_connection((host, port), timeout=timeout) as connection:
        connection.sendall(request)
        while True:
            data = connection.recv(65536)
            if not data:
                break
            chunks.append(data)
    return read_answer(b"".join(chunks))


# -- the users (locust) ------------------------------------------------------------------


def user_classes(night: Night, tables: int) -> list[type]:
    """The night's locust users; locust (and gevent) imported here, not at the module's import."""
    import gevent
    from locust import User, constant, constant_pacing, task
    from locust.contrib.fasthttp import FastHttpUser
    from locust.exception import StopUser

    from engine import get_game

    game = get_game("belote_classique")
    args = night.args
    think = think_seconds(args.pace)
    organiser = {"Authorization": f"Token {night.api_key}", "Accept": "application/json"}
    api = f"/api/v1/tournaments/{night.slug}/"

    def out_of_time() -> bool:
        return time.monotonic() > night.stop_at

    class Director(FastHttpUser):
        fixed_count = 1
        wait_time = constant(0)

        def on_start(self) -> None:
            self.rng = random.Random(args.seed)
            self.every = REAL_CORRECTION_SECONDS / args.pace

        def _ok(self, response: Any, what: str, *expected: int) -> bool:
            if response.status_code in expected:
                return True
            night.errors.append(f"director: {what}: {response.status_code} {(response.text or '')[:200]}")
            return False

        def correct(self, number: int) -> None:
            # A played donne corrected into another played one: a redeal made a played
            # donne (or the reverse) would move the end of the partie under the referee.
            mine = [ack for ack in night.acks if ack.round == number and not ack.cancelled]
            if not mine:
                return
            ack = self.rng.choice(mine)
            slot = next(slot for slot in night.round_tables[number] if slot.token == ack.table)
            raw = game.random_hand(self.rng)
            while raw.get("cancelled"):
                raw = game.random_hand(self.rng)
            body = {"raw": raw, "reason": "Feuille relue par l'arbitre"}
            started = time.perf_counter()
            response = self.client.put(
                f"{api}rounds/{number}/tables/{slot.number}/hands/{ack.number}/",
                json=body, headers=organiser, name="director: correct a hand",
            )  # fmt: skip
            if response.status_code == 200:
                night.corrections.append(time.perf_counter() - started)
            else:
                night.corrections_refused.append(f"{response.status_code} {(response.text or '')[:120]}")

        @task
        def run_the_night(self) -> None:
            for number in range(1, args.rounds + 1):
                drawn = self.client.post(
                    f"{api}rounds/", json={"seed": args.seed + number}, headers=organiser, name="director: draw"
                )
                if not self._ok(drawn, f"draw round {number}", 201):
                    break
                secrets = self.client.get(f"{api}rounds/{number}/secrets/", headers=organiser, name="director: secrets")
                if not self._ok(secrets, f"secrets of round {number}", 200):
                    break
                tokens = {item["table"]: item["token"] for item in secrets.json()}
                night.round_tables[number] = [
                    Slot(
                        table["number"],
                        tokens[table["number"]],
                        tuple(s["competitor"]["number"] for s in table["seats"]),
                    )
                    for table in drawn.json()["tables"]
                ]
                due = time.monotonic() + self.rng.uniform(0.5, 1.5) * self.every
                while len(night.done[number]) < len(night.round_tables[number]) and not out_of_time():
                    time.sleep(0.5)
                    if time.monotonic() >= due:
                        self.correct(number)
                        due = time.monotonic() + self.rng.uniform(0.5, 1.5) * self.every
                force = out_of_time() or len(night.done[number]) < len(night.round_tables[number])
                closed = self.client.post(
                    f"{api}rounds/{number}/close/", json={"force": force}, headers=organiser, name="director: close"
                )
                if not self._ok(closed, f"close round {number}", 200) or force:
                    break
                night.rounds_closed += 1
            night.finished_at = time.monotonic()
            raise StopUser()

    class Referee(FastHttpUser):
        fixed_count = tables
        wait_time = constant(0)

        def on_start(self) -> None:
            self.index = night.next_index("referee")
            self.rng = random.Random(args.seed * 100_003 + self.index)
            self.round = 0

        def enter(self, slot: Slot, number: int, raw: dict[str, Any]) -> bool | None:
            """Send one donne until it is acknowledged: whether the partie is over (None: refused)."""
            key = uuid.uuid4().hex
            headers = {"X-Table-Token": slot.token, "Idempotency-Key": key, "Accept": "application/json"}
            for attempt in range(5):
                started = time.perf_counter()
                response = self.client.post(
                    "/api/v1/table/hands/", json={"raw": raw, "expected_number": number}, headers=headers, name="entry"
                )
                elapsed = time.perf_counter() - started
                if response.status_code in (200, 201):
                    cancelled = bool(raw.get("cancelled"))
                    night.acks.append(
                        Ack(time.monotonic(), elapsed, self.round, slot.token, number, slot.teams, cancelled)
                    )
                    result = (response.json() or {}).get("result") or {}
                    return bool(result.get("finished"))
                if response.status_code == 0 or response.status_code >= 502:
                    # The network (or the proxy) let go: the same entry again, same key.
                    night.retries += 1
                    time.sleep(0.2 * (attempt + 1))
                    continue
                night.errors.append(f"table {slot.number} donne {number}: {response.status_code} {response.text[:200]}")
                return None
            night.errors.append(f"table {slot.number} donne {number}: no answer after 5 attempts")
            return None

        @task
        def play_a_round(self) -> None:
            number = self.round + 1
            while number not in night.round_tables:
                if night.finished_at or out_of_time() or number > args.rounds:
                    raise StopUser()
                time.sleep(0.2)
            self.round = number
            slots = night.round_tables[number]
            if self.index >= len(slots):
                return
            slot = slots[self.index]
            # Tables sit down over the first moments of the round, not all in the same second.
            time.sleep(self.rng.uniform(0, think))
            info = self.client.get(
                "/api/v1/table/", headers={"X-Table-Token": slot.token, "Accept": "application/json"}, name="table info"
            )
            donne = info.json()["next_number"] if info.status_code == 200 else 1
            # A redealt donne is not counted: the partie goes on until the API says it is over.
            while not out_of_time():
                time.sleep(self.rng.uniform(0.5, 1.5) * think)
                over = self.enter(slot, donne, game.random_hand(self.rng))
                if over is None or over:
                    break
                donne += 1
            night.done[number].add(slot.number)

    class Page(User):
        """A page open in a browser: opened once, then each of its polled parts (htmx's
        `every`, the ranking or « Ma soirée » by the locust task, the others — the
        director's messages, the projector's clock — by a greenlet each) polls its own
        address at its own period, until the night is over."""

        abstract = True
        # Who opens it ("phone", "projector", "soirée") and the part its task polls.
        who = ""
        main = ""

        def page_path(self) -> str:
            raise NotImplementedError

        def get(self, path: str, headers: dict[str, str], name: str, port: int | None = None) -> Answer:
            """A GET through `raw_get` (to `port`, else the site's), counted in locust's
            statistics like its own clients'."""
            started = time.perf_counter()
            try:
                answer = raw_get(self.server[0], port or self.server[1], path, headers)
                failure: Exception | None = (
                    None if answer.status_code in (200, 304) else RuntimeError(f"HTTP {answer.status_code}")
                )
            except OSError as error:
                answer, failure = Answer(0, {}, b"", 0), error
            self.environment.events.request.fire(
                request_type="GET", name=name, response_time=1000 * (time.perf_counter() - started),
                response_length=len(answer.content), response=None, context={}, exception=failure,
            )  # fmt: skip
            return answer

        def on_start(self) -> None:
            self.index = night.next_index(self.who)
            parts = urlsplit(str(self.host))
            self.server: tuple[str, int] = (parts.hostname or "127.0.0.1", parts.port or 80)
            path = self.page_path()
            self.url = f"{self.host}{path}"
            # People open the page over the first moments, not all in the same second.
            time.sleep(random.uniform(0, args.arrive))
            page = self.get(
                path,
                {"Accept": "text/html", "Accept-Language": "fr-FR,fr;q=0.9", "Accept-Encoding": "gzip"},
                f"{self.who}: open the page",
            )
            if page.status_code != 200 and self.who == "soirée":
                night.errors.append(f"soirée {self.index}: the page answered {page.status_code or 'nothing'}")
            found = polled_parts(page.text)
            self.part = found.pop(self.main, None) or PolledPart(self.main, path, "", 3.0, "", False)
            self.poll = self.part.seconds
            for part in found.values():
                gevent.spawn(self.keep_polling, part)
            # htmx's `every` fires at fixed intervals from the page's load.
            time.sleep(random.uniform(0, self.poll))

        def poll_part(self, part: PolledPart) -> Answer:
            """One poll of `part`, tallied by kind; a 200 brings the ETag the next one sends."""
            port = night.poll_port if polled_apart(part.path) else None
            answer = self.get(part.path, poll_headers(part, self.url), f"{self.who}: poll {part.kind}", port)
            if night.finished_at:
                return answer
            night.tally(part.kind, answer)
            if answer.status_code == 200 and part.etag:
                part.etag = answer.headers.get("etag") or part.etag
            if answer.status_code not in (200, 304) and self.who == "soirée":
                # No token in the message: the link is a secret.
                night.errors.append(f"soirée {self.index}: {part.kind} poll answered {answer.status_code or 'nothing'}")
            return answer

        def keep_polling(self, part: PolledPart) -> None:
            if not part.at_load:
                time.sleep(random.uniform(0, part.seconds))
            while not night.finished_at and not out_of_time():
                started = time.monotonic()
                self.poll_part(part)
                time.sleep(max(0.0, part.seconds - (time.monotonic() - started)))

        def wait_time(self) -> float:
            return float(constant_pacing(self.poll)(self))

        @task
        def poll_once(self) -> None:
            answer = self.poll_part(self.part)
            if self.who == "phone" and answer.status_code in (200, 304):
                version = etag_version(self.part.etag)
                line = night.timelines[self.index]
                if version is not None and (not line or line[-1][1] != version):
                    line.append((time.monotonic(), version))

    class Phone(Page):
        fixed_count = args.phones * args.teams
        who, main = "phone", "ranking"

        def page_path(self) -> str:
            night.phone_team[self.index] = 1 + self.index // max(1, args.phones)
            night.timelines[self.index] = []
            return f"/t/{night.slug}/"

    class Projector(Page):
        fixed_count = args.projectors
        who, main = "projector", "projector"

        def page_path(self) -> str:
            return f"/t/{night.slug}/projector/"

    class Soiree(Page):
        """« Ma soirée » by a competitor's personal link (`/soiree/<token>/`), `--soirees` a team."""

        fixed_count = args.soirees * args.teams
        who, main = "soirée", "soirée"

        def page_path(self) -> str:
            team = 1 + self.index // max(1, args.soirees)
            return f"/soiree/{night.soiree_tokens[team]}/"

    return [Director, Referee, Phone, Projector, Soiree]


# -- set-up, the watcher, the processes' CPU ---------------------------------------------


def seed(env: dict[str, str], teams: int, rounds: int, donnes: int) -> tuple[str, str, dict[int, str]]:
    """The club, its organiser and an API token, the concours with every team checked in;
    its slug, the token and each team's « Ma soirée » link by its number."""
    start_django(env)
    import datetime

    from django.contrib.auth import get_user_model

    from accounts.services import api_token_create
    from tournaments.models import Club, Competitor, Membership, Tournament

    club = Club.objects.create(name="Club de la nuit", slug="nuit")
    director = get_user_model().objects.create_user(username="directeur", password=uuid.uuid4().hex)
    Membership.objects.create(club=club, user=director, role=Membership.Role.ADMIN)
    key = api_token_create(by=director, name="banc de nuit").key
    tournament = Tournament.objects.create(
        club=club, name="Concours de nuit", slug="nuit", date=datetime.date(2026, 12, 5), game="belote_classique",
        format="teams", end_rule="donnes", end_value=donnes, rounds_planned=rounds, status="running",
    )  # fmt: skip
    Competitor.objects.bulk_create(
        Competitor(tournament=tournament, number=i + 1, name=f"Équipe {i + 1}", status="checked_in")
        for i in range(teams)
    )
    links = dict(Competitor.objects.filter(tournament=tournament).values_list("number", "link_token"))
    return tournament.slug, key, links


def watch(night: Night, tournament_slug: str) -> None:
    """Sample (requested, built, newest version) in one statement every WATCH_SECONDS."""
    from django.db import connection

    from scoring.models import StandingsRefresh, StandingsSnapshot
    from tournaments.models import Tournament

    pk = Tournament.objects.values_list("pk", flat=True).get(slug=tournament_slug)
    sql = (
        f"SELECT r.requested, r.built, (SELECT max(s.version) FROM {StandingsSnapshot._meta.db_table} s "
        f"WHERE s.tournament_id = %s) FROM {StandingsRefresh._meta.db_table} r WHERE r.tournament_id = %s"
    )
    try:
        while not night.finished_at:
            started = time.monotonic()
            with connection.cursor() as cursor:
                cursor.execute(sql, [pk, pk])
                row = cursor.fetchone()
            if row is not None and row[2] is not None:
                night.samples.append((started, int(row[0]), int(row[1]), int(row[2])))
            time.sleep(WATCH_SECONDS)
    except Exception as error:  # the schema moved: say so beside the figure, keep the run
        night.watch_error = f"{type(error).__name__}: {error}"
    finally:
        connection.close()


def cpu_seconds(pid: int, *, children: bool = True) -> float:
    """User + system seconds of a process and (unless told not to) its children, living and
    gone: gunicorn recycles its workers (max_requests), and a worker's seconds stay counted
    once its master has reaped it."""
    import psutil

    try:
        root = psutil.Process(pid)
        times = root.cpu_times()
        total = times.user + times.system
        if children:
            total += times.children_user + times.children_system
            for process in root.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    times = process.cpu_times()
                    total += times.user + times.system
        return total
    except psutil.Error:
        return float("nan")


def stored_rows(slug: str) -> dict[tuple[str, int], int]:
    from django.db import connections
    from django.db.models import Count

    from scoring.models import Hand

    rows = {
        (token, number): count
        for token, number, count in Hand.objects.filter(table__round__tournament__slug=slug)
        .values("table__token", "number")
        .annotate(n=Count("pk"))
        .values_list("table__token", "number", "n")
    }
    connections.close_all()
    return rows


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

    load_start = machine_load()
    reference_ms = reference_cpu_ms()
    print(f"==> {load_start}; reference workload {reference_ms:.1f} ms CPU on one core (benchkit.reference_cpu_ms)")
    if not args.postgres.startswith("postgres"):
        print("night needs PostgreSQL: set DATABASE_URL or --postgres", file=sys.stderr)
        return 2
    if not redis_answers(args.redis):
        print(f"night needs Redis (the Celery broker): none answers at {args.redis}", file=sys.stderr)
        return 2
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    results = ROOT / "bench-results"
    results.mkdir(exist_ok=True)
    url = database_url(args.postgres, args.database)
    env = server_env(url, args.redis)
    tables = args.teams // 2
    servers: list[Server] = []
    night: Night | None = None
    try:
        print(f"==> database {args.database}: migrating and seeding {args.teams} teams")
        recreate_database(args.postgres, args.database)
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        manage(env, "compile_catalogues")
        slug, key, links = seed(env, args.teams, args.rounds, args.donnes)
        port = free_port()
        # Production's configuration file, with this run's address (and workers or threads when given).
        env["GUNICORN_BIND"] = f"127.0.0.1:{port}"
        env["GUNICORN_TIMEOUT"] = "60"
        if args.workers:
            env["WEB_CONCURRENCY"] = str(args.workers)
        if args.threads:
            env["GUNICORN_THREADS"] = str(args.threads)
        poll_port = None if args.polls_together else free_port()
        if poll_port is not None:
            env["GUNICORN_POLL_BIND"] = f"127.0.0.1:{poll_port}"
        print(
            f"==> gunicorn (serving/gunicorn_conf.py): {env.get('WEB_CONCURRENCY', 'default')} workers, "
            f"{env.get('GUNICORN_THREADS', 'default')} threads each, on 127.0.0.1:{port}"
            + (f", polls apart on 127.0.0.1:{poll_port}" if poll_port else ", polls on the same address")
            + f"; a Celery worker on {args.redis}"
        )
        # The site's WSGI app in benchkit's CpuMeter (bench/ after the checkout on the path:
        # the apps win over the benches of the same name).
        meters = results / "night-cpu"
        meters.mkdir(exist_ok=True)
        for old in meters.glob("cpu-*"):
            old.unlink()
        web_env = {**env, CPU_METER_DIR: str(meters), "PYTHONPATH": str(ROOT / "bench")}
        gunicorn = Server(
            "gunicorn",
            [GUNICORN, "-c", "python:serving.gunicorn_conf", "benchkit:metered_wsgi()"],
            web_env,
            results / "night-gunicorn.log",
        )
        servers.append(gunicorn)
        celery = Server(
            "celery",
            ["nice", "-n", "10", *celery_worker_argv(env["CELERY_QUEUE"], f"{env['CELERY_QUEUE']}@%h")],
            env,
            results / "night-celery.log",
        )
        servers.append(celery)
        wait_ready(gunicorn, port)

        night = Night(args=args, slug=slug, api_key=key, poll_port=poll_port, soiree_tokens=links)
        classes = user_classes(night, tables)
        users = 1 + tables + (args.phones + args.soirees) * args.teams + args.projectors
        print(
            f"==> {args.rounds} rounds of {args.donnes} donnes at {tables} tables; pace {args.pace:g}× a real night "
            f"(a donne per table every {think_seconds(args.pace):.1f} s on average, "
            f"{tables / think_seconds(args.pace):.1f} hands/s in all); "
            f"{args.phones * args.teams} phones on the ranking, {args.soirees * args.teams} on « Ma soirée », "
            f"{args.projectors} projectors, 1 director ({users} locust users)"
        )
        environment = Environment(user_classes=classes, host=f"http://127.0.0.1:{port}")
        runner = environment.create_local_runner()
        night.started = time.monotonic()
        cpu_start = (cpu_seconds(gunicorn.process.pid), cpu_seconds(celery.process.pid))
        metered_start = read_cpu_meters(meters)
        # This process alone: the servers are its children.
        clients_start = cpu_seconds(os.getpid(), children=False)
        cpu_cold: list[tuple[float, float]] = []

        def mark_cold() -> None:
            cpu_cold.append((cpu_seconds(gunicorn.process.pid), cpu_seconds(celery.process.pid)))

        gevent.spawn_later(args.cold, mark_cold)
        watcher = gevent.spawn(watch, night, slug)
        runner.start(users, spawn_rate=min(100, max(50, users / 5)))
        while not night.finished_at and time.monotonic() < night.stop_at + 60:
            gevent.sleep(1)
            if not (gunicorn.alive() and celery.alive()):
                night.errors.append("a server exited: see bench-results/night-*.log")
                break
        night.finished_at = night.finished_at or time.monotonic()
        cpu_end = (cpu_seconds(gunicorn.process.pid), cpu_seconds(celery.process.pid))
        metered_end = read_cpu_meters(meters)
        clients_cpu = cpu_seconds(os.getpid(), children=False) - clients_start
        runner.quit()
        watcher.join(5)
        wall = night.finished_at - night.started
    finally:
        for server in reversed(servers):
            server.stop()

    assert night is not None
    rows = stored_rows(night.slug)
    if not args.keep:
        drop_database(args.postgres, args.database)

    # -- the figures ----------------------------------------------------------------------
    acked = {(ack.table, ack.number) for ack in night.acks}
    lost = sum(1 for pair in acked if pair not in rows)
    doubled = sum(count - 1 for count in rows.values() if count > 1)
    unacknowledged = sum(1 for pair in rows if pair not in acked)
    cold_end = night.started + args.cold
    entry_all = ms([ack.seconds for ack in night.acks])
    entry_cold = ms([ack.seconds for ack in night.acks if ack.at <= cold_end])
    entry_warm = ms([ack.seconds for ack in night.acks if ack.at > cold_end])
    phones_of: dict[int, list[int]] = defaultdict(list)
    for phone, team in night.phone_team.items():
        phones_of[team].append(phone)

    def delays(chosen: list[Ack]) -> tuple[list[float], int]:
        return visible_delays(
            [(ack.at, [p for team in ack.teams for p in phones_of[team]]) for ack in chosen],
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
        count, inside_ms = served.get(kind, (0, float("nan")))
        return inside_ms + rest_ms if count else float("nan")

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
    print(f"hands acknowledged                 {hands} ({hands / wall:.1f}/s); network resends {night.retries}")
    print(line("entry (all)", entry_all))
    print(line(f"entry cold (first {args.cold:g} s)", entry_cold))
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
    print(
        "polls, by kind                      polls      200      304   failed  bytes/poll   served  gunicorn CPU "
        "ms/poll (in the request + the rest)"
    )
    for kind in [*POLL_KINDS, *sorted(set(night.polls) - set(POLL_KINDS))]:
        tally = night.polls.get(kind)
        if tally is None:
            continue
        count, inside_ms = served.get(kind, (0, float("nan")))
        print(
            f"  {POLL_KINDS.get(kind, (kind, ''))[0]:<32} {tally.polls:>7} {tally.status.get(200, 0):>8} "
            f"{tally.status.get(304, 0):>8} {tally.failed:>8} {tally.bytes_per_poll:>11,.0f} {count:>8}  "
            f"{cpu_ms_per_poll(kind):8.3f} ({inside_ms:.3f} + {rest_ms:.3f})"
        )
    for kind in ("entry", "other"):
        count, inside_ms = served.get(kind, (0, float("nan")))
        print(
            f"  gunicorn, {kind + ' requests':<22} {count:>7} served; CPU ms a request {inside_ms:.3f} + {rest_ms:.3f}"
        )
    print(
        "  (polls: as the clients read them; served: as gunicorn's workers counted them over the same window; "
        "bytes: status line, headers and body as sent, 200 and 304 together; CPU: the request's own, by "
        "benchkit's CpuMeter, plus gunicorn's CPU outside requests spread evenly over every request served)"
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
    print(
        f"how it differs from a real night   {args.pace:g}× the pace; every phone and « Ma soirée » page polls "
        "from the start and never sleeps; one « Ma soirée » page per team opened by its link, none by the "
        "seat finder; the clients share the machine with the server; loopback, no radio; "
        f"{args.donnes} donnes a partie; "
        + (
            "the polls go to the site's address (no proxy)"
            if args.polls_together
            else "no proxy: the phones send the ranking's and the projector's polls to the polls' address "
            "themselves, as the proxy would, and every other poll (« Ma soirée », messages, clock) to the site's"
        )
        + "; the Celery worker at nice 10; gunicorn's app in benchkit's CpuMeter"
    )
    load_end = machine_load()
    print(f"==> at the start: {load_start}")
    print(f"==> at the end: {load_end}")
    entry = spread(entry_all)
    visible = spread(ms(visible_all))
    figures: dict[str, Any] = {
        "teams": args.teams,
        "polls_apart": not args.polls_together,
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
        "gunicorn_cpu_ms_per_poll": cpu_ms_per_poll("ranking"),
        "soirees": args.soirees * args.teams,
        "soiree_polls": night.polls.get("soirée", PollTally()).polls,
        "soiree_bytes_per_poll": night.polls.get("soirée", PollTally()).bytes_per_poll,
        "soiree_cpu_ms_per_poll": cpu_ms_per_poll("soirée"),
        "gunicorn_cpu_ms_outside_requests": rest_ms,
        "polls": {
            POLL_KINDS.get(kind, (kind, kind))[1]: {
                "polls": tally.polls,
                "ok": tally.status.get(200, 0),
                "not_modified": tally.status.get(304, 0),
                "failed": tally.failed,
                "bytes_per_poll": tally.bytes_per_poll,
                "gunicorn_cpu_ms_per_poll": cpu_ms_per_poll(kind),
            }
            for kind, tally in night.polls.items()
        },
        "web_cpu_s_per_hand": web_per_hand,
        "worker_cpu_s_per_hand": worker_per_hand,
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
