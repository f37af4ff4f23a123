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
    """

    SLUG = "atout-live-poll-slug"

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.answer = anonymous_poll
        self._paths: list[tuple[re.Pattern[str], str]] | None = None

    def paths(self) -> list[tuple[re.Pattern[str], str]]:
        """The polled addresses as patterns, from the URLconf (read at the first request)."""
        if self._paths is None:
            made = []
            for name, kind in (("public:ranking", "page"), ("public:projector", "projector")):
                address = re.escape(reverse(name, kwargs={"slug": self.SLUG}))
                made.append((re.compile(address.replace(re.escape(self.SLUG), r"(?P<slug>[-a-zA-Z0-9_]+)")), kind))
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
                    response = self.answer(request, found.group("slug"), kind=kind)
                    if response is not None:
                        return response
                    break
        return self.get_response(request)
