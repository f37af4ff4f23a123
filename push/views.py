"""The pages' side of the notifications: the service worker, the key, subscribing and unsubscribing.

- `/sw.js`: the service worker, served from the site's origin with the whole site as its
  scope (`Service-Worker-Allowed: /`), as JavaScript; it shows a message and opens
  « Ma soirée » on a click (templates/push/sw.js). Not a static file: the hashed names of
  production's static files would move it, and a worker must keep its address.
- `/push/key/`: the site's public VAPID key for `PushManager.subscribe`, and a CSRF token
  for the POSTs below (« Ma soirée » holds none: its public page is gzip-compressed,
  atout.middleware.PublicGZipMiddleware; this small answer is not). Never cached.
- `POST …/soiree/push/` and `…/soiree/push/stop/`, after either address of « Ma soirée »
  (its personal link, or the public page of a public tournament's competitor): keep or
  forget this browser's subscription for that competitor. The body is the browser's
  subscription as JSON, read strictly (push/parsing.py); anything else answers 400 with
  the reason in the page's language, never 500. Throttled per client address.

Every answer is JSON (`{"message": …}` or `{"error": …}`), which static/js/push.js shows
in its one line.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from kit.clients import client_address
from kit.requests import SiteRequest
from kit.throttle import count_hit
from push import services
from push.keys import vapid_keys
from push.parsing import MAX_BODY, SubscriptionRefused, parse_endpoint, parse_subscription
from scoring.access import competitor_by_link
from scoring.selectors import standings as standings_selectors
from tournaments.models import Competitor, Tournament

# Subscribing and unsubscribing, per client address and window (seconds).
PER_CLIENT = 30
WINDOW = 600


@require_safe
def service_worker(request: SiteRequest) -> HttpResponse:
    response = render(request, "push/sw.js", content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    # A browser checks its worker for updates; it must find the new one after an upgrade.
    patch_cache_control(response, no_cache=True, max_age=0)
    return response


@require_safe
def key(request: SiteRequest) -> JsonResponse:
    keys = vapid_keys()
    response = JsonResponse({"key": keys.public if keys is not None else None, "csrf": get_token(request)})
    patch_cache_control(response, no_store=True, private=True)
    return response


def _answer(payload: dict[str, Any], status: int = 200) -> JsonResponse:
    response = JsonResponse(payload, status=status)
    patch_cache_control(response, no_store=True, private=True)
    response["X-Robots-Tag"] = "noindex"
    return response


def _refused(message: str, status: int = 400) -> JsonResponse:
    return _answer({"error": message}, status=status)


def _throttled(request: SiteRequest) -> JsonResponse | None:
    limit = int(getattr(settings, "PUSH_PER_CLIENT", PER_CLIENT))
    if count_hit(f"push:subscribe:{client_address(request)}", window=WINDOW) > limit:
        return _refused(_("Too many requests from this connection: try again in a few minutes."), status=429)
    return None


def _body(request: SiteRequest) -> bytes:
    """The request's JSON body, unread by anyone else and small; SubscriptionRefused otherwise."""
    if request.content_type != "application/json":
        raise SubscriptionRefused(_("The request is not a browser's subscription (JSON expected)."))
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = MAX_BODY + 1
    if length > MAX_BODY:
        raise SubscriptionRefused(_("The request is too long."))
    try:
        return request.body
    except RawPostDataException:
        raise SubscriptionRefused(_("The request is not a browser's subscription (JSON expected).")) from None


def _subscribe(request: SiteRequest, competitor: Competitor, *, by_link: bool) -> JsonResponse:
    refusal = _throttled(request)
    if refusal is not None:
        return refusal
    if competitor.tournament.status == Tournament.Status.FINISHED:
        return _refused(_("The tournament is over: there is nothing more to tell."))
    if vapid_keys() is None:
        return _refused(_("Notifications are not set up on this site."), status=503)
    try:
        subscribed = parse_subscription(_body(request))
    except SubscriptionRefused as error:
        return _refused(str(error))
    try:
        services.subscription_save(
            competitor=competitor, subscribed=subscribed, language=get_language() or "fr", by_link=by_link
        )
    except services.TooManySubscriptions:
        return _refused(_("Too many browsers follow this competitor already."))
    return _answer({"message": _("Notifications on: the next round, 5 minutes left, the final ranking.")})


def _unsubscribe(request: SiteRequest, competitor: Competitor) -> JsonResponse:
    refusal = _throttled(request)
    if refusal is not None:
        return refusal
    try:
        endpoint = parse_endpoint(_body(request))
    except SubscriptionRefused as error:
        return _refused(str(error))
    services.subscription_drop(competitor=competitor, endpoint=endpoint)
    return _answer({"message": _("Notifications off.")})


def _public_competitor(request: SiteRequest, slug: str, number: int) -> Competitor:
    tournament = standings_selectors.visible_tournament(slug, request.user)
    return get_object_or_404(Competitor.objects.select_related("tournament"), tournament=tournament, number=number)


@require_POST
@competitor_by_link
def subscribe_by_link(request: SiteRequest, competitor: Competitor) -> JsonResponse:
    return _subscribe(request, competitor, by_link=True)


@require_POST
@competitor_by_link
def unsubscribe_by_link(request: SiteRequest, competitor: Competitor) -> JsonResponse:
    return _unsubscribe(request, competitor)


@require_POST
def subscribe_public(request: SiteRequest, slug: str, number: int) -> JsonResponse:
    return _subscribe(request, _public_competitor(request, slug, number), by_link=False)


@require_POST
def unsubscribe_public(request: SiteRequest, slug: str, number: int) -> JsonResponse:
    return _unsubscribe(request, _public_competitor(request, slug, number))
