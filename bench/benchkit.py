"""What the benchmarks share: their own PostgreSQL databases, a production-like
environment on loopback, the servers they start (gunicorn, a Celery worker) and how to
wait for them, plain HTTP requests, free ports, Redis and percentiles; and the web's CPU
by kind of request (`CpuMeter`, gunicorn's app `benchkit:metered_wsgi()`).

Imported by the scripts of this folder (`python bench/x.py` puts the folder first on
the path); it imports nothing of Atout, so a script decides when Django starts.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
# Where a bench's production processes collect the static files (git-ignored).
BENCH_STATIC = ROOT / "bench-results" / "static"
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
GUNICORN = str(Path(PYTHON).parent / "gunicorn")


def database_url(base: str, name: str) -> str:
    """`base` (a postgres:// URL) pointing at database `name` instead."""
    return urlsplit(base)._replace(path=f"/{name}").geturl()


def admin_sql(base: str, *statements: str) -> None:
    """Run statements on the server's `postgres` database, outside any transaction."""
    import psycopg

    parts = urlsplit(base)
    with psycopg.connect(
        host=parts.hostname or "127.0.0.1", port=parts.port or 5432, user=parts.username or "postgres",
        password=parts.password or None, dbname="postgres", autocommit=True, connect_timeout=5,
    ) as conn:  # fmt: skip
        for statement in statements:
            conn.execute(statement)


def recreate_database(base: str, name: str) -> None:
    admin_sql(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"')


def drop_database(base: str, name: str) -> None:
    admin_sql(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# What a bench process must not inherit from the shell that runs it.
INHERITED_NOT = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE", "CELERY_BROKER_URL", "CACHE_URL"}


def loopback_production_env(url: str, **extra: str) -> dict[str, str]:
    """The environment of a production process (DEBUG off: cached templates, no debug
    bookkeeping) on plain HTTP over loopback, on database `url`; `extra` adds or overrides."""
    env = {key: value for key, value in os.environ.items() if key not in INHERITED_NOT}
    env.update(
        DATABASE_URL=url,
        DEBUG="false",
        # The bench's own collected static files: a bench leaves nothing in the project's
        # folders that the site or its tests could pick up (staticfiles/).
        STATIC_ROOT=os.environ.get("STATIC_ROOT") or str(BENCH_STATIC),
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="testserver,127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        SECURE_HSTS_SECONDS="0",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def celery_worker_argv(queue: str, name: str, loglevel: str = "WARNING") -> list[str]:
    """A `celery worker` of Atout, one task at a time, consuming only `queue`."""
    return [
        PYTHON, "-m", "celery", "-A", "atout", "worker", "-P", "solo", "-Q", queue, "-n", name,
        "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", loglevel,
    ]  # fmt: skip


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def redis_answers(url: str) -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except Exception:  # any failure to reach it means "no Redis" here
        return False


def reference_cpu_ms(repeat: int = 5) -> float:
    """A core's speed: the CPU milliseconds of one fixed pure-Python workload, best of `repeat`.

    Figures of one bench on two machines differ by the machines as much as by the code
    (the same commit's refresh measured 43 ms on one and 60 ms on another). This workload
    (JSON, sorting, dictionaries and string formatting, as the site's Python does) takes the
    same instructions everywhere, so its time says how fast this machine's core is: compare
    a figure with another machine's after dividing both by their reference. CPU time of
    this process, so other processes on the machine move it less than wall time.
    """
    import random

    rng = random.Random(20261205)
    rows = [
        {"rank": i, "name": f"Équipe {i}", "points": rng.randrange(5000), "won": rng.randrange(7)} for i in range(3000)
    ]
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        for _ in range(4):
            decoded = json.loads(json.dumps(rows))
            decoded.sort(key=lambda row: (-row["points"], -row["won"], row["name"]))
            by_name = {row["name"]: row for row in decoded}
            "".join(f"<td>{row['rank']}</td><td>{row['name']}</td>" for row in by_name.values())
        best = min(best, time.process_time() - started)
    return round(best * 1000, 1)


def machine_load() -> str:
    """The machine's load averages and core count, to print beside a figure."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min) on {os.cpu_count() or 1} cores"


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (`share` of 1), NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def server_env(url: str, broker: str) -> dict[str, str]:
    if not broker:
        return loopback_production_env(url)
    queue = f"bench-{uuid.uuid4().hex[:6]}"
    return loopback_production_env(url, CELERY_BROKER_URL=broker, CACHE_URL=broker, CELERY_QUEUE=queue)


def start_django(env: dict[str, str]) -> None:
    """Start Django in this process on the servers' database and settings (`env`), the
    live ranking's folder too when `env` names one (nothing written to the checkout's)."""
    shared = ("DATABASE_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "ATOUT_LIVE_ROOT")
    os.environ.update({key: env[key] for key in shared if key in env})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "atout.settings")
    import django

    django.setup()


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True, timeout=600)


class Server:
    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.name, self.log = name, log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        # Its own session: the group holds only what this script started.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)


def wait_ready(server: Server, port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not server.alive():
            raise RuntimeError(f"{server.name} exited: see {server.log}")
        try:
            status, _headers, _body = request(port, "GET", "/healthz", timeout=5)
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{server.name} did not answer /healthz in {timeout}s: see {server.log}")


def request(
    port: int, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
    timeout: float = 30,
) -> tuple[int, http.client.HTTPMessage, bytes]:  # fmt: skip
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers={"Host": f"127.0.0.1:{port}", **(headers or {})})
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


# -- the web's CPU by kind of request ------------------------------------------------------

# The requests a bench tells apart, each (kind, method, path, whether it is an htmx poll):
# the polled parts of the public pages (the live ranking, the projector, a competitor's
# « Ma soirée » and the director's messages on either) and a referee's hand. Anything
# else is "other" (pages opened, the API's other calls, the director's). The live ranking
# and the projector poll their files (/live/<slug>/<lang>-<kind>.html, which nginx serves
# itself, gunicorn only when the file is missing); the page's own address, polled before
# those files, is still told apart.
REQUEST_KINDS: tuple[tuple[str, str, re.Pattern[str], bool], ...] = (
    ("ranking", "GET", re.compile(r"/live/[^/]+/[a-z]{2}-ranking(?:-[0-9]+)?\.html"), True),
    ("projector", "GET", re.compile(r"/live/[^/]+/[a-z]{2}-projector\.html"), True),
    # The director's messages (projector, draw, « Ma soirée » alike) and the clock as files.
    ("screen", "GET", re.compile(r"/live/[^/]+/[a-z]{2}-screen\.html"), True),
    ("clock", "GET", re.compile(r"/live/[^/]+/[a-z]{2}-clock\.html"), True),
    ("ranking", "GET", re.compile(r"/t/[^/]+/"), True),
    ("projector", "GET", re.compile(r"/t/[^/]+/projector/"), True),
    ("screen", "GET", re.compile(r"/t/[^/]+/screen/"), True),
    ("soirée", "GET", re.compile(r"/soiree/[^/]+/"), True),
    ("soirée screen", "GET", re.compile(r"/soiree/[^/]+/screen/"), True),
    ("clock", "GET", re.compile(r"/t/[^/]+/clock/"), True),
    ("entry", "POST", re.compile(r"/api/v1/table/hands/"), False),
)
# Where a CpuMeter of gunicorn's workers writes its totals (one file a process).
CPU_METER_DIR = "ATOUT_BENCH_CPU_DIR"


def request_kind(method: str, path: str, htmx: bool) -> str:
    """The kind of a request (REQUEST_KINDS), "other" when none."""
    for kind, wanted, pattern, polled in REQUEST_KINDS:
        if method == wanted and polled == htmx and pattern.fullmatch(path):
            return kind
    return "other"


class CpuMeter:
    """A WSGI app around another that sums, by kind of request, the CPU its thread spends
    on each one (`time.thread_time`: from the call of the app, after gunicorn has read the
    request, until the answer's `close()`, after gunicorn has written it), and writes the
    totals of its process to `folder/cpu-<pid>.json` at most every `every` seconds (and
    at exit). Not counted: gunicorn's accepting and reading a request, its master, its
    workers' idle loop; a bench reads them as gunicorn's whole CPU less the sum of these.
    Its own cost is two clock readings and a dictionary update a request."""

    def __init__(self, app: Callable[..., Iterable[bytes]], folder: Path, every: float = 0.5) -> None:
        self.app, self.every = app, every
        self.path = folder / f"cpu-{os.getpid()}.json"
        self.totals: dict[str, list[float]] = {}
        self.lock = threading.Lock()
        self.flushed = time.monotonic()
        import atexit

        atexit.register(self.flush)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        started = time.thread_time()
        kind = request_kind(
            str(environ.get("REQUEST_METHOD", "")), str(environ.get("PATH_INFO", "")),
            environ.get("HTTP_HX_REQUEST") == "true",
        )  # fmt: skip
        try:
            answer = self.app(environ, start_response)
        except BaseException:
            self.count(kind, time.thread_time() - started)
            raise
        return _Metered(answer, self, kind, started)

    def count(self, kind: str, seconds: float) -> None:
        with self.lock:
            total = self.totals.setdefault(kind, [0, 0.0])
            total[0] += 1
            total[1] += seconds
            due = time.monotonic() - self.flushed >= self.every
        if due:
            self.flush()

    def flush(self) -> None:
        with self.lock:
            self.flushed = time.monotonic()
            text = json.dumps(self.totals)
        temporary = self.path.with_suffix(f".{threading.get_ident()}.tmp")
        with contextlib.suppress(OSError):
            temporary.write_text(text)
            os.replace(temporary, self.path)


class _Metered:
    """An answer's body passed through; its `close()` (gunicorn's last call) stops the clock."""

    def __init__(self, answer: Iterable[bytes], meter: CpuMeter, kind: str, started: float) -> None:
        self.answer, self.meter, self.kind, self.started = answer, meter, kind, started

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.answer)

    def close(self) -> None:
        try:
            close = getattr(self.answer, "close", None)
            if close is not None:
                close()
        finally:
            self.meter.count(self.kind, time.thread_time() - self.started)


def metered_wsgi() -> CpuMeter:
    """gunicorn's app `benchkit:metered_wsgi()` (bench/ on PYTHONPATH, after the checkout):
    Atout's WSGI app in a CpuMeter writing to $ATOUT_BENCH_CPU_DIR."""
    from atout.wsgi import application

    return CpuMeter(application, Path(os.environ[CPU_METER_DIR]))


def read_cpu_meters(folder: Path) -> dict[str, tuple[int, float]]:
    """The CpuMeters' totals in `folder`, every process's summed: kind → (requests, CPU s)."""
    totals: dict[str, tuple[int, float]] = {}
    for path in sorted(folder.glob("cpu-*.json")):
        try:
            found = json.loads(path.read_text())
        except (OSError, ValueError):  # a file being replaced: its process's last totals are lost for this read
            continue
        for kind, (count, seconds) in found.items():
            before = totals.get(kind, (0, 0.0))
            totals[kind] = (before[0] + int(count), before[1] + float(seconds))
    return totals
