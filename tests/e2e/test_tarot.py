"""A tarot à 4 evening in the browser: the director creates it for nine players, its
table of five playing tarot à 5, checks everyone in and draws a table of 4 and one of 5;
a referee on a phone enters a donne at the table of 5 with the called partner, after a
refused hand, and the ranking moves (the mort: tests/e2e/test_mort_and_rules_sheet.py)."""

from __future__ import annotations

import pytest

from scoring.models import Hand
from tests.e2e.conftest import screenshot
from tests.e2e.test_referee import STORED_TIMEOUT, tap
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Table, Tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_tarot_a_quatre_evening_with_a_table_of_five_and_a_called_partner(browser, phone_page, live_server) -> None:
    club = ClubFactory(name="Tarot Club de Millau")
    director = UserFactory(username="directeur-tarot")
    club.organisers.add(director)
    for n in range(9):
        PlayerFactory(club=club, last_name=f"Joueur{n}", first_name="Luc", licence="")
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR").new_page()
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "directeur-tarot")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/manage/club/{club.pk}/tournaments/new/")
    page.fill("input[name=name]", "Soirée tarot à quatre")
    page.fill("input[name=date]", "2026-12-12")
    page.select_option("select[name=game]", "tarot_a_quatre")
    page.locator("select[name=option_primes]").wait_for()
    # The game's options come with its seating: tables of 4 first, no table of 3.
    assert page.locator("select[name=table_preference]").input_value() == "four_first"
    assert not page.get_by_label("Autoriser une table de 3 (tarot à trois) en dernier recours").is_checked()
    # A table of five plays with a mort unless the director chooses tarot à 5, as here.
    assert page.locator("select[name=table_de_cinq]").input_value() == "mort"
    page.select_option("select[name=table_de_cinq]", "tarot_a_cinq")
    screenshot(page, "tarot-new-tournament-seating")
    page.get_by_role("button", name="Créer le tournoi").click()
    page.get_by_role("button", name="Ouvrir les inscriptions").click()
    for n in range(9):
        page.get_by_role("link", name="Inscrire", exact=True).click()
        page.select_option("select[name=player_1]", label=f"Joueur{n} Luc")
        page.get_by_role("button", name="Inscrire", exact=True).click()
        page.wait_for_load_state()
    page.get_by_role("button", name="Tout pointer (9 inscriptions)").click()
    page.wait_for_function("() => document.querySelectorAll('#competitors button[aria-pressed=true]').length === 9")
    page.get_by_role("button", name="Lancer le tournoi").click()
    page.get_by_role("button", name="Tirage de la ronde 1").click()
    page.wait_for_load_state()
    tournament = Tournament.objects.get(name="Soirée tarot à quatre")
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("number"))
    assert [table.seats.count() for table in tables] == [4, 5]
    assert page.locator("#round table.tables tbody tr").count() == 2
    screenshot(page, "tarot-round-1-drawn")

    five = tables[1]
    seated = [seat.competitor.name for seat in five.seats.order_by("side")]
    referee = phone_page
    referee.goto(f"{live_server.url}/r/{five.token}/")
    tap(referee, "taker", seated[0])
    tap(referee, "partner", seated[2])
    tap(referee, "contract", "garde")
    tap(referee, "oudlers", "2")
    referee.locator("#id_points").fill("95")
    referee.locator("#hand-form button[type=submit]").click()
    referee.locator("#err-points .error").first.wait_for()
    screenshot(referee, "tarot-refused-hand")
    referee.locator("#id_points").fill("45,5")
    referee.locator("#hand-form button[type=submit]").click()
    referee.get_by_text("La donne 1 est enregistrée.").wait_for(timeout=STORED_TIMEOUT)
    hand = Hand.objects.get(table=five)
    assert hand.raw["partner"] == 2
    assert hand.scores == [120, -60, 60, -60, -60]
    screenshot(referee, "tarot-donne-at-five")

    viewer = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR").new_page()
    viewer.goto(f"{live_server.url}/t/{tournament.slug}/")
    viewer.wait_for_function(
        "() => [...document.querySelectorAll('#ranking tbody tr')].some(r => r.innerText.includes('120'))",
        timeout=20_000,
    )
    screenshot(viewer, "tarot-ranking")
