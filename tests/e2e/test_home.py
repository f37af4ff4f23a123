"""The home page in a phone's browser: French first, English one tap away."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import screenshot


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_home_page_on_a_phone_is_in_french_and_switches_to_english(phone_page, live_server) -> None:
    page = phone_page
    page.goto(live_server.url + "/")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("h2").first.inner_text() == "Tournois"
    screenshot(page, "home-fr-phone")

    page.get_by_role("link", name="English").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("h2").first.inner_text() == "Tournaments"
    path = screenshot(page, "home-en-phone")
    assert path.stat().st_size > 10_000
