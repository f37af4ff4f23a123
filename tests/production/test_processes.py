"""The production settings without Docker: gunicorn and a Celery worker as real processes.

A database of its own on the suite's PostgreSQL, migrated here; Redis as broker and
cache; DEBUG off with a real secret; static files collected into a temporary folder and
served by WhiteNoise; the site behind an HTTPS proxy (BEHIND_TLS_PROXY), which the tests
play by sending X-Forwarded-Proto. Everything is driven over HTTP on 127.0.0.1.
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import pytest

from kit.logs import request_id_var
from tests.conftest import ROOT
from tests.production.processes import (
    HTTPS,
    Stack,
    clean_env,
    free_port,
    manage,
    production_stack,
    random_secret,
    read_log_lines,
    send_task,
)
from tournaments.demo import CONCOURS_NAME

pytestmark = pytest.mark.celery_worker


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    # The tests play the HTTPS proxy from 127.0.0.1: trusted, so its X-Forwarded-For names the phone.
    with production_stack(tmp_path_factory.mktemp("static"), TRUSTED_PROXIES="127.0.0.1") as running:
        yield running


def test_healthz_is_green_with_the_database_and_the_broker_checked(stack: Stack) -> None:
    response = stack.get("/healthz")
    assert response.status == 200
    checks = json.loads(response.body)["checks"]
    assert checks["database"] == {"ok": True, "detail": "postgresql"}
    assert checks["broker"]["ok"] is True


def test_debug_is_off_a_missing_page_shows_no_technical_details(stack: Stack) -> None:
    response = stack.get("/no-such-page/", HTTPS)
    assert response.status == 404
    assert b"URLconf" not in response.body and b"Traceback" not in response.body


def test_static_files_are_served_by_whitenoise_hashed_and_compressed(stack: Stack) -> None:
    manifest = json.loads((stack.static_root / "staticfiles.json").read_text())
    hashed = manifest["paths"]["css/atout.css"]
    assert hashed != "css/atout.css" and hashed.startswith("css/atout.")
    # The page links the hashed name...
    page = stack.get("/", HTTPS)
    assert page.status == 200
    assert f"/static/{hashed}".encode() in page.body
    # ...which gunicorn serves compressed, cacheable forever since its name changes with it.
    response = stack.get(f"/static/{hashed}", {"Accept-Encoding": "gzip", **HTTPS})
    assert response.status == 200
    assert response.header("Content-Encoding") == "gzip"
    assert "immutable" in (response.header("Cache-Control") or "")
    assert response.header(
        "Content-Type",
    ).startswith("text/css")


def test_security_headers_are_set_behind_the_tls_proxy(stack: Stack) -> None:
    response = stack.get("/", HTTPS)
    assert response.status == 200
    assert response.header("X-Content-Type-Options") == "nosniff"
    assert response.header("Referrer-Policy") == "same-origin"
    assert response.header("X-Frame-Options") == "DENY"
    assert response.header("Strict-Transport-Security") == "max-age=31536000; includeSubDomains; preload"
    # The database has no account yet: the first administrator's form is the login's page.
    login = stack.get("/setup/", HTTPS)
    cookie = login.header("Set-Cookie") or ""
    assert "csrftoken=" in cookie and "Secure" in cookie


def test_plain_http_is_redirected_to_https_but_the_health_probe_is_not(stack: Stack) -> None:
    response = stack.get("/")
    assert response.status == 301
    assert response.header("Location") == f"https://127.0.0.1:{stack.port}/"
    assert stack.get("/healthz").status == 200


def test_a_host_the_site_does_not_serve_is_refused(stack: Stack) -> None:
    response = stack.get("/", {"Host": "evil.example", **HTTPS})
    assert response.status == 400


def test_wrong_table_links_are_counted_per_phone_behind_the_proxy_and_across_workers(stack: Stack) -> None:
    # Two gunicorn workers share the count through Redis: the 21st wrong link of one phone
    # is refused whichever worker it reaches; another phone behind the same proxy is not.
    # (Random addresses: the counts stay in Redis for their window, across runs of the suite.)
    phone, neighbour = (f"2001:db8::{random.getrandbits(16):x}:{n}" for n in (1, 2))
    statuses = [stack.get(f"/r/wrong-link-{n:020d}/", {"X-Forwarded-For": phone, **HTTPS}).status for n in range(21)]
    assert statuses == [404] * 20 + [429]
    assert stack.get("/r/wrong-link-00000000000000000099/", {"X-Forwarded-For": neighbour, **HTTPS}).status == 404


def test_gunicorn_will_not_start_several_workers_on_a_cache_of_their_own() -> None:
    env = clean_env(
        DEBUG="false", SECRET_KEY=random_secret(), ALLOWED_HOSTS="127.0.0.1", CACHE_URL="",
        WEB_CONCURRENCY="3", GUNICORN_BIND=f"127.0.0.1:{free_port()}",
    )  # fmt: skip
    started = subprocess.run(
        [sys.executable, "-m", "gunicorn", "-c", "python:serving.gunicorn_conf", "atout.wsgi"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert started.returncode == 1
    assert "3 gunicorn workers with DEBUG off need a cache they share: set CACHE_URL" in started.stderr
    assert "Booting worker" not in started.stderr


def test_every_request_is_logged_as_one_line_with_its_request_id(stack: Stack) -> None:
    response = stack.get("/healthz", {"X-Request-ID": "probe-42"})
    assert response.header("X-Request-ID") == "probe-42"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        lines = [line for line in read_log_lines(stack.web.log_path) if line.get("request_id") == "probe-42"]
        if lines:
            break
        time.sleep(0.1)
    (line,) = lines
    assert line["logger"] == "atout.request"
    assert (line["method"], line["path"], line["status"]) == ("GET", "/healthz", 200)
    assert isinstance(line["duration_ms"], float)


def test_a_background_task_is_completed_by_the_worker_with_the_request_id(stack: Stack) -> None:
    token = request_id_var.set("req-from-web-7")
    try:
        # The request id travels in the message headers, as when a page enqueues a job.
        task_id = send_task(stack.broker, "atout.heartbeat", stack.queue)
    finally:
        request_id_var.reset(token)
    deadline = time.monotonic() + 30
    rows: list[tuple[object, ...]] = []
    while time.monotonic() < deadline and not rows:
        rows = stack.postgres.query(stack.database, "SELECT hostname, runs FROM atout_workerheartbeat")
        time.sleep(0.2)
    assert rows and str(rows[0][0]).startswith(stack.queue) and rows[0][1] == 1
    deadline = time.monotonic() + 10
    jobs: list[dict[str, object]] = []
    while time.monotonic() < deadline and not jobs:
        jobs = [line for line in read_log_lines(stack.worker.log_path) if line.get("logger") == "atout.job"]
        time.sleep(0.1)
    (job,) = jobs
    assert job["task"] == "atout.heartbeat" and job["outcome"] == "success"
    assert job["task_id"] == task_id
    assert job["request_id"] == "req-from-web-7"


def test_a_bulk_recalculation_is_completed_by_the_worker(stack: Stack) -> None:
    env = stack.web.env
    # The demo concours (24 teams, round 1 drawn), its round played through the referee's
    # service, then "recalculate everything" queued for the workers, as the director's button does.
    manage(env, "demo")
    (slug,) = stack.postgres.query(
        stack.database, "SELECT slug FROM tournaments_tournament WHERE name = %s", (CONCOURS_NAME,)
    )[0]
    manage(env, "simulate_round", str(slug))
    queued = manage(env, "rebuild_standings", "--tournament", str(slug), "--queue")
    assert "queued" in queued.stdout
    deadline = time.monotonic() + 120
    job: tuple[object, ...] = ()
    while time.monotonic() < deadline:
        (job,) = stack.postgres.query(
            stack.database,
            "SELECT status, kind, total, progress, tournament_id, started_at, finished_at"
            " FROM scoring_job ORDER BY id DESC LIMIT 1",
        )
        if job[0] in {"done", "failed"}:
            break
        time.sleep(0.5)
    status, kind, total, progress, tournament_id, started_at, finished_at = job
    assert (status, kind) == ("done", "rescore"), job
    assert isinstance(total, int) and total > 0 and progress == total
    assert started_at is not None and finished_at is not None and started_at <= finished_at
    # The ranking stands on a snapshot (the job rebuilds one only when a score moved;
    # re-scoring with unchanged rules moves none).
    (built,) = stack.postgres.query(
        stack.database, "SELECT count(*) FROM scoring_standingssnapshot WHERE tournament_id = %s", (tournament_id,)
    )[0]
    assert built >= 1
    # The worker logged the job with its tournament.
    lines = [
        line
        for line in read_log_lines(stack.worker.log_path)
        if line.get("logger") == "atout.job" and line.get("task") == "scoring.job_run"
    ]
    assert lines and lines[-1]["outcome"] == "success" and lines[-1]["tournament_id"] == tournament_id
    # The ranking page, read from the new snapshot, answers.
    assert stack.get(f"/t/{slug}/", HTTPS).status == 200


def _waited_for(process_log: Callable[[], str], needle: str, timeout: float = 15) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = process_log()
        if needle in text:
            return text
        time.sleep(0.2)
    raise AssertionError(f"no {needle!r} in the log after {timeout}s")


def test_no_working_secret_is_written_whole_by_gunicorn_django_or_the_worker(stack: Stack) -> None:
    """Issue 26, item 8: `path=/r/1JnThV…/ status=200` held a working referee link whole.
    Here the link opens its table, a post without its CSRF token is refused, gunicorn
    refuses a malformed request line that holds it, and the worker is sent a message that
    names it: every line holds its first characters at most (kit.logs.redact)."""
    manage(stack.env, "demo")
    (token,) = stack.postgres.query(
        stack.database,
        "SELECT t.token FROM tournaments_table t JOIN tournaments_round r ON r.id = t.round_id"
        " WHERE r.status = 'open' AND NOT t.token_revoked ORDER BY t.id LIMIT 1",
    )[0]
    token = str(token)
    cut = f"/r/{token[:4]}…/"
    assert stack.get(f"/r/{token}/", HTTPS).status == 200
    connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=10)
    try:
        form = {"Host": f"127.0.0.1:{stack.port}", "Content-Type": "application/x-www-form-urlencoded", **HTTPS}
        connection.request("POST", f"/r/{token}/hands/", body="taker=A", headers=form)
        assert connection.getresponse().status == 403
    finally:
        connection.close()
    # A request line gunicorn cannot read: it writes it in its own error log.
    with socket.create_connection(("127.0.0.1", stack.port), timeout=10) as raw:
        raw.sendall(f"GET /r/{token}/\r\nHost: 127.0.0.1\r\n\r\n".encode())
        assert raw.recv(100).startswith(b"HTTP/1.1 400")
    # A message the worker cannot run: it writes the message's whole body in its log.
    send_task(stack.broker, "atout.no_such_task", stack.queue, link=f"/r/{token}/", table_token=token)

    web = _waited_for(stack.web.output, "Invalid HTTP request line")
    worker = _waited_for(stack.worker.output, "atout.no_such_task")
    assert token not in web and token not in worker
    lines = read_log_lines(stack.web.log_path)
    said = [(str(line["logger"]), str(line["message"])) for line in lines]
    assert any(line["logger"] == "atout.request" and (line["path"], line["status"]) == (cut, 200) for line in lines)
    (refused,) = [line for line in lines if line["logger"] == "atout.request" and line["path"] == f"{cut}hands/"]
    assert refused["status"] == 403 and str(refused["refusal"]).startswith("Forbidden (Referer checking failed")
    assert ("gunicorn.error", f"Invalid request from ip=127.0.0.1: Invalid HTTP request line: 'GET {cut}'") in said
    (unknown,) = [
        line for line in read_log_lines(stack.worker.log_path) if "atout.no_such_task" in str(line["message"])
    ]
    assert f'{{"link": "{cut}", "table_token": "{token[:4]}…"}}' in str(unknown["message"])
