"""Atout's URLs and `/bench/bare/`: the cheapest Django view there is, through the same middleware."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [
    path("bench/bare/", bare),
    path("", include("atout.urls")),
]
