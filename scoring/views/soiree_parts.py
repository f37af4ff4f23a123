"""« Ma soirée »'s live part, drawn in parts so that a rank that moved costs little.

At a 300-team night the competitor's rank moves between nearly every two polls of its
page (every hand anywhere in the room may move it), while the rest of the page (where it
sits, its partie, its past rounds) moves only with its own table and the director's
steps. Drawing the whole part again for each move of the rank cost a dozen queries and a
large template at every poll: half the web's CPU (docs/live-refresh.md). So the part is
drawn in two layers, with the two halves of its ETag (`scoring.selectors.soiree.Stamp`):

- the *night* (scoring/public/soiree_night.html), drawn from the database when its stamp
  moves, with two marks where the parts drawn at every answer go, and kept (`night`): in
  this process per competitor and language, and in the shared cache per competitor,
  language and stamp, so that one web process draws it for all (a poll reaches any of
  them; at a busy night a competitor's own table moves its night every few polls);
- at every answer, the round's clock (it carries the server's time, which the browser's
  countdown needs fresh) and the rank (scoring/public/soiree_rank.html), from the served
  ranking this process keeps per version (`scoring.selectors.soiree.served_ranking`).

The view (scoring/views/soiree.py) and the answer before the middleware chain
(scoring/views/soiree_poll.py) assemble the part here, the same way, so a phone gets the
same bytes whichever answers it.
"""

from __future__ import annotations

import dataclasses
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from scoring.selectors.soiree import Evening, ServedRanking
from scoring.views.public import POLL_SECONDS, POLL_SECONDS_FINISHED
from tournaments.selectors import RoundClock

CLOCK_MARK = mark_safe("<!--atout:clock-->")
RANK_MARK = mark_safe("<!--atout:rank-->")
_MARKS = re.compile(r"<!--atout:(clock|rank)-->")

# Nights kept by one process: one per competitor and language polling it. A 300-team
# night in two languages is 600 of about 5 kB; beyond KEPT the least recently asked go.
KEPT = 4_000


@dataclass(frozen=True, slots=True)
class Night:
    """The night as drawn at `stamp`: the drawn text cut at its marks (even places are
    text, odd ones the name of the part drawn there), and the round's clock."""

    stamp: str
    pieces: tuple[str, ...]
    clock: RoundClock | None


_kept: OrderedDict[tuple[int, str], Night] = OrderedDict()
_lock = threading.Lock()


def kept_night(competitor_id: int, language: str, stamp: str) -> Night | None:
    """The competitor's night as this process drew it last, if it is still at `stamp`."""
    with _lock:
        night = _kept.get((competitor_id, language))
        if night is None or night.stamp != stamp:
            return None
        _kept.move_to_end((competitor_id, language))
        return night


def keep_night(competitor_id: int, language: str, night: Night) -> None:
    with _lock:
        _kept[(competitor_id, language)] = night
        _kept.move_to_end((competitor_id, language))
        while len(_kept) > KEPT:
            _kept.popitem(last=False)


# How long the shared cache keeps a drawn night: a night unmoved for longer is drawn again.
SHARED_SECONDS = 600


def _shared_key(competitor_id: int, language: str, stamp: str) -> str:
    return f"soiree-night:{competitor_id}:{language}:{stamp}"


def night(competitor_id: int, language: str, stamp: str, draw: Callable[[], Night | None]) -> Night | None:
    """The competitor's night at `stamp`: as this process keeps it, else as another
    process drew it (the shared cache), else drawn now by `draw` (None: it could not) and
    kept in both."""
    kept = kept_night(competitor_id, language, stamp)
    if kept is not None:
        return kept
    shared = cache.get(_shared_key(competitor_id, language, stamp))
    if isinstance(shared, Night) and shared.stamp == stamp:
        keep_night(competitor_id, language, shared)
        return shared
    drawn = draw()
    if drawn is not None:
        cache.set(_shared_key(competitor_id, language, stamp), drawn, SHARED_SECONDS)
        keep_night(competitor_id, language, drawn)
    return drawn


def forget_nights() -> None:
    """Forget every kept night (tests: a new database)."""
    with _lock:
        _kept.clear()


def draw_night(evening: Evening, stamp: str, *, public_links: bool) -> Night:
    """The competitor's night drawn from `evening` (in the active language)."""
    drawn = render_to_string(
        "scoring/public/soiree_night.html",
        {
            "evening": evening,
            "tournament": evening.tournament,
            "public_links": public_links,
            "clock_mark": CLOCK_MARK,
            "rank_mark": RANK_MARK,
        },
    )
    return Night(stamp=stamp, pieces=tuple(_MARKS.split(drawn)), clock=evening.clock)


def poll_seconds(finished: bool) -> int:
    """How often the part polls: never more often than the ranking's own polls (a finished
    tournament's are slower)."""
    return max(POLL_SECONDS_FINISHED if finished else POLL_SECONDS, settings.SOIREE_POLL_SECONDS)


def live_part(
    night: Night,
    served: ServedRanking | None,
    *,
    number: int,
    finished: bool,
    public_links: bool,
    slug: str,
    path: str,
    etag: str,
) -> SafeString:
    """The live part as the phone swaps it in (scoring/public/soiree_live.html)."""
    rank: dict[str, Any] = {
        "row": served.row(number) if served is not None else None,
        "progress": served.progress if served is not None else None,
        "finished": finished,
        "public_links": public_links,
        "slug": slug,
    }
    drawn: list[str] = []
    for place, piece in enumerate(night.pieces):
        if place % 2 == 0:
            drawn.append(piece)
        elif piece == "clock":
            clock = dataclasses.replace(night.clock, now=timezone.now()) if night.clock is not None else None
            drawn.append(render_to_string("tournaments/clock.html", {"clock": clock}))
        else:
            drawn.append(render_to_string("scoring/public/soiree_rank.html", rank))
    return render_to_string(
        "scoring/public/soiree_live.html",
        {
            "soiree_parts": live_parts(drawn),
            "poll_path": path,
            "poll_seconds": poll_seconds(finished),
            "live_headers": json.dumps({"If-None-Match": etag}),
        },
    )


def live_parts(drawn: list[str]) -> SafeString:
    # Every piece is a template's own output, escaped where it drew its values.
    return mark_safe("".join(drawn))
