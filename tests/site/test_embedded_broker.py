"""The embedded defaults (no broker): tasks run in the process, quietly."""

from __future__ import annotations

import logging

import pytest
from celery import shared_task
from django.conf import settings

from atout.health import check_broker


@shared_task(name="tests.embedded_echo")
def echo(value: int) -> int:
    return value


@pytest.mark.skipif(not settings.CELERY_TASK_ALWAYS_EAGER, reason="a broker is configured for this run")
def test_an_eager_task_runs_here_without_the_no_hostname_warning(caplog) -> None:
    caplog.set_level(logging.WARNING, logger="kombu")
    # Celery's "a join would block" flag is process-wide: an eager task running meanwhile in
    # the live server's thread (a browser test's last request) raises it for this thread too.
    assert echo.delay(7).get(disable_sync_subtasks=False) == 7
    assert not [r for r in caplog.records if "No hostname" in r.getMessage()]


def test_the_health_check_does_not_probe_the_in_process_broker(settings) -> None:
    settings.CELERY_BROKER_URL = settings.EMBEDDED_BROKER_URL
    assert check_broker() is None
