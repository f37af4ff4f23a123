"""A public round's draw served as files: the projectors' tables follow the draw by themselves.

The draw's page of a round (`draw:round`, the room's screen with the tables, the seats and
"Find my table") of a public tournament past its draft wraps the file

    <LIVE_ROOT>/<slug>/<language>-draw-<round>.html    (and its .gz twin)

and polls it every DRAW_POLL_SECONDS with the file's time (If-Modified-Since), swapping
it whole (docs/live-refresh.md, "Polls served as files"). nginx answers those polls from
the folder, 304 while the file keeps its time; Django never sees them. A table moved, a
late arrival's bye, a round drawn again or a name changed is written here at once, and
shows on the screens at their next poll.

The files are one family of the tournament's folder (scoring/live_files.py), with its
own state file, `draw.json`; only the rounds and languages a page asked for are drawn,
and every one asked for before is drawn again at each publication. Unlike the ranking's,
**each file keeps its own time**: a file whose text would not change is not written
(the polls of a round that did not move stay 304), and one that changes gets the
publication's time, later than any time the family held before.

Published when the draw changes (`publish_draw_on_commit`, the task
`scoring.live_draw_publish`): the draws, the draws done again, the late arrivals and
withdrawals (tournaments' `standings_refresh_requested`), a name erased or merged, a
player renamed (scoring/receivers.py), the venue's draw or results taken by the hosted
site (relay/), a results file or an archive written over a tournament. A round that is
no longer there has its files removed at the next publication. Behind them, the workers'
sweep draws a running tournament's files again (`running_draws_publish`): a publication
lost shows within a sweep.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.http import http_date
from django.utils.safestring import SafeString, mark_safe

from scoring import live_files
from scoring.enqueue import LIVE_DRAW_PUBLISH, enqueue
from tournaments import selectors
from tournaments.models import Round, Tournament

log = logging.getLogger(__name__)

KIND = "draw"
STATE = "draw.json"
FAMILY = (KIND,)


def file_name(language: str, number: int) -> str:
    """The name of the file of round `number`'s draw in `language` ("fr-draw-3")."""
    return f"{language}-{KIND}-{number}"


def parse_name(name: str) -> tuple[str, int] | None:
    """(language, round number) of a draw file's name, None if `name` is not one."""
    found = live_files.NAME.fullmatch(f"{name}.html")
    if found is None or found["kind"] != KIND or found["page"] is None or found["language"] not in live_files.LANGUAGES:
        return None
    return found["language"], int(found["page"])


def poll_seconds(tournament: Tournament) -> int:
    """Seconds between two polls of a draw's file (slower once the tournament is over)."""
    if tournament.status == Tournament.Status.FINISHED:
        return max(settings.DRAW_POLL_SECONDS, 30)
    return settings.DRAW_POLL_SECONDS


def _body(tournament: Tournament, rnd: Round) -> str:
    """The round's tables and byes as the page shows them, in the active language (the
    seats' positions are translated as they are read)."""
    context = {
        "tournament": tournament,
        "round": rnd,
        "tables": selectors.drawn_tables(rnd),
        "byes": selectors.round_byes(rnd),
    }
    return render_to_string("tournaments/draw_tables.html", context)


def _wrapped(tournament: Tournament, name: str, number: int, body: str, modified: int) -> str:
    """The file's text: the body inside the element that polls the file with its time."""
    context = {
        "body": mark_safe(body),  # rendered by the template engine, escaped there
        "number": number,
        "poll_url": live_files.address(tournament.slug, name),
        "poll_seconds": poll_seconds(tournament),
        "live_headers": json.dumps({"If-Modified-Since": http_date(modified)}),
    }
    return render_to_string("tournaments/draw_live.html", context)


def _as_written(path: Path) -> tuple[str, int] | None:
    """A file's text and its time (whole seconds), None when it is not there."""
    try:
        return path.read_text(encoding="utf-8"), int(path.stat().st_mtime)
    except OSError:
        return None


def _digest(bodies: dict[str, str]) -> int:
    """What the files show, as a number (the state's `stamp`): 63 bits of a SHA-256."""
    digest = hashlib.sha256()
    for name in sorted(bodies):
        digest.update(f"{name}\0{bodies[name]}\0".encode())
    return int(digest.hexdigest()[:15], 16)


def publish_draw(
    tournament_id: int, *, want: str | None = None, now: float | None = None
) -> live_files.Published | None:
    """Publish the draws of the tournament's rounds as files: every file published before,
    and `want` (a page asked for it: "fr-draw-2"). Returns what the family holds afterwards
    (None: nothing, the tournament is not public or not past its draft).

    Under the tournament's lock the tournament and its rounds are read again: one no
    longer served as files writes nothing (its draw files, if any, are removed); a round
    no longer there loses its files. A file whose text has not changed keeps its time.
    """
    slug = Tournament.objects.filter(pk=tournament_id).values_list("slug", flat=True).first()
    if slug is None:
        return None
    with live_files.locked(slug):
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None or tournament.slug != slug or not live_files.served_as_files(tournament):
            _remove_family(slug)
            return None
        state = live_files.read_state(slug, STATE)
        if state is not None and state.tournament_id != tournament_id:
            state = None  # another tournament's, once at this address
        rounds = {rnd.number: rnd for rnd in tournament.rounds.all()}
        asked = set(state.names if state is not None else ()) | ({want} if want else set())
        wanted: dict[str, tuple[str, int]] = {}
        for name in asked:
            parsed = parse_name(name)
            if parsed is not None and parsed[1] in rounds:
                wanted[name] = parsed
        if state is None and not wanted:
            return None  # no page has asked for a draw's file yet
        clock = time.time() if now is None else now
        modified = live_files.next_modified(state, clock)
        target = live_files.folder(slug)
        bodies: dict[str, str] = {}
        fragments: dict[str, str] = {}
        for name, (language, number) in sorted(wanted.items()):
            with translation.override(language):
                bodies[name] = _body(tournament, rounds[number])
            written = _as_written(target / f"{name}.html") if state is not None and name in state.names else None
            if written is not None and _wrapped(tournament, name, number, bodies[name], written[1]) == written[0]:
                continue  # unchanged: its time stays, its polls stay 304
            fragments[name] = _wrapped(tournament, name, number, bodies[name], modified)
        names = tuple(sorted(wanted))
        if state is not None and not fragments and names == state.names:
            return state
        published = live_files.Published(
            tournament_id=tournament_id,
            # How many times the family was written (the draw has no version of its own).
            version=(state.version if state is not None else 0) + 1,
            stamp=_digest(bodies),
            modified=modified if fragments or state is None else state.modified,
            at=clock,
            names=names,
        )
        live_files.write(slug, published, fragments, state=STATE, family=FAMILY)
    return published


def _remove_family(slug: str) -> None:
    """The draw's files and state gone from the folder of `slug` (the caller holds its lock)."""
    target = live_files.folder(slug)
    if not target.is_dir():
        return
    for path in target.glob("*.html*"):
        if live_files.kind_of(path.name.split(".", 1)[0]) == KIND:
            path.unlink(missing_ok=True)
    (target / STATE).unlink(missing_ok=True)


def draw_file_text(tournament: Tournament, name: str) -> SafeString | None:
    """The text of the draw's file `name` ("fr-draw-2"), published first when no page asked
    for it before (or when the folder is another tournament's). None when there is no
    such file to serve: not a draw's name, no such round, the tournament not public."""
    if parse_name(name) is None:
        return None
    state = live_files.read_state(tournament.slug, STATE)
    publish = lambda: publish_draw(tournament.pk, want=name)  # noqa: E731
    return live_files.text_of(tournament.slug, tournament.pk, name, state, publish)


def running_draws_publish(*, now: float | None = None) -> int:
    """Publish again the draws of every running tournament whose folder holds some (the
    workers' sweep calls it: a publication whose message was lost, the broker away or
    restarted empty, would otherwise leave the screens on the draw as it was until the
    next change). Cheap when nothing moved: the files are drawn, compared and left as
    they are. How many tournaments' files changed."""
    root = live_files.root()
    held: dict[int, int] = {}
    if root.is_dir():
        for entry in root.iterdir():
            state = live_files.read_state(entry.name, STATE) if live_files.SLUG.fullmatch(entry.name) else None
            if state is not None:
                held[state.tournament_id] = state.modified
    running = Tournament.objects.filter(pk__in=held, status=Tournament.Status.RUNNING).values_list("pk", flat=True)
    changed = 0
    for tournament_id in running:
        try:
            published = publish_draw(tournament_id, now=now)
        except live_files.LockTimeout:
            continue  # the next sweep
        changed += published is not None and published.modified != held[tournament_id]
    return changed


def publish_draw_soon(tournament_id: int) -> None:
    """Ask for the draw's files to be published (a worker's task; at once with no broker)."""
    enqueue(LIVE_DRAW_PUBLISH, tournament_id=tournament_id)


def publish_draw_on_commit(tournament_id: int) -> None:
    """`publish_draw_soon` once the transaction in progress commits (at once outside one)."""
    transaction.on_commit(lambda: publish_draw_soon(tournament_id))
