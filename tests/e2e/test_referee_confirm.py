"""A donne that needs the other side's confirmation, sent from a phone: the "Confirmer
pour …" button is on the screen at once, right under the summary of the donne sent."""

from __future__ import annotations

import pytest

from scoring.models import Hand, TableResult
from tests.e2e.conftest import screenshot
from tests.scoring.tables import make_table

STORED_TIMEOUT = 30_000


def tap(page, field: str, label: str) -> None:
    page.locator(f"#f-{field} label.chip", has_text=label).first.click()


def in_viewport(locator) -> bool:
    return locator.evaluate(
        "el => { const r = el.getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth; }"
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_confirm_button_is_on_screen_right_under_the_donne_just_sent(phone_page, live_server) -> None:
    table = make_table(confirmation=True)
    page = phone_page
    page.goto(f"{live_server.url}/r/{table.token}/")
    tap(page, "entered_side", "C1")
    tap(page, "taker", "C1")
    tap(page, "contract", "cœur")
    page.locator("#id_points_taker").fill("102")
    send = page.locator("#hand-form button[type=submit]")
    send.scroll_into_view_if_needed()
    send.click()
    page.get_by_text("La donne 1 est enregistrée.").wait_for(timeout=STORED_TIMEOUT)

    notice = page.locator("#entry .notice")
    confirm = page.get_by_role("button", name="Confirmer pour C2")
    assert confirm.count() == 1 and page.get_by_role("button", name="Confirmer pour C1").count() == 0
    # Directly after the summary of the donne sent, before the next donne's form...
    assert notice.evaluate("el => el.nextElementSibling.id") == "pending"
    assert page.locator("#pending form").evaluate(
        "form => form.compareDocumentPosition(document.getElementById('hand-form')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    # ...and on the screen of a 390 px phone, with the summary, without scrolling.
    assert in_viewport(notice) and in_viewport(confirm)
    notice_bottom = notice.evaluate("el => el.getBoundingClientRect().bottom")
    assert confirm.evaluate("el => el.getBoundingClientRect().top") >= notice_bottom
    screenshot(page, "referee-confirm-under-the-donne")

    confirm.click()
    page.locator("#pending").get_by_text("La donne 1 est confirmée.").wait_for()
    assert Hand.objects.get(table=table).status == Hand.Status.CONFIRMED
    assert TableResult.objects.get(table=table).totals == [102, 60]
