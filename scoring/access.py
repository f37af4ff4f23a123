"""Who may reach the scoring pages: the one place where it is decided.

- A *referee* is whoever holds a table's secret link (`/r/<token>/`): no account, the
  token is the access. The link works while the table's round is open and the director
  has not revoked it. Wrong tokens are counted per client address (kit.clients: the
  proxy's X-Forwarded-For only from a trusted proxy) in the shared cache, with atomic
  increments; past the limit, that address's wrong tokens answer 429 for the rest of
  the window. A right token always opens its table: behind a proxy that is not
  trusted, or on one shared Wi-Fi, every phone has the same address, and one guesser
  must not lock the room out. What keeps a guesser from finding a table is the token's
  size (192 random bits); the limit only slows guessing down and keeps it visible.
- A *competitor* (a team, or a player of a mêlée or an individual tournament) holds the
  secret link of its « Ma soirée » page (`/soiree/<token>/`): the same token as a
  table's, revoked and renewed by the director the same way, and wrong ones counted
  with the referee's (`competitor_by_link`). The link works for any tournament past its
  draft, public or not, until the director withdraws it.
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
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from kit.clients import client_address
from kit.throttle import count_hit
from tournaments.access import require_organiser
from tournaments.models import Competitor, Round, Table, Tournament

# What new_table_token produces (token_urlsafe); anything else is wrong without a query.
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def _limit() -> tuple[int, int]:
    """(wrong tokens allowed, window in seconds) per client address."""
    return (
        int(getattr(settings, "REFEREE_TOKEN_MISSES", 20)),
        int(getattr(settings, "REFEREE_TOKEN_WINDOW", 600)),
    )


def _miss_key(address: str) -> str:
    return f"referee:misses:{address}"


def _count_miss(address: str) -> int:
    """Count one wrong token from `address`; the count within the current window."""
    _allowed, window = _limit()
    return count_hit(_miss_key(address), window=window)


# The header that says why a table link was refused (`unknown`, `revoked`, `closed`), for
# the referee's page polling it: a closed round's journal can go, an unknown table's stays
# on the phone (static/js/referee.js).
LINK_STATE_HEADER = "Atout-Table-Link"


def denied(request: HttpRequest, status: int, title: str, message: str, link_state: str = "") -> HttpResponse:
    response = render(request, "notice.html", {"title": title, "message": message}, status=status)
    if link_state:
        response[LINK_STATE_HEADER] = link_state
    return response


RefereeView = Callable[..., HttpResponse]


def referee_table(view: RefereeView) -> RefereeView:
    """Load the table of the link `token` for `view(request, table, ...)`, or refuse."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        table = None
        if TOKEN_SHAPE.match(token):
            # A token is unique: ordered by its key alone, not by the model's ordering, which
            # would sort by the tournament's date and name to pick the one row.
            table = Table.objects.select_related("round__tournament").filter(token=token).order_by("pk").first()
        if table is None:
            allowed, _window = _limit()
            if _count_miss(client_address(request)) > allowed:
                return denied(
                    request,
                    429,
                    _("Too many wrong links"),
                    _(
                        "Too many wrong table links came from this connection. "
                        "Wait a few minutes, then scan the QR code."
                    ),
                )
            return denied(
                request,
                404,
                _("Unknown table link"),
                _("This link does not open any table. Check it, or scan the QR code on the table sheet again."),
                "unknown",
            )
        if table.token_revoked:
            return denied(
                request,
                403,
                _("This link was withdrawn"),
                _("The director has withdrawn this table's link. Ask the director for the new one."),
                "revoked",
            )
        if table.round.status != Round.Status.OPEN:
            return denied(
                request,
                403,
                _("This round is closed"),
                _("Round %(number)s is closed: hands can no longer be entered from this link. Ask the director.")
                % {"number": table.round.number},
                "closed",
            )
        return view(request, table, *args, **kwargs)

    return wrapper


def _too_many_misses(request: HttpRequest) -> HttpResponse | None:
    """Count one wrong link from the request's address; the refusal once past the limit."""
    allowed, _window = _limit()
    if _count_miss(client_address(request)) > allowed:
        return denied(
            request,
            429,
            _("Too many wrong links"),
            _("Too many wrong links came from this connection. Wait a few minutes, then scan the QR code."),
        )
    return None


def competitor_by_link(view: RefereeView) -> RefereeView:
    """Load the competitor of the « Ma soirée » link `token` for `view(request, competitor)`, or refuse.

    A refused poll (htmx) tells the page to load again (`HX-Refresh`): a page left open on
    a phone shows the refusal by itself once the director withdraws its link, instead of
    the night as it stood.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        competitor = None
        if TOKEN_SHAPE.match(token):
            found = Competitor.objects.select_related("tournament__club").filter(link_token=token)
            competitor = found.exclude(tournament__status=Tournament.Status.DRAFT).order_by("pk").first()
        if competitor is not None and not competitor.link_revoked:
            return view(request, competitor, *args, **kwargs)
        if competitor is None:
            refusal = _too_many_misses(request) or denied(
                request,
                404,
                _("Unknown link"),
                _(
                    "This link opens no one’s evening. Check it, "
                    "or find your table by your name on the tournament’s page."
                ),
            )
        else:
            refusal = denied(
                request,
                403,
                _("This link was withdrawn"),
                _("The director has withdrawn this personal link. Ask the director for the new one."),
            )
        if request.headers.get("HX-Request"):
            refusal["HX-Refresh"] = "true"
        return refusal

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
