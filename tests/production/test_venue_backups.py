"""Venue mode's copies of the database, and the laptop that dies mid-round.

The process test serves a venue on loopback (SQLite, as on a laptop without services),
closes a round through the API (a copy is taken), has three tables enter donnes while
the periodic copies go on, kills every process of the venue at once (SIGKILL, as a dead
battery would), damages the database file for good measure, and starts again with
`--restore`: every donne acknowledged before the kill is back, the referees' links work.
The other tests take and restore copies of SQLite and PostgreSQL databases directly.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from serving import backups, venue
from serving.venue import Summary
from tests.conftest import ROOT
from tests.production.faults import Referee, donne, post_json, run_python
from tests.production.processes import PostgresServer, Process, clean_env, free_port, http_get

TABLES = 3
DONNES = 8
KEEP = 4

# A tournament whose round 1 is open at three tables, another with one table to close,
# and the director's API token.
SEED = """
import json
from accounts.services import api_token_create
from tests.scoring.tables import director_of, make_table
open_table = make_table(tables=3)
closing = make_table()
director = director_of(closing.round.tournament)
print(json.dumps({
    "tokens": list(open_table.round.tables.order_by("number").values_list("token", flat=True)),
    "closing": closing.round.tournament.slug,
    "api_token": api_token_create(by=director, name="tests").key,
}))
"""


def _venue(tmp_path: Path, port: int, *extra: str) -> Process:
    return Process(
        f"venue-backup-{uuid.uuid4().hex[:8]}",
        [sys.executable, "-m", "serving.venue", "--host", "127.0.0.1", "--port", str(port), "--embedded",
         "--secret-file", str(tmp_path / ".venue-secret"), "--log-file", str(tmp_path / "venue.log"),
         "--backup-dir", str(tmp_path / "backups"), "--backup-every", "2", "--backup-keep", str(KEEP), *extra],
        clean_env(DATABASE_URL=f"sqlite:///{tmp_path / 'venue.sqlite3'}", STATIC_ROOT=str(tmp_path / "static"),
                  WEB_CONCURRENCY="1", GUNICORN_THREADS="4"),
    )  # fmt: skip


def _hands(database: Path, token: str) -> list[tuple[int, Any, str | None]]:
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT h.number, h.raw, h.idempotency_key FROM scoring_hand h JOIN tournaments_table t "
            "ON t.id = h.table_id WHERE t.token = ? ORDER BY h.number",
            (token,),
        ).fetchall()
    return [(number, json.loads(raw), key) for number, raw, key in rows]


@pytest.fixture
def processes() -> Iterator[list[Process]]:
    started: list[Process] = []
    try:
        yield started
    finally:
        for process in started:
            process.stop()


def test_the_laptop_dies_mid_round_and_restore_brings_back_every_acknowledged_donne(
    tmp_path: Path, processes: list[Process]
) -> None:
    port = free_port()
    database, copies = tmp_path / "venue.sqlite3", tmp_path / "backups"
    venue = _venue(tmp_path, port).start()
    processes.append(venue)
    venue.wait_for_output("Stop with Ctrl+C.", timeout=180)
    assert f"the newest {KEEP} kept in {copies}" in venue.output()
    seeded = json.loads(
        run_python(clean_env(DATABASE_URL=f"sqlite:///{database}", DJANGO_SETTINGS_MODULE="atout.settings"), SEED)
        .strip()
        .splitlines()[-1]
    )

    # The director closes a round: the web process copies the database once that commits.
    status, _, body = post_json(
        port, f"/api/v1/tournaments/{seeded['closing']}/rounds/1/close/", {"force": True},
        {"Authorization": f"Token {seeded['api_token']}"},
    )  # fmt: skip
    assert status == 200, body
    assert any(backup.reason == "round-1-closed" for backup in backups.backups(copies))

    deadline = time.monotonic() + 180
    referees = [Referee(port, token, DONNES, deadline, pause=0.3).start() for token in seeded["tokens"]]
    for referee in referees:
        referee.join()
        assert referee.failures == [] and len(referee.acknowledged) == DONNES
    last_acknowledged = dt.datetime.now(dt.UTC)
    # The periodic copies go on: wait for one taken after the last donne was acknowledged.
    wait_until = time.monotonic() + 30
    while time.monotonic() < wait_until:
        newest = backups.latest(copies)
        if newest is not None and newest.taken_at > last_acknowledged:
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"no copy after the last donne:\n{venue.output()[-2000:]}")
    found = backups.backups(copies)
    assert len(found) <= KEEP
    for path in [copies, *(backup.path for backup in found)]:
        assert stat.S_IMODE(path.stat().st_mode) == (0o700 if path.is_dir() else 0o600)

    # The laptop dies: every process of the venue at once, mid-round.
    assert venue.process is not None
    os.killpg(venue.process.pid, signal.SIGKILL)
    venue.process.wait(10)
    # And its disk took a hit: the database file is no database any more.
    for leftover in (database.with_name(database.name + "-wal"), database.with_name(database.name + "-shm")):
        leftover.unlink(missing_ok=True)
    database.write_bytes(b"\x00" * 4096)

    again = _venue(tmp_path, port, "--restore").start()
    processes.append(again)
    again.wait_for_output("Stop with Ctrl+C.", timeout=180)
    output = again.output()
    assert f"Restored {found[-1].path.name} (taken " in output
    assert "a periodic copy): 2 tournament(s), 24 donne(s), the last entered at" in output
    assert "could not be read; it is set aside as" in output

    # Every acknowledged donne is back, once, in its place; the links still work.
    for referee in referees:
        assert _hands(database, referee.token) == [(n, raw, key) for n, key, raw in referee.acknowledged]
    status, _, body = post_json(
        port, "/api/v1/table/hands/", {"raw": donne(DONNES + 1), "expected_number": DONNES + 1},
        {"X-Table-Token": referees[0].token, "Idempotency-Key": "after-the-restore"},
    )  # fmt: skip
    assert status == 201, body
    assert http_get(port, "/healthz").status == 200


# -- copies taken and restored directly --------------------------------------------------------


def _sqlite(path: Path, rows: list[int]) -> dict[str, Any]:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE IF NOT EXISTS donne (n INTEGER)")
        db.execute("DELETE FROM donne")
        db.executemany("INSERT INTO donne VALUES (?)", [(n,) for n in rows])
    return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}


def _sqlite_rows(path: Path) -> list[int]:
    with sqlite3.connect(path) as db:
        return [n for (n,) in db.execute("SELECT n FROM donne ORDER BY n")]


def test_copies_are_private_rotated_and_named_for_what_they_were_taken_for(tmp_path: Path) -> None:
    db, copies = _sqlite(tmp_path / "night.sqlite3", [1, 2]), tmp_path / "copies"
    first = backups.take(db, copies, reason="round-1-closed", keep=3)
    assert stat.S_IMODE(copies.stat().st_mode) == 0o700 and stat.S_IMODE(first.path.stat().st_mode) == 0o600
    assert "after round 1 closed" in first.describe()
    for _ in range(4):
        backups.take(db, copies, reason="periodic", keep=3)
    kept = backups.backups(copies)
    assert [backup.reason for backup in kept] == ["periodic"] * 3 and not first.path.exists()
    assert backups.latest(copies) == kept[-1] and "a periodic copy" in kept[-1].describe()
    assert _sqlite_rows(kept[-1].path) == [1, 2]
    # Nothing half-written is ever left looking like a copy.
    assert sorted(path.name for path in copies.iterdir()) == sorted(backup.path.name for backup in kept)


def test_a_sqlite_copy_comes_back_in_place_of_the_database(tmp_path: Path) -> None:
    db, copies = _sqlite(tmp_path / "night.sqlite3", [1, 2, 3]), tmp_path / "copies"
    copy = backups.take(db, copies, reason="periodic")
    _sqlite(tmp_path / "night.sqlite3", [9])
    backups.restore(db, copy)
    assert _sqlite_rows(tmp_path / "night.sqlite3") == [1, 2, 3]


def test_a_postgresql_copy_is_a_pg_dump_that_comes_back_in_place_of_the_database(tmp_path: Path) -> None:
    server = PostgresServer.required()
    name = f"atout_backup_test_{uuid.uuid4().hex[:8]}"
    server.create_database(name)
    db = {"ENGINE": "django.db.backends.postgresql", "NAME": name, "HOST": server.host, "PORT": server.port,
          "USER": server.user, "PASSWORD": server.password}  # fmt: skip
    try:
        with psycopg.connect(server.url(name), autocommit=True) as conn:
            conn.execute("CREATE TABLE donne (n integer)")
            conn.execute("INSERT INTO donne VALUES (1), (2)")
        copy = backups.take(db, tmp_path / "copies", reason="round-2-closed")
        assert copy.path.suffix == ".pgdump" and stat.S_IMODE(copy.path.stat().st_mode) == 0o600
        with psycopg.connect(server.url(name), autocommit=True) as conn:
            conn.execute("DELETE FROM donne WHERE n = 1")
        backups.restore(db, copy)
        assert server.query(name, "SELECT n FROM donne ORDER BY n") == [(1,), (2,)]
    finally:
        server.drop_database(name)


def test_a_failed_copy_says_why_and_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(backups.BackupError, match="no database at"):
        backups.take(
            {"ENGINE": "django.db.backends.sqlite3", "NAME": str(tmp_path / "none")}, tmp_path / "c", reason="x"
        )
    assert list((tmp_path / "c").iterdir()) == []


def test_the_restore_warns_when_the_database_it_replaces_holds_more() -> None:
    evening = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)
    copy = Summary(1, 40, evening)
    assert Summary(1, 41, evening).has_more_than(copy)
    assert Summary(1, 40, evening + dt.timedelta(minutes=1)).has_more_than(copy)
    assert not Summary(1, 40, evening).has_more_than(copy)
    assert not Summary(1, 12, evening - dt.timedelta(hours=1)).has_more_than(copy)


@pytest.mark.django_db(transaction=True)
def test_closing_a_round_in_venue_mode_copies_the_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rounds.services import round_close
    from tests.scoring.tables import director_of, make_table
    from tournaments.signals import round_closed

    table = make_table()
    monkeypatch.setenv(backups.BACKUP_DIR_ENV, str(tmp_path / "copies"))
    round_closed.connect(backups.after_round_closed, dispatch_uid="test-venue-copies")
    try:
        round_close(by=director_of(table.round.tournament), round=table.round, force=True)
    finally:
        round_closed.disconnect(dispatch_uid="test-venue-copies")
    (copy,) = backups.backups(tmp_path / "copies")
    assert copy.reason == "round-1-closed"


def _table_rows(copy: backups.Backup) -> str:
    """The tables a copy holds, as text (either kind of copy)."""
    if copy.path.suffix == ".sqlite3":
        with sqlite3.connect(copy.path) as db:
            return repr(db.execute("SELECT * FROM tournaments_table").fetchall())
    result = subprocess.run(
        ["pg_restore", "--data-only", "--table=tournaments_table", "--file=-", str(copy.path)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return result.stdout


@pytest.mark.django_db(transaction=True)
def test_drawing_a_round_in_venue_mode_copies_the_database_at_once_and_so_does_drawing_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rounds.services import round_draw, round_redraw
    from tests.factories import TournamentFactory, competitors_for
    from tests.scoring.tables import director_of
    from tournaments.signals import round_drawn

    tournament = TournamentFactory(status="running")
    competitors_for(tournament, 4)
    director = director_of(tournament)
    monkeypatch.setenv(backups.BACKUP_DIR_ENV, str(tmp_path / "copies"))
    round_drawn.connect(backups.after_round_drawn, dispatch_uid="test-venue-copies")
    try:
        drawn = round_draw(by=director, tournament=tournament)
        (copy,) = backups.backups(tmp_path / "copies")
        # The copy knows the round and its tables: a restore of it lets the phones in.
        tokens = list(drawn.tables.values_list("token", flat=True))
        assert len(tokens) == 2 and all(token in _table_rows(copy) for token in tokens)
        round_redraw(by=director, round=drawn)
    finally:
        round_drawn.disconnect(dispatch_uid="test-venue-copies")
    assert [copy.reason for copy in backups.backups(tmp_path / "copies")] == ["round-1-drawn", "round-1-drawn"]
    assert "after round 1 drawn" in copy.describe()


def test_the_web_processes_connect_the_copy_only_in_venue_mode(tmp_path: Path) -> None:
    probe = (
        "import django; django.setup(); from tournaments.signals import round_closed, round_drawn;"
        "print(round_closed.has_listeners() and round_drawn.has_listeners())"
    )
    for directory, connected in (("", "False"), (str(tmp_path), "True")):
        env = clean_env(DJANGO_SETTINGS_MODULE="atout.settings", **{backups.BACKUP_DIR_ENV: directory})
        result = subprocess.run(
            [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True
        )
        assert result.stdout.strip() == connected


def test_the_copies_folder_is_ignored_by_git() -> None:
    result = subprocess.run(["git", "check-ignore", "-q", ".venue-backups/atout-x.sqlite3"], cwd=ROOT, check=False)
    assert result.returncode == 0


def test_the_launcher_takes_the_copies_settings_and_restore_from_its_command_line() -> None:
    assert venue.parse_args([]).restore is None
    assert venue.parse_args(["--restore"]).restore == venue.LATEST
    assert venue.parse_args(["--restore", "copy.sqlite3"]).restore == "copy.sqlite3"
    defaults = venue.parse_args([])
    assert (defaults.backup_every, defaults.backup_keep) == (300, backups.DEFAULT_KEEP)
    assert defaults.backup_dir == ROOT / ".venue-backups"
