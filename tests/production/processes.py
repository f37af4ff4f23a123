"""Real server processes for the production tests: gunicorn, a Celery worker, a venue.

Each runs as a subprocess with its own environment (nothing from the test process's
settings leaks in), writes its output to test-results/, and is stopped by the fixture
that started it. HTTP goes to 127.0.0.1 only, without following redirects, so a test
sees exactly what the server answered.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from celery import Celery

from tests.conftest import IN_CI, ROOT, require_redis

RESULTS = ROOT / "test-results"
# Variables of the test process that must not reach a production-like process.
_PRIVATE = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}


def clean_env(**overrides: str) -> dict[str, str]:
    """The test process's environment without its Django settings, plus `overrides`; the
    ranking's files (scoring/live_files.py) of the processes it starts in a folder of this
    test session's, not the project's var/live, unless `overrides` names one."""
    env = {key: value for key, value in os.environ.items() if key not in _PRIVATE}
    env.update({"PYTHONUNBUFFERED": "1", "ATOUT_LIVE_ROOT": _session_live_root(), **overrides})
    return env


_live_roots: list[str] = []


def _session_live_root() -> str:
    if not _live_roots:
        _live_roots.append(tempfile.mkdtemp(prefix="atout-processes-live-"))
    return _live_roots[0]


def random_secret() -> str:
    return secrets.token_urlsafe(64)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def header(self, name: str) -> str | None:
        return self.headers.get(name)


def http_get(port: int, path: str, headers: dict[str, str] | None = None, timeout: float = 10) -> Response:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Host": f"127.0.0.1:{port}", **(headers or {})})
        response = connection.getresponse()
        return Response(response.status, response.headers, response.read())
    finally:
        connection.close()


class Process:
    """One server subprocess, its output in test-results/<name>.log."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        self.name = name
        self.argv = argv
        self.env = env
        self.log_path = RESULTS / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Process:
        RESULTS.mkdir(exist_ok=True)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                self.argv, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        return self

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def wait_for_output(self, needle: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if needle in self.output():
                return
            if not self.alive():
                self.stop()
                raise RuntimeError(f"{self.name} exited: see {self.log_path}\n{self.output()[-3000:]}")
            time.sleep(0.2)
        # A start that never came to the line leaves nothing running (the fixture that
        # would stop it never got the process).
        self.stop()
        raise RuntimeError(f"{self.name}: no {needle!r} after {timeout}s: see {self.log_path}")

    def wait_for_http(self, port: int, path: str = "/healthz", timeout: float = 60) -> Response:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                self.stop()
                raise RuntimeError(f"{self.name} exited: see {self.log_path}\n{self.output()[-3000:]}")
            try:
                response = http_get(port, path, timeout=5)
            except OSError:
                time.sleep(0.2)
                continue
            if response.status == 200:
                return response
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"{self.name}: {path} not green after {timeout}s: see {self.log_path}")

    def stop(self) -> None:
        """SIGTERM (gunicorn and Celery shut down gracefully on it), then SIGKILL if need be."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        # Whatever the process started and left behind (it runs in a session of its own,
        # so its group holds only what this test started).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)


def gunicorn(name: str, env: dict[str, str]) -> Process:
    """gunicorn serving the site as production does (serving.gunicorn_conf reads `env`)."""
    return Process(name, [sys.executable, "-m", "gunicorn", "-c", "python:serving.gunicorn_conf", "atout.wsgi"], env)


def celery_worker(name: str, node: str, env: dict[str, str]) -> Process:
    """A Celery worker as production runs it, named `node`@host, on the queue `env` gives."""
    return Process(
        name,
        [sys.executable, "-m", "celery", "-A", "atout", "worker", "--loglevel", "INFO", "--without-gossip",
         "--without-mingle", "-n", f"{node}@%h"],
        env,
    )  # fmt: skip


class PostgresServer:
    """The PostgreSQL server the suite runs on, for databases the tests create themselves."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 5432
        self.user = parts.username or "postgres"
        self.password = parts.password or ""

    @classmethod
    def required(cls) -> PostgresServer:
        """The server behind DATABASE_URL; skips outside CI when the suite is not on PostgreSQL."""
        url = os.environ.get("DATABASE_URL", "")
        if not url.startswith("postgres"):
            if IN_CI:
                pytest.fail("CI=true but DATABASE_URL is not PostgreSQL")
            pytest.skip("the production tests need PostgreSQL (./test sets DATABASE_URL when it answers)")
        return cls(url)

    def _admin(self) -> psycopg.Connection:
        return psycopg.connect(
            host=self.host, port=self.port, user=self.user, password=self.password or None,
            dbname="postgres", autocommit=True, connect_timeout=5,
        )  # fmt: skip

    def url(self, database: str) -> str:
        auth = self.user + (f":{self.password}" if self.password else "")
        return f"postgres://{auth}@{self.host}:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def query(self, database: str, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        with psycopg.connect(self.url(database), connect_timeout=5) as conn:
            return conn.execute(sql, params).fetchall()


def manage(env: dict[str, str], *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run `manage.py` in a subprocess with `env`; fail the test with its output if it fails."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    if result.returncode != 0:
        pytest.fail(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
    return result


def send_task(broker: str, name: str, queue: str, *, countdown: float | None = None, **kwargs: object) -> str:
    """Send task `name` to `queue` as a web process would (`countdown`: to run that many
    seconds later); return its id.

    On a connection of its own, not from Celery's pools: kombu shares those per broker URL
    across the test process, and another test may have closed them.
    """
    # Not the current app: the project's shared tasks resolve to the current app, and a
    # probe left current would send every later test's tasks to its closed pool.
    sender = Celery("probe", broker=broker, set_as_current=False)
    with sender.connection_for_write() as connection, connection.Producer() as producer:
        return str(sender.send_task(name, kwargs=kwargs, queue=queue, producer=producer, countdown=countdown).id)


def read_log_lines(path: Path) -> list[dict[str, object]]:
    """The JSON lines of a process log (LOG_FORMAT=json), skipping banners and tracebacks."""
    lines = []
    for raw in path.read_text(errors="replace").splitlines():
        if raw.startswith("{"):
            try:
                lines.append(json.loads(raw))
            except ValueError:
                continue
    return lines


# What a TLS proxy adds to every request it forwards (the stack runs BEHIND_TLS_PROXY).
HTTPS = {"X-Forwarded-Proto": "https"}


@dataclass
class Stack:
    """A running production-like Atout: gunicorn and a Celery worker on a database of its own."""

    port: int
    database: str
    queue: str
    broker: str
    static_root: Path
    postgres: PostgresServer
    web: Process
    worker: Process
    env: dict[str, str]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def get(self, path: str, headers: dict[str, str] | None = None) -> Response:
        return http_get(self.port, path, headers)


@contextlib.contextmanager
def production_stack(static_root: Path, **settings: str) -> Iterator[Stack]:
    """gunicorn and a Celery worker with DEBUG off, on a new PostgreSQL database and Redis.

    The database is created and migrated here and dropped afterwards; static files are
    collected into `static_root`; `settings` override the environment (e.g. to turn
    BEHIND_TLS_PROXY off for a browser on plain HTTP). Skips outside CI when PostgreSQL or
    Redis is missing, fails under CI.
    """
    postgres = PostgresServer.required()
    broker = require_redis()
    tag = uuid.uuid4().hex[:8]
    database, queue = f"atout_prod_test_{tag}", f"atout-prod-{tag}"
    port = free_port()
    env = clean_env(
        DEBUG="false",
        SECRET_KEY=random_secret(),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=postgres.create_database(database),
        CELERY_BROKER_URL=broker,
        CELERY_QUEUE=queue,
        CELERY_WORKER_CONCURRENCY="1",
        CACHE_URL=broker,
        STATIC_ROOT=str(static_root),
        BEHIND_TLS_PROXY="true",
        GUNICORN_BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY="2",
        LOG_FORMAT="json",
    )
    env.update(settings)
    web = gunicorn(f"gunicorn-{tag}", env)
    worker = celery_worker(f"worker-prod-{tag}", queue, env)
    try:
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        web.start()
        worker.start()
        web.wait_for_http(port)
        worker.wait_for_output("ready.")
        yield Stack(port, database, queue, broker, static_root, postgres, web, worker, env)
    finally:
        web.stop()
        worker.stop()
        postgres.drop_database(database)
