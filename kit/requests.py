"""What a request carries once the site's middleware has seen it, for the type checker.

Django's `HttpRequest` knows nothing of the attributes the middleware adds: `htmx`
(django-htmx), `request_id` (atout.middleware) and, behind `login_required`, a `user`
who is a real account rather than `AnonymousUser`. Views annotate their request with
these classes; they are never instantiated: at run time the request is Django's own.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class SiteRequest(HttpRequest):
    """Any request past the site's middleware."""

    htmx: HtmxDetails
    request_id: str


class UserRequest(SiteRequest):
    """A request behind `login_required`: its user has an account."""

    user: User
