"""The language switch: a plain link (atout.views.switch_language), no CSRF token.

A *visitor* without an account reads the site in French and taps "English"; the link
sets the language cookie as Django's set_language does and brings them back to the page
they were on. Whatever the link is given, it answers a redirect on this site, never a
500 and never an open redirect.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.scoring.tables import make_table

pytestmark = pytest.mark.django_db

SWITCH = "/language/"


def switch_link(html: str, code: str) -> str:
    """The href of the page's link to `code`."""
    found = re.search(rf'<a href="([^"]+)" lang="{code}"', html)
    assert found, f"no link to {code}"
    return unescape(found.group(1))


def test_the_switch_is_at_its_address() -> None:
    assert reverse("switch_language") == SWITCH


def test_a_visitor_switches_a_public_page_to_english(client: Client) -> None:
    table = make_table()
    ranking = reverse("public:ranking", kwargs={"slug": table.round.tournament.slug})
    page = client.get(ranking + "?x=1&y=2")
    html = page.content.decode()
    assert page["Content-Language"] == "fr"
    # A link, no form: nothing in the page asks for a CSRF token.
    assert "csrfmiddlewaretoken" not in html and "set_language" not in html and "/i18n/" not in html
    link = switch_link(html, "en")
    assert link.startswith(SWITCH)

    switched = client.get(link)
    assert switched.status_code == 302 and switched["Location"] == ranking + "?x=1&y=2"
    cookie = switched.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "en"
    assert cookie["max-age"] == (settings.LANGUAGE_COOKIE_AGE or "")
    assert cookie["path"] == settings.LANGUAGE_COOKIE_PATH
    assert cookie["samesite"] == (settings.LANGUAGE_COOKIE_SAMESITE or "")
    assert cookie["httponly"] == (settings.LANGUAGE_COOKIE_HTTPONLY or "")
    assert cookie["secure"] == (settings.LANGUAGE_COOKIE_SECURE or "")
    assert "no-cache" in switched["Cache-Control"] or "max-age=0" in switched["Cache-Control"]

    english = client.get(switched["Location"])
    assert english["Content-Language"] == "en"
    assert '<html lang="en">' in english.content.decode()
    # And back to French from the English page.
    back = client.get(switch_link(english.content.decode(), "fr"), follow=True)
    assert back.redirect_chain[-1][0] == ranking + "?x=1&y=2"
    assert back["Content-Language"] == "fr"


def test_the_cookie_follows_the_settings(client: Client, settings) -> None:
    settings.LANGUAGE_COOKIE_AGE = 3600
    settings.LANGUAGE_COOKIE_PATH = "/t/"
    settings.LANGUAGE_COOKIE_DOMAIN = "testserver"
    settings.LANGUAGE_COOKIE_SECURE = True
    settings.LANGUAGE_COOKIE_HTTPONLY = True
    settings.LANGUAGE_COOKIE_SAMESITE = "Strict"
    cookie = client.get(SWITCH, {"language": "en", "next": "/"}).cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "en"
    assert cookie["max-age"] == 3600 and cookie["path"] == "/t/" and cookie["domain"] == "testserver"
    assert cookie["secure"] is True and cookie["httponly"] is True and cookie["samesite"] == "Strict"


@pytest.mark.parametrize("language", ["de", "", "EN", "en-us", "fr\n", "x" * 500])
def test_an_unknown_language_changes_nothing(client: Client, language: str) -> None:
    response = client.get(SWITCH, {"language": language, "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


@pytest.mark.parametrize(
    "hostile",
    [
        "//evil.com",
        "https://evil.com",
        "http://evil.com/t/",
        "///evil.com",
        "/\\evil.com",
        "\\\\evil.com",
        "javascript:alert(1)",
        " //evil.com",
    ],
)
def test_a_next_off_the_site_goes_home(client: Client, hostile: str) -> None:
    response = client.get(SWITCH, {"language": "en", "next": hostile})
    assert response.status_code == 302 and response["Location"] == "/"
    # The language still changes: only the destination was refused.
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"


def test_a_next_holding_a_nul_is_refused_as_any_query_string_holding_one(client: Client) -> None:
    # atout.middleware.RequestTextMiddleware: no text holds a NUL (issue 26, item 10).
    response = client.get(SWITCH, {"language": "en", "next": "\x00/"})
    assert response.status_code == 400 and settings.LANGUAGE_COOKIE_NAME not in response.cookies


def test_a_secure_page_is_not_sent_back_to_plain_http(client: Client) -> None:
    # This site, but plain http from an https page: refused, as Django's set_language does.
    response = client.get(SWITCH, {"language": "en", "next": "http://testserver/t/"}, secure=True)
    assert response["Location"] == "/"
    assert client.get(SWITCH, {"language": "en", "next": "https://testserver/t/"}, secure=True)["Location"] == (
        "https://testserver/t/"
    )


def test_an_odd_next_on_the_site_is_never_a_500(client: Client) -> None:
    for odd in ("/a\nb", "/a\r\nSet-Cookie: x=1", "/é?q=ü", "/" + "a" * 5000):
        response = client.get(SWITCH, {"language": "en", "next": odd})
        assert response.status_code == 302, odd
        assert "\n" not in response["Location"] and "\r" not in response["Location"]
        assert response["Location"].startswith("/") and not response["Location"].startswith("//")
    assert client.get(SWITCH, {"language": "en"})["Location"] == "/"
    assert client.get(SWITCH)["Location"] == "/"


def test_only_a_read(client: Client) -> None:
    # A write has nothing to do here (Django's set_language still takes the POST).
    assert Client(enforce_csrf_checks=True).post(SWITCH, {"language": "en", "next": "/"}).status_code in {403, 405}
    assert client.post(SWITCH, {"language": "en", "next": "/"}).status_code == 405
    assert client.head(SWITCH, {"language": "en", "next": "/"}).status_code == 302
