"""Scoring's own middleware: the live ranking's polls answered before the chain.

It belongs to the app whose view it answers with, so the route is read where the view
is (settings.MIDDLEWARE names it after the security middleware).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from scoring.views.public import anonymous_poll
from scoring.views.soiree_poll import soiree_poll, soiree_screen_poll


class LivePollMiddleware:
    """The live ranking's polls by visitors without a session, answered before the chain.

    Every phone polls the ranking's partial every few seconds: at 1,000 teams, two phones
    a team, that is hundreds of requests a second, most of the night's. The partial is a
    shared, already compressed fragment (scoring/live_ranking.py), so the middleware
    after this one (CSP, sessions, locale, CSRF, messages, authentication, htmx, axes)
    cost more than the answer. A GET with `HX-Request` to the ranking's or the
    projector's address, without a session cookie, is answered here by
    `scoring.views.public.anonymous_poll`; anything else, or a tournament it may not
    follow, goes down the chain as before. It sits after the security middleware, whose
    headers every answer keeps. The fragment is swapped into a page that carries the
    Content-Security-Policy, so the partial needs none of its own.

    « Ma soirée »'s live part polls the same way (by the personal link or the public
    address), and its strip of the director's messages: a poll whose part has not moved
    is answered 304 here (`scoring.views.soiree_poll`), any other goes down the chain to
    the view.
    """

    SLUG = "atout-live-poll-slug"
    TOKEN = "atout-live-poll-token"
    NUMBER = 987654321

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.answer = anonymous_poll
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
                ("public:ranking", {"slug": self.SLUG}, "page"),
                ("public:projector", {"slug": self.SLUG}, "projector"),
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
        if kind != "soiree":
            return self.answer(request, found.group("slug"), kind=kind)
        values = found.groupdict()
        if values.get("token") is not None:
            return self.soiree(request, token=values["token"])
        return self.soiree(request, slug=values["slug"], number=int(values["number"]))
