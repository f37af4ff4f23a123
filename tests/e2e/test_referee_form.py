"""The belote form on a phone: labelled announcement chips, red hearts, a capot sent
without points, and a wrong number flagged only where the referee typed it."""

from __future__ import annotations

import pytest

from scoring.models import Hand
from tests.e2e.conftest import screenshot
from tests.e2e.test_referee import STORED_TIMEOUT, tap
from tests.scoring.tables import make_table


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_referee_announces_a_tierce_with_chips_and_sends_a_capot_without_points(phone_page, live_server) -> None:
    table = make_table(end_value=3)
    page = phone_page
    page.goto(f"{live_server.url}/r/{table.token}/")

    # 170 is refused beside the taker's points only: the page filled the defence's.
    tap(page, "taker", "C1")
    tap(page, "contract", "cœur")
    page.locator("#id_points_taker").fill("170")
    page.locator("#hand-form button[type=submit]").click()
    page.locator("#err-points_taker .error").first.wait_for()
    assert page.locator("#err-points_defence .error").count() == 0
    assert page.locator("#id_points_taker").input_value() == "170"
    screenshot(page, "referee-170-refused")

    # A capot: no points typed at all; a tierce to the king of hearts announced with chips.
    page.locator("#id_points_taker").fill("")
    page.locator("#id_points_defence").fill("")
    tap(page, "capot", "C1")
    page.get_by_text("Annonces (tierce, cinquante, cent, carré)").click()
    announcement = page.locator(".ann-side").first.locator(".ann-row").first
    announcement.locator(".ann-cell", has_text="Annonce").locator("label.chip", has_text="tierce").click()
    announcement.locator(".ann-cell", has_text="Carte haute").locator("label.chip", has_text="R").first.click()
    hearts = announcement.locator(".ann-cell", has_text="Couleur").locator("label.chip", has_text="♥")
    assert "rgb(192, 38, 45)" in hearts.locator("span").evaluate("el => getComputedStyle(el).color")
    hearts.click()
    screenshot(page, "referee-announcements-chips")
    page.locator("#hand-form button[type=submit]").click()
    page.get_by_text("La donne 1 est enregistrée.").wait_for(timeout=STORED_TIMEOUT)
    hand = Hand.objects.get(table=table)
    assert hand.raw["points"] == {"A": 162, "B": 0}
    assert hand.raw["announcements"]["A"] == [{"kind": "tierce", "high": "K", "suit": "hearts"}]
