"""Venue mode: serve Atout to a club room's Wi-Fi from a laptop (`./run --venue`).

Many rooms have no internet. The laptop joins the room's Wi-Fi (or opens a hotspot), and
every phone on that network opens the site at the laptop's address, shown with a QR code.

What runs is production-like, not the development server:
- gunicorn with DEBUG off, bound to the LAN address (and to 127.0.0.1 for the laptop);
- the SECRET_KEY `./run` uses too, generated once and kept in `.secret-key` (git-ignored,
  mode 600: kit.secret_key), so sessions survive moving from `./run` to venue mode and a
  restart of the laptop; SECRET_KEY in the environment wins;
- ALLOWED_HOSTS: the LAN address, loopback and the machine's names;
- « Ma soirée »'s VAPID key pair `./run` keeps in `.vapid-key` (push/keys.py);
- plain HTTP on the LAN (there is no certificate for a room's Wi-Fi): no HTTPS redirect,
  no HSTS, cookies not marked Secure;
- static files collected and served by WhiteNoise;
- PostgreSQL and Redis when they answer on this machine (a Celery worker is started
  alongside), otherwise SQLite in the project folder and tasks run in the web process.
  DATABASE_URL / CELERY_BROKER_URL in the environment win over that detection;
  `--embedded` skips it.

The launcher itself stays in the foreground, watches gunicorn and the worker, and stops
both on Ctrl+C or when either dies. Their log lines go to `.venue.log` (git-ignored), so
the address and the QR code stay on the screen for the room to scan.

The night's database is copied (serving.backups) every 5 minutes by the launcher and each
time a round is drawn or closes by the web process, into `.venue-backups/` (git-ignored), the newest
24 kept (`--backup-every`, `--backup-keep`). If the laptop dies, `./run --venue --restore`
puts the newest copy back (or `--restore FILE` a given one), says what it restored and
what the database it replaced held (kept as a copy too), and serves the room again.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from kit import secret_key
from serving import backups, lan

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_LOG_FILE = ROOT / ".venue.log"
DEFAULT_BACKUP_DIR = ROOT / ".venue-backups"
# Where venue mode looks for PostgreSQL and Redis when the environment names none: the
# same local servers the README and ./test use.
LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/atout"
LOCAL_REDIS = "redis://127.0.0.1:6379"


class VenueError(RuntimeError):
    """Venue mode cannot start; the message says what to do."""


def venue_secret(path: Path | None = None) -> str:
    """SECRET_KEY from the environment, else the one kept at `path`, else `./run`'s (kit.secret_key)."""
    given = os.environ.get("SECRET_KEY", "").strip()
    if given:
        return given
    return secret_key.load_or_create(path) if path is not None else secret_key.project_secret(ROOT)


def host_names() -> list[str]:
    """The laptop's own names, which a phone may use (mDNS: `name.local`)."""
    name = socket.gethostname().strip()
    if not name:
        return []
    short = name.split(".")[0]
    return list(dict.fromkeys([name, short, f"{short}.local"]))


@dataclass(frozen=True)
class Services:
    """Where the data and the jobs go: a database URL, and a broker URL or none (eager)."""

    database_url: str
    broker_url: str = ""
    cache_url: str = ""

    @property
    def worker(self) -> bool:
        return bool(self.broker_url)

    def describe(self) -> str:
        database = "PostgreSQL" if self.database_url.startswith("postgres") else "SQLite"
        jobs = "a Celery worker on Redis" if self.worker else "tasks run in the web process"
        return f"{database}, {jobs}"


def postgres_answers(url: str) -> bool:
    """Does PostgreSQL accept a connection at `url`, creating its database if need be?"""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/") or "atout"
    try:
        with psycopg.connect(
            host=parts.hostname or "127.0.0.1",
            port=parts.port or 5432,
            user=parts.username or "postgres",
            password=parts.password or None,
            dbname="postgres",
            autocommit=True,
            connect_timeout=2,
        ) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error:
        return False
    return True


def redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


def choose_services(environ: dict[str, str], *, probe: bool) -> Services:
    """The environment's choice first; else local PostgreSQL/Redis if `probe` and they answer."""
    database = environ.get("DATABASE_URL", "").strip()
    broker = environ.get("CELERY_BROKER_URL", "").strip()
    cache = environ.get("CACHE_URL", "").strip()
    if not database:
        database = LOCAL_POSTGRES if probe and postgres_answers(LOCAL_POSTGRES) else "sqlite:///db.sqlite3"
    if not broker and probe and redis_answers(f"{LOCAL_REDIS}/0"):
        broker = f"{LOCAL_REDIS}/0"
        cache = cache or f"{LOCAL_REDIS}/1"
    return Services(database_url=database, broker_url=broker, cache_url=cache)


def venue_environment(
    *,
    host: str,
    port: int,
    secret: str,
    services: Services,
    backup_dir: Path | None = None,
    backup_keep: int = backups.DEFAULT_KEEP,
    public_url: str = "",
) -> dict[str, str]:
    """The settings variables of a venue: production, but plain HTTP on a local network.

    With `backup_dir`, the web processes copy the database there when a round is drawn or closes.
    `public_url`: the address phones open (ATOUT_PUBLIC_URL) when the environment gives
    one; else the room's address found, so that every QR code and printed link carries it
    even when the director's browser opens the site at 127.0.0.1.
    """
    hosts = list(dict.fromkeys([host, "127.0.0.1", "localhost", *host_names()]))
    binds = list(dict.fromkeys([f"{host}:{port}", f"127.0.0.1:{port}"]))
    return {
        "DJANGO_SETTINGS_MODULE": "atout.settings",
        "DEBUG": "false",
        "SECRET_KEY": secret,
        "ALLOWED_HOSTS": ",".join(hosts),
        # A room's Wi-Fi has no certificate: HTTPS redirects, HSTS and Secure cookies would
        # lock every phone out. The network is the room's, and the site lives for a night.
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_HSTS_SECONDS": "0",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "BEHIND_TLS_PROXY": "false",
        "ATOUT_PUBLIC_URL": public_url or room_url(host, port),
        "DATABASE_URL": services.database_url,
        "CELERY_BROKER_URL": services.broker_url,
        "CACHE_URL": services.cache_url,
        "GUNICORN_BIND": ",".join(binds),
        "PORT": str(port),
        # Without Redis the cache is per process (gunicorn_conf refuses several workers
        # on it): one worker, with threads, serves the room.
        **({} if services.cache_url else {"WEB_CONCURRENCY": "1", "GUNICORN_THREADS": "8"}),
        backups.BACKUP_DIR_ENV: str(backup_dir or ""),
        backups.BACKUP_KEEP_ENV: str(backup_keep),
        # « Ma soirée »'s notifications: ./run's VAPID key pair, so that a subscription made
        # under ./run still gets its messages (push/keys.py); the environment's key wins.
        "ATOUT_VAPID_KEY_FILE": os.environ.get("ATOUT_VAPID_KEY_FILE", "").strip() or str(ROOT / ".vapid-key"),
    }


def relay_configured(environ: Mapping[str, str]) -> bool:
    """Whether the venue relays its night to a hosted Atout (RELAY_URL and RELAY_TOKEN)."""
    return bool(environ.get("RELAY_URL", "").strip() and environ.get("RELAY_TOKEN", "").strip())


def room_url(host: str, port: int) -> str:
    """The address phones on the room's network open: `http://host:port`."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def print_banner(
    url: str,
    others: Sequence[str],
    services: Services,
    log_file: Path,
    out: TextIO,
    backed_up: str = "",
    public_url: str = "",
) -> None:
    """The address in words and as a QR code a phone's camera opens (and, when
    ATOUT_PUBLIC_URL names another one, the address the QR codes of the pages carry)."""
    import segno

    out.write(f"\nAtout is open on this room's network: {url}\n")
    out.write("Scan to open it on a phone (same Wi-Fi):\n\n")
    segno.make(url, error="m").terminal(out=out, compact=True)
    if others:
        out.write(
            "\nAlso reachable at: " + ", ".join(f"http://{address}:{url.rsplit(':', 1)[1]}" for address in others)
        )
    if public_url and public_url.rstrip("/") != url.rstrip("/"):
        out.write(f"\nQR codes and printed links carry ATOUT_PUBLIC_URL: {public_url}")
    out.write(f"\nData: {services.describe()}.\n{backed_up}Logs: {log_file}\nStop with Ctrl+C.\n\n")
    out.flush()


@dataclass
class Venue:
    """The running venue: its children, writing to one log file, stopped together."""

    log_file: Path
    children: list[subprocess.Popen[bytes]] = field(default_factory=list)
    # (every so many seconds, what to do): run by `watch` between its looks at the children.
    periodic: list[tuple[float, Callable[[], None]]] = field(default_factory=list)

    def spawn(self, argv: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        with self.log_file.open("ab") as log:
            child = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        self.children.append(child)
        return child

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_file.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        for child in self.children:
            if child.poll() is None:
                child.terminate()
        deadline = time.monotonic() + 20
        for child in self.children:
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait(5)

    def wait_until_healthy(self, port: int, timeout: float = 60) -> None:
        """Return once /healthz is green on the laptop; fail at once if a child has died."""
        deadline = time.monotonic() + timeout
        request = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers={"Host": "127.0.0.1"})
        while time.monotonic() < deadline:
            if any(child.poll() is not None for child in self.children):
                raise VenueError(f"a venue process stopped while starting:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(request, timeout=3) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.3)
        raise VenueError(f"the site did not answer on port {port} within {timeout:.0f}s")

    def watch(self) -> int:
        """Block until a child dies (an error: 1) or the launcher is told to stop (0)."""
        stopping = False

        def request_stop(signum: int, frame: object) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)
        due = [time.monotonic() + every for every, _ in self.periodic]
        while not stopping:
            if any(child.poll() is not None for child in self.children):
                sys.stderr.write(f"A venue process stopped: stopping the others.\n{self.log_tail()}\n")
                return 1
            for index, (every, task) in enumerate(self.periodic):
                if time.monotonic() >= due[index]:
                    due[index] = time.monotonic() + every
                    task()
            time.sleep(0.5)
        return 0


def prepare_database(out: TextIO) -> None:
    """Migrate, collect the static files, and say how to log in (in this process)."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", "--noinput", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    warn_about_accounts(out)
    from django.db import connections

    # The children open their own connections; none is shared across their fork.
    connections.close_all()


def warn_about_accounts(out: TextIO) -> None:
    from django.contrib.auth import get_user_model

    from tournaments.demo import DEMO_PASSWORD, DEMO_USERNAME

    users = get_user_model().objects
    if not users.exists():
        # The login page leads to /setup/ until then (accounts.middleware).
        out.write(
            "No organiser account yet: open the site's address below and log in; "
            "the browser then asks for the first administrator (/setup/).\n"
        )
    elif not users.filter(is_active=True).exists():
        out.write("No organiser account yet: create one with  .venv/bin/python manage.py createsuperuser\n")
    demo = users.filter(username=DEMO_USERNAME).first()
    if demo is not None and demo.check_password(DEMO_PASSWORD):
        out.write(
            f"Warning: the demo account {DEMO_USERNAME} / {DEMO_PASSWORD} works for anyone on this network. "
            f"Change its password: .venv/bin/python manage.py changepassword {DEMO_USERNAME}\n"
        )


# -- copies of the database (serving.backups) ---------------------------------------------

BACKUP_FAILURES = (backups.BackupError, OSError, sqlite3.Error, subprocess.SubprocessError)
LATEST = "latest"


@dataclass(frozen=True)
class Summary:
    """What a database holds, for saying what a restore brought back and replaced."""

    tournaments: int
    donnes: int
    last: datetime.datetime | None

    def __str__(self) -> str:
        text = f"{self.tournaments} tournament(s), {self.donnes} donne(s)"
        if self.last is not None:
            text += f", the last entered at {self.last.astimezone():%H:%M:%S on %Y-%m-%d}"
        return text

    def has_more_than(self, other: Summary) -> bool:
        if self.donnes > other.donnes:
            return True
        return self.last is not None and (other.last is None or self.last > other.last)


def database_summary() -> Summary | None:
    """What the configured database holds; None when it cannot be read (Django set up)."""
    from django.db import DatabaseError, connections
    from django.db.models import Count, Max

    from scoring.models import Hand
    from tournaments.models import Tournament

    try:
        hands = Hand.objects.aggregate(count=Count("pk"), last=Max("created_at"))
        return Summary(Tournament.objects.count(), int(hands["count"]), hands["last"])
    except DatabaseError:
        return None
    finally:
        connections.close_all()


def find_backup(choice: str, directory: Path) -> backups.Backup:
    """The copy `choice` names: the newest of `directory`, a file, or a name in `directory`."""
    if choice == LATEST:
        newest = backups.latest(directory)
        if newest is None:
            raise VenueError(f"No copy of the database in {directory}: nothing to restore.")
        return newest
    path = Path(choice) if Path(choice).is_file() else directory / choice
    if not path.is_file():
        raise VenueError(f"No copy of the database at {choice}.")
    known = [backup for backup in backups.backups(path.parent) if backup.path.resolve() == path.resolve()]
    if known:
        return known[0]
    return backups.Backup(path, datetime.datetime.fromtimestamp(path.stat().st_mtime, datetime.UTC), "a given file")


def port_answers(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def restore_night(choice: str, directory: Path, port: int, services: Services) -> str:
    """Put a copy back in place of the database (the one it replaces kept); say what was done."""
    if port_answers(port):
        raise VenueError(f"Something answers on port {port}: stop the venue (Ctrl+C) before restoring.")
    backup = find_backup(choice, directory)
    if services.database_url.startswith("postgres") and not postgres_answers(services.database_url):
        raise VenueError(f"PostgreSQL does not answer at {services.database_url}: start it, then restore.")
    import django

    django.setup()
    from django.conf import settings

    db = settings.DATABASES["default"]
    exists = not backups.is_sqlite(db) or Path(str(db["NAME"])).exists()
    replaced = database_summary() if exists else None
    kept: backups.Backup | None = None
    aside: Path | None = None
    if exists:
        try:
            kept = backups.take(db, directory, reason="before-restore")
        except BACKUP_FAILURES:
            aside = backups.set_damaged_aside(db)
    backups.restore(db, backup)
    restored = database_summary()
    lines = [f"Restored {backup.describe()}: {restored or 'a database that cannot be read'}."]
    if kept is not None:
        lines.append(f"The database it replaced ({replaced or 'unreadable'}) is kept as {kept.path}.")
        if replaced is not None and restored is not None and replaced.has_more_than(restored):
            lines.append(
                "Warning: the database it replaced holds donnes this copy lacks. "
                f"To go back to it: ./run --venue --restore {kept.path}"
            )
    elif aside is not None:
        lines.append(f"The database it replaced could not be read; it is set aside as {aside}.")
    else:
        lines.append("There was no database to replace.")
    return "\n".join(lines)


def periodic_backup(db: Mapping[str, Any], directory: Path, keep: int) -> Callable[[], None]:
    def run() -> None:
        try:
            backups.take(db, directory, reason="periodic", keep=keep)
        except BACKUP_FAILURES as exc:
            sys.stderr.write(f"The periodic copy of the database failed: {exc}\n")

    return run


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="./run --venue", description=__doc__.split("\n\n")[1])
    parser.add_argument("--host", help="the address to serve on (default: found on the local network)")
    parser.add_argument(
        "--port", type=int, default=int(os.environ.get("PORT") or 8000), help="the port (default: $PORT or 8000)"
    )
    parser.add_argument(
        "--embedded", action="store_true", help="do not look for PostgreSQL or Redis: SQLite and in-process tasks"
    )
    parser.add_argument(
        "--secret-file", type=Path,
        help="where the SECRET_KEY is kept (default: $SECRET_KEY_FILE or .secret-key, shared with ./run)",
    )  # fmt: skip
    parser.add_argument("--log-file", type=Path, default=DEFAULT_LOG_FILE, help="where gunicorn and the worker log")
    parser.add_argument(
        "--restore", nargs="?", const=LATEST, metavar="FILE",
        help="put the newest copy of the database back (or FILE), then serve",
    )  # fmt: skip
    parser.add_argument(
        "--backup-dir", type=Path, default=DEFAULT_BACKUP_DIR, help="where the copies go (.venue-backups)"
    )
    parser.add_argument(
        "--backup-every", type=float, default=backups.DEFAULT_EVERY_SECONDS,
        help="seconds between two periodic copies (default: 300)",
    )  # fmt: skip
    parser.add_argument(
        "--backup-keep", type=int, default=int(os.environ.get(backups.BACKUP_KEEP_ENV) or backups.DEFAULT_KEEP),
        help=f"how many copies to keep (default: ${backups.BACKUP_KEEP_ENV} or {backups.DEFAULT_KEEP})",
    )  # fmt: skip
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        host, others = (args.host, []) if args.host else lan.detect()
    except lan.NoLanAddress as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    services = choose_services(dict(os.environ), probe=not args.embedded)
    # pg_dump makes the copies of a PostgreSQL database: without it, there are none.
    copies = services.database_url.startswith("sqlite") or shutil.which("pg_dump") is not None
    env = venue_environment(
        host=host, port=args.port, secret=venue_secret(args.secret_file), services=services,
        backup_dir=args.backup_dir if copies else None, backup_keep=args.backup_keep,
        public_url=os.environ.get("ATOUT_PUBLIC_URL", "").strip(),
    )  # fmt: skip
    os.environ.update(env)
    out.write(f"==> Venue mode on {host}:{args.port} ({services.describe()})\n")
    out.flush()
    if args.restore is not None:
        try:
            restored = restore_night(args.restore, args.backup_dir, args.port, services)
            out.write("==> " + restored.replace("\n", "\n    ") + "\n")
        except (VenueError, *BACKUP_FAILURES) as exc:
            sys.stderr.write(f"The restore failed: {exc}\n")
            return 1
        out.flush()
    prepare_database(out)
    child_env = dict(os.environ)
    venue = Venue(args.log_file)
    if copies:
        from django.conf import settings

        venue.periodic.append(
            (args.backup_every, periodic_backup(settings.DATABASES["default"], args.backup_dir, args.backup_keep))
        )
        every = f"{args.backup_every / 60:g} min" if args.backup_every >= 60 else f"{args.backup_every:g} s"
        backed_up = (
            f"Copies of the database: every {every} and when a round is drawn or closes, the newest "
            f"{args.backup_keep} kept in {args.backup_dir} (./run --venue --restore brings the newest back).\n"
        )
    else:
        backed_up = "Copies of the database: none (pg_dump is not installed: apt install postgresql-client).\n"
    try:
        if services.worker:
            venue.spawn(
                [sys.executable, "-m", "celery", "-A", "atout", "worker", "--loglevel", "INFO",
                 "--without-gossip", "--without-mingle"],
                {"CELERY_WORKER_CONCURRENCY": "2", **child_env},
            )  # fmt: skip
        venue.spawn([sys.executable, "-m", "gunicorn", "-c", "python:serving.gunicorn_conf", "atout.wsgi"], child_env)
        if relay_configured(child_env):
            # The relay's sender (docs/relay.md): pushes the night to the club's hosted
            # Atout whenever the network lets it, and waits while it does not.
            venue.spawn([sys.executable, "manage.py", "relay_push", "--loop"], child_env)
        venue.wait_until_healthy(args.port)
        print_banner(
            f"http://{host}:{args.port}/", others, services, args.log_file, out, backed_up,
            public_url=env["ATOUT_PUBLIC_URL"],
        )  # fmt: skip
        if relay_configured(child_env):
            out.write(f"Relay: the night goes to {child_env['RELAY_URL'].strip()} whenever the network lets it.\n\n")
            out.flush()
        return venue.watch()
    except VenueError as exc:
        sys.stderr.write(f"{exc}\n")
        return 1
    finally:
        venue.stop()


if __name__ == "__main__":
    sys.exit(main())
