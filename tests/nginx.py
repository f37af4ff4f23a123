"""nginx in front of pytest-django's `live_server`, as production's proxy: the configuration
serving/nginx.py writes for the benches too, with docker/nginx-live.conf's `/live/`
location, the live ranking's files served from this test's own live root.

Fixtures (a test module imports the ones it uses, `from tests.nginx import nginx, ...`):
- `live_root`: settings.LIVE_ROOT for this test (the live server's thread shares the
  settings): `<a folder of its own>/live`, not made in advance (the site makes it), in a
  folder nginx's workers can read (they run as nobody when the tests run as root, as a
  production nginx's run as a user of their own);
- `nginx`: Debian's nginx on a free port of 127.0.0.1 in front of the live server (its own
  folder: configuration, pid, logs, temporary files), every request in its access log
  (`NginxProxy.logged`); stopped after the test, its logs kept in test-results/nginx/;
- `site_requests`: the paths of the requests Django itself served meanwhile (its
  `request_started` signal): what nginx passed on, and nothing it answered itself.

Skipped when nginx is missing (`./test` installs it, scripts/setup.sh); a failure under CI=true.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.core.signals import request_started

from serving.nginx import Logged, nginx_binary, nginx_conf, read_access_log, worker_user, write_config
from tests.conftest import IN_CI, ROOT

LOGS = ROOT / "test-results" / "nginx"


@dataclass
class NginxProxy:
    """A running nginx: its address (`url`, no trailing slash), its folder and live root."""

    url: str
    port: int
    folder: Path
    live_root: Path
    process: subprocess.Popen[bytes]

    def logged(self) -> list[Logged]:
        """Every request nginx has answered so far (its access log)."""
        return read_access_log(self.folder / "access.log")

    def logged_at(self, path: str) -> list[Logged]:
        """The requests answered so far for `path` (its query string aside)."""
        return [line for line in self.logged() if urlsplit(line.uri).path == path]

    def logged_once(self, path: str, count: int = 1, seconds: float = 10.0) -> list[Logged]:
        """The requests answered for `path`, once at least `count` are in the log: nginx
        writes a request's line once it is done with it, which may come a moment after the
        client has read the answer."""
        deadline = time.monotonic() + seconds
        while len(found := self.logged_at(path)) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return found

    def errors(self) -> str:
        return (self.folder / "error.log").read_text(errors="replace") if (self.folder / "error.log").exists() else ""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_listening(process: subprocess.Popen[bytes], port: int, folder: Path, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx exited: {(folder / 'nginx.out').read_text(errors='replace')[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nginx did not listen on {port} in {timeout:g} s")


@pytest.fixture
def live_root(settings: Any) -> Iterator[Path]:
    """settings.LIVE_ROOT for this test: a folder `live` (not made yet) in a folder of its own."""
    parent = Path(tempfile.mkdtemp(prefix="atout-live-"))
    # mkdtemp makes it 0700: nginx's workers (nobody) must reach the files under it.
    parent.chmod(0o755)
    root = parent / "live"
    settings.LIVE_ROOT = root
    yield root
    shutil.rmtree(parent, ignore_errors=True)


@pytest.fixture
def nginx(request: pytest.FixtureRequest, live_server: Any, live_root: Path, settings: Any) -> Iterator[NginxProxy]:
    """nginx on a free port in front of `live_server`, serving `live_root`'s files."""
    binary = nginx_binary()
    if binary is None:
        if IN_CI:
            pytest.fail("CI=true but nginx is missing (scripts/setup.sh installs it)")
        pytest.skip("nginx is missing: the tests through nginx are skipped (./test installs it)")
    site = urlsplit(live_server.url).port
    assert site is not None
    folder = Path(tempfile.mkdtemp(prefix="atout-nginx-"))
    port = free_port()
    argv = write_config(
        binary, folder,
        nginx_conf(folder, port=port, sites=[site], live_root=live_root, user=worker_user(), access_log=True),
    )  # fmt: skip
    # The browser asks for 127.0.0.1:<port>, and nginx passes that Host on.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]
    with (folder / "nginx.out").open("wb") as out:
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    proxy = NginxProxy(f"http://127.0.0.1:{port}", port, folder, live_root, process)
    try:
        wait_listening(process, port, folder)
        yield proxy
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        kept = LOGS / re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name)
        shutil.rmtree(kept, ignore_errors=True)
        kept.mkdir(parents=True, exist_ok=True)
        for name in ("nginx.conf", "access.log", "error.log", "nginx.out"):
            if (folder / name).exists():
                shutil.copy(folder / name, kept / name)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def site_requests() -> Iterator[list[str]]:
    """The paths of the requests Django served during the test, in order (any thread's)."""
    seen: list[str] = []

    def started(sender: object, environ: dict[str, Any] | None = None, **kwargs: object) -> None:
        if environ is not None:
            seen.append(str(environ.get("PATH_INFO", "")))

    request_started.connect(started, weak=False, dispatch_uid="tests.nginx.site_requests")
    yield seen
    request_started.disconnect(dispatch_uid="tests.nginx.site_requests")
