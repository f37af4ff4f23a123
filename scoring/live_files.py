"""The live ranking's polls served as files: each publication written once, to disk.

Every phone and projector polls its tournament's ranking every second or so: on a
federation's Saturday, thousands of requests a second, each asking whether the version
it shows is still the published one. So each publication of a public tournament's
ranking is written here once, as files a web server sends without Python
(docs/live-refresh.md, "Polls served as files"):

    <LIVE_ROOT>/<slug>/<language>-<kind>.html      the ranking's fragment (kind: ranking, projector)
    <LIVE_ROOT>/<slug>/<language>-<kind>.html.gz   the same, compressed once
    <LIVE_ROOT>/<slug>/state.json                  what was published (never served)
    <LIVE_ROOT>/<slug>/<language>-screen.html      the director's messages (scoring/live_screens.py)
    <LIVE_ROOT>/<slug>/<language>-clock.html       the round's clock (the same)
    <LIVE_ROOT>/<slug>/screen.json, clock.json     what of those was published (never served)
    <LIVE_ROOT>/.locks/<slug>                      the tournament's lock (never served)

at the public address `/live/<slug>/<language>-<kind>.html`. nginx serves them directly
(docker/nginx-live.conf); without nginx (./run, venue mode) the site serves the same files
the same way, ahead of its middleware (`answer`, called by scoring.middleware).

**The conditional request.** Every file of one publication carries the same modification
time, in whole seconds, set here and rising at each publication of the tournament
(`Published.modified`). The fragment sends it back with each poll (htmx's hx-headers,
`If-Modified-Since`); the server answers 304 while the file carries that time, the file
otherwise. An explicit conditional header keeps the browser's own cache out of the way,
so htmx sees the 304 and keeps what it shows.

**Never back.** A publication writes a version at least as new as the one the folder
holds, under the tournament's lock (`locked`); the files are replaced by renaming, so a
reader gets the old file or the new one, never a mix.

**Never a private ranking.** The folder is written only for a public tournament past its
draft, read again under the lock; a tournament made private, moved to another address or
deleted has its folder removed under the same lock (scoring.receivers), so a publication
that read it public a moment before cannot write it back afterwards.
"""

from __future__ import annotations

import fcntl
import gzip
import json
import logging
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.gzip import re_accepts_gzip
from django.utils.http import http_date
from django.utils.safestring import SafeString, mark_safe

from tournaments.models import Tournament

# The kinds of file a tournament's folder holds, by family: each family is published on
# its own (its own state file) and only ever replaces or removes its own files.
RANKING = ("ranking", "projector")
KINDS = (*RANKING, "screen", "clock", "draw")
# A file's name in its tournament's folder, as its public address ends: a page of a long
# ranking carries its number ("fr-ranking-2.html"; the first page is "fr-ranking.html").
NAME = re.compile(rf"(?P<language>[a-z]{{2}})-(?P<kind>{'|'.join(KINDS)})(?:-(?P<page>[1-9][0-9]{{0,3}}))?\.html")
# The languages a file is drawn in (the site's).
LANGUAGES = frozenset(code for code, _name in settings.LANGUAGES)
SLUG = re.compile(r"[-a-zA-Z0-9_]+")
STATE = "state.json"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Published:
    """A tournament's publication as its folder holds it."""

    tournament_id: int
    version: int
    # The tournament's settings and lots as they were drawn (its `updated_at`, in ms).
    stamp: int
    # Every file's modification time, in whole seconds since the epoch.
    modified: int
    # When it was published (time.time()), for the pace of publications.
    at: float
    # The files written: "fr-ranking", "en-projector"...
    names: tuple[str, ...]
    # When what the files show leaves by itself (the director's first message to expire,
    # time.time()), for the workers' sweep; None: nothing does (scoring/live_screens.py).
    expires: float | None = None

    @property
    def last_modified(self) -> str:
        """The files' time as HTTP says it (Last-Modified, If-Modified-Since)."""
        return http_date(self.modified)


def served_as_files(tournament: Tournament) -> bool:
    """Whether the tournament's live pages are polled as files (its ranking, its strip of
    messages, its clock, its draws): anyone may follow it (public, past its draft). Read
    again under the lock by every publication."""
    return tournament.is_public and tournament.status != Tournament.Status.DRAFT


def root() -> Path:
    return Path(settings.LIVE_ROOT)


def folder(slug: str) -> Path:
    if not SLUG.fullmatch(slug):
        raise ValueError(f"not a tournament's address: {slug!r}")
    return root() / slug


def address(slug: str, name: str) -> str:
    """The public address of the file `name` ("fr-ranking") of the tournament at `slug`."""
    return f"/live/{slug}/{name}.html"


def file_name(language: str, kind: str) -> str:
    return f"{language}-{kind}"


# How long a process waits for a tournament's lock: a publication holds it for one
# rendering (a few hundred milliseconds at 3,000 teams); a holder stuck longer (a shared
# file system stalled) must not hold a page load or a settings change with it.
LOCK_SECONDS = 10.0


class LockTimeout(TimeoutError):
    """The tournament's lock was not had within LOCK_SECONDS."""


@contextmanager
def locked(slug: str, timeout: float = LOCK_SECONDS) -> Iterator[None]:
    """The tournament's lock, held by every process that writes or removes its folder
    (an advisory lock on a file beside the folders: every process of every node that
    shares the folder takes the same one); LockTimeout after `timeout` seconds."""
    locks = root() / ".locks"
    locks.mkdir(parents=True, exist_ok=True)
    handle = os.open(locks / folder(slug).name, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LockTimeout(f"the live files of {slug!r} stayed locked {timeout:g} s") from None
                time.sleep(0.01)
        yield
    finally:
        os.close(handle)


def read_state(slug: str, state: str = STATE) -> Published | None:
    """What the folder of `slug` holds of the family whose state file is `state` (None:
    nothing published, or unreadable)."""
    try:
        raw = json.loads((folder(slug) / state).read_text(encoding="utf-8"))
        return Published(
            tournament_id=int(raw["tournament_id"]),
            version=int(raw["version"]),
            stamp=int(raw["stamp"]),
            modified=int(raw["modified"]),
            at=float(raw["at"]),
            names=tuple(str(name) for name in raw["names"]),
            expires=float(raw["expires"]) if raw.get("expires") is not None else None,
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def next_modified(before: Published | None, now: float) -> int:
    """A new publication's modification time: now, and always after the last one."""
    return max(int(now), before.modified + 1 if before is not None else 0)


# gzip's level for the compressed twins: 6 makes a 3,000-row ranking 6 % larger than 9
# does, four times faster (a publication a second compresses every file).
GZIP_LEVEL = 6


def kind_of(name: str) -> str:
    """The kind of the file `name` ("fr-ranking-2" is a "ranking")."""
    return name.split("-")[1] if name.count("-") else ""


def write(
    slug: str,
    published: Published,
    fragments: dict[str, str],
    *,
    state: str = STATE,
    family: tuple[str, ...] = RANKING,
) -> None:
    """Write `fragments` (by name) and the state of `published` (to the file `state`), each
    file replaced at once; the caller holds `locked(slug)`. Files of the `family`'s kinds
    no longer published are removed; other families' files are left as they are."""
    target = folder(slug)
    target.mkdir(parents=True, exist_ok=True)
    times = (published.modified, published.modified)
    for name, text in fragments.items():
        data = text.encode()
        # The compressed file first: a reader asking for it may see the new one a moment
        # before a reader of the plain one; neither ever sees an older one afterwards.
        packed = gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=published.modified)
        replace(target / f"{name}.html.gz", packed, times)
        replace(target / f"{name}.html", data, times)
    for old in target.glob("*.html*"):
        name = old.name.split(".", 1)[0]
        if kind_of(name) in family and name not in published.names:
            old.unlink(missing_ok=True)
    replace(target / state, json.dumps(asdict(published)).encode(), None)


def replace(path: Path, data: bytes, times: tuple[int, int] | None) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        # Readable by the web server's user (nginx's workers), as a static file is.
        os.chmod(temporary, 0o644)
        if times is not None:
            os.utime(temporary, times)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def remove(slug: str) -> None:
    """Stop serving the tournament at `slug`: its folder removed, under its lock."""
    if not SLUG.fullmatch(slug) or not folder(slug).exists():
        return
    try:
        with locked(slug):
            shutil.rmtree(folder(slug), ignore_errors=True)
    except LockTimeout:
        # A ranking no longer public goes whatever holds the lock; the holder, a
        # publication, reads the tournament again before it writes.
        log.warning("live files of %s removed without their lock (held too long)", slug)
        shutil.rmtree(folder(slug), ignore_errors=True)


def text_of(
    slug: str,
    tournament_id: int,
    name: str,
    state: Published | None,
    publish: Callable[[], Published | None],
    *,
    stale: bool = False,
) -> SafeString | None:
    """The text of the file `name` of the tournament's folder, for a page to wrap; published
    first (`publish`, returning its family's state) when `state`, its family's, is another
    tournament's, lacks the file or is `stale`. A lock held too long elsewhere leaves the
    file as it stands. None when there is no such file (the tournament not public...)."""
    if state is None or state.tournament_id != tournament_id or name not in state.names or stale:
        try:
            state = publish()
        except LockTimeout:
            log.warning("live files of %s not published: their lock is held", slug)
    if state is None or state.tournament_id != tournament_id or name not in state.names:
        return None
    try:
        text = (folder(slug) / f"{name}.html").read_text(encoding="utf-8")
    except OSError:
        return None
    # Rendered by the template engine, escaped there: safe to include as it is.
    return mark_safe(text)


def due_in(published: Published | None, *, now: float | None = None) -> float:
    """Seconds before a new publication may be written (0: now), at the pace
    RANKING_PUBLISH_SECONDS sets."""
    if published is None:
        return 0.0
    now = time.time() if now is None else now
    wait = published.at + settings.RANKING_PUBLISH_SECONDS - now
    # A publication dated ahead of this clock (a clock set back) does not hold the next one.
    return wait if 0 < wait <= settings.RANKING_PUBLISH_SECONDS else 0.0


def answer(request: HttpRequest, slug: str, name: str) -> HttpResponse | None:
    """The file `name` of the tournament at `slug` as nginx would send it (docker/nginx-live.conf):
    304 while the request's If-Modified-Since is the file's time, the compressed file to a
    client that takes gzip. None when there is no such file (the caller publishes it, or 404s)."""
    if not SLUG.fullmatch(slug) or not NAME.fullmatch(name):
        return None
    path = folder(slug) / name
    gzipped = bool(re_accepts_gzip.search(request.headers.get("Accept-Encoding", "")))
    try:
        with open(path.with_name(name + ".gz") if gzipped else path, "rb") as handle:
            status = os.fstat(handle.fileno())
            modified = http_date(int(status.st_mtime))
            unchanged = request.headers.get("If-Modified-Since") == modified
            data = b"" if unchanged else handle.read()
    except OSError:
        return None
    if unchanged:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(data, content_type="text/html; charset=utf-8")
        if gzipped:
            response["Content-Encoding"] = "gzip"
    response["Last-Modified"] = modified
    # nginx's tag for a static file: its time and size in hexadecimal.
    response["ETag"] = f'"{int(status.st_mtime):x}-{status.st_size:x}"'
    response["Cache-Control"] = "no-cache"
    response["Vary"] = "Accept-Encoding"
    return response
