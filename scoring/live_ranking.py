"""The live ranking as polls are served it: the published version, rendered once for all.

**The published version.** During a night every stored hand writes a new standings
version. A thousand phones polling every few seconds would each download nearly every
one of them. So the pages serve the *published* version: the newest one, but moved on at
most every `RANKING_PUBLISH_SECONDS` (ATOUT_RANKING_PUBLISH_SECONDS, default 2). A poll
within that time of the last publication is served the published version again (a 304
for a phone that already shows it) even when newer snapshots exist; the first poll after
it publishes the newest. A hand is therefore visible within N seconds plus one poll, and
a quiet ranking moves at its first poll. With N = 0 every poll is served the newest
version. The publication (version, when) is kept in the shared cache, so that every web
process, on every machine, serves the same version; it is decided on the read side only: the refresh
(scoring/standings/) writes every version as before, and once committed says so in the
shared cache too (`written_here`, called on commit), so that a poll knows of a new
version at once, not when its process next reads the tournament's row (kept up to a
second: `polled_row`, scoring.selectors.standings.polled_tournament). The poll reads
both in one round trip, at every poll: no process keeps the publication for itself.

**Never back.** No poll is served a version older than one served before, by any
process of any machine (docs/live-refresh.md, "Several web nodes"): the publication and
the announced version only move forward (`kit.rising.raise_to`, one step in Redis for
every process: two processes publishing at once, one knowing of an older version than
the other, leave the newer); every poll reads the publication from the shared cache
rather than a copy of its own; and a publication the shared cache no longer holds
(forgotten after a quiet day, Redis restarted empty or away) is made again from the
newest version stored in the database, read then, never from a row this process read
up to a second ago, which may be older than what another process served meanwhile.

**One rendering per version.** The ranking's fragment (`ranking_table.html`) is rendered
once per version and whatever else changes it (language, page or projector, live or
not, lots shown), stored in the shared cache (Redis in production through CACHE_URL),
and read by the page, which wraps it, and by the htmx partial, which returns it alone.
A version asked for by many polls before its first render is done is rendered once all
the same: the others wait for it (`_render_lock`, `_rendered_elsewhere`).
The partial's gzip body is kept beside it, compressed once too (`shared_gzip`): at 1,000
teams compressing the fragment costs more than serving it from the cache.

**Kept in the process too.** What a key names never changes (the key holds the version
and everything else the fragment shows), so each web process also keeps the last ones it
read (`LOCAL_CHARS` at most, the oldest dropped first): a thousand phones polling one
version cost the shared cache one read per process, not one per poll, and the fragment
(hundreds of kilobytes at 3,000 teams) crosses from Redis once.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import compress_string

from kit import rising
from scoring.models import StandingsSnapshot

# A version's fragment outlives the version's minutes on screen; a newer one replaces it.
FRAGMENT_SECONDS = 600
# The publication is forgotten after a quiet day (the next poll publishes the newest).
PUBLISHED_SECONDS = 24 * 3600
# The fragments and gzip bodies a process keeps (characters or bytes in all): a few
# versions of the largest rankings in two languages and both page kinds.
LOCAL_CHARS = 24 * 1024 * 1024

_local: OrderedDict[str, tuple[float, str | bytes]] = OrderedDict()
_local_chars = 0
# gunicorn's threaded workers serve several polls at once in one process.
_local_lock = threading.Lock()


def _recall(key: str) -> str | bytes | None:
    """What this process kept under `key`, while the shared cache would keep it."""
    with _local_lock:
        found = _local.get(key)
        if found is None:
            return None
        if found[0] < time.monotonic():
            _drop(key)
            return None
        _local.move_to_end(key)
        return found[1]


def _keep(key: str, value: str | bytes) -> None:
    global _local_chars
    with _local_lock:
        _drop(key)
        _local[key] = (time.monotonic() + FRAGMENT_SECONDS, value)
        _local_chars += len(value)
        while _local_chars > LOCAL_CHARS and len(_local) > 1:
            _drop(next(iter(_local)))


def _drop(key: str) -> None:
    """Forget `key` (the caller holds `_local_lock`)."""
    global _local_chars
    gone = _local.pop(key, None)
    if gone is not None:
        _local_chars -= len(gone[1])


def forget_local() -> None:
    """Forget what this process kept (the tests, beside `cache.clear()`)."""
    global _local_chars, _read_rows_count
    with _local_lock:
        _local.clear()
        _local_chars = 0
    _polled_rows.clear()
    with _read_lock:
        _read.clear()
        _read_rows_count = 0


# A served version's rows as its readers of one row need them (« Ma soirée »'s polls:
# scoring.selectors.soiree.served_ranking), decoded once per process and version rather
# than on every poll: keyed by (tournament, version), READ_SECONDS at most (a version's
# rows are rewritten in place only when names are erased: such a rewrite shows within
# that time), READ_ROWS rows in all (the least recently read dropped first).
READ_SECONDS = 30.0
READ_ROWS = 30_000
_read: OrderedDict[tuple[int, int], tuple[float, int, Any]] = OrderedDict()
_read_rows_count = 0
_read_lock = threading.Lock()


def read_rows(tournament_id: int, version: int) -> Any | None:
    """What `keep_read_rows` kept for this version, while it holds."""
    key = (tournament_id, version)
    with _read_lock:
        found = _read.get(key)
        if found is None:
            return None
        if found[0] < time.monotonic():
            _drop_read(key)
            return None
        _read.move_to_end(key)
        return found[2]


def keep_read_rows(tournament_id: int, version: int, value: Any, *, rows: int) -> None:
    """Keep `value`, made from the `rows` rows of this version, READ_SECONDS."""
    global _read_rows_count
    key = (tournament_id, version)
    with _read_lock:
        _drop_read(key)
        _read[key] = (time.monotonic() + READ_SECONDS, rows, value)
        _read_rows_count += rows
        while _read_rows_count > READ_ROWS and len(_read) > 1:
            _drop_read(next(iter(_read)))


def _drop_read(key: tuple[int, int]) -> None:
    """Forget `key` (the caller holds `_read_lock`)."""
    global _read_rows_count
    gone = _read.pop(key, None)
    if gone is not None:
        _read_rows_count -= gone[1]


def clock() -> float:
    """Seconds, the same in every process (wall clock); tests pass their own `now`."""
    return time.time()


def _published_key(tournament_id: int) -> str:
    return f"ranking-published-version:{tournament_id}"


def _published_at_key(tournament_id: int) -> str:
    # Milliseconds on `clock()`: an integer, which Redis' script compares and stores as it is.
    return f"ranking-published-at:{tournament_id}"


def _newest_key(tournament_id: int) -> str:
    return f"ranking-newest:{tournament_id}"


def newest_written(tournament_id: int, version: int) -> None:
    """Tell every process that `version` is committed: the newest one, unless a newer one
    was announced first (two refreshes' announcements, made after their commits, may
    arrive in either order)."""
    rising.raise_to(_newest_key(tournament_id), version, timeout=PUBLISHED_SECONDS)


# The public tournament row each poll of this process read, with the live version it
# names (scoring.selectors.standings.polled_tournament), kept until a moment on the
# monotonic clock: most polls of an unchanged ranking then answer 304 without a database
# round trip. A version written in this process drops it at once (`written_here`); one
# written by another process shows when the row expires.
_polled_rows: dict[str, tuple[float, Any]] = {}


def polled_row(slug: str, now: float) -> Any | None:
    """The row kept for `slug` if it has not expired at `now`."""
    hit = _polled_rows.get(slug)
    return hit[1] if hit is not None and hit[0] > now else None


def keep_polled_row(slug: str, until: float, row: Any) -> None:
    _polled_rows[slug] = (until, row)


def forget_polled_row(slug: str) -> None:
    _polled_rows.pop(slug, None)


def written_here(*, tournament_id: int, slug: str, version: int) -> None:
    """A live version committed by this process (the refresh calls it on commit): every
    process's polls learn of it from the shared cache, and this one drops the row it kept
    with an older version."""
    newest_written(tournament_id, version)
    hit = _polled_rows.get(slug)
    if hit is not None and getattr(hit[1], "standings_version", None) != version:
        forget_polled_row(slug)


def published_version(tournament_id: int, newest: int, *, now: float | None = None, every: float | None = None) -> int:
    """The version polls of this tournament's live ranking are served now.

    `newest` is the newest version the caller knows of, or the one the refresh announced
    in the shared cache if that is newer. The published version moves to it
    when the last publication is at least `every` seconds old (RANKING_PUBLISH_SECONDS by
    default; 0: at once); until then the published version is served. It never moves
    back: a process that read the tournament a moment ago
    (scoring.selectors.standings.polled_tournament) is served the newer version another
    process published.
    """
    every = settings.RANKING_PUBLISH_SECONDS if every is None else every
    now = clock() if now is None else now
    keys = _published_key(tournament_id), _published_at_key(tournament_id), _newest_key(tournament_id)
    found = cache.get_many(keys)
    announced = found.get(keys[2])
    newest = max(newest, announced if isinstance(announced, int) else 0)
    version, since = found.get(keys[0]), found.get(keys[1])
    if not isinstance(version, int) or not isinstance(since, int):
        # No publication to read: the newest version stored, read now, is at least any
        # version served before, whichever process served it.
        newest = max(newest, stored_newest(tournament_id))
        return publish(tournament_id, newest, now=now) if newest > 0 else 0
    # A publication dated ahead of this clock by more than `every` (a clock set back) is
    # due too, rather than kept until the clock comes back to it.
    if version >= newest or 0 <= now * 1000 - since < every * 1000:
        return version
    return publish(tournament_id, newest, now=now)


def stored_newest(tournament_id: int) -> int:
    """The newest live version the database holds for this tournament (0: none yet)."""
    found = (
        StandingsSnapshot.objects.filter(tournament_id=tournament_id)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    return found or 0


def publish(tournament_id: int, version: int, *, now: float | None = None) -> int:
    """Make `version` the published one from `now` on, unless a newer one is published
    already (another process's, a moment before): the version published now."""
    at = int((clock() if now is None else now) * 1000)
    return rising.raise_to(
        _published_key(tournament_id), version, timeout=PUBLISHED_SECONDS, beside={_published_at_key(tournament_id): at}
    )


def publication_gone(tournament_id: int, *, gone: int, newest: int, now: float | None = None) -> int:
    """The published version `gone` has no snapshot left (pruned): publish `newest`, the
    newest stored, and return the version published now.

    A publication ahead of the newest version stored was never this database's: the
    shared cache outlived it (a database made again beside the same Redis: the benches,
    the tests). It is replaced, and so is the version announced with it,
    which would otherwise keep the publication moving to a version that does not exist.
    """
    if gone <= newest:
        return publish(tournament_id, newest, now=now)
    at = int((clock() if now is None else now) * 1000)
    replaced = {_published_key(tournament_id): newest, _published_at_key(tournament_id): at}
    cache.set_many({**replaced, _newest_key(tournament_id): newest}, PUBLISHED_SECONDS)
    return newest


def fragment_key(*parts: object) -> str:
    return "ranking-fragment:" + ":".join(str(part) for part in parts)


def shared_fragment(key: str, render: Callable[[], str | None]) -> SafeString | None:
    """The fragment stored under `key`, else `render()`'s, stored for every process.

    `render` returns None when it has nothing to render (the version's snapshot is gone):
    nothing is stored, and the caller serves another version.
    """
    kept = _recall(key)
    found: str | None = kept if isinstance(kept, str) else cache.get(key)
    if found is None:
        with _render_lock(key):
            # Another thread of this process may have rendered it while this one waited.
            kept = _recall(key)
            found = kept if isinstance(kept, str) else _rendered_elsewhere(key)
            if found is None:
                try:
                    found = render()
                    if found is None:
                        return None
                    cache.set(key, str(found), FRAGMENT_SECONDS)
                finally:
                    cache.delete(key + RENDERING)
            if kept is None:
                _keep(key, str(found))
    elif kept is None:
        _keep(key, str(found))
    # Rendered by the template engine, escaped there: safe to include as it is.
    return mark_safe(found)


# A version's first render at 3,000 teams takes a few hundred milliseconds; the polls that
# ask for it meanwhile (hundreds a second on a big night) wait for that render rather
# than each start their own: in this process behind a lock per key, across processes
# behind a marker in the shared cache (`RENDERING`). A process that waited
# RENDER_WAIT_SECONDS for another's render (gone, or too slow) renders it itself.
RENDERING = ":rendering"
RENDER_WAIT_SECONDS = 3.0
RENDER_CHECK_SECONDS = 0.02
# key -> (its lock, the threads holding or waiting for it): dropped when nobody does.
_render_locks: dict[str, tuple[threading.Lock, list[int]]] = {}
_render_locks_guard = threading.Lock()


@contextmanager
def _render_lock(key: str) -> Iterator[None]:
    with _render_locks_guard:
        lock, users = _render_locks.setdefault(key, (threading.Lock(), [0]))
        users[0] += 1
    try:
        with lock:
            yield
    finally:
        with _render_locks_guard:
            users[0] -= 1
            if not users[0]:
                del _render_locks[key]


def _rendered_elsewhere(key: str) -> str | None:
    """The fragment under `key` once another process has rendered it; None when this
    process is to render it: nobody else is, the other's render ended without one or took
    too long, or the shared cache is away (then no marker is seen and nobody waits)."""
    marker = key + RENDERING
    if cache.add(marker, 1, RENDER_WAIT_SECONDS * 2):
        rendered: str | None = cache.get(key)  # between the first look and the marker
        if rendered is not None:
            cache.delete(marker)
        return rendered
    deadline = time.monotonic() + RENDER_WAIT_SECONDS
    while True:
        seen = cache.get_many([key, marker])
        if seen.get(key) is not None:
            return str(seen[key])
        if marker not in seen or time.monotonic() >= deadline:
            return None
        time.sleep(RENDER_CHECK_SECONDS)


def shared_gzip(key: str, fragment: str) -> bytes:
    """The fragment stored under `key`, gzip-compressed once for every process.

    Only for a fragment that holds no secret and no CSRF token (the ranking's table):
    see atout.middleware.PublicGZipMiddleware, whose compression this is (no random
    padding: nothing in it to guess).
    """
    kept = _recall(key + ":gzip")
    if isinstance(kept, bytes):
        return kept
    packed = cache.get(key + ":gzip")
    if packed is None:
        packed = compress_string(fragment.encode())
        cache.set(key + ":gzip", packed, FRAGMENT_SECONDS)
    _keep(key + ":gzip", bytes(packed))
    return bytes(packed)
