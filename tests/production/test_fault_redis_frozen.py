"""Redis frozen during entry: every donne is answered at once, stored once, ranked once Redis is back.

A frozen Redis (SIGSTOP: a stalled server, a full disk, a swapped-out VM) keeps its
connections open and answers nothing on them; the kernel even accepts new ones. Without
a timeout every call to it waits for ever, and gunicorn kills the worker after 30 s.

gunicorn (three sync workers, as on a laptop) and a Celery worker use a private
redis-server (tests.production.servers) as their broker and their cache. Three referees
enter a donne each, then Redis is frozen and they go on entering. Every POST made while
it is frozen is answered 201 within two seconds: a deadline against a hang, not a speed
(each call to Redis gives up after about one second and is then skipped for a while).
The public ranking and /healthz answer too. Once Redis thaws, the worker's sweep sends
the standings refreshes lost meanwhile and the live ranking catches up; each donne is
stored once, and one sent again with its key is answered as the one stored.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis

from tests.production.faults import donne, post_json, seed_tables, site_env, standings_caught_up, wait_until
from tests.production.processes import (
    PostgresServer,
    Process,
    celery_worker,
    free_port,
    gunicorn,
    http_get,
    manage,
    read_log_lines,
)
from tests.production.servers import PrivateRedis, private_redis

TABLES = 3
FROZEN_DONNES = 5
# Between two donnes of a table: the freeze lasts well past the pause after a failed call
# to Redis (kit.redis_guard), so that every worker meets Redis frozen more than once.
PAUSE = 2.5
# A hang, not a speed: a donne answered later than this was held up by Redis.
ANSWER_WITHIN = 2.0
# Generous: a request that hangs is seen to hang, and the test goes on.
CLIENT_TIMEOUT = 40.0
STALE_SECONDS = 6
SWEEP_SECONDS = 1


@dataclass
class Entry:
    number: int
    key: str
    status: int = 0
    seconds: float = 0.0
    error: str = ""


@dataclass
class Night:
    postgres: PostgresServer
    database: str
    redis: PrivateRedis
    env: dict[str, str]
    web: Process
    worker: Process
    port: int
    tokens: list[str]
    entries: dict[str, list[Entry]] = field(default_factory=dict)

    def send(self, token: str, number: int, key: str) -> tuple[int, object]:
        status, _headers, body = post_json(
            self.port, "/api/v1/table/hands/", {"raw": donne(number), "expected_number": number},
            {"X-Table-Token": token, "Idempotency-Key": key}, timeout=CLIENT_TIMEOUT,
        )  # fmt: skip
        return status, body

    def enter(self, token: str, number: int) -> Entry:
        entry = Entry(number, f"frozen-{uuid.uuid4()}")
        started = time.monotonic()
        try:
            entry.status, body = self.send(token, number, entry.key)
            if entry.status != 201:
                entry.error = str(body)[:300]
        except OSError as error:  # a timeout or a dropped connection: the phone saw no answer
            entry.error = repr(error)
        entry.seconds = time.monotonic() - started
        self.entries.setdefault(token, []).append(entry)
        return entry

    def stored(self, token: str) -> list[tuple[object, ...]]:
        return self.postgres.query(
            self.database,
            "SELECT h.number, h.idempotency_key FROM scoring_hand h JOIN tournaments_table t "
            "ON t.id = h.table_id WHERE t.token = %s ORDER BY h.number, h.id",
            (token,),
        )


@pytest.fixture
def night(tmp_path: Path) -> Iterator[Night]:
    postgres = PostgresServer.required()
    tag = uuid.uuid4().hex[:8]
    database = f"atout_fault_frozen_{tag}"
    with private_redis() as server:
        port = free_port()
        env = site_env(
            postgres.create_database(database), port, tmp_path / "static",
            CELERY_BROKER_URL=server.url(0), CACHE_URL=server.url(1), CELERY_QUEUE=f"atout-frozen-{tag}",
            CELERY_WORKER_CONCURRENCY="1", WEB_CONCURRENCY="3", GUNICORN_THREADS="1",
            ATOUT_JOB_STALE_SECONDS=str(STALE_SECONDS), ATOUT_SWEEP_SECONDS=str(SWEEP_SECONDS),
        )  # fmt: skip
        web = gunicorn(f"gunicorn-redis-frozen-{tag}", env)
        worker = celery_worker(f"worker-redis-frozen-{tag}", f"frozen-{tag}", env)
        try:
            manage(env, "migrate", "--noinput")
            manage(env, "collectstatic", "--noinput")
            tokens = seed_tables(env, TABLES)
            web.start()
            worker.start()
            web.wait_for_http(port)
            worker.wait_for_output("ready.")
            yield Night(postgres, database, server, env, web, worker, port, tokens)
        finally:
            # Thawed before anything is stopped, whatever the test did.
            server.thaw()
            web.stop()
            worker.stop()
            postgres.drop_database(database)


def redis_frozen(server: PrivateRedis) -> bool:
    try:
        redis.Redis.from_url(server.url(), socket_timeout=0.5, socket_connect_timeout=0.5).ping()
    except redis.TimeoutError:
        return True
    return False


def test_with_redis_frozen_every_donne_is_answered_at_once_and_stored_once(night: Night) -> None:
    # A donne at every table first: each web process has its connections to Redis open.
    for token in night.tokens:
        assert night.enter(token, 1).status == 201
    wait_until(lambda: standings_caught_up(night.env), 60, "the live ranking of the first donnes")
    slug = str(night.postgres.query(night.database, "SELECT slug FROM tournaments_tournament")[0][0])

    night.redis.freeze()
    try:
        assert redis_frozen(night.redis)

        def referee(token: str) -> None:
            for number in range(2, FROZEN_DONNES + 2):
                night.enter(token, number)
                time.sleep(PAUSE)

        referees = [threading.Thread(target=referee, args=(token,), daemon=True) for token in night.tokens]
        for thread in referees:
            thread.start()
        # The room reads the ranking and the container's probe asks, meanwhile.
        started = time.monotonic()
        ranking = http_get(night.port, f"/t/{slug}/", timeout=CLIENT_TIMEOUT)
        ranking_seconds = time.monotonic() - started
        started = time.monotonic()
        health = http_get(night.port, "/healthz", timeout=CLIENT_TIMEOUT)
        health_seconds = time.monotonic() - started
        for thread in referees:
            thread.join(FROZEN_DONNES * (CLIENT_TIMEOUT + PAUSE))
        assert redis_frozen(night.redis)
    finally:
        night.redis.thaw()

    # Every donne sent while Redis was frozen was answered, stored, within the deadline.
    frozen = [entry for entries in night.entries.values() for entry in entries if entry.number > 1]
    assert len(frozen) == TABLES * FROZEN_DONNES
    late = [(entry.number, entry.status, round(entry.seconds, 1), entry.error) for entry in frozen
            if entry.status != 201 or entry.seconds >= ANSWER_WITHIN]  # fmt: skip
    assert late == []
    assert ranking.status == 200 and ranking_seconds < ANSWER_WITHIN
    assert health.status == 503 and health_seconds < ANSWER_WITHIN

    # Once Redis is back, the sweep sends what could not be sent: the ranking catches up.
    wait_until(lambda: standings_caught_up(night.env), 120, "the live ranking to catch up after the thaw")
    for token in night.tokens:
        entries = night.entries[token]
        assert night.stored(token) == [(entry.number, entry.key) for entry in entries]
        # A phone that lost its answer sends the donne again: the one stored answers.
        last = entries[-1]
        status, body = night.send(token, last.number, last.key)
        assert status == 200 and isinstance(body, dict) and body["replayed"] is True
        assert body["hand"]["number"] == last.number
        assert night.stored(token) == [(entry.number, entry.key) for entry in entries]

    web_lines = read_log_lines(night.web.log_path)
    # Redis was on the donnes' path: their refreshes could not be sent, and were not waited for.
    assert any(str(line.get("message", "")).startswith("task scoring.standings_refresh not sent") for line in web_lines)
    requests = [line for line in web_lines if line.get("message") == "request"]
    assert requests and all(int(line["status"]) < 500 or line.get("path") == "/healthz" for line in requests)  # type: ignore[call-overload]
    # No worker was killed for hanging.
    assert "WORKER TIMEOUT" not in night.web.output()
