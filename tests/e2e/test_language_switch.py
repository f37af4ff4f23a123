"""The language switch on a phone: a visitor reading a public page taps "English" and
stays on the same page, now in English, then goes back to French. The page came
gzip-compressed: the switch is a plain link, so it holds no CSRF token."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import PHONE, screenshot
from tests.scoring.tables import make_table


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_phone_switches_a_public_page_to_english_and_back(phone_page, live_server) -> None:
    page = phone_page
    table = make_table(tables=2)
    tournament = table.round.tournament
    path = f"/t/{tournament.slug}/round/1/"
    response = page.goto(live_server.url + path)
    assert response is not None and response.status == 200
    # The whole page came compressed, and nothing in it is a CSRF token.
    assert response.headers.get("content-encoding") == "gzip"
    assert page.locator("input[name=csrfmiddlewaretoken]").count() == 0
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.title().startswith("Ronde 1")

    english = page.get_by_role("link", name="English")
    assert english.is_visible()
    box = english.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "language-switch-fr-phone")

    english.tap()
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.url == live_server.url + path
    assert page.title().startswith("Round 1")
    assert page.get_by_role("link", name="Log in").is_visible()
    screenshot(page, "language-switch-en-phone")

    page.get_by_role("link", name="Français").tap()
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert page.url == live_server.url + path
    assert page.title().startswith("Ronde 1")
