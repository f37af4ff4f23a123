"""A small URLconf for the logging tests: a tournament page, a page that fails, a page
that enqueues a job (the site's own pages are other tests' business)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from atout.tasks import heartbeat
from atout.views import healthz


def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    return HttpResponse(f"tournament {slug}")


def broken_page(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("the scoring went wrong")


def enqueue_page(request: HttpRequest) -> HttpResponse:
    heartbeat.delay()
    return HttpResponse("queued")


urlpatterns = [
    path("healthz", healthz),
    path("t/<slug:slug>/", tournament_page),
    path("manage/t/<slug:slug>/hands/", tournament_page),
    path("clubs/<slug:slug>/", tournament_page),
    path("broken/", broken_page),
    path("enqueue/", enqueue_page),
]
