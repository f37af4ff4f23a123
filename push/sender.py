"""One message to one browser through its push service: the only HTTP call push/ makes.

The message is encrypted for the browser (RFC 8291, aes128gcm: only the browser that
subscribed can read it, not the push service) and signed with the site's VAPID key
(push/keys.py), by pywebpush. The call gives up after settings.PUSH_TIMEOUT seconds, to
connect and for the answer. It runs in a Celery worker only (push/tasks.py), never on a
request's path. A log line names the push service's host, never the endpoint whole: it
is the browser's address there, a secret-ish value.
"""

from __future__ import annotations

import enum
import json
import logging

import requests
from django.conf import settings
from pywebpush import WebPushException, webpush

from push.keys import vapid_keys
from push.messages import Message
from push.models import Subscription
from push.parsing import endpoint_host

log = logging.getLogger(__name__)


class Outcome(enum.Enum):
    SENT = "sent"
    # The push service says the subscription is gone (404, 410): drop it.
    GONE = "gone"
    # A passing failure (timeout, no network, 429, 5xx): worth another try later.
    FAILED = "failed"
    # Refused for good (another 4xx), or push is off: no other try.
    REFUSED = "refused"


_session = requests.Session()


def send(subscription: Subscription, message: Message, *, ttl: int, urgency: str = "normal") -> Outcome:
    """Send `message` to `subscription`'s browser; what came of it."""
    keys = vapid_keys()
    host = endpoint_host(subscription.endpoint)
    if keys is None:
        log.warning("push: no VAPID key configured, message to %s not sent", host)
        return Outcome.REFUSED
    info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    try:
        webpush(
            info,
            data=json.dumps(message, ensure_ascii=False),
            vapid_private_key=keys.signer,
            vapid_claims={"sub": settings.PUSH_VAPID_SUBJECT},
            timeout=settings.PUSH_TIMEOUT,
            ttl=ttl,
            headers={"Urgency": urgency},
            requests_session=_session,
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status in (404, 410):
            log.info("push: subscription %s gone at %s (%s): dropped", subscription.pk, host, status)
            return Outcome.GONE
        if status is None or status == 429 or status >= 500:
            log.warning("push: message to %s failed (%s), to be tried again", host, status or "no answer")
            return Outcome.FAILED
        log.warning("push: message to %s refused (%s)", host, status)
        return Outcome.REFUSED
    except requests.RequestException as error:
        log.warning("push: message to %s failed (%s), to be tried again", host, type(error).__name__)
        return Outcome.FAILED
    log.info("push: message %s sent to subscription %s at %s", message["tag"], subscription.pk, host)
    return Outcome.SENT
