"""Site-wide pages: the home page, the health check, and the answer when the database is away."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.views import defaults
from django.views.decorators.cache import never_cache

from api.errors import DATABASE_AWAY, RETRY_AFTER_SECONDS, database_away_items
from atout.health import run_checks
from tournaments.selectors import public_tournaments


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"tournaments": public_tournaments()})


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    checks = run_checks()
    healthy = all(check.ok for check in checks)
    body = {
        "status": "ok" if healthy else "down",
        "checks": {check.name: {"ok": check.ok, "detail": check.detail} for check in checks},
    }
    return JsonResponse(body, status=200 if healthy else 503)


def server_error(request: HttpRequest) -> HttpResponse:
    """The site's 500 handler: a database out of reach (restarting, a dropped connection,
    a deadlock) is not a bug but a moment to wait, so it answers 503 "réessayez".

    Django calls this while it handles the exception, which `sys.exc_info()` gives. The
    answer reads nothing from the database: a 503 page that needs it would fail in turn.
    Nothing was stored (every write runs in one transaction), so sending the same request
    again is safe; the referee's page does so by itself with the entry's key. The API's
    views answer the same in their own shape (api.errors); this covers the rest.
    """
    if not isinstance(sys.exc_info()[1], DATABASE_AWAY):
        return defaults.server_error(request)
    items = database_away_items()
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"errors": items}, status=503)
    else:
        response = HttpResponse(loader.render_to_string("503.html", {"message": items[0]["message"]}), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
