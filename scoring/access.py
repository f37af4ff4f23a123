"""Who may reach the scoring pages: the one place where it is decided.

- A *referee* is whoever holds a table's secret link (`/r/<token>/`): no account, the
  token is the access. The link works while the table's round is open and the director
  has not revoked it. Wrong tokens are counted per client address in the cache; past
  the limit that address gets 429 for every token, right or wrong, for the rest of the
  window, so that the answer can never tell a guesser which token exists.
- An *organiser* is a user listed in the tournament's club organisers
  (tournaments.access); the director's pages load the tournament by its slug and check
  that, nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tournaments.access import require_organiser
from tournaments.models import Round, Table, Tournament

# What new_table_token produces (token_urlsafe); anything else is wrong without a query.
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def _limit() -> tuple[int, int]:
    """(wrong tokens allowed, window in seconds) per client address."""
    return (
        int(getattr(settings, "REFEREE_TOKEN_MISSES", 20)),
        int(getattr(settings, "REFEREE_TOKEN_WINDOW", 600)),
    )


def client_address(request: HttpRequest) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is whatever the client wants it to be unless a
    # trusted proxy rewrites it, and a limit keyed on it could be dodged at will.
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def _miss_key(address: str) -> str:
    return f"referee:misses:{address}"


def _misses(address: str) -> int:
    return int(cache.get(_miss_key(address)) or 0)


def _count_miss(address: str) -> None:
    key = _miss_key(address)
    _allowed, window = _limit()
    # add() starts the window once; incr() then counts within it without extending it.
    cache.add(key, 0, timeout=window)
    try:
        cache.incr(key)
    except ValueError:
        # The key expired between add() and incr(): start again.
        cache.set(key, 1, timeout=window)


def denied(request: HttpRequest, status: int, title: str, message: str) -> HttpResponse:
    return render(request, "scoring/referee_denied.html", {"title": title, "message": message}, status=status)


RefereeView = Callable[..., HttpResponse]


def referee_table(view: RefereeView) -> RefereeView:
    """Load the table of the link `token` for `view(request, table, ...)`, or refuse."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        address = client_address(request)
        allowed, _window = _limit()
        if _misses(address) >= allowed:
            return denied(
                request,
                429,
                _("Too many wrong links"),
                _("Too many wrong table links came from this connection. Wait a few minutes, then scan the QR code."),
            )
        table = None
        if TOKEN_SHAPE.match(token):
            table = Table.objects.select_related("round__tournament__club").filter(token=token).first()
        if table is None:
            _count_miss(address)
            return denied(
                request,
                404,
                _("Unknown table link"),
                _("This link does not open any table. Check it, or scan the QR code on the table sheet again."),
            )
        if table.token_revoked:
            return denied(
                request,
                403,
                _("This link was withdrawn"),
                _("The director has withdrawn this table's link. Ask the director for the new one."),
            )
        if table.round.status != Round.Status.OPEN:
            return denied(
                request,
                403,
                _("This round is closed"),
                _("Round %(number)s is closed: hands can no longer be entered from this link. Ask the director.")
                % {"number": table.round.number},
            )
        return view(request, table, *args, **kwargs)

    return wrapper


def organiser_tournament(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Log in, load the tournament of `slug`, and check the user organises its club."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
        require_organiser(request.user, tournament.club)
        return view(request, tournament, *args, **kwargs)

    return wrapper
