"""A local push service, and a browser's keys, for push/'s tests.

`push_service` runs a tiny threaded HTTP server on 127.0.0.1 (the site accepts such an
endpoint only where settings.PUSH_ALLOW_LOCAL_HTTP says: the tests set it), which keeps
every request it is sent and answers each path as told (201, 410, or no answer at all for
a while). `Browser` is what a browser holds for its subscription: a P-256 key pair and a
16-byte secret; it reads a message the way the browser does (RFC 8291, with http_ece).
"""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


@dataclass
class Browser:
    """A browser's side of one subscription."""

    private_key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def subscription(self, endpoint: str) -> dict[str, Any]:
        """What `PushSubscription.toJSON()` gives."""
        return {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
        }

    def read(self, body: bytes) -> dict[str, Any]:
        """The message in a push request's body, decrypted as the browser would."""
        clear = http_ece.decrypt(body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm")
        message: dict[str, Any] = json.loads(clear.decode("utf-8"))
        return message


@dataclass
class Received:
    """One request the service received; its headers by lower-case name."""

    path: str
    headers: dict[str, str]
    body: bytes


class LocalPushService:
    def __init__(self) -> None:
        self.received: queue.Queue[Received] = queue.Queue()
        self.statuses: dict[str, int] = {}
        self.stall: dict[str, float] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                pause = service.stall.get(self.path, 0)
                if pause:
                    time.sleep(pause)
                headers = {name.lower(): value for name, value in self.headers.items()}
                service.received.put(Received(self.path, headers, body))
                self.send_response(service.statuses.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def endpoint(self, name: str) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/push/{name}"

    def next(self, timeout: float = 15) -> Received:
        """The next request the service received (waiting at most `timeout` seconds)."""
        return self.received.get(timeout=timeout)

    def pending(self) -> list[Received]:
        """What it received and nobody took yet."""
        taken = []
        while not self.received.empty():
            taken.append(self.received.get_nowait())
        return taken

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class ServiceWorkerPush:
    """A page's service worker, reached through DevTools as a push service reaches it:
    `deliver` hands it a message, `shown` reads back the notifications it showed."""

    def __init__(self, context: Any, page: Any, timeout: float = 10) -> None:
        self.page = page
        self.origin = page.evaluate("() => location.origin")
        scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
        self.scope: str = scope
        self.devtools = context.new_cdp_session(page)
        registrations: list[dict[str, Any]] = []
        self.devtools.on(
            "ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"])
        )
        self.devtools.send("ServiceWorker.enable")
        deadline = time.monotonic() + timeout
        while not any(r["scopeURL"] == scope for r in registrations):
            assert time.monotonic() < deadline, registrations
            page.wait_for_timeout(100)
        self.registration_id = next(r["registrationId"] for r in registrations if r["scopeURL"] == scope)

    def deliver(self, message: dict[str, Any]) -> None:
        self.devtools.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": self.origin, "registrationId": self.registration_id, "data": json.dumps(message)},
        )

    def shown(self) -> list[dict[str, str]]:
        notes: list[dict[str, str]] = self.page.evaluate(
            """async () => {
                const registration = await navigator.serviceWorker.ready;
                return (await registration.getNotifications()).map((n) => ({title: n.title, body: n.body, tag: n.tag}));
            }"""
        )
        return notes

    def deliver_until_shown(
        self, message: dict[str, Any], timeout: float = 60, every: float = 10
    ) -> list[dict[str, str]]:
        """Hands `message` to the worker and reads back what it showed. On a busy machine
        (a full --all run) Chromium once dropped a delivery whose worker was slow to wake:
        the message is handed again every `every` seconds, as a push service tries again a
        message no device acknowledged. The notification's tag keeps one shown whatever
        the number of tries."""
        deadline = time.monotonic() + timeout
        while True:
            self.deliver(message)
            again = min(deadline, time.monotonic() + every)
            while time.monotonic() < again:
                shown = self.shown()
                if shown:
                    return shown
                self.page.wait_for_timeout(100)
            assert time.monotonic() < deadline, "no notification shown"


def subscribe(
    competitor: Any, service: LocalPushService, name: str, *, language: str = "fr", by_link: bool = False
) -> Browser:
    """A browser subscribed for `competitor` at the local service's `name`, saved as the
    site saves a subscription it is sent (push.services.subscription_save)."""
    from push import services
    from push.parsing import Subscribed

    browser = Browser()
    data = browser.subscription(service.endpoint(name))
    services.subscription_save(
        competitor=competitor,
        subscribed=Subscribed(endpoint=data["endpoint"], p256dh=data["keys"]["p256dh"], auth=data["keys"]["auth"]),
        language=language,
        by_link=by_link,
    )
    return browser


@pytest.fixture
def push_service() -> Iterator[LocalPushService]:
    service = LocalPushService()
    yield service
    service.close()


@pytest.fixture(autouse=True)
def push_settings(settings: Any, tmp_path: Path) -> None:
    use_local_push(settings, tmp_path)


def use_local_push(settings: Any, tmp_path: Path) -> None:
    """A VAPID key of the test's own, local endpoints allowed, a short timeout."""
    settings.PUSH_VAPID_PRIVATE_KEY = ""
    settings.PUSH_VAPID_KEY_FILE = str(tmp_path / "vapid-key")
    settings.PUSH_ALLOW_LOCAL_HTTP = True
    settings.PUSH_TIMEOUT = 2
