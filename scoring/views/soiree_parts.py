"""« Ma soirée »'s live part, drawn in layers so that what moved alone is drawn again.

At a busy night the competitor's rank moves between nearly every two polls of its page
(every hand anywhere in the room may move it), the partie in play at its table moves
with every donne entered or confirmed there, and the rest (where it sits, its past
rounds) only with the director's steps. Drawing the whole part for each of these cost a
dozen queries and a large template at every poll: half the web's CPU
(docs/live-refresh.md). So the part is drawn in layers, one for each part of its ETag
(`scoring.selectors.soiree.Stamp`):

- the *night* (scoring/public/soiree_night.html), drawn from the database when its stamp
  moves, with marks where the other layers go;
- the *partie* in play (scoring/public/soiree_partie.html), drawn from its table alone
  (two queries) when its stamp moves;
- at every answer, the round's clock (it carries the server's time, which the browser's
  countdown needs fresh) and the rank (scoring/public/soiree_rank.html), from the served
  ranking this process keeps per version (`scoring.selectors.soiree.served_ranking`).

The night and the partie are kept (`kept`): in this process per competitor and language,
and in the shared cache per competitor, language and stamp, so that one web process
draws them for all (a poll reaches any of them). The view (scoring/views/soiree.py) and
the answer before the middleware chain (scoring/views/soiree_poll.py) assemble the part
here, the same way, so a phone gets the same bytes whichever answers it.
"""

from __future__ import annotations

import dataclasses
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from scoring.selectors.soiree import Evening, Partie, ServedRanking
from scoring.views.public import POLL_SECONDS, POLL_SECONDS_FINISHED
from tournaments.selectors import RoundClock

CLOCK_MARK = mark_safe("<!--atout:clock-->")
PARTIE_MARK = mark_safe("<!--atout:partie-->")
RANK_MARK = mark_safe("<!--atout:rank-->")
_MARKS = re.compile(r"<!--atout:(clock|partie|rank)-->")

# Layers kept by one process: two per competitor and language polling it. A 300-team
# night in two languages is 1,200 of a few kB; beyond KEPT the least recently asked go.
KEPT = 8_000
# How long the shared cache keeps a drawn layer: one unmoved for longer is drawn again.
SHARED_SECONDS = 600


@dataclass(frozen=True, slots=True)
class Night:
    """The night as drawn at `stamp`: the drawn text cut at its marks (even places are
    text, odd ones the name of the layer drawn there), and the round's clock."""

    stamp: str
    pieces: tuple[str, ...]
    clock: RoundClock | None


@dataclass(frozen=True, slots=True)
class PartieDrawn:
    """The partie in play as drawn at `stamp`."""

    stamp: str
    text: str


Layer = TypeVar("Layer", Night, PartieDrawn)

_kept: OrderedDict[tuple[str, int, str], Night | PartieDrawn] = OrderedDict()
_lock = threading.Lock()


def kept(
    kind: type[Layer], competitor_id: int, language: str, stamp: str, draw: Callable[[], Layer | None]
) -> Layer | None:
    """The competitor's layer of `kind` at `stamp`: as this process keeps it, else as
    another process drew it (the shared cache), else drawn now by `draw` (None: it could
    not) and kept in both."""
    key = (kind.__name__, competitor_id, language)
    with _lock:
        found = _kept.get(key)
        if isinstance(found, kind) and found.stamp == stamp:
            _kept.move_to_end(key)
            return found
    shared_key = f"soiree-{kind.__name__}:{competitor_id}:{language}:{stamp}"
    shared = cache.get(shared_key)
    if isinstance(shared, kind) and shared.stamp == stamp:
        drawn: Layer = shared
    else:
        made = draw()
        if made is None:
            return None
        drawn = made
        cache.set(shared_key, drawn, SHARED_SECONDS)
    with _lock:
        _kept[key] = drawn
        _kept.move_to_end(key)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return drawn


def forget() -> None:
    """Forget every layer this process keeps (tests: a new database)."""
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
            "partie_mark": PARTIE_MARK,
            "rank_mark": RANK_MARK,
        },
    )
    return Night(stamp=stamp, pieces=tuple(_MARKS.split(drawn)), clock=evening.clock)


def draw_partie(partie: Partie | None, stamp: str, *, public_links: bool, slug: str) -> PartieDrawn:
    """The partie in play drawn (in the active language); nothing where there is none."""
    if partie is None:
        return PartieDrawn(stamp=stamp, text="")
    text = render_to_string(
        "scoring/public/soiree_partie.html",
        {
            "sheet": partie.sheet,
            "score": partie.score,
            "round_number": partie.round_number,
            "table": partie.table,
            "public_links": public_links,
            "slug": slug,
        },
    )
    return PartieDrawn(stamp=stamp, text=text)


def poll_seconds(finished: bool) -> int:
    """How often the part polls: never more often than the ranking's own polls (a finished
    tournament's are slower)."""
    return max(POLL_SECONDS_FINISHED if finished else POLL_SECONDS, settings.SOIREE_POLL_SECONDS)


def live_part(
    night: Night,
    partie: PartieDrawn,
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
        # « The whole ranking » opens the page of a long ranking that shows the competitor.
        "page": served.page(number) if served is not None else 1,
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
        elif piece == "partie":
            drawn.append(partie.text)
        else:
            drawn.append(render_to_string("scoring/public/soiree_rank.html", rank))
    return render_to_string(
        "scoring/public/soiree_live.html",
        {
            # Every piece is a template's own output, escaped where it drew its values.
            "soiree_parts": mark_safe("".join(drawn)),
            "poll_path": path,
            "poll_seconds": poll_seconds(finished),
            "live_headers": json.dumps({"If-None-Match": etag}),
        },
    )
