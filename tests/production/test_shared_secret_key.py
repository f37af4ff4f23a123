"""A login made under ./run holds in venue mode and after a restart: one SECRET_KEY for both.

The director logs in under `./run`'s settings (DEBUG on, no SECRET_KEY in the
environment); the night then moves to venue mode on the same database (PostgreSQL here),
production-like, DEBUG off. The director's session cookie opens their account page in
venue mode, again after venue mode restarts, and under `./run` once more. The key is
generated on the first start and kept in SECRET_KEY_FILE: a temporary folder here, the
project folder by default (kit.secret_key).
"""

from __future__ import annotations

import stat
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.production.faults import run_python
from tests.production.processes import PostgresServer, Process, clean_env, free_port, http_get, manage

ACCOUNT = "/manage/account/"
# Under ./run's settings: the director logs in through the login form; the session cookie.
LOG_IN = """
from django.contrib.auth import get_user_model
from django.test import Client
get_user_model().objects.create_user("directrice", password="belote-du-samedi")
client = Client()
response = client.post("/login/", {"username": "directrice", "password": "belote-du-samedi"})
assert response.status_code == 302, response.status_code
print(client.cookies["sessionid"].value)
"""
# Under ./run's settings again: what the account page answers with that cookie.
ACCOUNT_PAGE = """
from django.test import Client
client = Client()
client.cookies["sessionid"] = {session!r}
print(client.get({page!r}).status_code)
"""


@dataclass
class Night:
    database_url: str
    key_file: Path
    tmp_path: Path

    def run_env(self) -> dict[str, str]:
        """./run's settings: DEBUG on by default, no SECRET_KEY (clean_env drops the test's)."""
        return clean_env(
            DATABASE_URL=self.database_url, SECRET_KEY_FILE=str(self.key_file), DJANGO_SETTINGS_MODULE="atout.settings"
        )

    def venue(self) -> tuple[Process, int]:
        port = free_port()
        process = Process(
            f"venue-key-{uuid.uuid4().hex[:8]}",
            [sys.executable, "-m", "serving.venue", "--host", "127.0.0.1", "--port", str(port), "--embedded",
             "--log-file", str(self.tmp_path / "venue.log")],
            clean_env(DATABASE_URL=self.database_url, SECRET_KEY_FILE=str(self.key_file),
                      STATIC_ROOT=str(self.tmp_path / "static")),
        ).start()  # fmt: skip
        try:
            process.wait_for_output("Stop with Ctrl+C.", timeout=180)
        except BaseException:
            process.stop()
            raise
        return process, port


@pytest.fixture
def night(tmp_path: Path) -> Iterator[Night]:
    postgres = PostgresServer.required()
    database = f"atout_shared_key_{uuid.uuid4().hex[:8]}"
    try:
        yield Night(postgres.create_database(database), tmp_path / ".secret-key", tmp_path)
    finally:
        postgres.drop_database(database)


def account_page(port: int, session: str | None) -> int:
    headers = {"Cookie": f"sessionid={session}"} if session else {}
    return http_get(port, ACCOUNT, headers).status


def test_a_login_under_run_holds_in_venue_mode_and_after_each_restart(night: Night) -> None:
    manage(night.run_env(), "migrate", "--noinput")
    session = run_python(night.run_env(), LOG_IN).strip().splitlines()[-1]
    # Made on ./run's first start, readable by its owner alone.
    assert stat.S_IMODE(night.key_file.stat().st_mode) == 0o600

    for _start in range(2):
        venue, port = night.venue()
        try:
            assert account_page(port, None) == 302  # the page does need a login
            assert account_page(port, session) == 200
        finally:
            venue.stop()

    page = run_python(night.run_env(), ACCOUNT_PAGE.format(session=session, page=ACCOUNT))
    assert page.strip().splitlines()[-1] == "200"
