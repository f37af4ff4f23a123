"""Private PostgreSQL and Redis servers that a fault test starts, stops and restarts.

Never the machine's own servers: each runs from a temporary directory on a free port of
127.0.0.1, and is stopped and its directory removed by the context manager that made
it, whatever the test did. Every wait is bounded.

PostgreSQL comes from the Debian packages (/usr/lib/postgresql/<version>/bin). initdb
refuses to run as root: under root the server runs as the `postgres` system user, in a
directory handed over to it.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import redis

from tests.conftest import IN_CI
from tests.production.processes import Process, free_port

STARTUP_TIMEOUT = 60


def _missing(what: str) -> None:
    if IN_CI:
        pytest.fail(f"CI=true but {what}")
    pytest.skip(what)


def postgres_bin() -> Path:
    """The newest PostgreSQL server binaries installed from the Debian packages."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name))
    if not found:
        _missing("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
    return found[-1].parent


class PrivatePostgres:
    """A PostgreSQL server of the test's own: initdb'd here, on its own port."""

    def __init__(self) -> None:
        self.bin = postgres_bin()
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="atout-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        # initdb and the server refuse root: run them as the postgres system user.
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user is not None:
            account = pwd.getpwnam(self.user)
            os.chown(self.root, account.pw_uid, account.pw_gid)

    def _run(self, *argv: str, timeout: float = STARTUP_TIMEOUT) -> None:
        command = [str(self.bin / argv[0]), *argv[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(argv[:2])} failed:\n{result.stdout}\n{result.stderr}\n{self.log_tail()}")

    def log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")

    def start(self) -> None:
        # Loopback only, the socket in its own directory, no durability: a test's data.
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "30", "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: `fast` drops every connection; `immediate` is a crash."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        with psycopg.connect(self.url("postgres"), autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def query(self, database: str, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        with psycopg.connect(self.url(database), connect_timeout=5) as conn:
            return conn.execute(sql, params).fetchall()

    def cleanup(self) -> None:
        if self.running():
            with contextlib.suppress(Exception):
                self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    server = PrivatePostgres()
    try:
        server.init()
        server.start()
        yield server
    finally:
        server.cleanup()


class PrivateRedis:
    """A redis-server of the test's own, keeping nothing on disk: a restart comes back empty.

    Frozen by `freeze` and thawed by `thaw`; `stop` (and `private_redis` on leaving) thaws
    it first, so that a failed test never leaves a stopped server behind."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            _missing("redis-server is not installed")
        self.binary = str(binary)
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="atout-redis-"))
        self.starts = 0
        self.process: Process | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.starts += 1
        self.process = Process(
            f"redis-{self.port}-{self.starts}",
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.root)],
            {"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        ).start()  # fmt: skip
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while time.monotonic() < deadline:
            with contextlib.suppress(redis.RedisError):
                if redis.Redis.from_url(self.url(), socket_connect_timeout=1).ping():
                    return
            time.sleep(0.1)
        raise RuntimeError(f"redis-server did not answer on port {self.port}:\n{self.process.output()}")

    def stop(self) -> None:
        if self.process is not None:
            # A frozen server would take its SIGTERM only once thawed.
            self.thaw()
            self.process.stop()
            self.process = None

    def freeze(self) -> None:
        """Stopped (SIGSTOP), not killed: its connections stay open and nothing answers on
        them; a new connection is even accepted (by the kernel), then hears nothing."""
        if self.process is not None and self.process.process is not None:
            os.kill(self.process.process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        """Running again (SIGCONT), with everything it held."""
        if self.process is not None and self.process.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.process.pid, signal.SIGCONT)

    def kill(self) -> None:
        """Gone at once, as a crashed or restarted server: every message it held is lost."""
        if self.process is not None and self.process.process is not None:
            self.process.process.kill()
            self.process.process.wait(10)
        self.stop()


@contextlib.contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.root, ignore_errors=True)
