"""Structured logging: one line per request and per job, errors carrying the request id."""

from __future__ import annotations

import json
import logging
import subprocess
import sys

import pytest
from celery import shared_task
from django.conf import settings as django_settings
from django.test import Client

from kit.logs import ContextFilter, JsonFormatter, KeyValueFormatter, request_id_var, sane_request_id
from tests.conftest import ROOT

pytestmark = pytest.mark.urls("tests.production.logging_urls")


@pytest.fixture
def logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    # The site's console handler stamps the ids through this filter; caplog's handler needs it too.
    caplog.handler.addFilter(ContextFilter())
    caplog.set_level(logging.INFO)
    return caplog


def _lines(caplog: pytest.LogCaptureFixture, logger: str) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == logger]


@shared_task(name="tests.production.tournament_job")
def tournament_job(*, tournament_id: int, fail: bool = False) -> int:
    if fail:
        raise ValueError("the job could not finish")
    return tournament_id


@pytest.mark.django_db
def test_every_response_carries_a_request_id_the_site_made(client: Client) -> None:
    first = client.get("/healthz")["X-Request-ID"]
    second = client.get("/healthz")["X-Request-ID"]
    assert len(first) == 32 and int(first, 16) >= 0
    assert first != second


@pytest.mark.django_db
def test_a_sane_request_id_from_the_proxy_is_kept(client: Client, logs: pytest.LogCaptureFixture) -> None:
    response = client.get("/healthz", headers={"X-Request-ID": "proxy-7f3a.42"})
    assert response["X-Request-ID"] == "proxy-7f3a.42"
    (line,) = _lines(logs, "atout.request")
    assert line.request_id == "proxy-7f3a.42"


@pytest.mark.parametrize(
    "forged",
    ["two words", "line\nbreak", "x" * 200, 'quote"d', "", "-starts-with-a-dash"],
)
def test_an_unsafe_request_id_is_replaced_rather_than_logged(forged: str) -> None:
    assert sane_request_id(forged) is None


@pytest.mark.django_db
def test_a_forged_request_id_never_reaches_the_response(client: Client) -> None:
    response = client.get("/healthz", headers={"X-Request-ID": "evil id=1"})
    assert response["X-Request-ID"] != "evil id=1"
    assert len(response["X-Request-ID"]) == 32


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/t/concours-de-noel/", "/manage/t/concours-de-noel/hands/"])
def test_one_line_per_request_with_method_path_status_duration_and_tournament(
    client: Client, logs: pytest.LogCaptureFixture, path: str
) -> None:
    response = client.get(path)
    (line,) = _lines(logs, "atout.request")
    assert line.levelno == logging.INFO
    assert line.fields["method"] == "GET"
    assert line.fields["path"] == path
    assert line.fields["status"] == 200
    assert line.fields["tournament"] == "concours-de-noel"
    assert isinstance(line.fields["duration_ms"], float) and line.fields["duration_ms"] >= 0
    assert line.request_id == response["X-Request-ID"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/healthz", "/clubs/cercle-du-vieux-port/"])
def test_a_page_about_no_tournament_logs_none(client: Client, logs: pytest.LogCaptureFixture, path: str) -> None:
    client.get(path)
    (line,) = _lines(logs, "atout.request")
    assert line.fields["tournament"] is None


@pytest.mark.django_db
def test_a_server_error_reaches_the_log_with_the_request_id(logs: pytest.LogCaptureFixture) -> None:
    response = Client(raise_request_exception=False).get("/broken/")
    assert response.status_code == 500
    request_id = response["X-Request-ID"]
    (error,) = [r for r in logs.records if r.name == "django.request" and r.levelno == logging.ERROR]
    assert error.request_id == request_id
    assert error.exc_info is not None and "the scoring went wrong" in str(error.exc_info[1])
    (line,) = _lines(logs, "atout.request")
    assert line.levelno == logging.ERROR and line.fields["status"] == 500
    # Rendered as the console handler renders it, the traceback follows the line naming the request.
    rendered = KeyValueFormatter().format(error)
    assert f"request_id={request_id}" in rendered.splitlines()[0]
    assert "RuntimeError: the scoring went wrong" in rendered


@pytest.mark.django_db
def test_a_job_logs_one_line_with_its_name_id_duration_and_outcome(logs: pytest.LogCaptureFixture) -> None:
    result = tournament_job.delay(tournament_id=41)
    (line,) = _lines(logs, "atout.job")
    assert line.fields["task"] == "tests.production.tournament_job"
    assert line.fields["tournament_id"] == 41
    assert line.fields["outcome"] == "success"
    assert line.fields["duration_ms"] >= 0
    assert line.task_id == result.id


@pytest.mark.django_db
def test_a_failed_job_logs_its_failure_at_error_level(logs: pytest.LogCaptureFixture) -> None:
    with pytest.raises(ValueError):
        tournament_job.delay(tournament_id=7, fail=True)
    (line,) = _lines(logs, "atout.job")
    assert line.levelno == logging.ERROR
    assert line.fields["outcome"] == "failure"
    assert line.fields["tournament_id"] == 7


@pytest.mark.django_db
def test_a_job_enqueued_by_a_request_carries_the_request_id(client: Client, logs: pytest.LogCaptureFixture) -> None:
    response = client.get("/enqueue/")
    (job,) = _lines(logs, "atout.job")
    assert job.fields["task"] == "atout.heartbeat"
    assert job.request_id == response["X-Request-ID"]
    # Once the request is over, nothing else is stamped with its id.
    assert request_id_var.get() is None


def _record(**fields: object) -> logging.LogRecord:
    record = logging.makeLogRecord({"name": "atout.request", "levelno": logging.INFO, "levelname": "INFO"})
    record.msg = "request"
    record.fields = fields
    record.request_id = "abc123"
    record.task_id = None
    return record


def test_key_value_lines_quote_what_would_split_them() -> None:
    line = KeyValueFormatter().format(_record(path="/t/a b/", status=200, tournament=None, duration_ms=3.14159))
    assert 'path="/t/a b/"' in line
    assert "status=200" in line and "tournament=-" in line and "duration_ms=3.1" in line
    assert line.endswith("request_id=abc123")
    assert "\n" not in line


def test_json_lines_are_one_object_each() -> None:
    line = JsonFormatter().format(_record(path="/t/x/", status=404, tournament="x"))
    body = json.loads(line)
    assert body["message"] == "request" and body["logger"] == "atout.request"
    assert body["status"] == 404 and body["tournament"] == "x" and body["request_id"] == "abc123"
    assert "task_id" not in body


def test_the_console_handler_uses_the_configured_format_and_stamps_the_ids() -> None:
    handler = django_settings.LOGGING["handlers"]["console"]
    assert handler["formatter"] == django_settings.LOG_FORMAT
    # The ids stamped, a refusal made one line, then every secret cut (kit.logs).
    assert handler["filters"] == ["context", "refusals", "redact"]
    assert django_settings.MIDDLEWARE[0] == "atout.middleware.RequestIdMiddleware"


def test_an_unknown_log_format_refuses_to_start() -> None:
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT, env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "atout.settings", "LOG_FORMAT": "xml"},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode != 0
    assert "LOG_FORMAT must be kv or json" in result.stderr
