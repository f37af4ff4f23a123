"""Redis restarted empty during entry and during a re-scoring: nothing stops, nothing is lost.

gunicorn and a Celery worker use a private redis-server (tests.production.servers) as
their broker and their cache. While four tables enter donnes, the director launches a
re-scoring; Redis is killed in the middle of it, a second re-scoring is launched while
Redis is away (its message can only be lost), and Redis comes back empty. Entry goes on
throughout (no 5xx); the first job completes on its worker; the second is found by the
workers' sweep and run; the live ranking catches up with every donne.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.production.faults import Referee, run_python, seed_tables, site_env, standings_caught_up, wait_until
from tests.production.processes import (
    PostgresServer,
    Process,
    celery_worker,
    free_port,
    gunicorn,
    manage,
    read_log_lines,
)
from tests.production.servers import PrivateRedis, private_redis

TABLES = 4
DONNES = 16
# Short, for the test: a job queued this long lost its message; the sweep runs this often.
STALE_SECONDS = 6
SWEEP_SECONDS = 1
FIRST_OPTIONS = {"rounding": "nearest_ten"}
SECOND_OPTIONS = {"rounding": "nearest_ten", "tie": "dedans"}

LAUNCH_JOB = """
from scoring import jobs
from tournaments.models import Tournament
job = jobs.job_launch(tournament=Tournament.objects.get(), config={{"rule_options": {options}}})
print(job.pk)
"""
RESOLVED_OPTIONS = """
import json, engine
print(json.dumps(engine.get_game("belote_classique").resolve_options({options})))
"""


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

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        return self.postgres.query(self.database, sql, params)

    def job(self, pk: int) -> tuple[str, str]:
        status, error = self.query("SELECT status, error FROM scoring_job WHERE id = %s", (pk,))[0]
        return str(status), str(error)

    def launch(self, options: dict[str, str]) -> int:
        return int(run_python(self.env, LAUNCH_JOB.format(options=options)).strip().splitlines()[-1])


@pytest.fixture
def night(tmp_path: Path) -> Iterator[Night]:
    postgres = PostgresServer.required()
    tag = uuid.uuid4().hex[:8]
    database = f"atout_fault_redis_{tag}"
    with private_redis() as redis:
        port = free_port()
        env = site_env(
            postgres.create_database(database), port, tmp_path / "static",
            CELERY_BROKER_URL=redis.url(0), CACHE_URL=redis.url(1), CELERY_QUEUE=f"atout-fault-{tag}",
            CELERY_WORKER_CONCURRENCY="1", WEB_CONCURRENCY="2",
            ATOUT_JOB_STALE_SECONDS=str(STALE_SECONDS), ATOUT_SWEEP_SECONDS=str(SWEEP_SECONDS),
            ATOUT_TEST_JOB_PAUSE="0.1",
        )  # fmt: skip
        web = gunicorn(f"gunicorn-redis-fault-{tag}", env)
        worker = celery_worker(f"worker-redis-fault-{tag}", f"fault-{tag}", env)
        try:
            manage(env, "migrate", "--noinput")
            manage(env, "collectstatic", "--noinput")
            tokens = seed_tables(env, TABLES)
            web.start()
            worker.start()
            web.wait_for_http(port)
            worker.wait_for_output("ready.")
            yield Night(postgres, database, redis, env, web, worker, port, tokens)
        finally:
            web.stop()
            worker.stop()
            postgres.drop_database(database)


def test_redis_restarted_empty_during_entry_and_a_rescoring(night: Night) -> None:
    deadline = time.monotonic() + 240
    # Half the donnes before Redis goes, the other half after: the tables wait at the half
    # (were the machine slow, they could otherwise have finished before the fault).
    redis_gone = threading.Event()
    referees = [
        Referee(night.port, token, DONNES, deadline, pause=0.3, hold=redis_gone, hold_after=DONNES // 2).start()
        for token in night.tokens
    ]
    wait_until(lambda: all(len(r.acknowledged) >= 3 for r in referees), 90, "three donnes at every table")

    first = night.launch(FIRST_OPTIONS)
    wait_until(lambda: night.job(first)[0] == "running", 60, "the first job to start")
    night.redis.kill()
    stored_before = sum(len(r.acknowledged) for r in referees)
    redis_gone.set()
    # Launched while Redis is away: the job is stored, its message can only be lost.
    second = night.launch(SECOND_OPTIONS)
    time.sleep(2)
    # Donnes stored while Redis is away (on a busy machine two seconds may see none).
    wait_until(lambda: sum(len(r.acknowledged) for r in referees) > stored_before, 60, "a donne stored without Redis")
    night.redis.start()

    for referee in referees:
        referee.join()
    wait_until(lambda: night.job(second)[0] in ("done", "failed"), 120, "the second job, sent again by the sweep")

    wait_until(lambda: standings_caught_up(night.env), 60, "the live ranking to catch up")

    # Entry went on: every donne acknowledged at once, stored once, in its place.
    for referee in referees:
        assert referee.failures == [] and referee.unavailable == []
        assert [number for number, _, _ in referee.acknowledged] == list(range(1, DONNES + 1))
        stored = night.query(
            "SELECT h.number, h.raw, h.idempotency_key FROM scoring_hand h JOIN tournaments_table t "
            "ON t.id = h.table_id WHERE t.token = %s ORDER BY h.number",
            (referee.token,),
        )
        assert stored == [(number, raw, key) for number, key, raw in referee.acknowledged]
    assert night.job(first)[0] == "done"
    assert night.job(second) == ("done", "")
    # The second job's options are installed, and every hand is scored with them.
    resolved = json.loads(run_python(night.env, RESOLVED_OPTIONS.format(options=SECOND_OPTIONS)).strip())
    assert night.query("SELECT rule_options FROM tournaments_tournament") == [(resolved,)]
    hands = night.query("SELECT options, scores FROM scoring_hand")
    assert len(hands) == TABLES * DONNES
    assert all(options == resolved for options, _ in hands)
    assert all(score % 10 == 0 for _, scores in hands for score in scores)  # type: ignore[attr-defined]
    # The sweep sent the lost job again; no request failed while Redis was away.
    sweeps = [
        line for line in read_log_lines(night.worker.log_path) if str(line.get("message", "")).startswith("sweep:")
    ]
    assert sweeps, night.worker.output()[-3000:]
    web_lines = read_log_lines(night.web.log_path)
    # Donnes were stored while Redis was away: their refreshes could not be sent.
    assert any(str(line.get("message", "")).startswith("task scoring.standings_refresh not sent") for line in web_lines)
    requests = [line for line in web_lines if line.get("message") == "request"]
    assert requests and all(int(line["status"]) < 500 for line in requests)  # type: ignore[call-overload]
