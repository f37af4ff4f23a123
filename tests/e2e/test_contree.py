"""A belote contrée concours in the browser: the director creates it with an option,
registers four teams and draws; a referee on a phone taps a bid and a coinche, sees a bad
hand refused beside its field, and the ranking moves; then the director changes a rule
option (rounding) on the standings page and the concours is re-scored by it."""

from __future__ import annotations

import pytest

from scoring.models import Hand
from tests.e2e.conftest import screenshot
from tests.e2e.test_referee import STORED_TIMEOUT, tap
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Table, Tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_contree_concours_from_creation_to_a_coinched_donne_on_a_phone(browser, phone_page, live_server) -> None:
    club = ClubFactory(name="Coinche Club de Rodez")
    director = UserFactory(username="directrice-coinche")
    club.organisers.add(director)
    for n in range(8):
        PlayerFactory(club=club, last_name=f"Joueur{n}", first_name="Ana", licence="")
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR").new_page()
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "directrice-coinche")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/manage/club/{club.pk}/tournaments/new/")
    page.fill("input[name=name]", "Concours à la coinche")
    page.fill("input[name=date]", "2026-12-12")
    page.select_option("select[name=game]", "belote_contree")
    page.locator("select[name=option_max_bid]").wait_for()
    page.select_option("select[name=option_max_bid]", "180")
    page.get_by_role("button", name="Créer le tournoi").click()
    page.get_by_role("button", name="Ouvrir les inscriptions").click()
    for n in range(4):
        page.get_by_role("link", name="Inscrire", exact=True).click()
        page.select_option("select[name=player_1]", label=f"Joueur{2 * n} Ana")
        page.select_option("select[name=player_2]", label=f"Joueur{2 * n + 1} Ana")
        page.get_by_role("button", name="Inscrire", exact=True).click()
        page.wait_for_load_state()
    page.get_by_role("button", name="Tout pointer (4 inscriptions)").click()
    page.wait_for_function("() => document.querySelectorAll('#competitors button[aria-pressed=true]').length === 4")
    page.get_by_role("button", name="Lancer le tournoi").click()
    page.get_by_role("button", name="Tirage de la ronde 1").click()
    page.wait_for_load_state()
    tournament = Tournament.objects.get(name="Concours à la coinche")
    assert tournament.rule_options.get("max_bid") == 180
    screenshot(page, "contree-round-1-drawn")

    table = Table.objects.filter(round__tournament=tournament).order_by("number").first()
    referee = phone_page
    referee.goto(f"{live_server.url}/r/{table.token}/")
    tap(referee, "taker", table.seats.order_by("side").first().competitor.name)
    tap(referee, "bid", "120")
    tap(referee, "contract", "pique")
    tap(referee, "coinche", "coinché")
    referee.locator("#id_points_taker").fill("170")
    referee.locator("#hand-form button[type=submit]").click()
    referee.locator("#err-points_taker .error").first.wait_for()
    screenshot(referee, "contree-refused-hand")
    referee.locator("#id_points_taker").fill("130")
    referee.locator("#hand-form button[type=submit]").click()
    # The defence's points the page had filled in follow the corrected 130 by themselves.
    referee.get_by_text("La donne 1 est enregistrée.").wait_for(timeout=STORED_TIMEOUT)
    assert Hand.objects.get(table=table).scores == [560, 0]
    assert "120 ♠ pique coinché" in referee.locator("#sheet").inner_text()
    screenshot(referee, "contree-coinched-donne")

    viewer = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR").new_page()
    viewer.goto(f"{live_server.url}/t/{tournament.slug}/")
    viewer.wait_for_function(
        "() => [...document.querySelectorAll('#ranking tbody tr')].some(r => r.innerText.includes('560'))",
        timeout=20_000,
    )
    screenshot(viewer, "contree-ranking")

    # A second donne, not coinché: bid 110 at hearts made with 113 against 49, each side
    # rounded to the ten: 113 + 110 = 223 → 220, 49 → 50.
    other = table.seats.order_by("side").last().competitor.name
    tap(referee, "taker", other)
    tap(referee, "bid", "110")
    tap(referee, "contract", "cœur")
    referee.locator("#id_points_taker").fill("113")
    referee.locator("#hand-form button[type=submit]").click()
    referee.get_by_text("La donne 2 est enregistrée.").wait_for(timeout=STORED_TIMEOUT)
    assert Hand.objects.get(table=table, number=2).scores == [50, 220]

    # The club scores exactly: the director turns rounding off and the concours is re-scored.
    page.goto(f"{live_server.url}/manage/t/{tournament.slug}/standings/")
    page.select_option("select[name=option_rounding]", '"none"')
    page.get_by_role("button", name="Enregistrer et recalculer").click()
    page.wait_for_load_state()
    screenshot(page, "contree-rescored")
    assert Hand.objects.get(table=table, number=2).scores == [49, 223]
    assert Hand.objects.get(table=table, number=1).scores == [560, 0]
    # The ranking follows: 560 + 49 for the first team.
    viewer.wait_for_function(
        "() => [...document.querySelectorAll('#ranking tbody tr')].some(r => r.innerText.includes('609'))",
        timeout=20_000,
    )
