"""What the fault tests share: a site on servers of their own, and referees entering donnes.

A *referee* here is a thread that enters a table's donnes one after the other through
the API, as a scoring app does: each donne with its own Idempotency-Key and the number
it means to enter, sent again (same key) until the site acknowledges it (200/201). The
donnes acknowledged are the ones the night must never lose.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.conftest import ROOT
from tests.production.processes import clean_env, random_secret


def site_env(database_url: str, port: int, static_root: Path, **settings: str) -> dict[str, str]:
    """A production-like site on plain HTTP (as in a venue), tasks in-process unless a broker is given.

    One gunicorn worker with threads unless told otherwise: with no shared cache, several
    workers would each keep their own counts.
    """
    env = {
        "DEBUG": "false",
        "SECRET_KEY": random_secret(),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": "",
        "CACHE_URL": "",
        "STATIC_ROOT": str(static_root),
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_HSTS_SECONDS": "0",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "BEHIND_TLS_PROXY": "false",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "GUNICORN_THREADS": "4",
        "LOG_FORMAT": "json",
        "DJANGO_SETTINGS_MODULE": "atout.settings",
    }
    return clean_env(**{**env, **settings})


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def run_python(env: dict[str, str], code: str, timeout: float = 300) -> str:
    """Run `code` with Django set up against `env`'s database; return what it printed."""
    result = subprocess.run(
        [sys.executable, "-c", "import django\ndjango.setup()\n" + code],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip
    if result.returncode != 0:
        raise RuntimeError(f"the set-up script failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


# Tables of a belote concours, round 1 open, parties long enough for any test here.
SEED_TABLES = """
import json
from tests.scoring.tables import make_table
table = make_table(tables={tables}, end_value=40)
print(json.dumps(list(table.round.tables.order_by("number").values_list("token", flat=True))))
"""


def seed_tables(env: dict[str, str], tables: int) -> list[str]:
    """Create a tournament with `tables` open tables in the site's database; their tokens."""
    return list(json.loads(run_python(env, SEED_TABLES.format(tables=tables)).strip().splitlines()[-1]))


# Caught up: every ticket built, and a rebuild now would write nothing (rolled back anyway).
STANDINGS_STATE = """
import json
from django.db import transaction
from scoring import standings
from scoring.models import StandingsRefresh
from tournaments.models import Tournament
tournament = Tournament.objects.get()
state = StandingsRefresh.objects.get(tournament=tournament)
with transaction.atomic():
    standings.standings_lock(tournament_id=tournament.pk)
    behind = standings.rebuild_locked(tournament) is not None
    transaction.set_rollback(True)
print(json.dumps([state.requested, state.built, behind]))
"""


def standings_caught_up(env: dict[str, str]) -> bool:
    """Has the live ranking of the site's one tournament caught up with every stored donne?"""
    requested, built, behind = json.loads(run_python(env, STANDINGS_STATE).strip().splitlines()[-1])
    return bool(built >= requested and not behind)


def donne(number: int) -> dict[str, Any]:
    """Donne `number` of a table: a different, sound entry each time (made by A)."""
    return {"taker": "A", "contract": "hearts", "points": {"A": 82 + number, "B": 80 - number}}


def post_json(
    port: int, path: str, body: dict[str, Any], headers: dict[str, str], timeout: float = 15
) -> tuple[int, dict[str, str], Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(
            "POST", path, body=json.dumps(body),
            headers={"Host": f"127.0.0.1:{port}", "Content-Type": "application/json", **headers},
        )  # fmt: skip
        response = connection.getresponse()
        raw = response.read()
        try:
            data = json.loads(raw)
        except ValueError:
            data = raw.decode(errors="replace")
        return response.status, dict(response.getheaders()), data
    finally:
        connection.close()


@dataclass
class Referee:
    """Enters donnes 1..`donnes` at the table of `token`, each until it is acknowledged (a thread)."""

    port: int
    token: str
    donnes: int
    deadline: float
    pause: float = 0.05
    acknowledged: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    unavailable: list[tuple[dict[str, str], Any]] = field(default_factory=list)
    connection_errors: int = 0
    failures: list[str] = field(default_factory=list)
    thread: threading.Thread | None = None
    # With `hold` set: after `hold_after` donnes acknowledged, wait for the test to set it
    # (a fault injected while the table still has donnes to enter, however slow the machine).
    hold: threading.Event | None = None
    hold_after: int = 0

    def start(self) -> Referee:
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        return self

    def join(self) -> None:
        if self.thread is not None:
            self.thread.join(max(0.0, self.deadline - time.monotonic()) + 20)

    def run(self) -> None:
        for number in range(1, self.donnes + 1):
            key = f"t-{uuid.uuid4()}"
            raw = donne(number)
            if not self._send(number, key, raw):
                return
            if self.hold is not None and number == self.hold_after:
                self.hold.wait(max(0.0, self.deadline - time.monotonic()))
            time.sleep(self.pause)

    def _send(self, number: int, key: str, raw: dict[str, Any]) -> bool:
        headers = {"X-Table-Token": self.token, "Idempotency-Key": key}
        while time.monotonic() < self.deadline:
            try:
                status, response_headers, body = post_json(
                    self.port, "/api/v1/table/hands/", {"raw": raw, "expected_number": number}, headers
                )
            except OSError:
                self.connection_errors += 1
                time.sleep(0.2)
                continue
            if status in (200, 201):
                self.acknowledged.append((number, key, raw))
                return True
            if status == 503:
                self.unavailable.append((response_headers, body))
                time.sleep(0.2)
                continue
            self.failures.append(f"donne {number}: {status} {body}")
            return False
        self.failures.append(f"donne {number}: not acknowledged before the deadline")
        return False
