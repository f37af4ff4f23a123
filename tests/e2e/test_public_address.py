"""The table sheets in the director's browser: opened at 127.0.0.1 with no ATOUT_PUBLIC_URL,
they say in red that their codes would open on no phone, instead of printing them; with
the setting, the codes and links carry the room's address."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import screenshot
from tests.factories import UserFactory
from tests.scoring.tables import make_table

ROOM = "http://192.168.1.20:8000"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_sheets_opened_on_the_laptop_itself_warn_in_red_until_the_public_address_is_set(
    browser, live_server, settings
) -> None:
    settings.ATOUT_PUBLIC_URL = ""
    table = make_table(tables=2)
    table.round.tournament.club.organisers.add(UserFactory(username="directrice"))
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(10_000)
    base = live_server.url.replace("localhost", "127.0.0.1")
    page.goto(base + "/login/")
    page.fill("input[name=username]", "directrice")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()

    sheets = f"{base}/manage/t/{table.round.tournament.slug}/hands/sheets/"
    page.goto(sheets)
    warning = page.locator(".print-sheet .only-this-computer").first
    assert warning.is_visible()
    assert "aucun téléphone ne pourra les ouvrir" in warning.inner_text()
    assert warning.evaluate("el => getComputedStyle(el).color") == "rgb(179, 38, 30)"
    assert page.locator(".print-sheet svg").count() == 0
    screenshot(page, "sheets-only-this-computer")

    settings.ATOUT_PUBLIC_URL = ROOM
    page.goto(sheets)
    assert page.locator(".only-this-computer").count() == 0
    assert page.locator(".print-sheet .qr svg").count() == 2
    assert page.locator(".print-sheet code.link").first.inner_text() == f"{ROOM}/r/{table.token}/"
    context.close()
