"""The site's own middleware.

- `RequestIdMiddleware` names each request, logs one line for it, echoes the id. It sits
  first in the chain so that every line a request causes, down to a traceback logged by
  Django's handler, carries the same id (see `kit.logs`), and so that the duration it
  measures covers the whole of the site's work, static files included.
- `RequestTextMiddleware` refuses a NUL character wherever text is read (address, query
  string, cookies, forms), and a form body that is not UTF-8, which Django would
  otherwise read with replacement characters and let a form store as typed.
- `PublicGZipMiddleware` compresses the public reads (an anonymous visitor's full pages,
  live partials, projector, the API's public GETs) and nothing else: never an answer
  carrying a CSRF token or a secret (BREACH).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from urllib.parse import unquote_to_bytes

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware

from kit.logs import new_request_id, request_id_var, sane_request_id
from kit.requests import SiteRequest

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

    def __call__(self, request: SiteRequest) -> HttpResponse:
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
        # fault: it stays INFO.
        level = logging.ERROR if status >= 500 else logging.INFO
        # A refusal's reason, which Django logs on a line of its own, is said here instead
        # (kit.logs.OneLineRefusals), at Django's level: one line per refused request.
        refusal = getattr(request, "log_refusal", None)
        if refusal:
            fields["refusal"] = refusal
            level = max(level, int(getattr(request, "log_refusal_level", level)))
        logger.log(level, "request", extra={"fields": fields})
        # Django's restatement of a 4xx status, after this line, says nothing more.
        request.log_written = True  # type: ignore[attr-defined]


FORM_CONTENT_TYPE = "application/x-www-form-urlencoded"
MULTIPART_CONTENT_TYPE = "multipart/form-data"
NUL = "\x00"
API_PREFIX = "/api/"


class NullCharacter(BadRequest):
    """A request that holds a NUL character where the site reads text (atout.views.bad_request)."""


def _holds_nul(pairs: Iterable[tuple[str, Iterable[str]]]) -> bool:
    return any(NUL in name or any(NUL in value for value in values) for name, values in pairs)


class RequestTextMiddleware:
    """Refuse (400) a request whose text the site could not read as it was sent, before any
    view, form or query sees it:

    - a NUL character (`%00`) anywhere text is read: the path, the query string, a cookie,
      a form's names and values (form-encoded or multipart, files aside). No text holds
      one, and PostgreSQL refuses it in any text it is given (a search for `a%00b` was a
      500). JSON bodies are the API's parser's to refuse (api.parsers), likewise.
    - a form-encoded body whose names or values are not UTF-8: Django decodes it with
      U+FFFD in place of the broken bytes, and a form would store that as if someone had
      typed it.

    Reading `request.body` here also enforces DATA_UPLOAD_MAX_MEMORY_SIZE before any view
    (RequestDataTooBig: 413); BadRequest is answered by the same handler,
    atout.views.bad_request, in the API's error shape under /api/.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            NUL in request.path_info
            or _holds_nul(request.GET.lists())
            or _holds_nul((name, (value,)) for name, value in request.COOKIES.items())
        ):
            raise NullCharacter("a NUL character in the address or a cookie")
        if request.method not in {"GET", "HEAD", "OPTIONS"}:
            if request.content_type == FORM_CONTENT_TYPE:
                self._check_form_body(request)
            elif (
                request.content_type == MULTIPART_CONTENT_TYPE
                and request.method == "POST"
                # The API reads JSON only (415 to a form): its body is left unread for it.
                and not request.path_info.startswith(API_PREFIX)
                and _holds_nul(request.POST.lists())
            ):
                raise NullCharacter("a NUL character in a form")
        return self.get_response(request)

    @staticmethod
    def _check_form_body(request: HttpRequest) -> None:
        utf8 = (request.encoding or "utf-8").lower().replace("-", "") == "utf8"
        # Separators first, then each part's %-escapes: what Django's parser does.
        for pair in request.body.split(b"&"):
            for part in pair.split(b"=", 1):
                raw = unquote_to_bytes(part.replace(b"+", b" "))
                if b"\x00" in raw:
                    raise NullCharacter("a NUL character in a form")
                if utf8:
                    try:
                        raw.decode("utf-8")
                    except UnicodeDecodeError:
                        raise BadRequest("a form body that is not UTF-8") from None


# The views whose answers hold only what anyone may read, by URL name: the public pages
# and their polled partials, the projector, the public reads of the API. Never the
# referee's (the table's secret is in its address and its forms), the director's, an
# account's, nor any write.
COMPRESSED_VIEWS = frozenset(
    {
        "public:ranking",
        "public:ranking_after",
        "public:projector",
        "public:round",
        "public:table",
        "public:competitor",
        "public:ranking_print",
        "draw:round",
        "draw:clock",
        "draw:seat",
        "api:tournaments",
        "api:tournament",
        "api:competitors",
        "api:players",
        "api:rounds",
        "api:round",
        "api:table",
        "api:standings",
        "api:standings-after",
        "api:clubs",
        "api:seasons",
        "api:season",
        "api:player-history",
    }
)


class PublicGZipMiddleware(GZipMiddleware):
    """Django's gzip, for the GETs of COMPRESSED_VIEWS only, and never over a CSRF token.

    Compressing a body that holds a secret next to text an attacker can make the page
    repeat lets them guess the secret from the compressed sizes (BREACH). Django's
    GZipMiddleware compresses everything, so it is not in MIDDLEWARE: this one compresses
    the allowed public reads, and among them never an answer whose rendering asked for a
    CSRF token (`get_token` flags the request until the CSRF middleware, outside this
    one, has set its cookie). An anonymous visitor's pages hold none: the language switch
    is a plain link (`atout.views.switch_language`) and base.html gives htmx a token only
    for a signed-in user, so the full public pages (ranking, printed ranking, rounds,
    tables, competitors, projector) go compressed with their partials and the API's
    JSON. A signed-in user's copy of the same page holds a token in its logout form and
    in htmx's headers, and stays plain. Those bodies hold no secret, so the random
    padding Django adds against BREACH is left out (`max_random_bytes`), and an unchanged
    body compresses to the same bytes. Strong ETags become weak (W/"..."), which
    If-None-Match matches as before: a poll still gets its 304.
    """

    max_random_bytes = 0

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        match = getattr(request, "resolver_match", None)
        if match is None or match.view_name not in COMPRESSED_VIEWS or request.method not in {"GET", "HEAD"}:
            return response
        if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
            # The body (or a cookie it comes with) carries a CSRF token.
            return response
        return super().process_response(request, response)
