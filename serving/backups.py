"""Venue mode's copies of the night's database, and bringing one back (`./run --venue --restore`).

A laptop on a card table can die: a flat battery, a kicked cable, coffee. Venue mode
(serving.venue) keeps copies of the database as the night goes, so that another start,
on this laptop or another one, brings the night back.

Terms:

- *backup*: one file of the backups folder (`.venue-backups/`, git-ignored; the folder
  mode 700 and each file mode 600, since it holds players' e-mails and phones), named
  `atout-<UTC time>-<reason>.<kind>`: `.sqlite3`, made with SQLite's online backup API
  (a consistent copy while referees write), or `.pgdump`, pg_dump's custom format.
- *reason*: `round-<n>-drawn` and `round-<n>-closed` (taken once a round's draw or close
  has committed: the `tournaments.signals.round_drawn` and `round_closed` receivers, in the
  web process), `periodic` (every 5 minutes, by the venue launcher), `before-restore` (the
  database a restore replaced). A copy follows each draw at once so that a restored copy
  knows the round in play: without it, the phones of a round drawn after the last copy
  hold donnes for tables the server never heard of (docs/operating.md).
- *rotation*: after each round or periodic backup, only the newest `keep` files stay (a
  setting: `./run --venue --backup-keep N`).

A restore first keeps the database it replaces as a `before-restore` backup (when it
can still be read), so restoring never loses anything, and says what each one holds.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
import re
import shutil
import sqlite3
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

# What venue mode passes to the web processes, for the round-close backups.
BACKUP_DIR_ENV = "ATOUT_VENUE_BACKUP_DIR"
BACKUP_KEEP_ENV = "ATOUT_VENUE_BACKUP_KEEP"
DEFAULT_KEEP = 24
DEFAULT_EVERY_SECONDS = 300
_NAME = re.compile(r"^atout-(\d{8}-\d{6}-\d{6})-([a-z0-9-]+)\.(sqlite3|pgdump)$")
_TIME_FORMAT = "%Y%m%d-%H%M%S-%f"
PG_TIMEOUT = 600


class BackupError(RuntimeError):
    """A copy could not be made or brought back; the message says why."""


@dataclass(frozen=True)
class Backup:
    path: Path
    taken_at: dt.datetime
    reason: str

    def describe(self) -> str:
        """When and why it was taken, in words."""
        when = self.taken_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
        round_event = re.fullmatch(r"round-(\d+)-(closed|drawn)", self.reason)
        why = {
            "periodic": "a periodic copy",
            "before-restore": "the database a restore replaced",
        }.get(self.reason, f"after round {round_event.group(1)} {round_event.group(2)}" if round_event else self.reason)
        return f"{self.path.name} (taken {when}, {why})"


def is_sqlite(db: Mapping[str, Any]) -> bool:
    return str(db["ENGINE"]).endswith("sqlite3")


def backups(directory: Path) -> list[Backup]:
    """The backups in `directory`, oldest first."""
    found = []
    for path in directory.glob("atout-*"):
        match = _NAME.match(path.name)
        if match and path.is_file():
            taken = dt.datetime.strptime(match.group(1), _TIME_FORMAT).replace(tzinfo=dt.UTC)
            found.append(Backup(path, taken, match.group(2)))
    return sorted(found, key=lambda backup: backup.path.name)


def latest(directory: Path) -> Backup | None:
    found = backups(directory)
    return found[-1] if found else None


def take(db: Mapping[str, Any], directory: Path, *, reason: str, keep: int | None = None) -> Backup:
    """Copy the database `db` (Django's settings of it) into `directory`; rotate if `keep`."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    taken = dt.datetime.now(dt.UTC)
    kind = "sqlite3" if is_sqlite(db) else "pgdump"
    path = directory / f"atout-{taken.strftime(_TIME_FORMAT)}-{reason}.{kind}"
    partial = directory / f".{path.name}.partial"
    # Private from the first byte: the copy holds players' contact data.
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    try:
        if is_sqlite(db):
            _sqlite_copy(Path(db["NAME"]), partial)
        else:
            _postgres(db, "pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--file={partial}")
        # Whole or absent: a copy cut short by a dying laptop never looks like a backup.
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)
    if keep is not None:
        rotate(directory, keep)
    return Backup(path, taken, reason)


def rotate(directory: Path, keep: int) -> list[Path]:
    """Delete all but the newest `keep` backups (at least one is kept); the deleted paths."""
    doomed = [backup.path for backup in backups(directory)[: -max(1, keep)]]
    for path in doomed:
        path.unlink(missing_ok=True)
    return doomed


def _sqlite_copy(source: Path, target: Path) -> None:
    if not source.exists():
        raise BackupError(f"no database at {source}")
    with (
        contextlib.closing(sqlite3.connect(source, timeout=20)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)


def _postgres(db: Mapping[str, Any], tool: str, *args: str) -> None:
    """Run pg_dump or pg_restore against `db`, or raise BackupError with what it said."""
    binary = shutil.which(tool)
    if binary is None:
        raise BackupError(f"{tool} is not installed (Debian: apt install postgresql-client)")
    command = [binary, *args, "--host", str(db.get("HOST") or "127.0.0.1"), "--port", str(db.get("PORT") or 5432)]
    if db.get("USER"):
        command += ["--username", str(db["USER"])]
    command += ["--dbname", str(db["NAME"])] if tool == "pg_restore" else [str(db["NAME"])]
    env = {**os.environ, "PGPASSWORD": str(db.get("PASSWORD") or ""), "PGCONNECT_TIMEOUT": "10"}
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=PG_TIMEOUT, check=False)
    if result.returncode != 0:
        raise BackupError(f"{tool} failed: {result.stderr.strip() or result.stdout.strip()}")


def restore(db: Mapping[str, Any], backup: Backup) -> None:
    """Put `backup` in place of the database `db`: nothing of the database's own is kept.

    The caller keeps the database first (`take(..., reason="before-restore")`), and makes
    sure no server is using it.
    """
    if is_sqlite(db):
        live = Path(db["NAME"])
        for path in (live, live.with_name(live.name + "-wal"), live.with_name(live.name + "-shm")):
            path.unlink(missing_ok=True)
        _sqlite_copy(backup.path, live)
    else:
        _postgres(
            db, "pg_restore", "--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction",
            str(backup.path),
        )  # fmt: skip


def set_damaged_aside(db: Mapping[str, Any]) -> Path | None:
    """A SQLite database that cannot even be copied: renamed aside (kept), so a copy can take its place."""
    if not is_sqlite(db):
        return None
    live = Path(db["NAME"])
    if not live.exists():
        return None
    aside = live.with_name(f"{live.name}.damaged-{dt.datetime.now(dt.UTC).strftime(_TIME_FORMAT)}")
    live.replace(aside)
    return aside


def settings_keep() -> int:
    return int(os.environ.get(BACKUP_KEEP_ENV) or DEFAULT_KEEP)


def _copy_after(event: str, number: int) -> None:
    """Copy the database after round `number`'s `event` ("drawn", "closed") committed."""
    from django.conf import settings

    directory = Path(os.environ[BACKUP_DIR_ENV])
    try:
        backup = take(settings.DATABASES["default"], directory, reason=f"round-{number}-{event}", keep=settings_keep())
    except (BackupError, OSError, sqlite3.Error, subprocess.SubprocessError):
        # The round is drawn or closed whatever happens here; the periodic copy comes soon anyway.
        log.exception("the copy of the database after round %s was %s failed", number, event)
        return
    log.info("database copied after round %s was %s: %s", number, event, backup.path)


def after_round_closed(sender: object, *, number: int, **kwargs: Any) -> None:
    """The `round_closed` receiver venue mode connects in the web processes (atout.apps)."""
    _copy_after("closed", number)


def after_round_drawn(sender: object, *, number: int, **kwargs: Any) -> None:
    """The `round_drawn` receiver venue mode connects in the web processes (atout.apps)."""
    _copy_after("drawn", number)
