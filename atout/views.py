"""Site-wide pages: the home page and the health check."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

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
