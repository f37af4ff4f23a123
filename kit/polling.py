"""A private panel a page polls with htmx (the director's dashboard): 304 while it holds."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers


def private_polled(request: HttpRequest, etag: str, render: Callable[[], str]) -> HttpResponse:
    """The panel drawn by `render`, or 304 Not Modified while the request's If-None-Match is
    `etag`; asked again at every poll, kept by nobody but its reader."""
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(render())
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache, private"
    patch_vary_headers(response, ["HX-Request", "Accept-Language", "Cookie"])
    return response
