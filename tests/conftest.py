"""Fixtures shared by the whole suite.

- Under CI=true the database must be PostgreSQL and Redis must answer: a missing service
  fails the run loudly instead of skipping tests.
- `celery_worker` starts a real Celery worker process on Redis against the test database.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from atout.celery import forget_broker_pools
from tests.tiers import mark_tiers, split_fast_tier

ROOT = Path(__file__).resolve().parent.parent
IN_CI = os.environ.get("CI") == "true"
REDIS_URL = os.environ.get("ATOUT_TEST_REDIS_URL", "")
CHROMIUM = "/usr/bin/chromium"

# Playwright's sync API runs an event loop in this thread; Django's ORM calls made by the
# test itself (setting up data) are still synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        if IN_CI:
            pytest.fail(f"CI=true but {CHROMIUM} is missing")
        pytest.skip(f"{CHROMIUM} is missing: browser tests skipped")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def pytest_configure(config: pytest.Config) -> None:
    if IN_CI and not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise pytest.UsageError("CI=true: DATABASE_URL must point at PostgreSQL (./test sets it).")
    if IN_CI and not REDIS_URL:
        raise pytest.UsageError("CI=true: ATOUT_TEST_REDIS_URL must point at Redis (./test sets it).")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--tier",
        choices=("fast", "all"),
        default="all",
        help="fast: leave out the browser, real-worker, production, property and slow tests (tests/tiers.py)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    mark_tiers(items)
    if config.getoption("tier") == "fast":
        kept, left = split_fast_tier(items)
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = kept


def require_redis() -> str:
    """The Redis URL for worker tests; skips outside CI when Redis is not there."""
    if not REDIS_URL:
        if IN_CI:
            pytest.fail("CI=true but no Redis for the Celery worker tests")
        pytest.skip("Redis unreachable: real-worker tests skipped (./test said so)")
    return REDIS_URL


@pytest.fixture(autouse=True)
def site_language_restored() -> Iterator[None]:
    """Each test starts in the site's language: Django's test client answers in this
    thread, and a request in English leaves English active for whatever runs next."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def ranking_published_at_once() -> Iterator[None]:
    """Every new ranking version is served at once (ATOUT_RANKING_PUBLISH_SECONDS=0), as
    before publishing was spaced out; tests of the spacing set it themselves
    (tests/scoring/test_live_ranking.py)."""
    from django.conf import settings

    saved = settings.RANKING_PUBLISH_SECONDS
    settings.RANKING_PUBLISH_SECONDS = 0
    yield
    settings.RANKING_PUBLISH_SECONDS = saved


@pytest.fixture(autouse=True)
def live_files_of_its_own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Each test writes the public rankings' files (scoring/live_files.py) to a folder of
    its own: no file of another test's tournament at the same address."""
    from django.conf import settings

    saved = settings.LIVE_ROOT
    settings.LIVE_ROOT = tmp_path_factory.mktemp("live")
    yield settings.LIVE_ROOT
    settings.LIVE_ROOT = saved


@pytest.fixture(autouse=True)
def ranking_fragments_forgotten() -> Iterator[None]:
    """Each test starts with no ranking fragment kept in this process (scoring/live_ranking.py
    keeps the last ones it read beside the shared cache, which tests clear themselves), nor
    any « Ma soirée » night drawn (scoring/views/soiree_parts.py)."""
    from scoring import live_ranking
    from scoring.views import soiree_parts

    live_ranking.forget_local()
    soiree_parts.forget()
    yield
    live_ranking.forget_local()
    soiree_parts.forget()


@pytest.fixture(autouse=True)
def no_redis_counted_away() -> Iterator[None]:
    """Each test starts with every Redis server answering as far as this process knows
    (kit.redis_guard): a server another test froze or refused is not skipped here."""
    from kit import redis_guard

    redis_guard.forget()
    yield
    redis_guard.forget()


@pytest.fixture(autouse=True)
def atout_celery_app_current() -> Iterator[None]:
    """Every test sends tasks through the project's app, eager unless `celery_worker` says.

    Shared tasks resolve to Celery's current (or, in other threads, default) app: make it
    Atout's, so that no app another test created can capture them.
    """
    from atout.celery import app

    app.set_current()
    app.set_default()
    app.conf.task_always_eager = True
    yield
    # A test that closes a pool without dropping it breaks every later send: say which.
    for pool in (app._pool, app.amqp._producer_pool):
        if pool is not None and getattr(pool, "_closed", False):
            forget_broker_pools(app)
            pytest.fail("this test left Celery's broker pool closed: reset it with forget_broker_pools(app)")


class WorkerProcess:
    """A `celery worker` subprocess bound to a private queue, killable by tests."""

    def __init__(self, broker_url: str, database_url: str, queue: str) -> None:
        self.broker_url = broker_url
        self.database_url = database_url
        self.queue = queue
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = ROOT / "test-results" / f"worker-{queue}.log"

    def start(self) -> None:
        env = dict(os.environ)
        env.update(
            DATABASE_URL=self.database_url,
            CELERY_BROKER_URL=self.broker_url,
            CELERY_QUEUE=self.queue,
            PYTHONUNBUFFERED="1",
        )
        self.log_path.parent.mkdir(exist_ok=True)
        log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "atout", "worker", "-P", "solo", "-Q", self.queue,
             "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"{self.queue}@%h",
             "--loglevel", "INFO"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        self.wait_ready()

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"the Celery worker exited: see {self.log_path}")
            if b"ready." in self.log_path.read_bytes():
                return
            time.sleep(0.2)
        raise RuntimeError(f"the Celery worker did not become ready in {timeout}s: see {self.log_path}")

    def kill(self) -> None:
        """Kill the worker at once (SIGKILL), as a crash or an OOM kill would."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def _database_url_for_tests() -> str:
    from django.db import connection

    db = connection.settings_dict
    if connection.vendor != "postgresql":
        if IN_CI:
            pytest.fail("CI=true but the test database is not PostgreSQL")
        pytest.skip("the real-worker tests need PostgreSQL (a worker process cannot see a SQLite test database)")
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def celery_worker(transactional_db: None) -> Iterator[WorkerProcess]:
    """A real Celery worker process on Redis, consuming a queue private to this test.

    The test process sends to the same broker and queue, so `task.delay()` goes through
    Redis to the worker, which writes to the test database (hence transactional_db).
    """
    from atout.celery import app

    broker = require_redis()
    database_url = _database_url_for_tests()
    queue = f"atout-test-{uuid.uuid4().hex[:8]}"
    saved = {key: app.conf.get(key) for key in ("broker_url", "task_always_eager", "task_default_queue")}
    app.conf.update(broker_url=broker, task_always_eager=False, task_default_queue=queue)
    # Even eager tasks open a (lazy) producer pool on the broker configured then; Celery
    # keeps it for good, so it is dropped here and the next send connects to Redis.
    forget_broker_pools(app)
    worker = WorkerProcess(broker, database_url, queue)
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()
        app.conf.update(saved)
        forget_broker_pools(app)
