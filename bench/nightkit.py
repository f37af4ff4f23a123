"""The pieces of a night at the club that the benches playing one share (bench/night.py: one
concours; bench/federation.py: many at once on one site): the concours' state (`Night`),
its locust users (the director, the referees, the phones, the projectors, « Ma soirée »),
the seeding, the watcher of the ranking's versions, the reading of the pages' polled
parts, the phones' bare HTTP client, nginx in front of the site (serving/nginx.py's
configuration: the live ranking's polls are files it serves itself), the figures'
arithmetic (percentiles, hand → visible, the web's CPU by kind) and the last line.

Terms: a *donne* is one deal entered by a table's referee (a "hand" in the code); a
*partie* the donnes one table plays in a round; *« Ma soirée »* a competitor's own page.
bench/night.py's docstring says what each user does and how each figure is read.

Importing it loads neither locust nor gevent (locust patches the standard library when
imported): `user_classes` imports them, when a bench's main() has.
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
import resource
import socket
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from benchkit import (
    CPU_METER_DIR,
    GUNICORN,
    ROOT,
    Server,
    celery_worker_argv,
    machine_load,
    manage,
    percentile,
    recreate_database,
    redis_answers,
    reference_cpu_ms,
    request_kind,
    start_django,
)

# A real night: a donne per table about every two to three minutes.
REAL_DONNE_SECONDS = 150.0
# A busy director corrects about one hand every two minutes of a real night.
REAL_CORRECTION_SECONDS = 120.0
# The watcher's period: the bound on the error of "hand → visible".
WATCH_SECONDS = 0.05
VERSION_IN_ETAG = re.compile(r"ranking-\d+-(\d+)-")
# The ranking version a polled part shows: the `data-version` of its element (the first in
# an answer's body: the polled element's own opening tag).
DATA_VERSION = re.compile(r'\bdata-version="(\d+)"')
# An element of a page that htmx polls: its opening tag (attributes hold no ">": the
# templates escape their values), and in it the attributes read here.
POLLED_TAG = re.compile(r"<[a-z][a-z0-9]*\s[^>]*\bhx-trigger=\"[^\"]*\bevery\b[^>]*>")
TAG_ATTRIBUTE = re.compile(r'\s([a-z-]+)=(?:"([^"]*)"|\'([^\']*)\')')
EVERY = re.compile(r"\bevery (\d+(?:\.\d+)?)s\b")
# The kinds of poll (benchkit.REQUEST_KINDS), in the order they are printed: who polls
# them, and their name in the last line.
POLL_KINDS = {
    "ranking": ("phones' ranking", "ranking"),
    "soirée": ("« Ma soirée »", "soiree"),
    "soirée screen": ("« Ma soirée »'s messages", "soiree_screen"),
    "projector": ("projectors' ranking", "projector"),
    "screen": ("the messages (a public concours's file: projectors and « Ma soirée »)", "screen"),
    "clock": ("projectors' clock", "clock"),
}


# -- pure helpers (tests/site/test_bench_night.py) ----------------------------------------


def phones_of_night(per_team: float, teams: int) -> int:
    """How many phones follow a concours of `teams` teams at `per_team` phones a team (a
    fraction: some teams' phones only, at least one when any)."""
    return max(1, round(per_team * teams)) if per_team > 0 else 0


def phone_team(index: int, per_team: float, teams: int) -> int:
    """The team (1 to `teams`) whose phone is the concours's phone `index`: `per_team`
    phones a team in a row, or with fewer phones than teams, spread over the field."""
    return min(teams, 1 + int(index // per_team)) if per_team >= 1 else min(teams, 1 + int(index / per_team))


# The site's rows a page of a long public ranking (settings.RANKING_PAGE_ROWS): a phone opens
# the page its team starts on, as a player looks for their own line.
PAGE_ROWS = int(os.environ.get("ATOUT_RANKING_PAGE_ROWS", "100"))


def phone_page(team: int, teams: int) -> str:
    """The address a phone following `team` opens: the page of the ranking its number falls
    on (a ranking longer than PAGE_ROWS comes in pages, each its own file)."""
    page = 1 + (team - 1) // PAGE_ROWS if teams > PAGE_ROWS else 1
    return "" if page == 1 else f"?page={page}"


def think_seconds(pace: float) -> float:
    """A referee's mean wait between two donnes at `pace` times a real night."""
    return REAL_DONNE_SECONDS / pace


def etag_version(etag: str | None) -> int | None:
    """The ranking version an ETag of the ranking's partial names (None when it names none)."""
    found = VERSION_IN_ETAG.search(etag or "")
    return int(found.group(1)) if found else None


def data_version(text: str) -> int | None:
    """The ranking version a polled part's HTML shows (its first `data-version`), None when none."""
    found = DATA_VERSION.search(text)
    return int(found.group(1)) if found else None


@dataclass
class PolledPart:
    """A part of a page that htmx polls: its kind (benchkit.request_kind), address, id
    (htmx's HX-Target), period, the ETag or the date its hx-headers send (If-None-Match:
    « Ma soirée » and its messages; If-Modified-Since: the live ranking's and the
    projector's files), whether it also fires at load, and the ranking version it shows
    (its `data-version`, else its ETag's; None when it names none)."""

    kind: str
    path: str
    target: str
    seconds: float
    etag: str
    at_load: bool
    since: str = ""
    version: int | None = None


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
        if not isinstance(sent, dict):
            sent = {}
        etag = str(sent.get("If-None-Match", ""))
        since = str(sent.get("If-Modified-Since", ""))
        shown = attributes.get("data-version", "")
        version = int(shown) if shown.isdigit() else etag_version(etag)
        kind = request_kind("GET", urlsplit(path).path, True)
        at_load = "load" in (part.strip() for part in trigger.split(","))
        found.setdefault(
            kind,
            PolledPart(
                kind, path, attributes.get("id", ""), float(every.group(1)), etag, at_load, since=since, version=version
            ),
        )
    return found


def follow(part: PolledPart, answer: Answer, *, read_version: bool) -> None:
    """What the page keeps of a poll's answer for the next poll: on a 200, the answer's
    Last-Modified (the date the part sends) or its ETag, and with `read_version` the
    version its body shows (its `data-version`, else the new ETag's); on a 304 or a
    failure, nothing changes (the page keeps what it shows)."""
    if answer.status_code != 200:
        return
    if part.since:
        part.since = answer.headers.get("last-modified") or part.since
    if part.etag:
        part.etag = answer.headers.get("etag") or part.etag
    if read_version:
        shown = data_version(answer.text)
        if shown is None:
            shown = etag_version(part.etag)
        if shown is not None:
            part.version = shown


def poll_headers(part: PolledPart, url: str) -> dict[str, str]:
    """What htmx sends for a poll of `part` from the page at `url` (its hx-headers included)."""
    headers = {"HX-Request": "true", "HX-Current-URL": url}
    if part.target:
        headers["HX-Target"] = headers["HX-Trigger"] = part.target
    headers.update({"Accept": "*/*", "Accept-Language": "fr-FR,fr;q=0.9", "Accept-Encoding": "gzip, deflate, br"})
    if part.etag:
        headers["If-None-Match"] = part.etag
    if part.since:
        headers["If-Modified-Since"] = part.since
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


def web_shares(gunicorn_s: float, worker_s: float, nginx_s: float) -> tuple[float, float]:
    """The web's share of the server's CPU over a night: gunicorn's over gunicorn's and the
    worker's, then with nginx counted as web too (NaN when nothing ran)."""
    if gunicorn_s + worker_s <= 0:
        return float("nan"), float("nan")
    return gunicorn_s / (gunicorn_s + worker_s), (gunicorn_s + nginx_s) / (gunicorn_s + nginx_s + worker_s)


def summary_line(figures: dict[str, Any], keys: Sequence[str]) -> str:
    """The last line: one JSON object with at least `keys` (NaN written as null)."""
    missing = [key for key in keys if key not in figures]
    if missing:
        raise KeyError(f"missing figures: {', '.join(missing)}")

    def plain(value: Any) -> Any:
        if isinstance(value, float):
            return None if not math.isfinite(value) else round(value, 3)
        if isinstance(value, dict):
            return {key: plain(item) for key, item in value.items()}
        return value

    return json.dumps({key: plain(value) for key, value in figures.items()}, sort_keys=False)


def cpu_ms_per_poll(served: dict[str, tuple[int, float]], rest_ms: float, kind: str) -> float:
    """The web's CPU ms a request of `kind` (cpu_by_kind's): its own plus the rest's share."""
    count, inside_ms = served.get(kind, (0, float("nan")))
    return inside_ms + rest_ms if count else float("nan")


def polls_cpu_ms_per_poll(polls: dict[str, PollTally], served: dict[str, tuple[int, float]], rest_ms: float) -> float:
    """gunicorn's CPU ms a poll, every kind together: what it spent on the polls it served
    (each kind's requests × cpu_ms_per_poll) over every poll the clients made, those nginx
    answered itself included (the live ranking's files). NaN for no poll."""
    made = sum(tally.polls for tally in polls.values())
    spent = sum(served[kind][0] * cpu_ms_per_poll(served, rest_ms, kind) for kind in POLL_KINDS if kind in served)
    return spent / made if made else float("nan")


def per_request_ms(cpu_seconds_used: float, requests: int) -> float:
    """CPU ms a request, NaN for no request."""
    return 1000 * cpu_seconds_used / requests if requests > 0 else float("nan")


def poll_table(polls: dict[str, PollTally], served: dict[str, tuple[int, float]], rest_ms: float) -> list[str]:
    """The lines of the table of polls by kind (POLL_KINDS first), then the web's requests
    that are no polls, then what each column means."""
    lines = [
        "polls, by kind                      polls      200      304   failed  bytes/poll   served  gunicorn CPU "
        "ms a request served (in the request + the rest)"
    ]
    for kind in [*POLL_KINDS, *sorted(set(polls) - set(POLL_KINDS))]:
        tally = polls.get(kind)
        if tally is None:
            continue
        count, inside_ms = served.get(kind, (0, float("nan")))
        lines.append(
            f"  {POLL_KINDS.get(kind, (kind, ''))[0]:<32} {tally.polls:>7} {tally.status.get(200, 0):>8} "
            f"{tally.status.get(304, 0):>8} {tally.failed:>8} {tally.bytes_per_poll:>11,.0f} {count:>8}  "
            f"{cpu_ms_per_poll(served, rest_ms, kind):8.3f} ({inside_ms:.3f} + {rest_ms:.3f})"
        )
    for kind in ("entry", "other"):
        count, inside_ms = served.get(kind, (0, float("nan")))
        lines.append(
            f"  gunicorn, {kind + ' requests':<22} {count:>7} served; CPU ms a request {inside_ms:.3f} + {rest_ms:.3f}"
        )
    lines.append(
        "  (polls: as the clients read them; served: as gunicorn's workers counted them over the same window, "
        "the rest nginx answered itself from the live ranking's files; bytes: status line, headers and body as "
        "sent, 200 and 304 together; CPU: the request's own, by benchkit's CpuMeter, plus gunicorn's CPU outside "
        "requests spread evenly over every request served)"
    )
    return lines


def poll_figures(
    polls: dict[str, PollTally], served: dict[str, tuple[int, float]], rest_ms: float
) -> dict[str, dict[str, Any]]:
    """The polls by kind for the last line: counts, bytes and gunicorn's CPU per poll."""
    return {
        POLL_KINDS.get(kind, (kind, kind))[1]: {
            "polls": tally.polls,
            "ok": tally.status.get(200, 0),
            "not_modified": tally.status.get(304, 0),
            "failed": tally.failed,
            "bytes_per_poll": tally.bytes_per_poll,
            # The polls gunicorn served (the others nginx answered from a file) and its CPU a poll it served.
            "served": served.get(kind, (0, 0.0))[0],
            "gunicorn_cpu_ms_per_poll": cpu_ms_per_poll(served, rest_ms, kind),
        }
        for kind, tally in polls.items()
    }


def lost_and_doubled(acks: Sequence[Ack], rows: dict[tuple[str, int], int]) -> tuple[int, int, int]:
    """Acknowledged hands with no row, extra rows of one hand, rows never acknowledged."""
    acked = {(ack.table, ack.number) for ack in acks}
    lost = sum(1 for pair in acked if pair not in rows)
    doubled = sum(count - 1 for count in rows.values() if count > 1)
    unacknowledged = sum(1 for pair in rows if pair not in acked)
    return lost, doubled, unacknowledged


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
    """One concours's night: what its users share and what they leave for the figures."""

    args: argparse.Namespace
    slug: str
    api_key: str
    # Its teams, checked in (two a table).
    teams: int
    round_tables: dict[int, list[Slot]] = field(default_factory=dict)
    done: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    acks: list[Ack] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    retries: int = 0
    # Donnes refused because the run's time was up and the director had closed their round.
    cut_short: int = 0
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

    def tally(self, kind: str, answer: Answer) -> None:
        """Count a poll of `kind` as its client read it."""
        self.polls.setdefault(kind, PollTally()).add(answer.status_code, answer.wire)

    @property
    def tables(self) -> int:
        return self.teams // 2

    @property
    def stop_at(self) -> float:
        return self.started + self.args.duration

    def out_of_time(self) -> bool:
        return time.monotonic() > self.stop_at


def placed(counts: Sequence[int], index: int) -> tuple[int, int]:
    """Where the `index`-th user of a kind goes when concours i has `counts[i]` of them:
    the concours's position and the user's rank in it."""
    for position, count in enumerate(counts):
        if index < count:
            return position, index
        index -= count
    raise IndexError(f"user {index} past the last concours")


def merged_polls(nights: Sequence[Night]) -> dict[str, PollTally]:
    """Every concours's polls, by kind."""
    merged: dict[str, PollTally] = {}
    for night in nights:
        for kind, tally in night.polls.items():
            into = merged.setdefault(kind, PollTally())
            into.polls += tally.polls
            into.wire += tally.wire
            for status, count in tally.status.items():
                into.status[status] += count
    return merged


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


def user_classes(nights: Sequence[Night]) -> list[type]:
    """The locust users of one concours or several on one site (each user belongs to one
    concours, in turn: the first director to the first concours, the first tables' referees
    to the first concours's tables, and so on); locust (and gevent) imported here, not at
    the module's import. The concours share their arguments (`args`: pace, rounds, phones...)."""
    import gevent
    from locust import User, constant, constant_pacing, task
    from locust.contrib.fasthttp import FastHttpUser
    from locust.exception import StopUser

    from engine import get_game

    game = get_game("belote_classique")
    args = nights[0].args
    think = think_seconds(args.pace)
    counters: dict[str, int] = defaultdict(int)

    def take(kind: str, counts: Sequence[int]) -> tuple[Night, int, int]:
        """The next user of `kind`: its concours, its rank there and its rank among all."""
        index = counters[kind]
        counters[kind] += 1
        position, rank = placed(counts, index)
        return nights[position], rank, index

    class Director(FastHttpUser):
        fixed_count = len(nights)
        wait_time = constant(0)

        def on_start(self) -> None:
            self.night, _rank, index = take("director", [1] * len(nights))
            self.rng = random.Random(args.seed + 1000 * index)
            self.every = REAL_CORRECTION_SECONDS / args.pace
            self.organiser = {"Authorization": f"Token {self.night.api_key}", "Accept": "application/json"}
            self.api = f"/api/v1/tournaments/{self.night.slug}/"

        def _ok(self, response: Any, what: str, *expected: int) -> bool:
            if response.status_code in expected:
                return True
            self.night.errors.append(f"director: {what}: {response.status_code} {(response.text or '')[:200]}")
            return False

        def correct(self, number: int) -> None:
            # A played donne corrected into another played one: a redeal made a played
            # donne (or the reverse) would move the end of the partie under the referee.
            mine = [ack for ack in self.night.acks if ack.round == number and not ack.cancelled]
            if not mine:
                return
            ack = self.rng.choice(mine)
            slot = next(slot for slot in self.night.round_tables[number] if slot.token == ack.table)
            raw = game.random_hand(self.rng)
            while raw.get("cancelled"):
                raw = game.random_hand(self.rng)
            body = {"raw": raw, "reason": "Feuille relue par l'arbitre"}
            started = time.perf_counter()
            response = self.client.put(
                f"{self.api}rounds/{number}/tables/{slot.number}/hands/{ack.number}/",
                json=body, headers=self.organiser, name="director: correct a hand",
            )  # fmt: skip
            if response.status_code == 200:
                self.night.corrections.append(time.perf_counter() - started)
            else:
                self.night.corrections_refused.append(f"{response.status_code} {(response.text or '')[:120]}")

        @task
        def run_the_night(self) -> None:
            for number in range(1, args.rounds + 1):
                drawn = self.client.post(
                    f"{self.api}rounds/",
                    json={"seed": args.seed + number},
                    headers=self.organiser,
                    name="director: draw",
                )
                if not self._ok(drawn, f"draw round {number}", 201):
                    break
                secrets = self.client.get(
                    f"{self.api}rounds/{number}/secrets/", headers=self.organiser, name="director: secrets"
                )
                if not self._ok(secrets, f"secrets of round {number}", 200):
                    break
                tokens = {item["table"]: item["token"] for item in secrets.json()}
                self.night.round_tables[number] = [
                    Slot(
                        table["number"],
                        tokens[table["number"]],
                        tuple(s["competitor"]["number"] for s in table["seats"]),
                    )
                    for table in drawn.json()["tables"]
                ]
                due = time.monotonic() + self.rng.uniform(0.5, 1.5) * self.every
                while (
                    len(self.night.done[number]) < len(self.night.round_tables[number]) and not self.night.out_of_time()
                ):
                    time.sleep(0.5)
                    if time.monotonic() >= due:
                        self.correct(number)
                        due = time.monotonic() + self.rng.uniform(0.5, 1.5) * self.every
                force = self.night.out_of_time() or len(self.night.done[number]) < len(self.night.round_tables[number])
                closed = self.client.post(
                    f"{self.api}rounds/{number}/close/",
                    json={"force": force},
                    headers=self.organiser,
                    name="director: close",
                )
                if not self._ok(closed, f"close round {number}", 200) or force:
                    break
                self.night.rounds_closed += 1
            self.night.finished_at = time.monotonic()
            raise StopUser()

    class Referee(FastHttpUser):
        fixed_count = sum(night.tables for night in nights)
        wait_time = constant(0)

        def on_start(self) -> None:
            self.night, self.index, overall = take("referee", [night.tables for night in nights])
            self.rng = random.Random(args.seed * 100_003 + overall)
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
                    self.night.acks.append(
                        Ack(time.monotonic(), elapsed, self.round, slot.token, number, slot.teams, cancelled)
                    )
                    result = (response.json() or {}).get("result") or {}
                    return bool(result.get("finished"))
                if response.status_code == 0 or response.status_code >= 502:
                    # The network (or the proxy) let go: the same entry again, same key.
                    self.night.retries += 1
                    time.sleep(0.2 * (attempt + 1))
                    continue
                if self.night.out_of_time() and '"round_closed"' in (response.text or ""):
                    # The run's time is up and the director closed the round (`force`): not the site's refusal.
                    self.night.cut_short += 1
                    return None
                self.night.errors.append(
                    f"table {slot.number} donne {number}: {response.status_code} {response.text[:200]}"
                )
                return None
            self.night.errors.append(f"table {slot.number} donne {number}: no answer after 5 attempts")
            return None

        @task
        def play_a_round(self) -> None:
            number = self.round + 1
            while number not in self.night.round_tables:
                if self.night.finished_at or self.night.out_of_time() or number > args.rounds:
                    raise StopUser()
                time.sleep(0.2)
            self.round = number
            slots = self.night.round_tables[number]
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
            while not self.night.out_of_time():
                time.sleep(self.rng.uniform(0.5, 1.5) * think)
                over = self.enter(slot, donne, game.random_hand(self.rng))
                if over is None or over:
                    break
                donne += 1
            self.night.done[number].add(slot.number)

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

        @staticmethod
        def per_night(night: Night) -> int:
            """How many of these pages a concours has open."""
            raise NotImplementedError

        def get(self, path: str, headers: dict[str, str], name: str) -> Answer:
            """A GET through `raw_get` (to nginx), counted in locust's statistics like its own clients'."""
            started = time.perf_counter()
            try:
                answer = raw_get(self.server[0], self.server[1], path, headers)
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
            self.night, self.index, _overall = take(self.who, [self.per_night(night) for night in nights])
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
                self.night.errors.append(f"soirée {self.index}: the page answered {page.status_code or 'nothing'}")
            found = polled_parts(page.text)
            self.part = found.pop(self.main, None) or PolledPart(self.main, path, "", 3.0, "", False)
            if self.who == "phone" and self.part.version is None and page.status_code == 200:
                self.night.errors.append(f"phone {self.index}: the page's ranking shows no version")
            self.poll = self.part.seconds
            for part in found.values():
                gevent.spawn(self.keep_polling, part)
            # htmx's `every` fires at fixed intervals from the page's load.
            time.sleep(random.uniform(0, self.poll))

        def poll_part(self, part: PolledPart) -> Answer:
            """One poll of `part`, tallied by kind; a 200 brings the date (or the ETag) the
            next one sends, and to a phone the ranking version it now shows (`follow`)."""
            answer = self.get(part.path, poll_headers(part, self.url), f"{self.who}: poll {part.kind}")
            if self.night.finished_at:
                return answer
            self.night.tally(part.kind, answer)
            follow(part, answer, read_version=self.who == "phone" and part is self.part)
            if answer.status_code not in (200, 304) and self.who == "soirée":
                # No token in the message: the link is a secret.
                self.night.errors.append(
                    f"soirée {self.index}: {part.kind} poll answered {answer.status_code or 'nothing'}"
                )
            return answer

        def keep_polling(self, part: PolledPart) -> None:
            if not part.at_load:
                time.sleep(random.uniform(0, part.seconds))
            while not self.night.finished_at and not self.night.out_of_time():
                started = time.monotonic()
                self.poll_part(part)
                time.sleep(max(0.0, part.seconds - (time.monotonic() - started)))

        def wait_time(self) -> float:
            return float(constant_pacing(self.poll)(self))

        @task
        def poll_once(self) -> None:
            if self.night.finished_at:
                # Its concours is over: the page is closed (the others' go on).
                raise StopUser()
            answer = self.poll_part(self.part)
            if self.who == "phone" and answer.status_code in (200, 304):
                version = self.part.version
                line = self.night.timelines[self.index]
                if version is not None and (not line or line[-1][1] != version):
                    line.append((time.monotonic(), version))

    class Phone(Page):
        fixed_count = sum(phones_of_night(args.phones, night.teams) for night in nights)
        who, main = "phone", "ranking"

        @staticmethod
        def per_night(night: Night) -> int:
            return phones_of_night(args.phones, night.teams)

        def page_path(self) -> str:
            team = phone_team(self.index, args.phones, self.night.teams)
            self.night.phone_team[self.index] = team
            self.night.timelines[self.index] = []
            return f"/t/{self.night.slug}/{phone_page(team, self.night.teams)}"

    class Projector(Page):
        fixed_count = args.projectors * len(nights)
        who, main = "projector", "projector"

        @staticmethod
        def per_night(night: Night) -> int:
            return int(args.projectors)

        def page_path(self) -> str:
            return f"/t/{self.night.slug}/projector/"

    class Soiree(Page):
        """« Ma soirée » by a competitor's personal link (`/soiree/<token>/`), `--soirees` a team."""

        fixed_count = sum(args.soirees * night.teams for night in nights)
        who, main = "soirée", "soirée"

        @staticmethod
        def per_night(night: Night) -> int:
            return args.soirees * night.teams

        def page_path(self) -> str:
            team = 1 + self.index // max(1, args.soirees)
            return f"/soiree/{self.night.soiree_tokens[team]}/"

    return [Director, Referee, Phone, Projector, Soiree]


# -- set-up, the watcher, the processes' CPU ---------------------------------------------


@dataclass
class Seeded:
    """A concours seeded: its slug, its director's API token, each team's « Ma soirée » link
    by its number."""

    slug: str
    api_key: str
    links: dict[int, str]


def seed(env: dict[str, str], sizes: Sequence[int], rounds: int, donnes: int) -> list[Seeded]:
    """A concours for each of `sizes` (its teams, every one checked in), each of its own club
    with its own director and API token; one concours is the club « de la nuit »'s `nuit`."""
    start_django(env)
    import datetime

    from django.contrib.auth import get_user_model

    from accounts.services import api_token_create
    from tournaments.models import Club, Competitor, Membership, Tournament

    seeded = []
    for position, teams in enumerate(sizes):
        suffix = "" if len(sizes) == 1 else f"-{position + 1:02d}"
        club = Club.objects.create(name=f"Club de la nuit{suffix}", slug=f"nuit{suffix}")
        # No password: the director speaks to the API with its token (and hashing one takes a while).
        director = get_user_model().objects.create_user(username=f"directeur{suffix}", password=None)
        Membership.objects.create(club=club, user=director, role=Membership.Role.ADMIN)
        key = api_token_create(by=director, name="banc de nuit").key
        tournament = Tournament.objects.create(
            club=club, name=f"Concours de nuit{suffix}", slug=f"nuit{suffix}", date=datetime.date(2026, 12, 5),
            game="belote_classique", format="teams", end_rule="donnes", end_value=donnes, rounds_planned=rounds,
            status="running",
        )  # fmt: skip
        Competitor.objects.bulk_create(
            Competitor(tournament=tournament, number=i + 1, name=f"Équipe {i + 1}", status="checked_in")
            for i in range(teams)
        )
        links = dict(Competitor.objects.filter(tournament=tournament).values_list("number", "link_token"))
        seeded.append(Seeded(tournament.slug, key, links))
    return seeded


def watch(nights: Sequence[Night]) -> None:
    """Sample each concours's (requested, built, newest version), all in one statement every
    WATCH_SECONDS, until every concours is over."""
    from django.db import connection

    from scoring.models import StandingsRefresh, StandingsSnapshot
    from tournaments.models import Tournament

    by_slug = {night.slug: night for night in nights}
    by_pk = {pk: by_slug[slug] for pk, slug in Tournament.objects.filter(slug__in=by_slug).values_list("pk", "slug")}
    sql = (
        f"SELECT r.tournament_id, r.requested, r.built, (SELECT max(s.version) FROM "
        f"{StandingsSnapshot._meta.db_table} s WHERE s.tournament_id = r.tournament_id) "
        f"FROM {StandingsRefresh._meta.db_table} r WHERE r.tournament_id = ANY(%s)"
    )
    try:
        while not all(night.finished_at for night in nights):
            started = time.monotonic()
            with connection.cursor() as cursor:
                cursor.execute(sql, [list(by_pk)])
                rows = cursor.fetchall()
            for pk, requested, built, newest in rows:
                if newest is not None:
                    by_pk[pk].samples.append((started, int(requested), int(built), int(newest)))
            time.sleep(WATCH_SECONDS)
    except Exception as error:  # the schema moved: say so beside the figure, keep the run
        for night in nights:
            night.watch_error = f"{type(error).__name__}: {error}"
    finally:
        connection.close()


def prepare_database(postgres: str, database: str, env: dict[str, str]) -> None:
    """Database `database` created afresh on `postgres` and migrated, the static files
    collected and the catalogues compiled, as a deployment does before the site starts."""
    recreate_database(postgres, database)
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    manage(env, "compile_catalogues")


def fresh_folder(folder: Path) -> Path:
    """`folder`, made if missing, with the CpuMeters' files of an earlier run removed."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("cpu-*"):
        old.unlink()
    return folder


def gunicorn_node(
    env: dict[str, str], *, name: str, port: int, meters: Path, log: Path, workers: int | None = None,
    threads: int | None = None,
) -> Server:  # fmt: skip
    """gunicorn with production's configuration file (serving/gunicorn_conf.py) on this
    node's address, workers or threads when given, the site's WSGI app in benchkit's
    CpuMeter writing to `meters` (bench/ after the checkout on the path: the apps win over
    the benches of the same name)."""
    node_env = {
        **env, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_TIMEOUT": "60", CPU_METER_DIR: str(meters),
        "PYTHONPATH": str(ROOT / "bench"),
    }  # fmt: skip
    if workers:
        node_env["WEB_CONCURRENCY"] = str(workers)
    if threads:
        node_env["GUNICORN_THREADS"] = str(threads)
    argv = [GUNICORN, "-c", "python:serving.gunicorn_conf", "benchkit:metered_wsgi()"]
    return Server(name, argv, node_env, log)


def live_folder(folder: Path) -> Path:
    """The live ranking's files' folder (ATOUT_LIVE_ROOT of the nodes and the worker), in
    nginx's `folder`, readable by nginx's workers (nobody, when the bench runs as root)."""
    live = folder / "live"
    live.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    live.chmod(0o755)
    return live


def start_nginx(
    binary: str, folder: Path, *, port: int, sites: Sequence[int], live_root: Path, workers: str, files: int,
    env: dict[str, str], log: Path,
) -> Server:  # fmt: skip
    """nginx on 127.0.0.1:`port` in front of the nodes' addresses (`sites`), serving the
    live ranking's files from `live_root` itself (serving/nginx.py's configuration, with
    docker/nginx-live.conf as production's; no access log: a line a poll, thousands a
    second), its configuration, pid, logs and temporary files in `folder`. Its workers run
    as nobody when the bench runs as root."""
    from serving.nginx import nginx_conf, worker_user, write_config

    conf = nginx_conf(folder, port=port, sites=sites, live_root=live_root, workers=workers, files=files,
                      user=worker_user())  # fmt: skip
    return Server("nginx", write_config(binary, folder, conf), env, log)


def more_files() -> int:
    """This process's limit of open files raised to the hard limit (a client's socket a
    user at most, thousands of users); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 65536)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return int(hard)


def celery_worker(env: dict[str, str], log: Path) -> Server:
    """The Celery worker that rebuilds the rankings, at `nice 10` (bench/night.py says why)."""
    queue = env["CELERY_QUEUE"]
    return Server("celery", ["nice", "-n", "10", *celery_worker_argv(queue, f"{queue}@%h")], env, log)


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


def stored_rows(slugs: Sequence[str]) -> dict[tuple[str, int], int]:
    """The hands stored in these concours: (table's secret, donne) → rows."""
    from django.db import connections
    from django.db.models import Count

    from scoring.models import Hand

    rows = {
        (token, number): count
        for token, number, count in Hand.objects.filter(table__round__tournament__slug__in=slugs)
        .values("table__token", "number")
        .annotate(n=Count("pk"))
        .values_list("table__token", "number", "n")
    }
    connections.close_all()
    return rows


def preflight(bench: str, postgres: str, redis_url: str) -> tuple[str, float] | None:
    """The machine's load and the reference workload's time, printed as every bench starts;
    None (and why, on stderr) when PostgreSQL or Redis is missing."""
    load_start = machine_load()
    reference_ms = reference_cpu_ms()
    print(f"==> {load_start}; reference workload {reference_ms:.1f} ms CPU on one core (benchkit.reference_cpu_ms)")
    if not postgres.startswith("postgres"):
        print(f"{bench} needs PostgreSQL: set DATABASE_URL or --postgres", file=sys.stderr)
        return None
    if not redis_answers(redis_url):
        print(f"{bench} needs Redis (the Celery broker): none answers at {redis_url}", file=sys.stderr)
        return None
    return load_start, reference_ms
