"""Site-wide pages: the home page, the health check, the page of a malformed request and
of a refusal, the login page of a locked-out account, and the answer when the database is away."""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from api.errors import DATABASE_AWAY, RETRY_AFTER_SECONDS, database_away_items
from api.errors import item as error_item
from atout.health import run_checks
from atout.middleware import NullCharacter
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


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's handler400: a request the site cannot read, said in words, never a 500.

    Django calls it for BadRequest (a NUL character, a form body that is not UTF-8:
    atout.middleware) and for a SuspiciousOperation, RequestDataTooBig among them (a form
    body over DATA_UPLOAD_MAX_MEMORY_SIZE): that one is answered 413, the rest 400. Under
    /api/ the answer is in the API's error shape (api.errors).
    """
    status, code = 400, "bad_request"
    if isinstance(exception, RequestDataTooBig):
        status, code = 413, "too_large"
        title = _("Too much data")
        message = _(
            "The form sent more than the %(limit)s bytes the site accepts. Nothing was saved: go back and try again."
        ) % {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
    elif isinstance(exception, NullCharacter):
        code = "null_character"
        title = _("Malformed request")
        message = _(
            "The request holds a null character (NUL, sent as %00), which no text on this site may hold. "
            "Nothing was read nor saved: go back and try again."
        )
    else:
        title = _("Malformed request")
        message = _("The site could not read what your browser sent. Nothing was saved: go back and try again.")
    if request.path.startswith("/api/"):
        return JsonResponse({"errors": [error_item(None, code, message)]}, status=status)
    return render(request, "notice.html", {"title": title, "message": message}, status=status)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's handler403: a refusal in the site's own page and words, with a way back
    (the page the visitor came from when it is on this site, and the home page). Under
    /api/ the answer is in the API's error shape (api.errors)."""
    message = _("You may not do this: it belongs to another club's organisers.")
    if request.path.startswith("/api/"):
        return JsonResponse({"errors": [error_item(None, "permission_denied", message)]}, status=403)
    referer = request.headers.get("Referer", "")
    same_site = url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    back = referer if same_site and referer != request.build_absolute_uri() else ""
    return render(request, "403.html", {"back": back}, status=403)


def login_locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    """django-axes' answer to a login from a locked-out account and address: the login page, saying so."""
    minutes = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))
    message = _(
        "Too many failed logins to this account from this connection: it is locked for %(minutes)s minutes. "
        "Wait, then try again; an administrator can lift the lock sooner."
    ) % {"minutes": minutes}
    username = (credentials or {}).get("username") or ""
    form = AuthenticationForm(request, initial={"username": username})
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = ""
    context = {"form": form, "locked_out": message, "next": next_url}
    return render(request, "registration/login.html", context, status=429)


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


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page names: send them to the icon.

    Its address is asked for here, at the request, not when the URLs load: with the
    hashed static files of production it exists only once collectstatic has run.
    """
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))


LANGUAGE_PARAMETER = "language"


@require_safe
@never_cache
def switch_language(request: HttpRequest) -> HttpResponse:
    """`?language=fr|en&next=<path>`: set the language cookie, then go back to `next`.

    A plain link, where Django's `set_language` wants a POST with a CSRF token. Changing
    the display language is not a state change worth CSRF protection: the worst a forged
    link can do is show the site in the other language, which one more tap undoes. With
    no token in the switch, the public pages hold none, and may go gzip-compressed
    (`atout.middleware.PublicGZipMiddleware`, BREACH). The cookie is set as `set_language`
    sets it; an unknown language leaves it as it was, and a `next` off this site (an
    open redirect) falls back to the home page.
    """
    next_url = request.GET.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    code = request.GET.get(LANGUAGE_PARAMETER, "")
    if code in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response
