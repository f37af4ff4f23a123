"""Scoring's own middleware: the live pages' polls answered before the chain.

It belongs to the app whose view it answers with, so the route is read where the view
is (settings.MIDDLEWARE names it after the security middleware).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from scoring import live_files, live_screens
from scoring.views.soiree_poll import soiree_poll, soiree_screen_poll

LIVE_FILE = re.compile(r"/live/(?P<slug>[-a-zA-Z0-9_]+)/(?P<name>[^/]+)")


class LivePollMiddleware:
    """The live pages' polls answered before the chain.

    Every phone polls the public ranking every second or so: on a big night, hundreds of
    requests a second, most of the night's. Each publication of the ranking is a file
    (scoring/live_files.py) that nginx sends without reaching the site; where no proxy
    does (./run, venue mode), the site sends the same file here, as nginx would, since
    the middleware after this one (CSP, sessions, locale, CSRF, messages, authentication,
    htmx, axes) would cost more than the answer. A file not there goes down the chain, to
    the view that publishes it (scoring.views.public.live_file) or answers 404. It sits
    after the security middleware, whose headers every answer keeps. The fragment is
    swapped into a page that carries the Content-Security-Policy, so it needs none of its
    own. The director's strip of messages is published first when a message's time is up
    (scoring/live_screens.py: with no worker here, no task does it at that moment).

    « Ma soirée »'s live part polls its own address (by the personal link or the public
    one) with `HX-Request` and the ETag it shows, and its strip of the director's
    messages: from a visitor without a session, a poll whose part has not moved is
    answered 304 here (`scoring.views.soiree_poll`), any other goes down the chain to the
    view.
    """

    SLUG = "atout-live-poll-slug"
    TOKEN = "atout-live-poll-token"
    NUMBER = 987654321

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.soiree = soiree_poll
        self.soiree_screen = soiree_screen_poll
        self._paths: list[tuple[re.Pattern[str], str]] | None = None

    def paths(self) -> list[tuple[re.Pattern[str], str]]:
        """The polled addresses as patterns, from the URLconf (read at the first request)."""
        if self._paths is None:
            groups = {
                re.escape(self.SLUG): r"(?P<slug>[-a-zA-Z0-9_]+)",
                re.escape(self.TOKEN): r"(?P<token>[^/]+)",
                str(self.NUMBER): r"(?P<number>[0-9]{1,9})",
            }
            made = []
            for name, kwargs, kind in (
                ("soiree:page", {"token": self.TOKEN}, "soiree"),
                ("soiree:screen", {"token": self.TOKEN}, "soiree_screen"),
                ("public:soiree", {"slug": self.SLUG, "number": self.NUMBER}, "soiree"),
            ):
                address = re.escape(reverse(name, kwargs=kwargs))
                for placeholder, group in groups.items():
                    address = address.replace(placeholder, group)
                made.append((re.compile(address), kind))
            self._paths = made
        return self._paths

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD") and request.path_info.startswith("/live/"):
            found = LIVE_FILE.fullmatch(request.path_info)
            if found:
                # No worker here to publish a strip at a message's expiry: done as it is served.
                live_screens.expired_here(found["slug"], found["name"])
            served = live_files.answer(request, found["slug"], found["name"]) if found else None
            if served is not None:
                return served
            return self.get_response(request)
        if (
            request.method == "GET"
            and request.headers.get("HX-Request") == "true"
            and settings.SESSION_COOKIE_NAME not in request.COOKIES
        ):
            for pattern, kind in self.paths():
                found = pattern.fullmatch(request.path_info)
                if found:
                    response = self._answer(request, found, kind)
                    if response is not None:
                        return response
                    break
        return self.get_response(request)

    def _answer(self, request: HttpRequest, found: re.Match[str], kind: str) -> HttpResponse | None:
        if kind == "soiree_screen":
            return self.soiree_screen(request, token=found.group("token"))
        values = found.groupdict()
        if values.get("token") is not None:
            return self.soiree(request, token=values["token"])
        return self.soiree(request, slug=values["slug"], number=int(values["number"]))
