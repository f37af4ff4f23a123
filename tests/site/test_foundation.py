"""The foundation: the database in use, settings from the environment, health, i18n."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.db import connection
from django.urls import reverse

from atout.celery import forget_broker_pools
from tests.conftest import IN_CI, ROOT


@pytest.mark.django_db
def test_database_tests_run_on_postgresql_under_ci() -> None:
    if IN_CI:
        assert connection.vendor == "postgresql"
    else:
        assert connection.vendor in {"postgresql", "sqlite"}


@pytest.mark.django_db
def test_home_page_is_in_french_by_default(client) -> None:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert response.headers["Content-Language"] == "fr"
    assert "Tournois" in response.content.decode()


@pytest.mark.django_db
def test_english_is_one_switch_away(client) -> None:
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"}, follow=True)
    assert response.headers["Content-Language"] == "en"
    assert "Tournaments" in response.content.decode()


@pytest.mark.django_db
def test_healthz_is_green_when_the_database_answers(client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["checks"]["database"]["ok"] is True


@pytest.mark.django_db
def test_healthz_says_503_and_what_is_down_when_the_broker_is_unreachable(client, settings) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    from atout.celery import app

    saved = app.conf.broker_url
    app.conf.broker_url = settings.CELERY_BROKER_URL
    try:
        response = client.get("/healthz")
    finally:
        app.conf.broker_url = saved
        forget_broker_pools(app)
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["checks"]["broker"]["ok"] is False
    assert body["checks"]["database"]["ok"] is True


@pytest.mark.django_db
def test_login_page_shows_errors_beside_the_form_in_french(client) -> None:
    response = client.post(reverse("login"), {"username": "nobody", "password": "wrong"})
    assert response.status_code == 200
    assert "Saisissez un nom d’utilisateur et un mot de passe valides" in response.content.decode()


def _settings_subprocess(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # The parent's settings, and the browser tests' async switch, must not leak in.
    dropped = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    full_env = {k: v for k, v in os.environ.items() if k not in dropped}
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


@pytest.mark.slow
def test_production_mode_refuses_to_start_without_a_real_secret_key() -> None:
    result = _settings_subprocess({"DEBUG": "false", "ALLOWED_HOSTS": "atout.example.org"})
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


@pytest.mark.slow
def test_production_mode_refuses_to_start_without_allowed_hosts() -> None:
    result = _settings_subprocess({"DEBUG": "false", "SECRET_KEY": "k" * 30 + "abcdefghijklmnopqrstuvwxyz"})
    assert result.returncode != 0
    assert "ALLOWED_HOSTS" in result.stderr


@pytest.mark.slow
def test_production_mode_passes_the_deploy_checks() -> None:
    result = _settings_subprocess(
        {"DEBUG": "false", "SECRET_KEY": "x9" * 20 + "abcdefghijklmnopqrstuvwxyz", "ALLOWED_HOSTS": "atout.example.org"}
    )
    assert result.returncode == 0, result.stderr + result.stdout
