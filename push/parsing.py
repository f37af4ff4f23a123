"""A push subscription as a page sends it, read strictly: what is stored or a French reason.

The page posts what the browser's `PushSubscription.toJSON()` gives:
`{"endpoint": "https://…", "expirationTime": null, "keys": {"p256dh": "…", "auth": "…"}}`.
Nothing else is accepted: a body that is not that JSON object, an unknown key, an endpoint
that is not HTTPS on one of the browsers' push services (settings.PUSH_SERVICE_HOSTS; a
plain-HTTP endpoint on this machine only where settings.PUSH_ALLOW_LOCAL_HTTP says, for
the tests' own push service), keys of the wrong size. The site posts to the endpoint
later: it must never be an address of someone's choosing.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

MAX_BODY = 4096
MAX_ENDPOINT = 1024
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


class SubscriptionRefused(ValueError):
    """The body is not a subscription the site takes; the message says why, for the page."""


@dataclass(frozen=True)
class Subscribed:
    endpoint: str
    p256dh: str
    auth: str


def _key(value: object, size: int, name: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 128:
        raise SubscriptionRefused(_("The browser's key %(name)s is missing.") % {"name": name})
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise SubscriptionRefused(_("The browser's key %(name)s is not readable.") % {"name": name}) from None
    if len(raw) != size or (name == "p256dh" and raw[0] != 4):
        raise SubscriptionRefused(_("The browser's key %(name)s has the wrong size.") % {"name": name})
    return value.rstrip("=")


def endpoint_host(endpoint: str) -> str:
    """The endpoint's host alone: what a log line may say of it."""
    try:
        return urlsplit(endpoint).hostname or "?"
    except ValueError:
        return "?"


def _allowed_host(host: str) -> bool:
    allowed = [str(name).lower().strip(".") for name in getattr(settings, "PUSH_SERVICE_HOSTS", [])]
    return any(host == name or host.endswith("." + name) for name in allowed if name)


def check_endpoint(endpoint: object) -> str:
    """The endpoint if the site may post to it; else SubscriptionRefused."""
    if not isinstance(endpoint, str) or not endpoint:
        raise SubscriptionRefused(_("The subscription has no push address."))
    if len(endpoint) > MAX_ENDPOINT or any(ord(char) <= 32 or ord(char) == 127 for char in endpoint):
        raise SubscriptionRefused(_("The push address is not one the site can use."))
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        raise SubscriptionRefused(_("The push address is not one the site can use.")) from None
    if parts.username or parts.password or not host:
        raise SubscriptionRefused(_("The push address is not one the site can use."))
    if parts.scheme == "http" and host in LOCAL_HOSTS and getattr(settings, "PUSH_ALLOW_LOCAL_HTTP", False):
        return endpoint
    if parts.scheme != "https":
        raise SubscriptionRefused(_("The push address must be a secure (https) address."))
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        raise SubscriptionRefused(_("The push address is not one of the browsers' push services."))
    if port not in (None, 443) or not _allowed_host(host):
        raise SubscriptionRefused(_("The push address is not one of the browsers' push services."))
    return endpoint


def _object(body: bytes) -> dict[str, object]:
    if len(body) > MAX_BODY:
        raise SubscriptionRefused(_("The request is too long."))
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise SubscriptionRefused(_("The request is not a browser's subscription (JSON expected).")) from None
    if not isinstance(data, dict):
        raise SubscriptionRefused(_("The request is not a browser's subscription (JSON expected)."))
    return data


def parse_subscription(body: bytes) -> Subscribed:
    """The subscription in `body`, checked; SubscriptionRefused with the reason otherwise."""
    data = _object(body)
    if not set(data) <= {"endpoint", "expirationTime", "keys"}:
        raise SubscriptionRefused(_("The subscription holds unknown fields."))
    expiration = data.get("expirationTime")
    if expiration is not None and (isinstance(expiration, bool) or not isinstance(expiration, int | float)):
        raise SubscriptionRefused(_("The subscription's expiry is not readable."))
    keys = data.get("keys")
    if not isinstance(keys, dict) or set(keys) != {"p256dh", "auth"}:
        raise SubscriptionRefused(_("The subscription's keys are missing."))
    return Subscribed(
        endpoint=check_endpoint(data.get("endpoint")),
        p256dh=_key(keys["p256dh"], 65, "p256dh"),
        auth=_key(keys["auth"], 16, "auth"),
    )


def parse_endpoint(body: bytes) -> str:
    """The endpoint of `{"endpoint": "…"}` (to stop notifications); SubscriptionRefused otherwise."""
    data = _object(body)
    endpoint = data.get("endpoint")
    if set(data) - {"endpoint", "expirationTime", "keys"} or not isinstance(endpoint, str) or not endpoint:
        raise SubscriptionRefused(_("The subscription has no push address."))
    if len(endpoint) > MAX_ENDPOINT:
        raise SubscriptionRefused(_("The push address is not one the site can use."))
    return endpoint
