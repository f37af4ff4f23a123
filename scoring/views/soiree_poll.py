"""« Ma soirée »'s polls answered before the middleware chain.

Every team keeps its page open on a phone, and its live part polls every few seconds
(scoring/views/soiree.py): at 300 teams about a hundred polls a second, nearly all of
them to be answered "nothing changed". Through the whole chain (CSP, sessions, locale,
CSRF, messages, authentication, htmx, axes) and the view's three queries such an answer
cost more than the live ranking's shared fragment. So `scoring.middleware.LivePollMiddleware`
hands a poll of either address (the personal link, or the public page where the seat
finder leads) by a visitor without a session to `soiree_poll`: one query for the
competitor and its tournament (`scoring.selectors.soiree.polled`) and one for what the page
shows from the database, with the served ranking as this process keeps it; if the ETag
the phone sent is still the page's, a 304 with the headers the view gives it. Else the
part is assembled here as the view assembles it (scoring/views/soiree_parts.py): its
night and its partie in play as kept (this process, or the shared cache) or drawn here
when they moved, its rank and clock drawn anew. Anything else (a first poll, a withdrawn or unknown link, a
tournament this visitor may not follow, a signed-in visitor) goes down the chain to the
view.

The page's strip of the director's messages (`/soiree/<token>/screen/`, every 10 s) is
answered the same way (`soiree_screen_poll`): its 304 while the same messages are on.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers

from scoring.access import TOKEN_SHAPE
from scoring.selectors import soiree as selectors
from scoring.selectors import standings as standings_selectors
from scoring.views import soiree_parts
from scoring.views.public import _etag, _polled
from tournaments.models import Competitor
from tournaments.screens import screen_context


def soiree_poll(
    request: HttpRequest, *, token: str | None = None, slug: str | None = None, number: int | None = None
) -> HttpResponse | None:
    """The answer to a poll that carries an ETag (a 304 when the page has not moved, else
    the part as the view draws it), or None (the chain answers)."""
    if not request.headers.get("If-None-Match"):
        return None
    if token is not None and not TOKEN_SHAPE.match(token):
        return None
    found = selectors.polled(token=token, slug=slug, number=number)
    if found is None:
        return None
    served = selectors.polled_served(found)
    stamp = selectors.polled_stamp(found, served)
    # As LocaleMiddleware chooses it for a visitor without a session: the ETag names it.
    language = translation.get_language_from_request(request)
    etag = _etag("soiree", found.competitor_id, stamp.etag, language)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        with translation.override(language):
            night = soiree_parts.kept(
                soiree_parts.Night, found.competitor_id, language, stamp.night, lambda: _draw_night(found, stamp.night)
            )
            partie = soiree_parts.kept(
                soiree_parts.PartieDrawn,
                found.competitor_id,
                language,
                stamp.partie,
                lambda: soiree_parts.draw_partie(
                    selectors.polled_partie(found, stamp.table_id),
                    stamp.partie,
                    public_links=found.is_public,
                    slug=found.slug,
                ),
            )
            if night is None or partie is None:
                return None
            part = soiree_parts.live_part(
                night,
                partie,
                served,
                number=found.number,
                finished=found.finished,
                public_links=found.is_public,
                slug=found.slug,
                path=request.path,
                etag=etag,
            )
        response = HttpResponse(part)
    response = _polled(response, etag)
    if token is not None:
        # As the view answers a personal link (scoring/views/soiree.py).
        return _personal(response, language)
    response.headers.setdefault("Content-Language", language)
    response.headers.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS)
    return response


def _draw_night(found: selectors.Polled, stamp: str) -> soiree_parts.Night | None:
    """The night drawn here as the view draws it (None: the competitor is gone since)."""
    competitor = Competitor.objects.filter(pk=found.competitor_id).first()
    if competitor is None:
        return None
    tournament = standings_selectors.followed_tournament(found.tournament_id)
    evening = selectors.evening(tournament, competitor)
    return soiree_parts.draw_night(evening, stamp, public_links=found.is_public)


def _personal(response: HttpResponse, language: str) -> HttpResponse:
    """The headers the views give a personal link's answer, and the chain's own."""
    patch_cache_control(response, private=True)
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex"
    response.headers.setdefault("Content-Language", language)
    response.headers.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS)
    return response


def soiree_screen_poll(request: HttpRequest, *, token: str) -> HttpResponse | None:
    """A 304 for a poll of the personal page's messages while the same are on, else None
    (the chain answers: scoring.views.soiree.screen, tournaments/screens.py)."""
    if not request.headers.get("If-None-Match") or not TOKEN_SHAPE.match(token):
        return None
    found = selectors.polled(token=token)
    if found is None:
        return None
    etag = screen_context(found.tournament_id, url=request.path)["screen_etag"]
    response = get_conditional_response(request, etag=etag)
    if response is None:
        return None
    # As tournaments.screens.screen_response answers it.
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["HX-Request"])
    # LocaleMiddleware's, as on every answer the chain gives.
    patch_vary_headers(response, ["Accept-Language"])
    return _personal(response, translation.get_language_from_request(request))
