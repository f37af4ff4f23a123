"""The referee on a phone: a whole partie entered with a thumb, one hand refused and fixed,
and a donne typed with no connection sent once the connection is back."""

from __future__ import annotations

import pytest

from scoring.models import Hand, TableResult
from tests.e2e.conftest import screenshot
from tests.scoring.tables import make_table

# A shared machine can be slow to answer: wait for a stored donne longer than the default.
STORED_TIMEOUT = 30_000


def tap(page, field: str, label: str) -> None:
    page.locator(f"#f-{field} label.chip", has_text=label).first.click()


def type_c2_diamonds_110(page, base_url: str, table) -> None:
    """Open the table's page and type a donne: C2 takes at diamonds and makes 110."""
    page.goto(f"{base_url}/r/{table.token}/")
    tap(page, "taker", "C2")
    tap(page, "contract", "carreau")
    page.locator("#id_points_taker").fill("110")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_referee_enters_a_whole_partie_on_a_phone_including_a_refused_hand(phone_page, live_server) -> None:
    table = make_table(end_value=3)
    page = phone_page
    page.goto(f"{live_server.url}/r/{table.token}/")
    assert page.locator("h1").inner_text() == "Table 1 · ronde 1"
    screenshot(page, "referee-empty-form")

    # Donne 1: the defence's points fill themselves in, and the engine previews the score.
    tap(page, "taker", "C1")
    tap(page, "contract", "cœur")
    page.locator("#id_points_taker").fill("102")
    assert page.locator("#id_points_defence").input_value() == "60"
    page.locator("#hand-preview").get_by_text("Si vous envoyez : C1 102 · C2 60.").wait_for()
    page.locator("#hand-form button[type=submit]").click()
    page.get_by_text("La donne 1 est enregistrée.").wait_for(timeout=STORED_TIMEOUT)
    assert page.locator("#score .totals").inner_text().split() == ["C1", "102", "C2", "60"]

    # Donne 2: points that do not add up to 162 are refused beside the field, as typed.
    tap(page, "taker", "C2")
    tap(page, "contract", "trèfle")
    page.locator("#id_points_taker").fill("100")
    page.locator("#id_points_defence").fill("70")
    errors = page.locator("#err-points_taker")
    errors.get_by_text("doivent faire 162 en tout").wait_for()
    page.locator("#hand-form button[type=submit]").click()
    errors.get_by_text("doivent faire 162 en tout").wait_for()
    assert page.locator("#id_points_taker").input_value() == "100"
    assert Hand.objects.filter(table=table).count() == 1
    screenshot(page, "referee-refused-hand")
    page.locator("#id_points_defence").fill("62")
    page.locator("#hand-form button[type=submit]").click()
    page.get_by_text("La donne 2 est enregistrée.").wait_for(timeout=STORED_TIMEOUT)

    # Donne 3 ends the partie: the winner is shown and the form is gone.
    tap(page, "taker", "C1")
    tap(page, "contract", "pique")
    page.locator("#id_points_taker").fill("92")
    tap(page, "belote", "C1")
    page.locator("#hand-form button[type=submit]").click()
    page.get_by_text("Partie terminée : C1 gagne.").wait_for(timeout=STORED_TIMEOUT)
    assert page.locator("#hand-form").count() == 0
    rows = page.locator("#sheet tbody tr")
    assert rows.count() == 3
    screenshot(page, "referee-partie-over")
    result = TableResult.objects.get(table=table)
    assert result.finished and result.totals == [102 + 62 + 112, 60 + 100 + 70] and result.winner_side == 0


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_donne_typed_without_a_connection_is_kept_and_sent_once_it_is_back(phone_page, live_server) -> None:
    table = make_table()
    page = phone_page
    type_c2_diamonds_110(page, live_server.url, table)
    page.context.set_offline(True)
    page.locator("#hand-form button[type=submit]").click()
    page.get_by_text("Pas de connexion : cette donne est gardée sur le téléphone").wait_for()
    screenshot(page, "referee-offline")
    assert not Hand.objects.filter(table=table).exists()

    # A reload with no network would lose a plain form; here the entry waits in the phone.
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.get_by_text("La donne 1 est enregistrée.").wait_for(timeout=STORED_TIMEOUT)
    hands = list(Hand.objects.filter(table=table))
    assert len(hands) == 1 and hands[0].raw == {"taker": "B", "contract": "diamonds", "points": {"B": 110, "A": 52}}

    # Reloading afterwards restores nothing and sends nothing twice.
    page.reload()
    page.locator("#hand-form").wait_for()
    assert page.locator("#id_points_taker").input_value() == ""
    assert Hand.objects.filter(table=table).count() == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_kept_donne_edited_after_its_first_send_went_through_is_not_taken_for_a_resend(
    phone_page, live_server
) -> None:
    table = make_table()
    page = phone_page
    type_c2_diamonds_110(page, live_server.url, table)

    # The first send reaches the server, but its answer is lost on the way back: the phone
    # keeps the entry, under the same key, to send it again.
    lost = []

    def lose_the_first_answer(route) -> None:
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch().status)
            route.abort()
        else:
            route.continue_()

    page.route(f"**/r/{table.token}/hands/", lose_the_first_answer)
    page.locator("#hand-form button[type=submit]").click()
    page.get_by_text("Pas de connexion : cette donne est gardée sur le téléphone").wait_for()
    assert lost == [200] and Hand.objects.filter(table=table).count() == 1

    # Meanwhile the referee changes the kept entry; then the connection comes back.
    page.locator("#id_points_taker").fill("120")
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.get_by_text("La clé de cette saisie a déjà servi pour la donne 1").wait_for(timeout=STORED_TIMEOUT)
    screenshot(page, "referee-key-reused")
    hands = list(Hand.objects.filter(table=table))
    assert len(hands) == 1 and hands[0].raw["points"]["B"] == 110
    # The changed entry is still on the page, aimed at donne 2, ready to be sent as itself.
    assert page.locator("#id_points_taker").input_value() == "120"
    assert page.locator("input[name=expected_number]").input_value() == "2"
    page.locator("#hand-form button[type=submit]").click()
    page.get_by_text("La donne 2 est enregistrée.").wait_for(timeout=STORED_TIMEOUT)
    assert [hand.raw["points"]["B"] for hand in Hand.objects.filter(table=table).order_by("number")] == [110, 120]
