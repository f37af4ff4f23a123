"""The phone's journal in the browser: what it keeps, what it drops, what it says.

(The restore itself, with real processes and a SIGKILL, is tests/production/test_venue_journal.py.)
The page asks for its table sheet every 30 s; here the test asks for it at once, as the
page does after sending a donne again (the sheet's `journal-sent` trigger).
"""

from __future__ import annotations

from typing import Any

import pytest

from rounds.services import round_close
from scoring.models import Hand
from tests.scoring.tables import director_of, make_table
from tournaments.models import Table

STORED_TIMEOUT = 30_000


def enter(page: Any, number: int, points: int) -> None:
    page.locator("#f-taker label.chip").first.click()
    page.locator("#f-contract label.chip", has_text="cœur").first.click()
    page.locator("#id_points_taker").fill(str(points))
    page.locator("#hand-form button[type=submit]").click()
    page.locator("#entry .notice").get_by_text(f"La donne {number} est enregistrée.").wait_for(timeout=STORED_TIMEOUT)


def journal(page: Any, token: str) -> list[tuple[int, str]]:
    """(donne, key) of each donne the phone's journal keeps."""
    entries = page.evaluate(
        "(name) => { const j = JSON.parse(localStorage.getItem(name) || 'null'); return j ? j.entries : []; }",
        f"atout:journal:{token}",
    )
    return sorted((entry["number"], entry["key"]) for entry in entries)


def poll_the_sheet(page: Any) -> None:
    page.evaluate("() => window.htmx.trigger('#sheet', 'journal-sent')")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_journal_keeps_each_donne_acknowledged_and_drops_one_taken_back(phone_page, live_server) -> None:
    table = make_table(end_value=10)
    page = phone_page
    page.goto(f"{live_server.url}/r/{table.token}/")
    enter(page, 1, 100)
    enter(page, 2, 110)
    keys = list(Hand.objects.filter(table=table).values_list("number", "idempotency_key"))
    assert journal(page, table.token) == keys
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Annuler la donne 2").click()
    page.get_by_text("La donne 2 est annulée.").wait_for()
    assert journal(page, table.token) == keys[:1]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_table_the_server_no_longer_knows_keeps_its_donnes_on_the_phone_and_says_so(phone_page, live_server) -> None:
    table = make_table()
    page = phone_page
    page.goto(f"{live_server.url}/r/{table.token}/")
    enter(page, 1, 100)
    kept = journal(page, table.token)
    # A copy restored from before the round was drawn: the server has no such table.
    Table.objects.filter(pk=table.pk).delete()
    poll_the_sheet(page)
    page.locator("#journal-status").get_by_text("Le serveur ne connaît plus cette table").wait_for()
    assert journal(page, table.token) == kept and len(kept) == 1
    # The sheet stays on screen as the phone last had it.
    assert page.locator("#sheet tbody tr").count() == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_journal_goes_once_the_round_is_closed(phone_page, live_server) -> None:
    table = make_table()
    page = phone_page
    page.goto(f"{live_server.url}/r/{table.token}/")
    enter(page, 1, 100)
    assert len(journal(page, table.token)) == 1
    round_close(by=director_of(table.round.tournament), round=table.round, force=True)
    poll_the_sheet(page)
    page.wait_for_function(
        "(name) => localStorage.getItem(name) === null", arg=f"atout:journal:{table.token}", timeout=STORED_TIMEOUT
    )
