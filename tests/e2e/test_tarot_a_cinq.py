"""A tarot à 5 evening in the browser: the director creates it for ten players, checks
everyone in and draws two tables of 5; a referee on a phone enters a donne where the taker
called their own king (playing alone, four defenders) and one with a called partner, and
the ranking moves with each."""

from __future__ import annotations

import pytest

from scoring.models import Hand
from tests.e2e.conftest import screenshot
from tests.e2e.test_referee import STORED_TIMEOUT, tap
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Table, Tournament


def enter_garde_two_oudlers_45_5(referee, taker: str, partner: str, number: int) -> None:
    """A garde with 2 oudlers and 45.5 points: needs 41, made by 4.5 counted as 5, so
    D = (25 + 5) × 2 = 60 (docs/rules.md, tarot à 5)."""
    tap(referee, "taker", taker)
    tap(referee, "partner", partner)
    tap(referee, "contract", "garde")
    tap(referee, "oudlers", "2")
    referee.locator("#id_points").fill("45,5")
    referee.locator("#hand-form button[type=submit]").click()
    referee.get_by_text(f"La donne {number} est enregistrée.").wait_for(timeout=STORED_TIMEOUT)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_tarot_a_cinq_evening_with_a_taker_alone_and_a_called_partner(browser, phone_page, live_server) -> None:
    club = ClubFactory(name="Tarot Club de Rodez")
    director = UserFactory(username="directrice-tarot")
    club.organisers.add(director)
    for n in range(10):
        PlayerFactory(club=club, last_name=f"Joueuse{n}", first_name="Anne", licence="")
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR").new_page()
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "directrice-tarot")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/manage/club/{club.pk}/tournaments/new/")
    page.fill("input[name=name]", "Soirée tarot à cinq")
    page.fill("input[name=date]", "2026-12-19")
    page.select_option("select[name=game]", "tarot_a_cinq")
    page.locator("select[name=option_primes]").wait_for()
    # Tarot à 5 seats tables of 5 first.
    assert page.locator("select[name=table_preference]").input_value() == "five_first"
    page.get_by_role("button", name="Créer le tournoi").click()
    page.get_by_role("button", name="Ouvrir les inscriptions").click()
    for n in range(10):
        page.get_by_role("link", name="Inscrire", exact=True).click()
        page.select_option("select[name=player_1]", label=f"Joueuse{n} Anne")
        page.get_by_role("button", name="Inscrire", exact=True).click()
        page.wait_for_load_state()
    page.get_by_role("button", name="Tout pointer (10 inscriptions)").click()
    page.wait_for_function("() => document.querySelectorAll('#competitors button[aria-pressed=true]').length === 10")
    page.get_by_role("button", name="Lancer le tournoi").click()
    page.get_by_role("button", name="Tirage de la ronde 1").click()
    page.wait_for_load_state()
    tournament = Tournament.objects.get(name="Soirée tarot à cinq")
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("number"))
    assert [table.seats.count() for table in tables] == [5, 5]
    screenshot(page, "tarot5-round-1-drawn")

    first = tables[0]
    seated = [seat.competitor.name for seat in first.seats.order_by("side")]
    referee = phone_page
    referee.goto(f"{live_server.url}/r/{first.token}/")
    # The taker called a king of their own: alone against four.
    enter_garde_two_oudlers_45_5(referee, seated[0], "appelé lui-même", 1)
    alone = Hand.objects.get(table=first, number=1)
    assert alone.raw["partner"] == alone.raw["taker"] == 0
    assert alone.scores == [240, -60, -60, -60, -60]
    screenshot(referee, "tarot5-taker-alone")
    # Then a called partner: taker +2 × D, partner +D, the three others −D.
    enter_garde_two_oudlers_45_5(referee, seated[1], seated[3], 2)
    assert Hand.objects.get(table=first, number=2).scores == [-60, 120, -60, 60, -60]
    screenshot(referee, "tarot5-called-partner")

    viewer = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR").new_page()
    viewer.goto(f"{live_server.url}/t/{tournament.slug}/")
    # The taker of donne 1 leads with 240 − 60 = 180; the partner of donne 2 has 0.
    viewer.wait_for_function(
        "() => [...document.querySelectorAll('#ranking tbody tr')].some(r => r.innerText.includes('180'))",
        timeout=20_000,
    )
    first_row = viewer.locator("#ranking tbody tr").first.inner_text()
    assert seated[0] in first_row and "180" in first_row
    screenshot(viewer, "tarot5-ranking")
