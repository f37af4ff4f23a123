"""With Redis frozen, every call to it on a request's path gives up and the request goes on.

A private redis-server (tests.production.servers), stopped with SIGSTOP: its connections
stay open and the kernel accepts new ones, but nothing answers. The cache answers a miss,
a task is left to the sweep, the health check says the broker is down, a throttle lets
the request through; after one call has failed, the next ones skip that Redis for a
while (kit.redis_guard). Each call is run against a deadline far beyond Redis' timeout:
a call that hangs is seen to hang, and the test goes on (speed is not measured here).
tests/production/test_fault_redis_frozen.py freezes Redis under gunicorn during entry.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest
from celery import signature
from django.db import connections
from django.test import Client, override_settings

from atout.cache import TolerantRedisCache
from atout.celery import app, forget_broker_pools
from kit import redis_guard
from ratings.enqueue import RATINGS_REBUILD
from scoring.enqueue import STANDINGS_REFRESH, enqueue
from tests.production.servers import PrivateRedis, private_redis

T = TypeVar("T")
# A hang, not a speed: Redis' timeout is about a second.
DEADLINE = 15.0


def answered(call: Callable[[], T]) -> T:
    """What `call()` returns, failing the test if it is still waiting after DEADLINE seconds."""
    outcome: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as error:  # handed to the test's thread
            errors.append(error)
        finally:
            # The connection a request opened in this thread is not the test's to keep.
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(DEADLINE)
    if thread.is_alive():
        pytest.fail(f"still waiting on the frozen Redis after {DEADLINE:g} s")
    if errors:
        raise errors[0]
    return outcome[0]


@pytest.fixture
def frozen() -> Iterator[PrivateRedis]:
    """A Redis of the test's own, frozen once the test has written to it (`freeze`)."""
    with private_redis() as server:
        try:
            yield server
        finally:
            server.thaw()


@pytest.fixture
def frozen_broker(frozen: PrivateRedis) -> Iterator[PrivateRedis]:
    """The site's Celery app sends to the private Redis, as a web process would."""
    saved = {key: app.conf.get(key) for key in ("broker_url", "task_always_eager", "task_default_queue")}
    app.conf.update(broker_url=frozen.url(0), task_always_eager=False, task_default_queue=f"frozen-{uuid.uuid4()}")
    forget_broker_pools(app)
    try:
        yield frozen
    finally:
        frozen.thaw()
        app.conf.update(saved)
        forget_broker_pools(app)


def test_a_cache_read_misses_and_the_next_calls_skip_that_redis_for_a_while(frozen: PrivateRedis) -> None:
    cache = TolerantRedisCache(frozen.url(1), {})
    cache.set("ranking", "v1")
    frozen.freeze()
    assert answered(lambda: cache.get("ranking", "missed")) == "missed"
    assert answered(lambda: cache.add("marker", 1)) is False
    frozen.thaw()
    # Redis answers again, but this process skips it until the pause is over.
    assert redis_guard.away(f"127.0.0.1:{frozen.port}")
    assert cache.get("ranking", "skipped") == "skipped"
    redis_guard.forget()
    assert cache.get("ranking") == "v1"


def test_a_task_sent_to_a_frozen_broker_is_left_to_the_sweep(
    frozen_broker: PrivateRedis, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    enqueue(STANDINGS_REFRESH, tournament_id=1, ticket=1)  # the connections are open
    frozen_broker.freeze()
    # The players' ratings, owed like the others: a finished tournament sends it on commit.
    assert answered(lambda: signature(RATINGS_REBUILD).delay()) is None
    assert redis_guard.away(f"127.0.0.1:{frozen_broker.port}")
    answered(lambda: enqueue(STANDINGS_REFRESH, tournament_id=1, ticket=2))
    sent = [record.getMessage() for record in caplog.records if record.name == "scoring.tasks"]
    assert [message.split(" not sent now")[0] for message in sent] == [
        "task ratings.rebuild",
        "task scoring.standings_refresh",
    ]
    assert sent[1].endswith("is away); the sweep sends it again")


@pytest.mark.django_db
def test_the_health_check_answers_that_a_frozen_broker_is_down(frozen_broker: PrivateRedis, settings) -> None:
    settings.CELERY_BROKER_URL = frozen_broker.url(0)
    assert Client().get("/healthz").status_code == 200
    frozen_broker.freeze()
    response = answered(lambda: Client().get("/healthz"))
    assert response.status_code == 503
    assert response.json()["checks"]["broker"]["ok"] is False
    # Asked again at once: the broker that did not answer is not asked again for a while.
    again = answered(lambda: Client().get("/healthz")).json()["checks"]["broker"]
    assert again["ok"] is False and "a moment ago" in again["detail"]


@pytest.mark.django_db
def test_a_throttle_that_cannot_count_lets_the_request_through(frozen: PrivateRedis) -> None:
    # The wrong-table-link limit (20 in 10 minutes) counts in the cache. Unread, a count
    # starts again at one: the phones go on; only guessing is not slowed for a while.
    caches = {"default": {"BACKEND": "atout.cache.TolerantRedisCache", "LOCATION": frozen.url(1)}}
    with override_settings(CACHES=caches, REFEREE_TOKEN_MISSES=2):
        client = Client()
        assert [client.get(f"/r/{'x' * 32}/").status_code for _ in range(3)] == [404, 404, 429]
        frozen.freeze()
        statuses = answered(lambda: [client.get(f"/r/{'y' * 32}/").status_code for _ in range(3)])
    assert statuses == [404, 404, 404]
