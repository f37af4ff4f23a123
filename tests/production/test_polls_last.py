"""The polls' own address (GUNICORN_POLL_BIND): served only when nobody waits on the site's.

A real gunicorn with one sync worker, listening on the site's address and on the polls'.
The worker is held by a request whose headers are not finished; meanwhile three polls
queue on the polls' address, then three requests on the site's. Once it is let go, the
worker serves the site's three before any poll. (gunicorn's own sync worker takes one
connection from each address in turn: it would interleave them.)
"""

from __future__ import annotations

import importlib.util
import select
import socket
import time
from types import ModuleType

import pytest

from serving import gunicorn_conf
from tests.production.processes import clean_env, free_port, gunicorn, random_secret

REQUEST = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.settimeout(30)
    return sock


def answered_at(sock: socket.socket, name: str, times: dict[str, float]) -> None:
    """Read the answer to its end (the server closes: Connection: close); note when it ended."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    assert received.startswith(b"HTTP/1.1 "), received[:100]
    times[name] = time.monotonic()
    sock.close()


def answer_order(waiting: list[tuple[str, socket.socket]], timeout: float = 30) -> list[str]:
    """The order in which the sockets' answers start, read by one thread.

    The sync worker writes one whole answer before it takes the next connection, a request
    apart at least; one `select` loop sees each answer start in that order (a thread per
    socket, as before, noted the ends as the threads were scheduled: on a busy machine a
    later answer's thread could note its time first).
    """
    names = {sock: name for name, sock in waiting}
    started: list[str] = []
    received: dict[socket.socket, bytes] = {sock: b"" for sock in names}
    open_ = set(names)
    deadline = time.monotonic() + timeout
    while open_ and time.monotonic() < deadline:
        readable, _, _ = select.select(list(open_), [], [], 1)
        # Several at once (a slow turn of the loop): the order they were in the queue.
        for sock in sorted(readable, key=lambda s: [name for name, _ in waiting].index(names[s])):
            chunk = sock.recv(65536)
            if names[sock] not in started:
                started.append(names[sock])
            received[sock] += chunk
            if not chunk:
                open_.discard(sock)
                sock.close()
    for sock, answer in received.items():
        assert answer.startswith(b"HTTP/1.1 "), (names[sock], answer[:100])
    return started


def test_one_worker_serves_the_site_before_the_polls_that_came_first() -> None:
    site, polls = free_port(), free_port()
    env = clean_env(
        DEBUG="false", SECRET_KEY=random_secret(), ALLOWED_HOSTS="127.0.0.1", CACHE_URL="",
        WEB_CONCURRENCY="1", GUNICORN_BIND=f"127.0.0.1:{site}", GUNICORN_POLL_BIND=f"127.0.0.1:{polls}",
    )  # fmt: skip
    web = gunicorn("gunicorn-polls-last", env).start()
    try:
        web.wait_for_output("Booting worker")
        # The worker answers on both addresses.
        for port in (site, polls):
            warm: dict[str, float] = {}
            sock = connect(port)
            sock.sendall(REQUEST)
            answered_at(sock, "warm", warm)
        # Held: the request line is there, the headers never end (until below).
        holder = connect(site)
        holder.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        time.sleep(0.5)
        queued = []
        for name, port in [("poll 1", polls), ("poll 2", polls), ("poll 3", polls)]:
            queued.append((name, connect(port)))
            queued[-1][1].sendall(REQUEST)
        time.sleep(0.5)
        for name, port in [("site 1", site), ("site 2", site), ("site 3", site)]:
            queued.append((name, connect(port)))
            queued[-1][1].sendall(REQUEST)
        time.sleep(0.5)
        holder.sendall(b"Connection: close\r\n\r\n")
        order = answer_order([("holder", holder), *queued])
        assert order[0] == "holder" and len(order) == 7, order
        assert set(order[1:4]) == {"site 1", "site 2", "site 3"}, order
    finally:
        web.stop()


def load_conf(monkeypatch: pytest.MonkeyPatch, **env: str) -> ModuleType:
    """serving/gunicorn_conf.py as gunicorn reads it under `env` (a module of its own)."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("gunicorn_conf_under_test", gunicorn_conf.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_polls_address_is_listened_on_and_served_last_by_sync_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    conf = load_conf(monkeypatch, GUNICORN_BIND="0.0.0.0:8000", GUNICORN_POLL_BIND="0.0.0.0:8001", GUNICORN_THREADS="1")
    assert conf.bind == ["0.0.0.0:8000", "0.0.0.0:8001"]
    assert conf.worker_class is conf.PollsLastWorker


def test_without_a_polls_address_or_with_threads_gunicorn_keeps_its_own_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    conf = load_conf(monkeypatch, GUNICORN_BIND="0.0.0.0:8000", GUNICORN_POLL_BIND="", GUNICORN_THREADS="1")
    assert conf.bind == ["0.0.0.0:8000"] and not hasattr(conf, "worker_class")
    conf = load_conf(monkeypatch, GUNICORN_BIND="0.0.0.0:8000", GUNICORN_POLL_BIND="0.0.0.0:8001", GUNICORN_THREADS="4")
    assert conf.bind == ["0.0.0.0:8000", "0.0.0.0:8001"] and not hasattr(conf, "worker_class")
