"""Subscribing to « Ma soirée »'s notifications: the subscription kept as the browser sent
it, one per browser and competitor; junk refused with 400 and its reason, never 500 nor a
row; CSRF; the throttle; the service worker and the key; the page's button."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from push.keys import vapid_keys
from push.models import Subscription
from tests.push.conftest import Browser, b64url
from tests.scoring.tables import make_table
from tournaments.models import Competitor

pytestmark = pytest.mark.django_db

FCM = "https://fcm.googleapis.com/fcm/send/abc123:APA91b-some-browser"


@pytest.fixture(autouse=True)
def no_throttle_left() -> None:
    cache.clear()


@pytest.fixture
def competitor() -> Competitor:
    table = make_table(tables=2)
    tournament = table.round.tournament
    tournament.is_public = True
    tournament.save(update_fields=["is_public"])
    return tournament.competitors.get(number=1)


def public_url(competitor: Competitor, stop: bool = False) -> str:
    return f"/t/{competitor.tournament.slug}/c/{competitor.number}/soiree/push/{'stop/' if stop else ''}"


def link_url(competitor: Competitor, stop: bool = False) -> str:
    return f"/soiree/{competitor.link_token}/push/{'stop/' if stop else ''}"


def post(client: Client, url: str, body: Any, **headers: str) -> Any:
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    return client.post(url, data=data, content_type="application/json", **headers)


def test_a_subscription_is_kept_once_per_browser_with_the_page_and_the_language(competitor: Competitor) -> None:
    client = Client()
    browser = Browser()
    answer = post(client, public_url(competitor), browser.subscription(FCM), HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200, answer.content
    assert answer.json()["message"].startswith("Notifications on")
    again = post(client, public_url(competitor), browser.subscription(FCM), HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 200
    kept = Subscription.objects.get()
    assert (kept.competitor, kept.endpoint, kept.p256dh, kept.auth) == (
        competitor,
        FCM,
        browser.p256dh,
        b64url(browser.auth),
    )
    assert (kept.language, kept.by_link) == ("en", False)
    assert kept.page == f"/t/{competitor.tournament.slug}/c/1/soiree/"

    # By the personal link: the same browser for the same competitor is still one row.
    by_link = post(client, link_url(competitor), browser.subscription(FCM))
    assert by_link.status_code == 200
    assert by_link.json()["message"].startswith("Notifications activées")
    kept = Subscription.objects.get()
    assert (kept.language, kept.by_link, kept.page) == ("fr", True, f"/soiree/{competitor.link_token}/")

    # Another competitor followed from the same browser: a row of its own.
    other = competitor.tournament.competitors.get(number=2)
    assert post(client, public_url(other), browser.subscription(FCM)).status_code == 200
    assert Subscription.objects.count() == 2

    stopped = post(client, link_url(competitor, stop=True), {"endpoint": FCM})
    assert stopped.status_code == 200
    assert list(Subscription.objects.values_list("competitor__number", flat=True)) == [2]


def _bad_subscriptions() -> list[tuple[str, Any]]:
    browser = Browser()
    good = browser.subscription(FCM)
    keys = good["keys"]
    return [
        ("not JSON", b"{endpoint: nope"),
        ("invalid UTF-8", b'{"endpoint": "\xff\xfe"}'),
        ("a list", [good]),
        ("a string", json.dumps("https://fcm.googleapis.com/x")),
        ("nested deep", b"[" * 100_000 + b"]" * 100_000),
        ("unknown field", {**good, "extra": 1}),
        ("no keys", {"endpoint": FCM}),
        ("keys not an object", {**good, "keys": "p256dh"}),
        ("a key missing", {**good, "keys": {"p256dh": keys["p256dh"]}}),
        ("a key too many", {**good, "keys": {**keys, "other": "x"}}),
        ("p256dh too short", {**good, "keys": {**keys, "p256dh": keys["p256dh"][:40]}}),
        ("p256dh not a point", {**good, "keys": {**keys, "p256dh": b64url(b"\x05" + b"x" * 64)}}),
        ("p256dh not base64", {**good, "keys": {**keys, "p256dh": "%%%" * 29}}),
        ("auth wrong size", {**good, "keys": {**keys, "auth": b64url(b"x" * 15)}}),
        ("auth a number", {**good, "keys": {**keys, "auth": 12}}),
        ("expiry a string", {**good, "expirationTime": "tomorrow"}),
        ("no endpoint", {"expirationTime": None, "keys": keys}),
        ("endpoint a number", {**good, "endpoint": 5}),
        ("plain http", {**good, "endpoint": "http://fcm.googleapis.com/fcm/send/x"}),
        ("someone's server", {**good, "endpoint": "https://evil.example.org/fcm/send/x"}),
        ("a look-alike host", {**good, "endpoint": "https://fcm.googleapis.com.evil.example.org/x"}),
        ("an address inside", {**good, "endpoint": "https://10.0.0.5/push"}),
        ("another port", {**good, "endpoint": "https://fcm.googleapis.com:8443/x"}),
        ("credentials", {**good, "endpoint": "https://user:pw@fcm.googleapis.com/x"}),
        ("a local address in https", {**good, "endpoint": "https://127.0.0.1/push"}),
        ("javascript", {**good, "endpoint": "javascript:alert(1)"}),
        ("too long", {**good, "endpoint": FCM + "x" * 1100}),
        ("a NUL", {**good, "endpoint": FCM + "\u0000"}),
        ("a space", {**good, "endpoint": "https://fcm.googleapis.com/a b"}),
        ("a broken address", {**good, "endpoint": "https://[fcm.googleapis.com/x"}),
        ("oversized", {**good, "padding": "x" * 6000}),
    ]


@pytest.mark.parametrize(("name", "body"), _bad_subscriptions(), ids=[name for name, _ in _bad_subscriptions()])
def test_junk_is_refused_with_its_reason_and_stores_nothing(competitor: Competitor, name: str, body: Any) -> None:
    for url in (public_url(competitor), link_url(competitor)):
        answer = post(Client(), url, body)
        assert answer.status_code == 400, (name, answer.status_code, answer.content[:200])
        assert answer["Content-Type"] == "application/json"
        assert answer.json()["error"]
    assert not Subscription.objects.exists()


def test_the_wrong_content_type_or_a_form_is_refused(competitor: Competitor) -> None:
    client = Client()
    form = client.post(public_url(competitor), data={"endpoint": FCM})
    assert form.status_code == 400
    plain = client.post(public_url(competitor), data=json.dumps(Browser().subscription(FCM)), content_type="text/plain")
    assert plain.status_code == 400
    assert client.get(public_url(competitor)).status_code == 405
    assert post(client, public_url(competitor, stop=True), {"endpoint": 12}).status_code == 400
    assert post(client, public_url(competitor, stop=True), [1]).status_code == 400
    assert not Subscription.objects.exists()


def test_a_local_http_endpoint_only_where_the_setting_allows(competitor: Competitor, settings: Any) -> None:
    local = Browser().subscription("http://127.0.0.1:9/push/x")
    settings.PUSH_ALLOW_LOCAL_HTTP = False
    refused = post(Client(), public_url(competitor), local)
    assert refused.status_code == 400
    assert "https" in refused.json()["error"]
    settings.PUSH_ALLOW_LOCAL_HTTP = True
    assert post(Client(), public_url(competitor), local).status_code == 200
    assert post(Client(), public_url(competitor), Browser().subscription("http://192.168.1.20/x")).status_code == 400


def test_the_push_services_of_the_browsers_are_accepted(competitor: Competitor) -> None:
    for endpoint in (
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
        "https://web.push.apple.com/QGuQyavXutnMOQ",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD",
        FCM,
    ):
        assert post(Client(), public_url(competitor), Browser().subscription(endpoint)).status_code == 200, endpoint
    assert Subscription.objects.count() == 4


def test_csrf_is_required_and_the_key_answer_gives_it(competitor: Competitor) -> None:
    client = Client(enforce_csrf_checks=True)
    subscription = Browser().subscription(FCM)
    assert post(client, public_url(competitor), subscription).status_code == 403
    key = client.get("/push/key/")
    assert key.status_code == 200
    assert "no-store" in key["Cache-Control"]
    assert key.json()["key"] == vapid_keys().public  # type: ignore[union-attr]
    token = key.json()["csrf"]
    assert post(client, public_url(competitor), subscription, HTTP_X_CSRFTOKEN=token).status_code == 200
    assert post(client, link_url(competitor, stop=True), {"endpoint": FCM}).status_code == 403
    assert post(client, link_url(competitor, stop=True), {"endpoint": FCM}, HTTP_X_CSRFTOKEN=token).status_code == 200


def test_wrong_links_and_unknown_competitors_are_refused(competitor: Competitor) -> None:
    subscription = Browser().subscription(FCM)
    assert post(Client(), "/soiree/not-a-real-token-at-all-000/push/", subscription).status_code == 404
    assert post(Client(), f"/t/{competitor.tournament.slug}/c/99/soiree/push/", subscription).status_code == 404
    assert post(Client(), "/t/no-such-tournament/c/1/soiree/push/", subscription).status_code == 404
    competitor.link_revoked = True
    competitor.save(update_fields=["link_revoked"])
    assert post(Client(), link_url(competitor), subscription).status_code == 403
    competitor.tournament.is_public = False
    competitor.tournament.save(update_fields=["is_public"])
    assert post(Client(), public_url(competitor), subscription).status_code == 404
    assert not Subscription.objects.exists()


def test_a_finished_tournament_takes_no_subscription(competitor: Competitor) -> None:
    competitor.tournament.status = "finished"
    competitor.tournament.save(update_fields=["status"])
    answer = post(Client(), public_url(competitor), Browser().subscription(FCM))
    assert answer.status_code == 400
    assert answer.json()["error"] == "Le tournoi est terminé : il n’y a plus rien à annoncer."
    assert not Subscription.objects.exists()


def test_one_connection_asking_too_often_is_throttled(competitor: Competitor, settings: Any) -> None:
    settings.PUSH_PER_CLIENT = 3
    client = Client()
    answers = [post(client, public_url(competitor), Browser().subscription(f"{FCM}{n}")).status_code for n in range(5)]
    assert answers == [200, 200, 200, 429, 429]
    assert Subscription.objects.count() == 3


def test_a_competitor_is_followed_by_so_many_browsers_at_most(competitor: Competitor, settings: Any) -> None:
    from push import services

    settings.PUSH_PER_CLIENT = 1000
    statuses = [
        post(Client(), public_url(competitor), Browser().subscription(f"{FCM}{n}")).status_code
        for n in range(services.MAX_PER_COMPETITOR + 1)
    ]
    assert statuses[-1] == 400
    assert Subscription.objects.count() == services.MAX_PER_COMPETITOR


def test_without_a_key_the_page_hears_notifications_are_off(competitor: Competitor, settings: Any) -> None:
    settings.PUSH_VAPID_KEY_FILE = ""
    assert Client().get("/push/key/").json()["key"] is None
    assert post(Client(), public_url(competitor), Browser().subscription(FCM)).status_code == 503
    assert not Subscription.objects.exists()


def test_the_service_worker_is_served_from_the_root_as_javascript() -> None:
    answer = Client().get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/javascript; charset=utf-8"
    assert answer["Service-Worker-Allowed"] == "/"
    assert "no-cache" in answer["Cache-Control"]
    assert "script-src 'self'" in answer["Content-Security-Policy"]
    text = answer.content.decode()
    assert 'addEventListener("push"' in text
    assert 'addEventListener("notificationclick"' in text
    assert "{%" not in text and "/static/img/favicon.svg" in text


@pytest.mark.parametrize("language", ["fr", "en"])
def test_my_evening_offers_the_button_at_its_own_address(competitor: Competitor, language: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    by_link = client.get(f"/soiree/{competitor.link_token}/").content.decode()
    public = client.get(f"/t/{competitor.tournament.slug}/c/1/soiree/").content.decode()
    assert f'data-subscribe-url="/soiree/{competitor.link_token}/push/"' in by_link
    assert f'data-subscribe-url="/t/{competitor.tournament.slug}/c/1/soiree/push/"' in public
    button = "Me prévenir" if language == "fr" else "Notify me"
    assert button in by_link and button in public
    assert "/static/js/push.js" in public
    # The public page never carries the personal link's secret.
    assert competitor.link_token not in public
    # The public page still holds no CSRF token (it is gzip-compressed): the key answer brings it.
    assert "csrfmiddlewaretoken" not in public and "X-CSRFToken" not in public


def test_a_finished_tournament_offers_no_button(competitor: Competitor) -> None:
    competitor.tournament.status = "finished"
    competitor.tournament.save(update_fields=["status"])
    page = Client().get(f"/soiree/{competitor.link_token}/").content.decode()
    assert "data-push" not in page
