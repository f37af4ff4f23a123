"""The organiser's login is throttled (django-axes): repeated failures lock that account
from that address for a while, the page says so, and the admin shows the lock."""

from __future__ import annotations

import html
from ipaddress import ip_network

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "Belote-et-rebelote-42"
LIMIT = django_settings.AXES_FAILURE_LIMIT


@pytest.fixture(autouse=True)
def _fast_passwords(settings) -> None:
    # Each failed login hashes the password: a fast hasher keeps these tests short.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def director():
    return UserFactory(username="directrice", password=PASSWORD)


def log_in(client: Client, username: str, password: str, url: str = "/login/", **extra: str):
    return client.post(url, {"username": username, "password": password}, **extra)


def fail(client: Client, username: str, times: int = LIMIT, **extra: str) -> None:
    """`times` wrong passwords; the one that reaches the limit is answered with the lock."""
    for attempt in range(1, times + 1):
        expected = 429 if attempt == LIMIT else 200
        assert log_in(client, username, "wrong-password", **extra).status_code == expected


def test_repeated_failures_lock_the_account_from_that_address_even_with_the_right_password(
    client: Client, director
) -> None:
    fail(client, "directrice")
    locked = log_in(client, "directrice", PASSWORD)
    assert locked.status_code == 429
    page = html.unescape(locked.content.decode())
    assert "Trop de connexions échouées à ce compte depuis cette connexion" in page
    assert "15 minutes" in page and 'name="username"' in page
    assert "_auth_user_id" not in client.session


def test_the_lock_is_said_in_english_to_an_english_browser(client: Client, director) -> None:
    fail(client, "directrice")
    page = html.unescape(log_in(client, "directrice", PASSWORD, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Too many failed logins to this account from this connection: it is locked for 15 minutes." in page


def test_the_lock_holds_one_account_from_one_address_only(client: Client, director) -> None:
    UserFactory(username="arbitre", password=PASSWORD)
    fail(client, "directrice")
    # The same account from another address, and another account from this one, go on.
    assert log_in(Client(), "directrice", PASSWORD, REMOTE_ADDR="192.0.2.10").status_code == 302
    assert log_in(Client(), "arbitre", PASSWORD).status_code == 302


def test_behind_a_trusted_proxy_the_lock_is_the_phones_not_the_proxys(client: Client, director, settings) -> None:
    settings.TRUSTED_PROXIES = [ip_network("127.0.0.1")]
    fail(client, "directrice", HTTP_X_FORWARDED_FOR="203.0.113.50")
    assert log_in(Client(), "directrice", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.50").status_code == 429
    assert log_in(Client(), "directrice", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.51").status_code == 302
    assert AccessAttempt.objects.get().ip_address == "203.0.113.50"


def test_the_admins_login_is_throttled_too_and_the_lock_is_listed_in_the_admin(client: Client, director) -> None:
    fail(client, "directrice")
    assert log_in(client, "directrice", PASSWORD, url="/admin/login/").status_code == 429
    attempt = AccessAttempt.objects.get()
    # The limit's failures, and the refused try at the admin's door.
    assert (attempt.username, attempt.ip_address, attempt.failures_since_start) == (
        "directrice",
        "127.0.0.1",
        LIMIT + 1,
    )
    admin = Client(REMOTE_ADDR="192.0.2.99")
    admin.force_login(UserFactory(username="admin", is_staff=True, is_superuser=True))
    listed = admin.get("/admin/axes/accessattempt/")
    assert listed.status_code == 200 and "directrice" in listed.content.decode()


def test_a_success_before_the_limit_forgets_the_failures(client: Client, director) -> None:
    fail(client, "directrice", LIMIT - 1)
    assert log_in(client, "directrice", PASSWORD).status_code == 302
    client.logout()
    fail(client, "directrice", LIMIT - 1)
    assert log_in(client, "directrice", PASSWORD).status_code == 302
