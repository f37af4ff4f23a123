"""The first run: while the database has no account at all, the login page and every page
of the management side (/manage/, the admin) lead to /setup/, which makes the site's first
administrator in the browser (accounts.signup_views.setup), when they are asked for (GET).
A logged-in visitor costs no query: an account exists.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import NoReverseMatch, reverse

from accounts.signup import setup_pending


@cache
def _guarded(urlconf: str) -> tuple[str, tuple[str, ...], str] | None:
    """The login's path, the prefixes of the management side and the setup's path; None
    under a URLconf without them (a test's own), where nothing is guarded."""
    try:
        paths = [reverse(name, urlconf=urlconf) for name in ("login", "manage:clubs", "admin:index", "setup")]
        return paths[0], (paths[1], paths[2]), paths[3]
    except NoReverseMatch:
        return None


class FirstRunMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        paths = _guarded(str(getattr(request, "urlconf", None) or settings.ROOT_URLCONF))
        if paths is None:
            return self.get_response(request)
        login, prefixes, setup = paths
        # Pages only: a form posted to an empty site can succeed at nothing anyway, and its
        # own answer (a refusal, a wrong password) says more than a redirect would.
        page = request.method in ("GET", "HEAD")
        guarded = page and (request.path_info == login or request.path_info.startswith(prefixes))
        if guarded and not request.user.is_authenticated and setup_pending():
            return redirect(setup)
        return self.get_response(request)
