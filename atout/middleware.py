"""The request-id middleware: names each request, logs one line for it, echoes the id.

It sits first in the chain so that every line a request causes, down to a traceback
logged by Django's handler, carries the same id (see `atout.logs`), and so that the
duration it measures covers the whole of the site's work, static files included.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from atout.logs import new_request_id, request_id_var, sane_request_id

REQUEST_ID_HEADER = "X-Request-ID"
logger = logging.getLogger("atout.request")

# URL keyword arguments that name a tournament: the tournament pages use `slug` under a
# `/t/` segment (/t/<slug>/ public, /manage/t/<slug>/ the director's); other views may say
# `tournament_slug` outright.
_TOURNAMENT_KWARGS = ("tournament_slug",)
_TOURNAMENT_SEGMENT = "/t/"


def tournament_slug_of(request: HttpRequest) -> str | None:
    """The slug of the tournament the request's URL is about, if it names one."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return None
    for key in _TOURNAMENT_KWARGS:
        if match.kwargs.get(key):
            return str(match.kwargs[key])
    # A bare `slug` names a tournament only under /t/; elsewhere it could be a club or a season.
    if _TOURNAMENT_SEGMENT in request.path and match.kwargs.get("slug"):
        return str(match.kwargs["slug"])
    tournament = getattr(request, "tournament", None)
    slug = getattr(tournament, "slug", None)
    return str(slug) if slug else None


class RequestIdMiddleware:
    """Accept a sane X-Request-ID from the proxy (else make one), log the request, echo the id."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = sane_request_id(request.headers.get(REQUEST_ID_HEADER)) or new_request_id()
        request.request_id = request_id
        token = request_id_var.set(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response[REQUEST_ID_HEADER] = request_id
            self._log(request, response.status_code, started)
            return response
        finally:
            request_id_var.reset(token)

    @staticmethod
    def _log(request: HttpRequest, status: int, started: float) -> None:
        duration_ms = round((time.perf_counter() - started) * 1000, 1)
        fields = {
            "method": request.method,
            "path": request.path,
            "status": status,
            "duration_ms": duration_ms,
            "tournament": tournament_slug_of(request),
        }
        # A server error is already logged with its traceback by Django; the request line
        # says ERROR too so that a filter on the level finds both. A 404 is not the site's
        # fault (Django warns about it anyway): it stays INFO.
        level = logging.ERROR if status >= 500 else logging.INFO
        logger.log(level, "request", extra={"fields": fields})
