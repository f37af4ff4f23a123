"""The prize money in a browser: the director sets it on the prizes page (a refusal beside
its field first), the treasurer reads the payments and downloads them as CSV, and the final
ranking shows each rank's amount, a tie sharing the money of the places it holds; on a
phone (390 px) and on a laptop, every page clean for axe."""

from __future__ import annotations

import csv
import io

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.conftest import LAPTOP, director_desk, screenshot
from tests.e2e.test_accessibility import serious_violations
from tests.e2e.test_prizes import play_the_night, ready_tournament
from tournaments import services


def _clean(page, axe: Axe) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert serious_violations(axe, page) == []


def _log_in(page, live_server) -> None:
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "directrice")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_director_sets_the_prize_money_the_treasurer_reads_the_payments_and_the_palmares_shows_the_amounts(
    phone_page, browser, live_server
) -> None:
    tournament, director = ready_tournament()
    aubert, barre, costes, _durand = tournament.competitors.order_by("number")
    services.competitor_set_payment(by=director, competitor=aubert, status="paid", method="cash")
    services.competitor_set_payment(by=director, competitor=barre, status="paid", method="card")
    services.competitor_set_payment(by=director, competitor=costes, status="free")
    axe = Axe()
    page = phone_page
    _log_in(page, live_server)

    # The prize money, from the dashboard's hub: 75 % of the takings, split by place.
    page.goto(f"{live_server.url}/manage/tournament/{tournament.pk}/")
    page.get_by_role("link", name="Lots (palmarès du classement final)").click()
    page.get_by_label("Origine de la dotation").select_option("share")
    page.get_by_label("Part de la recette (%) ou dotation (€)").fill("75")
    page.get_by_label("Répartition par place en").select_option("percent")
    for place, share in (("1", "50"), ("2", "40"), ("3", "20")):
        page.get_by_label(f"Place {place}", exact=True).fill(share)
    page.get_by_role("button", name="Enregistrer la dotation").click()
    page.wait_for_load_state()
    # 110 %: refused beside the places, everything typed kept.
    assert page.locator("#field-split .error").inner_text() == "Les places totalisent 110 % : 100 % au plus."
    assert page.get_by_label("Place 2", exact=True).input_value() == "40"
    screenshot(page, "prize-money-refused-phone")
    page.get_by_label("Place 2", exact=True).fill("30")
    page.get_by_role("button", name="Enregistrer la dotation").click()
    page.wait_for_load_state()
    assert "Dotation enregistrée." in page.locator(".messages").inner_text()
    # 16 € received (24 € expected): a pool of 12 € (18 €), 6 / 3,60 / 2,40 €.
    assert page.locator(".takings-received").inner_text() == "16 €"
    assert page.locator(".takings-expected").inner_text() == "24 €"
    assert page.locator(".pool-now").inner_text() == "12 € à ce jour, 18 € attendus"
    places = [" ".join(row.split()) for row in page.locator("table.money-places tbody tr").all_inner_texts()]
    assert places == ["1 6,00 9,00", "2 3,60 5,40", "3 2,40 3,60"]
    _clean(page, axe)
    screenshot(page, "prize-money-phone")

    # The treasurer's payments, and their file.
    page.goto(f"{live_server.url}/manage/tournament/{tournament.pk}/")
    page.get_by_role("link", name="Paiements (pour le trésorier)").click()
    assert page.locator(".payments-received").inner_text() == "16,00 €"
    assert page.locator(".payments-owed").inner_text() == "8,00 € (1 concurrent)"
    rows = page.locator("table.payments tbody tr")
    assert rows.count() == 4
    assert "Espèces" in rows.nth(0).inner_text() and "directrice" in rows.nth(0).inner_text()
    assert "Non payé" in rows.nth(3).inner_text()
    _clean(page, axe)
    screenshot(page, "payments-phone")
    with page.expect_download() as download:
        page.get_by_role("link", name="Paiements en CSV").click()
    text = download.value.path().read_text(encoding="utf-8-sig")
    lines = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert lines[0][:3] == ["N°", "Nom", "Statut"] and lines[0][-1] == "Reste dû (€)"
    assert [line[1] for line in lines[1:5]] == ["Les Aubert", "Les Barre", "Les Costes", "Les Durand"]
    assert lines[1][5] == "8,00" and lines[4][-1] == "8,00"

    # The night is played: the final ranking shows each rank's money beside its lots.
    services.prize_add(by=director, tournament=tournament, rank_from=1, text="Un jambon")
    services.competitors_check_in_all(by=director, tournament=tournament)
    play_the_night(tournament, director)
    page.goto(f"{live_server.url}/t/{tournament.slug}/")
    page.locator("#ranking tbody tr").first.wait_for()
    ranking = page.locator("#ranking tbody tr")
    prizes = {}
    for i in range(ranking.count()):
        row = ranking.nth(i)
        prizes[row.locator("td").nth(2).locator("a").inner_text()] = (
            row.locator("td.rank").inner_text(),
            [" ".join(t.split()) for t in row.locator(".prize-money, .prize-lot").all_text_contents()],
        )
    assert prizes == PALMARES, prizes
    _clean(page, axe)
    screenshot(page, "palmares-money-phone")

    # On a laptop: the same pages.
    desk = director_desk(browser, live_server, tournament)
    for address, name in (
        (f"/manage/tournament/{tournament.pk}/prizes/", "prize-money-laptop"),
        (f"/manage/tournament/{tournament.pk}/payments/", "payments-laptop"),
        (f"/t/{tournament.slug}/", "palmares-money-laptop"),
    ):
        desk.goto(live_server.url + address)
        desk.wait_for_load_state()
        assert desk.viewport_size == LAPTOP
        _clean(desk, axe)
        screenshot(desk, name)
    desk.context.close()


# After the night (tests/e2e/test_prizes.py, draw seed 11): one donne played, the two
# teams of the other table tied 3rd, holding places 3 and 4: half of place 3's 2,40 € each.
PALMARES = {
    "Les Aubert": ("1", ["Gains : 6 €", "Lot : Un jambon"]),
    "Les Barre": ("2", ["Gains : 3,60 €"]),
    "Les Costes": ("3", ["Gains : 1,20 €"]),
    "Les Durand": ("3", ["Gains : 1,20 €"]),
}
