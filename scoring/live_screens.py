"""The director's messages and the round's clock served as files, as the ranking is.

The projector, the draw and every « Ma soirée » page show a strip of the director's
messages (polled every 10 s) and the round's clock (polled every 30 s). For a tournament
anyone may follow (scoring.live_files.served_as_files) each is a file of the
tournament's live folder (scoring/live_files.py), one per language a page has asked for,
which nginx sends without Python:

    <slug>/<language>-screen.html   the strip (tournaments/screen_messages.html)   state: screen.json
    <slug>/<language>-clock.html    the clock (tournaments/clock_file.html)        state: clock.json

Each kind is a family of its own, with its own state file: a message posted moves the
strip's file and its time, never the clock's, and the reverse. A file polls its own
address with If-Modified-Since of its time, as the ranking's does; a private tournament's
pages poll the site's addresses with their ETag (tournaments/screens.py), as before.

**When.** A publication is cheap (a few messages, one clock), so it runs at once, once
the change has committed:
- a message posted or withdrawn (tournaments.signals.screen_messages_changed, received in
  scoring.receivers);
- the clock started, changed or stopped, a round drawn or closed (rounds.services calls
  `publish_on_commit`: the clock shown is the latest round's);
- a message's expiry: each publication of the strip sends a task for the moment its first
  message leaves (`scoring.screen_files_publish`, once per moment), and the workers' sweep
  (`expired_publish`, atout/celery.py) publishes every strip whose state says that moment
  has passed, for a task lost. With no broker (./run, venue mode: no worker, no sweep, and
  the site itself serves the files) the site looks at the strip's state as it serves it
  (scoring.middleware);
- a page that asks for a file not there yet (`file_text`), or a poll of a missing file
  (scoring.views.public.live_file).

**Nothing moved, nothing written.** A publication draws the files again with the time of
the one before: when that is what they already hold, only a language newly asked for is
written (with that same time). Otherwise every file is drawn with a new, later time.

**Never a private tournament's.** Written under the tournament's lock, the tournament
read again there: one no longer public gets nothing written, and its folder is the
receivers' to remove (scoring.receivers).

**The clock's time.** The clock's file holds the round's end, never the server's time
(it would be stale a second later): static/js/clock.js takes that from the answer htmx
swaps in (its `Date` header), and on a page's first load from the `data-clock-now` the
page (drawn by Django) carries around the file's text.
"""

from __future__ import annotations

import datetime
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import http_date
from django.utils.safestring import SafeString

from scoring import live_files
from scoring.enqueue import SCREEN_FILES_PUBLISH, enqueue_later
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.screens import SCREEN_POLL_SECONDS, screen_context

if TYPE_CHECKING:
    from collections.abc import Iterable

log = logging.getLogger(__name__)

SCREEN = "screen"
CLOCK = "clock"
# Each kind's state file in the tournament's folder (one family each: scoring/live_files.py).
STATES = {SCREEN: "screen.json", CLOCK: "clock.json"}
KINDS = tuple(STATES)
# Seconds between two polls of the clock's file (the pages count down by themselves).
CLOCK_POLL_SECONDS = 30
# Seconds after a message's expiry its task publishes the strip (the message is gone
# from `expires_at` on: a task a little late is sure to find it gone).
EXPIRY_MARGIN = 0.5


def _kind(name: str) -> str:
    found = live_files.NAME.fullmatch(name + ".html")
    return found.group("kind") if found is not None and found.group("page") is None else ""


def _moment(now: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(now, tz=datetime.UTC)


def _content(tournament: Tournament, kind: str, now: float) -> tuple[dict[str, Any], float | None]:
    """What the files of `kind` show at `now` (their template's context, less the polling),
    and when it leaves by itself (a message's expiry; None: never)."""
    if kind == SCREEN:
        shown = selectors.screen_messages(tournament.pk, now=_moment(now))
        ends = [message.expires_at.timestamp() for message in shown if message.expires_at is not None]
        return {"screen_messages": shown, "screen_poll": SCREEN_POLL_SECONDS}, min(ends) if ends else None
    clock = selectors.round_clock(selectors.current_round(tournament), now=_moment(now))
    return {"clock": clock, "clock_poll": CLOCK_POLL_SECONDS}, None


def _render(slug: str, kind: str, name: str, content: dict[str, Any], modified: int) -> str:
    """The file `name`: `content`, polling its own address with the files' time."""
    headers = json.dumps({"If-Modified-Since": http_date(modified)})
    address = live_files.address(slug, name)
    with translation.override(name.split("-", 1)[0]):
        if kind == SCREEN:
            context = {**content, "screen_url": address, "screen_headers": headers}
            return render_to_string("tournaments/screen_messages.html", context)
        context = {**content, "clock_url": address, "clock_headers": headers, "clock_file": True}
        return render_to_string("tournaments/clock_file.html", context)


def _on_disk(slug: str, name: str) -> str | None:
    try:
        return (live_files.folder(slug) / f"{name}.html").read_text(encoding="utf-8")
    except OSError:
        return None


def publish(
    tournament_id: int, kind: str, *, want: str | None = None, now: float | None = None
) -> live_files.Published | None:
    """Publish the tournament's files of `kind` (SCREEN, CLOCK): every one published
    before, and `want` (a page asked for it). Returns what the folder holds afterwards
    (None: nothing, the tournament not public or gone)."""
    if kind not in STATES:
        raise ValueError(f"not a kind of screen file: {kind!r}")
    slug = Tournament.objects.filter(pk=tournament_id).values_list("slug", flat=True).first()
    if slug is None:
        return None
    clock = time.time() if now is None else now
    with live_files.locked(slug):
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None or tournament.slug != slug or not live_files.served_as_files(tournament):
            return None  # its folder is the receivers' to remove
        state = live_files.read_state(slug, STATES[kind])
        if state is not None and state.tournament_id != tournament_id:
            state = None  # another tournament's, once at this address
        held = set(state.names) if state is not None else set()
        names = {
            name
            for name in held | ({want} if want else set())
            if _kind(name) == kind and name.split("-", 1)[0] in live_files.LANGUAGES
        }
        if not names:
            return state  # no page has asked for a file yet
        content, expires = _content(tournament, kind, clock)
        moved = state is None or state.expires != expires
        kept: dict[str, str] = {}
        if state is not None and not moved:
            for name in sorted(names & held):
                kept[name] = _render(slug, kind, name, content, state.modified)
                if kept[name] != _on_disk(slug, name):
                    moved = True
                    break
        if not moved and names <= held:
            return state
        modified = live_files.next_modified(state, clock) if moved else state.modified  # type: ignore[union-attr]
        published = live_files.Published(
            tournament_id=tournament_id,
            version=(state.version if state is not None else 0) + int(moved),
            stamp=0,
            modified=modified,
            at=clock if moved else state.at,  # type: ignore[union-attr]
            names=tuple(sorted(names)),
            expires=expires,
        )
        drawn = names if moved else names - held
        fragments = {name: _render(slug, kind, name, content, modified) for name in sorted(drawn)}
        live_files.write(slug, published, fragments, state=STATES[kind], family=(kind,))
    if kind == SCREEN:
        _expiry_send(tournament_id, expires, clock)
    return published


def _expiry_send(tournament_id: int, expires: float | None, now: float) -> None:
    """Send the strip's publication for the moment its first message leaves, once for that
    moment (a worker runs it then). Not with no broker: the task would run here and now;
    the site then looks at the strip's state as it serves it (`expired_here`)."""
    if expires is None or settings.CELERY_TASK_ALWAYS_EAGER:
        return
    wait = max(0.0, expires - now) + EXPIRY_MARGIN
    if cache.add(f"screen-expiry:{tournament_id}:{expires:.3f}", 1, timeout=int(wait) + 60):
        enqueue_later(SCREEN_FILES_PUBLISH, wait, tournament_id=tournament_id)


def publish_kinds(tournament_id: int, kinds: Iterable[str], *, now: float | None = None) -> None:
    """Publish each of `kinds`; a lock held too long elsewhere sends the publication for a
    little later instead (a task; at once with no broker)."""
    for kind in kinds:
        try:
            publish(tournament_id, kind, now=now)
        except live_files.LockTimeout:
            log.warning("%s files of tournament %s not published now: their lock is held", kind, tournament_id)
            enqueue_later(
                SCREEN_FILES_PUBLISH,
                2,
                tournament_id=tournament_id,
                screen=int(kind == SCREEN),
                clock=int(kind == CLOCK),
            )


def publish_on_commit(tournament_id: int, *kinds: str) -> None:
    """Publish the tournament's files of `kinds` once the transaction in progress commits
    (at once outside one); a failure is logged, never the caller's."""
    transaction.on_commit(lambda: publish_kinds(tournament_id, kinds), robust=True)


def expired_publish(*, now: float | None = None) -> int:
    """Publish every strip whose state says a message has left since (the workers' sweep
    calls it: an expiry's task lost, the broker away or restarted empty, would leave the
    message on the screens). How many were published."""
    clock = time.time() if now is None else now
    root = live_files.root()
    due: list[int] = []
    if root.is_dir():
        for entry in root.iterdir():
            if not live_files.SLUG.fullmatch(entry.name):
                continue
            state = live_files.read_state(entry.name, STATES[SCREEN])
            if state is not None and state.expires is not None and state.expires <= clock:
                due.append(state.tournament_id)
    for tournament_id in due:
        publish_kinds(tournament_id, (SCREEN,), now=clock)
    return len(due)


def expired_here(slug: str, name: str, *, now: float | None = None) -> None:
    """Before the site itself serves the strip's file `name` (no nginx in front: ./run,
    venue mode, where no worker sends the expiries' tasks): publish it first when its
    state says a message has left since. One small file read otherwise."""
    if _kind(name.removesuffix(".html")) != SCREEN or not live_files.SLUG.fullmatch(slug):
        return
    state = live_files.read_state(slug, STATES[SCREEN])
    clock = time.time() if now is None else now
    if state is not None and state.expires is not None and state.expires <= clock:
        try:
            publish(state.tournament_id, SCREEN, now=clock)
        except live_files.LockTimeout:
            log.warning("the strip of %s not published at its expiry: its lock is held", slug)


def file_text(tournament: Tournament, name: str, *, now: float | None = None) -> SafeString | None:
    """The file `name` ("fr-screen", "en-clock") of the tournament, published first when it
    is missing, of another tournament once at this address, or past an expiry. None when it
    cannot be (the tournament is no longer public, its lock is held too long with no file)."""
    kind = _kind(name)
    if kind not in STATES or name.split("-", 1)[0] not in live_files.LANGUAGES:
        return None
    clock = time.time() if now is None else now
    state = live_files.read_state(tournament.slug, STATES[kind])
    expired = state is not None and state.expires is not None and state.expires <= clock
    return live_files.text_of(
        tournament.slug,
        tournament.pk,
        name,
        state,
        lambda: publish(tournament.pk, kind, want=name, now=clock),
        stale=expired,
    )


def page_parts(tournament: Tournament, *, screen_url: str, clock: bool = False) -> dict[str, Any]:
    """What a page's strip (tournaments/screen_strip.html) and, with `clock`, its clock
    (tournaments/clock_slot.html) need: the files' text for a tournament served as files,
    else the strip polling `screen_url` by its ETag (tournaments/screens.py) and the clock
    polling the site (`draw:clock`)."""
    parts: dict[str, Any] = {}
    if live_files.served_as_files(tournament):
        language = translation.get_language() or settings.LANGUAGE_CODE
        screen = file_text(tournament, live_files.file_name(language, SCREEN))
        if screen is not None:
            parts["screen_fragment"] = screen
        if clock:
            ticking = file_text(tournament, live_files.file_name(language, CLOCK))
            if ticking is not None:
                parts.update(clock_fragment=ticking, clock_now=selectors.iso_moment(timezone.now()))
    if "screen_fragment" not in parts:
        parts.update(screen_context(tournament.pk, url=screen_url))
    if clock and "clock_fragment" not in parts:
        parts["clock_url"] = reverse("draw:clock", kwargs={"slug": tournament.slug})
    return parts
