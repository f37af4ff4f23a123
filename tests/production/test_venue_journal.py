"""The laptop dies mid-round, a copy comes back, and the phones give back what it lacked.

A venue serves on loopback (SQLite, as on a laptop without services). The director
draws round 1 through the API (a copy follows the draw at once); three phones in
Chromium enter donnes at two tables, two of them at table 1; the director deletes one
donne; another tournament's draw takes a copy mid-round; the phones enter more donnes,
each acknowledged. Then every process of the venue is killed at once (SIGKILL, a dead
battery), the latest copy is restored with `./run --venue --restore`, and the phones,
left open, find the sheet lacking donnes they had acknowledged and send them again.
In the end every acknowledged donne is stored once, in its place, as it was sent; the
donne the director deleted stays deleted; the director's dashboard counts the donnes the
phones gave back.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import sqlite3
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from serving import backups
from tests.e2e.conftest import PHONE
from tests.production.faults import run_python
from tests.production.processes import Process, clean_env, free_port

# Waiting for a phone: its sheet polls every 30 s, and a donne whose predecessor another
# phone holds waits for that phone's turn.
PHONE_TIMEOUT = 150_000
STORED_TIMEOUT = 30_000

SEED = """
import json
from accounts.services import api_token_create
from tests.factories import ClubFactory, TournamentFactory, UserFactory, competitors_for
club = ClubFactory(name="Belote Club de Rodez")
director = UserFactory(username="directrice")
club.organisers.add(director)
night = TournamentFactory(club=club, status="running", end_value=40)
competitors_for(night, 4)
other = TournamentFactory(club=club, status="running", end_value=40)
competitors_for(other, 4)
print(json.dumps({
    "night": night.slug, "night_id": night.pk, "other": other.slug,
    "api_token": api_token_create(by=director, name="tests").key,
}))
"""


def _venue(tmp_path: Path, port: int, *extra: str) -> Process:
    # No periodic copy during the test: the copies are the ones the draws take.
    return Process(
        f"venue-journal-{uuid.uuid4().hex[:8]}",
        [sys.executable, "-m", "serving.venue", "--host", "127.0.0.1", "--port", str(port), "--embedded",
         "--secret-file", str(tmp_path / ".venue-secret"), "--log-file", str(tmp_path / "venue.log"),
         "--backup-dir", str(tmp_path / "backups"), "--backup-every", "3600", *extra],
        clean_env(DATABASE_URL=f"sqlite:///{tmp_path / 'venue.sqlite3'}", STATIC_ROOT=str(tmp_path / "static"),
                  WEB_CONCURRENCY="1", GUNICORN_THREADS="4"),
    )  # fmt: skip


def _api(port: int, method: str, path: str, token: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(
            method, f"/api/v1/{path}", body=json.dumps(body or {}),
            headers={"Host": f"127.0.0.1:{port}", "Content-Type": "application/json",
                     "Authorization": f"Token {token}"},
        )  # fmt: skip
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def _query(database: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with sqlite3.connect(database) as db:
        return db.execute(sql, params).fetchall()


def _tokens(database: Path, slug: str) -> dict[int, str]:
    rows = _query(
        database,
        "SELECT t.number, t.token FROM tournaments_table t JOIN tournaments_round r ON r.id = t.round_id "
        "JOIN tournaments_tournament n ON n.id = r.tournament_id WHERE n.slug = ? AND r.number = 1",
        slug,
    )
    return dict(rows)


def _hands(database: Path, token: str) -> list[tuple[int, Any, str | None]]:
    rows = _query(
        database,
        "SELECT h.number, h.raw, h.idempotency_key FROM scoring_hand h JOIN tournaments_table t "
        "ON t.id = h.table_id WHERE t.token = ? ORDER BY h.number",
        token,
    )
    return [(number, json.loads(raw), key) for number, raw, key in rows]


class Phone:
    """A referee's phone: a browser context of its own (its own localStorage), on a table's page."""

    def __init__(self, browser: Any, port: int, token: str) -> None:
        self.context = browser.new_context(viewport=PHONE, locale="fr-FR")
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.token = token
        self.page.goto(f"http://127.0.0.1:{port}/r/{token}/")

    def enter(self, number: int, points: int) -> None:
        """Type a donne (the first team takes at hearts) and send it; wait for its acknowledgement."""
        page = self.page
        page.locator("#f-taker label.chip").first.click()
        page.locator("#f-contract label.chip", has_text="cœur").first.click()
        page.locator("#id_points_taker").fill(str(points))
        page.locator("#hand-form button[type=submit]").click()
        page.locator("#entry .notice").get_by_text(f"La donne {number} est enregistrée.").wait_for(
            timeout=STORED_TIMEOUT
        )

    def says(self, text: str, timeout: float = PHONE_TIMEOUT) -> None:
        self.page.locator("#journal-status").get_by_text(text).wait_for(timeout=timeout)

    def journal_holds(self, count: int) -> None:
        """Wait until the phone's journal keeps `count` donnes (a function: the site's CSP refuses eval)."""
        self.page.wait_for_function(
            "([name, count]) => { const j = JSON.parse(localStorage.getItem(name) || 'null');"
            " return (j ? j.entries.length : 0) === count; }",
            arg=[f"atout:journal:{self.token}", count],
            timeout=STORED_TIMEOUT,
        )


@pytest.fixture
def processes() -> Iterator[list[Process]]:
    started: list[Process] = []
    try:
        yield started
    finally:
        for process in started:
            process.stop()


def test_after_a_restore_the_phones_give_back_every_acknowledged_donne_once(
    tmp_path: Path, processes: list[Process], browser: Any
) -> None:
    port = free_port()
    database, copies = tmp_path / "venue.sqlite3", tmp_path / "backups"
    venue = _venue(tmp_path, port).start()
    processes.append(venue)
    venue.wait_for_output("Stop with Ctrl+C.", timeout=180)
    seeded = json.loads(
        run_python(clean_env(DATABASE_URL=f"sqlite:///{database}", DJANGO_SETTINGS_MODULE="atout.settings"), SEED)
        .strip()
        .splitlines()[-1]
    )
    api_token = seeded["api_token"]

    # The director draws round 1: the copy follows the draw at once.
    status, body = _api(port, "POST", f"tournaments/{seeded['night']}/rounds/", api_token)
    assert status == 201, body
    assert [copy.reason for copy in backups.backups(copies)] == ["round-1-drawn"]
    tokens = _tokens(database, seeded["night"])
    assert sorted(tokens) == [1, 2]

    phones: list[Phone] = []
    try:
        first, second, other = (Phone(browser, port, tokens[n]) for n in (1, 1, 2))
        phones += [first, second, other]
        first.enter(1, 100)
        first.enter(2, 110)
        other.enter(1, 90)
        other.enter(2, 95)
        # The director deletes table 2's donne 2 (its phone still keeps it in its journal).
        status, body = _api(
            port, "DELETE", f"tournaments/{seeded['night']}/rounds/1/tables/2/hands/2/", api_token,
            {"reason": "Saisie en double"},
        )  # fmt: skip
        assert status == 200, body

        # Another tournament's draw takes a copy mid-round: what was acknowledged so far is in it.
        status, body = _api(port, "POST", f"tournaments/{seeded['other']}/rounds/", api_token)
        assert status == 201, body
        copy = backups.latest(copies)
        assert copy is not None and len(backups.backups(copies)) == 2
        in_copy = {table: _hands(copy.path, token) for table, token in tokens.items()}
        assert [len(in_copy[1]), len(in_copy[2])] == [2, 1]

        # The phone of table 2 finds its donne 2 gone from the sheet (at its next poll, or
        # as its page opens again): deleted here, it leaves the journal, never sent back.
        other.page.reload()
        other.journal_holds(1)
        # More donnes, each acknowledged, after the copy: at table 1 from both phones.
        first.enter(3, 120)
        second.page.reload()
        second.enter(4, 130)
        other.enter(2, 80)
        other.enter(3, 85)
        acknowledged = {table: _hands(database, token) for table, token in tokens.items()}
        assert [len(acknowledged[1]), len(acknowledged[2])] == [4, 3]

        # The laptop dies: every process of the venue at once, mid-round.
        assert venue.process is not None
        os.killpg(venue.process.pid, signal.SIGKILL)
        venue.process.wait(10)
        again = _venue(tmp_path, port, "--restore").start()
        processes.append(again)
        again.wait_for_output("Stop with Ctrl+C.", timeout=180)
        assert f"Restored {copy.path.name} (taken " in again.output()
        assert "after round 1 drawn): 2 tournament(s), 3 donne(s)" in again.output()

        # The phones, left open, find the sheet lacking what they had acknowledged.
        for phone in phones:
            phone.says("Le serveur avait perdu des donnes envoyées depuis ce téléphone")
        director = browser.new_context(locale="fr-FR")
        try:
            page = director.new_page()
            page.goto(f"http://127.0.0.1:{port}/login/")
            page.fill("input[name=username]", "directrice")
            page.fill("input[name=password]", "secret-pass-123")
            page.locator("main button[type=submit]").click()
            page.wait_for_load_state()
            page.goto(f"http://127.0.0.1:{port}/manage/tournament/{seeded['night_id']}/")
            page.locator("#round .recovered-count").get_by_text("4 donnes reprises des téléphones").wait_for()
        finally:
            director.close()
    finally:
        for phone in phones:
            phone.context.close()

    # Every acknowledged donne is there once, in its place, as it was sent; the deleted one is not.
    for table, token in tokens.items():
        assert _hands(database, token) == acknowledged[table]
    recovered = _query(database, "SELECT h.idempotency_key FROM scoring_hand h WHERE h.recovered_from_phone")
    lost = {key for table in (1, 2) for _, _, key in acknowledged[table][len(in_copy[table]) :]}
    assert {key for (key,) in recovered} == lost and len(lost) == 4
