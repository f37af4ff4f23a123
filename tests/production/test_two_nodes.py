"""Several web nodes serve one site: two gunicorns on one database and one Redis.

Two gunicorn masters (two workers each, on ports of their own, as two machines behind a
load balancer would be), each behind its own nginx (as on its machine), one Celery
worker, one PostgreSQL database, one Redis (a private one, so that nothing another run
left in it is read here) and one folder of the ranking's files, which the nodes, the
worker and both nginx share. Everything a request
relies on is shared through the database or Redis (docs/live-refresh.md, "Several web
nodes"):

- a hand entered through node A's referee API shows on the live ranking polled through
  node B's nginx within 3 s (and one entered through B, through A's), and the refresh runs
  once per hand, whichever node took it (one ticket each);
- phones polling either node as htmx does (the ranking's file, with the time of the version
  they show) are never answered a version older than one that node answered before, to
  them or to anyone: the files are one folder both nodes and the worker share;
- the wrong-table-link limit (Redis) and the login's lock (django-axes, PostgreSQL)
  count a client's attempts on both nodes together.

The tests play the HTTPS proxy (X-Forwarded-Proto, X-Forwarded-For from 127.0.0.1).
"""

from __future__ import annotations

import gzip
import html
import http.client
import json
import random
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.parse
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest

from serving.nginx import nginx_binary, nginx_conf, worker_user, write_config
from tests.conftest import IN_CI
from tests.nginx import wait_listening
from tests.production.processes import (
    HTTPS,
    PostgresServer,
    Process,
    Response,
    celery_worker,
    clean_env,
    free_port,
    gunicorn,
    http_get,
    manage,
    random_secret,
)
from tests.production.servers import PrivateRedis, private_redis
from tournaments.demo import CONCOURS_NAME

pytestmark = pytest.mark.celery_worker

# A hand as the referee's phone sends it (belote classique: the taker makes it).
HAND = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}
DATA_VERSION = re.compile(rb'data-version="(\d+)"')
# The ranking's element: the file it polls and the headers it sends.
POLLED = re.compile(rb'id="ranking"[^>]*hx-get="([^"]+)"[^>]*hx-headers="([^"]+)"')
# The target of a hand's way to the phones (docs/live-refresh.md): the publication's 2 s,
# the refresh and one poll of the phones here (which poll faster than every second).
VISIBLE_WITHIN = 3.0
POLL_EVERY = 0.15


@dataclass
class Node:
    name: str
    port: int
    process: Process

    def get(self, path: str, headers: dict[str, str] | None = None) -> Response:
        return http_get(self.port, path, {**HTTPS, **(headers or {})})

    def request(self, method: str, path: str, body: bytes, headers: dict[str, str]) -> Response:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            sent = {"Host": f"127.0.0.1:{self.port}", **HTTPS, **headers}
            connection.request(method, path, body=body, headers=sent)
            answer = connection.getresponse()
            return Response(answer.status, answer.headers, answer.read())
        finally:
            connection.close()


@dataclass
class Site:
    a: Node
    b: Node
    # Each node's nginx (as on its machine): the ranking's files from the shared folder.
    front_a: Node
    front_b: Node
    worker: Process
    postgres: PostgresServer
    database: str
    slug: str
    tournament_id: int
    redis: PrivateRedis

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        return self.postgres.query(self.database, sql, params)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    postgres = PostgresServer.required()
    tag = uuid.uuid4().hex[:8]
    database = f"atout_nodes_two_{tag}"
    static_root: Path = tmp_path_factory.mktemp("static")
    # The ranking's files: one folder both nodes, the worker and both nginx share (nginx's
    # workers, nobody when the tests run as root, must read it).
    shared = Path(tempfile.mkdtemp(prefix="atout-nodes-live-"))
    shared.chmod(0o755)
    live = shared / "live"
    binary = nginx_binary()
    if binary is None:
        if IN_CI:
            pytest.fail("CI=true but nginx is missing (scripts/setup.sh installs it)")
        pytest.skip("nginx is missing (./test installs it)")
    with private_redis() as redis:
        ports = free_port(), free_port()
        env = clean_env(
            DEBUG="false",
            SECRET_KEY=random_secret(),
            ALLOWED_HOSTS="127.0.0.1,localhost",
            DATABASE_URL=postgres.create_database(database),
            CELERY_BROKER_URL=redis.url(0),
            CELERY_QUEUE=f"atout-nodes-{tag}",
            CELERY_WORKER_CONCURRENCY="1",
            CACHE_URL=redis.url(1),
            STATIC_ROOT=str(static_root),
            BEHIND_TLS_PROXY="true",
            TRUSTED_PROXIES="127.0.0.1",
            WEB_CONCURRENCY="2",
            LOG_FORMAT="json",
            ATOUT_RANKING_PUBLISH_SECONDS="2",
            ATOUT_LIVE_ROOT=str(live),
            # The sweep publishes files a lost message left behind (Redis restarted empty).
            ATOUT_SWEEP_SECONDS="2",
        )
        processes = [
            gunicorn(f"gunicorn-node-{name}-{tag}", {**env, "GUNICORN_BIND": f"127.0.0.1:{port}"})
            for name, port in zip("ab", ports, strict=True)
        ]
        worker = celery_worker(f"worker-nodes-{tag}", env["CELERY_QUEUE"], env)
        fronts: list[tuple[int, subprocess.Popen[bytes], Path]] = []
        try:
            for port in ports:
                folder, front = Path(tempfile.mkdtemp(prefix="atout-nodes-nginx-")), free_port()
                text = nginx_conf(folder, port=front, sites=[port], live_root=live, user=worker_user())
                with (folder / "nginx.out").open("wb") as out:
                    started = subprocess.Popen(
                        write_config(binary, folder, text), stdout=out, stderr=subprocess.STDOUT, start_new_session=True
                    )
                fronts.append((front, started, folder))
                wait_listening(started, front, folder)
            manage(env, "migrate", "--noinput")
            manage(env, "collectstatic", "--noinput")
            manage(env, "demo")
            for process in (*processes, worker):
                process.start()
            for process, port in zip(processes, ports, strict=True):
                process.wait_for_http(port)
            worker.wait_for_output("ready.")
            ((slug, tournament_id),) = postgres.query(
                database, "SELECT slug, id FROM tournaments_tournament WHERE name = %s", (CONCOURS_NAME,)
            )
            a, b = (Node(name, port, process) for name, port, process in zip("AB", ports, processes, strict=True))
            front_a, front_b = (Node(name, port, process) for name, (port, _n, _f), process in zip(
                "AB", fronts, processes, strict=True
            ))  # fmt: skip
            yield Site(a, b, front_a, front_b, worker, postgres, database, str(slug), int(str(tournament_id)), redis)
        finally:
            for _port, started, folder in fronts:
                started.terminate()
                started.wait(10)
                shutil.rmtree(folder, ignore_errors=True)
            for process in (*processes, worker):
                process.stop()
            postgres.drop_database(database)
            shutil.rmtree(shared, ignore_errors=True)


# -- the phones ---------------------------------------------------------------------------


@dataclass
class Answer:
    node: str
    phone: int
    started: float
    ended: float
    status: int
    version: int


@dataclass
class Phone:
    """A phone following the ranking through one node, as a browser with htmx does: the
    page opened, then its file polled with the time of the version it shows
    (docs/live-refresh.md, "Polls served as files")."""

    number: int
    node: Node
    slug: str
    # The node's nginx, which the polls of the file reach (the page comes from the node).
    front: Node | None = None
    address: str = ""
    since: str = ""
    version: int = 0
    answers: list[Answer] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def open(self) -> None:
        page = self.node.get(f"/t/{self.slug}/", {"Accept-Language": "fr"})
        found = POLLED.search(page.body)
        shown = DATA_VERSION.search(page.body)
        if page.status != 200 or found is None or shown is None:
            self.problems.append(f"{self.node.name}: the page {page.status} polls nothing")
            return
        self.address = html.unescape(found.group(1).decode())
        self.since = json.loads(html.unescape(found.group(2).decode()))["If-Modified-Since"]
        self.version = int(shown.group(1))

    def poll(self) -> None:
        if not self.address:
            self.open()
            return
        headers = {"HX-Request": "true", "Accept-Encoding": "gzip", "If-Modified-Since": self.since}
        started = time.monotonic()
        answer = (self.front or self.node).get(self.address, headers)
        ended = time.monotonic()
        if answer.status not in (200, 304):
            self.problems.append(f"{self.node.name}: {answer.status} {answer.body[:200]!r}")
            return
        if answer.status == 200:
            body = gzip.decompress(answer.body) if answer.header("Content-Encoding") == "gzip" else answer.body
            shown, found = DATA_VERSION.search(body), POLLED.search(body)
            if shown is None or found is None:
                self.problems.append(f"{self.node.name}: a file without its version: {body[:200]!r}")
                return
            sent = json.loads(html.unescape(found.group(2).decode()))["If-Modified-Since"]
            if sent != answer.header("Last-Modified"):
                self.problems.append(f"{self.node.name}: the file's time {sent} is not its Last-Modified")
            self.version, self.since = int(shown.group(1)), sent
        self.answers.append(Answer(self.node.name, self.number, started, ended, answer.status, self.version))

    def keep_polling(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                self.poll()
            except OSError as error:
                self.problems.append(f"{self.node.name}: {error}")
            stop.wait(POLL_EVERY)


def older_after_newer(answers: list[Answer]) -> list[tuple[Answer, Answer]]:
    """Pairs (earlier, later) where `later` began after `earlier` was answered and names an
    older version: what a node must never do, to one phone or to two."""
    done = sorted(answers, key=lambda answer: answer.ended)
    found = []
    for later in answers:
        before = [answer for answer in done if answer.ended < later.started]
        if before:
            newest = max(before, key=lambda answer: answer.version)
            if later.version < newest.version:
                found.append((newest, later))
    return found


# -- the referee ----------------------------------------------------------------------------


def table_tokens(site: Site) -> list[str]:
    rows = site.query(
        "SELECT t.token FROM tournaments_table t JOIN tournaments_round r ON r.id = t.round_id"
        " WHERE r.tournament_id = %s AND r.status = 'open' AND NOT t.token_revoked ORDER BY t.number",
        (site.tournament_id,),
    )
    return [str(row[0]) for row in rows]


def enter_hand(node: Node, token: str) -> None:
    """One donne through the table API (the referee's phone), acknowledged 201."""
    table = {"X-Table-Token": token, "Accept": "application/json"}
    info = node.get("/api/v1/table/", table)
    assert info.status == 200, info.body[:300]
    number = json.loads(info.body)["next_number"]
    body = json.dumps({"raw": HAND, "expected_number": number}).encode()
    headers = {**table, "Content-Type": "application/json", "Idempotency-Key": uuid.uuid4().hex}
    stored = node.request("POST", "/api/v1/table/hands/", body, headers)
    assert stored.status == 201, stored.body[:300]


def donnes_counted(rows: object) -> int:
    """How many donnes a ranking's rows count in the parties of its round in play."""
    loaded = json.loads(rows) if isinstance(rows, str | bytes) else rows
    tables: dict[tuple[int, int], int] = {}
    for row in loaded if isinstance(loaded, list) else []:
        partie = row.get("current_partie")
        if partie:
            tables[(partie["round"], partie["table"])] = int(partie["donnes"])
    return sum(tables.values())


class VersionWatch:
    """Each live version as the refresh writes it, with the donnes it counts (read at once:
    the refresh keeps only the last few versions)."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.counted: dict[int, int] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        # One connection for the whole watch, in autocommit: each read sees the latest commits.
        with psycopg.connect(self.site.postgres.url(self.site.database), autocommit=True) as connection:
            while not self.stop.is_set():
                since = max(self.counted, default=0)
                for version, rows in connection.execute(
                    "SELECT version, rows FROM scoring_standingssnapshot WHERE tournament_id = %s AND version > %s",
                    (self.site.tournament_id, since),
                ):
                    self.counted[int(version)] = donnes_counted(rows)
                self.stop.wait(0.03)

    def first_counting(self, donnes: int) -> int | None:
        """The first version seen that counts at least `donnes` donnes."""
        return min((version for version, count in self.counted.items() if count >= donnes), default=None)


def tickets(site: Site) -> tuple[int, int]:
    found = site.query(
        "SELECT requested, built FROM scoring_standingsrefresh WHERE tournament_id = %s", (site.tournament_id,)
    )
    return (int(str(found[0][0])), int(str(found[0][1]))) if found else (0, 0)


def test_a_hand_entered_through_one_node_shows_through_the_other_and_no_node_ever_goes_back(site: Site) -> None:
    tokens = table_tokens(site)
    hands = 2 * len(tokens)
    watch = VersionWatch(site)
    watch.thread.start()
    fronts = {site.a.name: site.front_a, site.b.name: site.front_b}
    phones = [
        Phone(number, node, site.slug, front=fronts[node.name])
        for number, node in enumerate([site.a, site.a, site.b, site.b, site.b])
    ]
    stop = threading.Event()
    pollers = [threading.Thread(target=phone.keep_polling, args=(stop,), daemon=True) for phone in phones]
    for poller in pollers:
        poller.start()
    requested_before, _built = tickets(site)
    # When each hand was acknowledged, and the node it was entered through.
    entered: list[tuple[float, str]] = []
    rng = random.Random(5)
    try:
        time.sleep(1)
        version_before = max(watch.counted, default=0)
        # Faster than the publication (a hand every 0.3 to 0.9 s, a version published at
        # most every 2 s), at every table in turn: the publication is always behind. Most
        # through node A; every fourth through node B, which node A's phones must show.
        for hand in range(hands):
            node = site.b if hand % 4 == 3 else site.a
            enter_hand(node, tokens[hand % len(tokens)])
            entered.append((time.monotonic(), node.name))
            time.sleep(rng.uniform(0.3, 0.9))
        time.sleep(VISIBLE_WITHIN + 0.5)
    finally:
        stop.set()
        for poller in pollers:
            poller.join(15)
        watch.stop.set()
        watch.thread.join(5)

    answers = [answer for phone in phones for answer in phone.answers]
    assert not [problem for phone in phones for problem in phone.problems]
    assert len(answers) > 100

    # Every hand shows through the other node within the target.
    late = []
    for number, (at, through) in enumerate(entered, start=1):
        version = watch.first_counting(number)
        assert version is not None, f"no version counts {number} donnes: {watch.counted}"
        other = "B" if through == "A" else "A"
        seen = [answer.ended for answer in answers if answer.node == other and answer.version >= version]
        shown = min(seen, default=float("inf")) - at
        if shown > VISIBLE_WITHIN:
            late.append((number, through, round(shown, 2)))
    assert not late, f"hands shown through the other node later than {VISIBLE_WITHIN} s: {late}"

    # Neither node, nor any phone, ever went back.
    for name in "AB":
        went_back = older_after_newer([answer for answer in answers if answer.node == name])
        assert not went_back, f"node {name} answered older after newer: {went_back[:3]}"
    for phone in phones:
        versions = [answer.version for answer in phone.answers]
        assert versions == sorted(versions), (phone.number, versions)
    # Most polls were 304s: the phones showed the published version already.
    assert sum(answer.status == 304 for answer in answers) > len(answers) / 2

    # The refresh ran once per hand, whichever node took it: one ticket a hand, all built,
    # and no more live versions than hands.
    deadline = time.monotonic() + 10
    while tickets(site)[1] < tickets(site)[0] and time.monotonic() < deadline:
        time.sleep(0.1)
    requested, built = tickets(site)
    assert (requested - requested_before, built) == (hands, requested)
    assert 1 <= max(watch.counted) - version_before <= hands


# -- the limits ------------------------------------------------------------------------------


def test_wrong_table_links_of_one_phone_are_counted_on_both_nodes_together(site: Site) -> None:
    # Random addresses: each run counts afresh.
    phone, neighbour = (f"2001:db8::{random.getrandbits(16):x}:{n}" for n in (1, 2))
    statuses = [
        (site.a if n % 2 else site.b).get(f"/r/wrong-link-{n:020d}/", {"X-Forwarded-For": phone}).status
        for n in range(21)
    ]
    # 20 wrong links in the window, 10 through each node: the 21st is refused.
    assert statuses == [404] * 20 + [429]
    assert site.a.get("/r/wrong-link-00000000000000000099/", {"X-Forwarded-For": phone}).status == 429
    assert site.b.get("/r/wrong-link-00000000000000000099/", {"X-Forwarded-For": neighbour}).status == 404


CSRF_FIELD = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def log_in(node: Node, client: str, password: str, csrf: tuple[str, str]) -> Response:
    cookie, token = csrf
    body = urllib.parse.urlencode({"username": "demo", "password": password, "csrfmiddlewaretoken": token}).encode()
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"csrftoken={cookie}",
        "Referer": f"https://127.0.0.1:{node.port}/login/",
        "X-Forwarded-For": client,
    }
    return node.request("POST", "/login/", body, headers)


def csrf_of(node: Node) -> tuple[str, str]:
    """The CSRF cookie and the form's token, as the login page gives them."""
    page = node.get("/login/")
    assert page.status == 200
    cookie = re.search(r"csrftoken=([^;]+)", page.header("Set-Cookie") or "")
    token = CSRF_FIELD.search(page.body)
    assert cookie is not None and token is not None
    return cookie.group(1), token.group(1).decode()


def test_failed_logins_on_both_nodes_lock_the_account_from_that_client_on_both(site: Site) -> None:
    client = f"2001:db8::{random.getrandbits(16):x}:7"
    # The form's token from node A is good on node B: one secret key, one cookie.
    csrf = csrf_of(site.a)
    failures = [log_in(site.a if n % 2 else site.b, client, "not-the-password", csrf).status for n in range(5)]
    # The fifth failure, wherever it lands, reaches the limit (5) and is answered with the lock.
    assert failures == [200] * 4 + [429]
    # Locked on both nodes, even with the right password, for that client only.
    assert log_in(site.a, client, "demo-atout", csrf).status == 429
    assert log_in(site.b, client, "demo-atout", csrf).status == 429
    assert log_in(site.b, f"2001:db8::{random.getrandbits(16):x}:8", "demo-atout", csrf).status == 302


# -- Redis lost (last: it empties the cache the other tests count in) ---------------------


def newest_stored(site: Site) -> int:
    (newest,) = site.query(
        "SELECT coalesce(max(version), 0) FROM scoring_standingssnapshot WHERE tournament_id = %s",
        (site.tournament_id,),
    )[0]
    return int(str(newest))


def test_after_redis_restarts_empty_no_node_goes_back(site: Site) -> None:
    """Redis restarted empty, just after a new version was committed: the publication and
    the announced version are gone, and for a second some processes still hold the
    tournament's row read before that version, others one read after. Each poll publishes
    again from the newest version stored, never from such a row (nor, while each process
    pauses its calls to the Redis that failed, serves its row's version)."""
    tokens = table_tokens(site)
    phones = [Phone(number, node, site.slug) for number, node in enumerate([site.a, site.a, site.b, site.b])]
    stop = threading.Event()
    pollers = [threading.Thread(target=phone.keep_polling, args=(stop,), daemon=True) for phone in phones]
    for poller in pollers:
        poller.start()
    try:
        time.sleep(1)
        for hand in range(3):
            before = newest_stored(site)
            enter_hand(site.a, tokens[hand])
            deadline = time.monotonic() + 10
            while newest_stored(site) == before and time.monotonic() < deadline:
                time.sleep(0.02)
            site.redis.kill()
            site.redis.start()
            time.sleep(2)
        # Through the pause each process takes after a failed call to Redis (5 s), and after.
        time.sleep(6)
    finally:
        stop.set()
        for poller in pollers:
            poller.join(15)
    answers = [answer for phone in phones for answer in phone.answers]
    assert not [problem for phone in phones for problem in phone.problems]
    for name in "AB":
        went_back = older_after_newer([answer for answer in answers if answer.node == name])
        assert not went_back, f"node {name} answered older after newer: {went_back[:3]}"
    # Once Redis lost the publication, the nodes serve the newest version stored.
    assert max(answers, key=lambda answer: answer.ended).version == newest_stored(site)
