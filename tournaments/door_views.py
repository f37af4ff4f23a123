"""The door (« Pointage »): the tablet at the entrance where players check themselves in.

Everything is under the door's secret link, `/door/<token>/` (`Door`: a token like a
table's, withdrawn and renewed by the director; cut in the logs, kit.logs). A wrong or
withdrawn link answers 404; wrong links are counted per client address, and past the
limit answer 429, as the referee's are (kit.throttle). Every POST of the door counts
too (`DOOR_POSTS_PER_MINUTE` per client address): a tablet sends one a few seconds at
most, a script that hammers the door is slowed down.

The screens, each a whole page (the tablet needs no script; `static/js/door.js` adds
the search as one types and the return to the search):

1. the search: a name, or the « Ma soirée » link of a receipt (its QR code scanned by a
   keyboard-wedge scanner, or pasted). The search is a POST: the receipt's link is a
   secret, which never goes in an address, a log line or the tablet's history;
2. the player picked: « Je suis là » (and « Nous sommes là tous les deux » where the
   tournament's team rule lets one say both are here);
3. the answer: checked in, or waiting for the partner, and what is owed (« À régler à la
   table de l'organisateur : 10 € », « Inscription réglée »); back to the search after a
   few seconds.

Self check-in switched off, a tournament not open yet or finished: the page says so and
every POST is refused (403). Nothing typed makes a 500: junk is a 400 with the reason.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from kit.clients import client_address
from kit.requests import SiteRequest
from kit.throttle import count_hit
from tournaments import selectors, services
from tournaments.models import Competitor, Door, Player, Tournament

# What new_table_token produces; anything else is wrong without a query.
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
# Seconds the answer stays on the tablet before it goes back to the search.
RETURN_SECONDS = 8


def _limit(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def _notice(request: SiteRequest, status: int, title: str, message: str) -> HttpResponse:
    response = render(request, "tournaments/door_notice.html", {"title": title, "message": message}, status=status)
    return _private(response)


def _private(response: HttpResponse) -> HttpResponse:
    """The door's pages hold its secret: kept by no cache, sending no Referer, not indexed."""
    patch_cache_control(response, private=True, no_store=True)
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex"
    return response


DoorView = Callable[..., HttpResponse]


def door_link(view: DoorView) -> DoorView:
    """Load the door of the link `token` for `view(request, door, ...)`, or refuse; count POSTs."""

    @functools.wraps(view)
    def wrapper(request: SiteRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        address = client_address(request)
        door = None
        if 16 <= len(token) <= 64 and set(token) <= _TOKEN_CHARS:
            door = Door.objects.select_related("tournament__club").filter(token=token, revoked=False).first()
        if door is None:
            window = _limit("REFEREE_TOKEN_WINDOW", 600)
            if count_hit(f"door:misses:{address}", window=window) > _limit("REFEREE_TOKEN_MISSES", 20):
                return _notice(
                    request,
                    429,
                    _("Too many wrong links"),
                    _("Too many wrong links came from this connection. Wait a few minutes, then scan the QR code."),
                )
            return _notice(
                request,
                404,
                _("Unknown door link"),
                _("This link opens no door, or the organiser has withdrawn it. Check in at the organiser’s table."),
            )
        if request.method == "POST":
            if count_hit(f"door:posts:{door.pk}:{address}", window=60) > _limit("DOOR_POSTS_PER_MINUTE", 120):
                return _notice(
                    request,
                    429,
                    _("Too many tries"),
                    _("Too many check-ins came from this connection at once. Wait a minute, then try again."),
                )
            closed = _closed(door.tournament)
            if closed:
                return _notice(request, 403, _("Check-in"), closed)
        return _private(view(request, door, *args, **kwargs))

    return wrapper


def _closed(tournament: Tournament) -> str:
    """Why the door checks nobody in now, or ""."""
    if not tournament.self_check_in:
        return _("Self check-in is closed for this tournament: check in at the organiser’s table.")
    if tournament.status == Tournament.Status.FINISHED:
        return _("The tournament is finished.")
    if tournament.status not in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING):
        return _("Check-in has not opened yet: see the organiser’s table.")
    return ""


def _context(door: Door, **extra: Any) -> dict[str, Any]:
    tournament = door.tournament
    return {
        "door": door,
        "tournament": tournament,
        "closed": _closed(tournament),
        "search_url": reverse("door:search", args=[door.token]),
        "home_url": reverse("door:page", args=[door.token]),
        **extra,
    }


@require_safe
@door_link
def page(request: SiteRequest, door: Door) -> HttpResponse:
    """The search screen."""
    return render(request, "tournaments/door.html", _context(door))


@require_http_methods(["GET", "HEAD", "POST"])
@door_link
def search(request: SiteRequest, door: Door) -> HttpResponse:
    """The players found by a name or a receipt's link (a POST: the link is a secret)."""
    if request.method != "POST":
        return render(request, "tournaments/door.html", _context(door))
    query = request.POST.get("q", "")
    if "\x00" in query or len(query) > 300:
        error = _("Type a name, at most 300 characters.")
        context = _context(door, query=query[:300].replace("\x00", ""), query_error=error)
        return render(request, "tournaments/door.html", context, status=400)
    found, more = selectors.door_find(door.tournament, query)
    # A receipt's link is never written back into the page.
    shown = "" if "soiree/" in query else query
    context = _context(door, query=shown, searched=bool(query.strip()), found=found, more=more)
    template = "tournaments/door_results.html" if request.htmx else "tournaments/door.html"
    return render(request, template, context)


def _picked(door: Door, number: Any, player_id: Any) -> tuple[Competitor, Player] | None:
    """The registration `number` of the door's tournament and its player `player_id`, or None."""
    try:
        number, player_id = int(number), int(player_id)
    except (TypeError, ValueError):
        return None
    if not (0 < number < 2**31 and 0 < player_id < 2**63):
        return None
    # A withdrawn registration too: the service says why it is refused.
    competitor = (
        Competitor.objects.filter(tournament=door.tournament, number=number)
        .prefetch_related("players", "arrivals")
        .first()
    )
    if competitor is None:
        return None
    player = next((p for p in competitor.players.all() if p.pk == player_id), None)
    return (competitor, player) if player is not None else None


def _confirm_context(door: Door, competitor: Competitor, player: Player, **extra: Any) -> dict[str, Any]:
    players = list(competitor.players.all())
    arrived = {arrival.player_id for arrival in competitor.arrivals.all()}
    return _context(
        door,
        competitor=competitor,
        player=player,
        players=[(p, p.pk in arrived) for p in players],
        partners=[p for p in players if p.pk != player.pk],
        can_say_both=len(players) > 1 and door.tournament.door_rule == Tournament.DoorRule.ONE,
        arrive_url=reverse("door:arrive", args=[door.token]),
        **extra,
    )


@require_safe
@door_link
def confirm(request: SiteRequest, door: Door, number: int, player_id: int) -> HttpResponse:
    """The player picked: « Je suis là »."""
    picked = _picked(door, number, player_id)
    if picked is None:
        return _notice(
            request, 404, _("Not found"), _("This registration is not at this tournament. Search for your name again.")
        )
    return render(request, "tournaments/door_confirm.html", _confirm_context(door, *picked))


@require_POST
@door_link
def arrive(request: SiteRequest, door: Door) -> HttpResponse:
    """« Je suis là » (or « Nous sommes là tous les deux »): the answer, with what is owed."""
    picked = _picked(door, request.POST.get("competitor"), request.POST.get("player"))
    both = request.POST.get("both", "0")
    if picked is None or both not in ("0", "1"):
        return _notice(
            request,
            400,
            _("Not understood"),
            _("This check-in names no one registered here. Search for your name again."),
        )
    competitor, player = picked
    try:
        answer = services.door_check_in(door=door, competitor=competitor, player=player, both=both == "1")
    except ValidationError as error:
        context = _confirm_context(door, competitor, player, refusals=error.messages)
        return render(request, "tournaments/door_confirm.html", context, status=409)
    context = _context(door, answer=answer, return_seconds=RETURN_SECONDS)
    return render(request, "tournaments/door_done.html", context)
