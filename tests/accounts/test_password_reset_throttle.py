"""Issue 26, item 9: the forgotten password's form is throttled, as the login is.

Thirty requests for one address sent thirty e-mails in 0.3 s. Now an address gets
PASSWORD_RESET_PER_ADDRESS e-mails an hour and a client (as kit.clients sees it, through
the proxies the site trusts) PASSWORD_RESET_PER_CLIENT requests; past either, the form
comes back (429) with the reason beside the address it keeps, in French first, and
says the same whether or not an account has the address.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from ipaddress import ip_network

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PER_ADDRESS = django_settings.PASSWORD_RESET_PER_ADDRESS
PER_CLIENT = django_settings.PASSWORD_RESET_PER_CLIENT


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    # The counts live in the cache: each test starts from none.
    cache.clear()
    yield
    cache.clear()


def ask(email: str, **extra: str):
    return Client().post(reverse("password_reset"), {"email": email}, **extra)


def text(response) -> str:
    return html.unescape(response.content.decode())


def test_thirty_requests_for_one_address_send_only_the_allowed_e_mails() -> None:
    UserFactory(username="lucie", email="lucie@example.org")
    # From as many phones as requests: the address's own limit is what holds.
    statuses = [ask("lucie@example.org", REMOTE_ADDR=f"192.0.2.{n}").status_code for n in range(1, 31)]
    assert statuses == [302] * PER_ADDRESS + [429] * (30 - PER_ADDRESS)
    assert len(mail.outbox) == PER_ADDRESS == 3
    # The address counts however it is typed.
    assert ask(" Lucie@Example.ORG ", REMOTE_ADDR="192.0.2.99").status_code == 429
    assert len(mail.outbox) == PER_ADDRESS


def test_the_refusal_says_why_in_french_beside_the_address_it_keeps() -> None:
    for _ in range(PER_ADDRESS):
        ask("lucie@example.org")
    refused = ask("lucie@example.org", REMOTE_ADDR="192.0.2.7")
    assert refused.status_code == 429
    page = text(refused)
    assert (
        "Trop de demandes de réinitialisation du mot de passe pour cette adresse : attendez 60 minutes avant de "
        "redemander. Si un e-mail est déjà arrivé, son lien fonctionne : utilisez le plus récent." in page
    )
    assert re.search(r'<input[^>]*name="email"[^>]*value="lucie@example.org"', page)
    assert "Mot de passe oublié" in page  # the form's page, not an error page
    english = ask("lucie@example.org", HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="192.0.2.8")
    assert "Too many password reset requests for this address: wait 60 minutes" in text(english)


def test_one_client_is_limited_across_addresses() -> None:
    statuses = [ask(f"joueur{n}@example.org").status_code for n in range(PER_CLIENT + 2)]
    assert statuses == [302] * PER_CLIENT + [429, 429]
    page = text(ask("autre@example.org"))
    assert "Trop de demandes de réinitialisation du mot de passe depuis cette connexion" in page
    # Another client goes on; and the refused client spent nothing of that address's.
    assert ask("autre@example.org", REMOTE_ADDR="192.0.2.50").status_code == 302


def test_behind_a_trusted_proxy_the_client_is_the_phone_not_the_proxy(settings) -> None:
    settings.TRUSTED_PROXIES = [ip_network("127.0.0.1")]
    for n in range(PER_CLIENT):
        assert ask(f"joueur{n}@example.org", HTTP_X_FORWARDED_FOR="203.0.113.50").status_code == 302
    assert ask("autre@example.org", HTTP_X_FORWARDED_FOR="203.0.113.50").status_code == 429
    # Another phone behind the same proxy is not the first one.
    assert ask("autre@example.org", HTTP_X_FORWARDED_FOR="203.0.113.51").status_code == 302


def test_the_answer_tells_nothing_of_which_addresses_have_an_account() -> None:
    UserFactory(username="lucie", email="lucie@example.org")
    answers = {}
    for email in ("lucie@example.org", "personne@example.org"):
        for n in range(PER_ADDRESS):
            assert ask(email, REMOTE_ADDR=f"192.0.2.{n + 1}").status_code == 302
        refused = ask(email, REMOTE_ADDR="192.0.2.9")
        page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", text(refused))
        answers[email] = (refused.status_code, page.replace(email, "ADDRESS"))
    assert answers["lucie@example.org"] == answers["personne@example.org"]
    assert len(mail.outbox) == PER_ADDRESS  # to lucie only
