"""The director's evening in a phone's browser: log in, create, register, check in, draw."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import register_and_check_in_eight_teams, screenshot
from tests.factories import ClubFactory, UserFactory
from tournaments.models import Round, Seat, Tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_director_registers_eight_teams_checks_them_in_and_draws_round_1(phone_page, live_server) -> None:
    club = ClubFactory(name="Belote Club de Rodez")
    director = UserFactory(username="directrice")
    club.organisers.add(director)
    page = phone_page

    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "directrice")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()

    page.goto(live_server.url + "/manage/")
    page.get_by_role("link", name="Belote Club de Rodez").click()
    page.get_by_role("link", name="Nouveau tournoi").click()
    # The game's select asks for its options through htmx: wait until htmx has read the page
    # (on a busy machine the select could change before, and no request would go).
    page.wait_for_load_state()
    page.fill("input[name=name]", "Concours du Téléthon")
    page.fill("input[name=date]", "2026-12-05")
    assert page.locator("select[name=option_capot_value]").input_value() == "250"
    # Another game brings its own rule options (htmx swaps them in), and back again.
    page.select_option("select[name=game]", "tarot_a_trois")
    page.locator("select[name=option_primes]").wait_for()
    page.select_option("select[name=game]", "belote_classique")
    page.locator("select[name=option_capot_value]").wait_for()
    assert page.locator("input[name=options_for]").input_value() == "belote_classique"
    page.get_by_role("button", name="Créer le tournoi").click()
    page.get_by_role("button", name="Ouvrir les inscriptions").click()

    register_and_check_in_eight_teams(page, "Aubert", "Barre")
    competitors = page.locator("#competitors")
    assert competitors.get_by_text(re.compile(r"8 au pointage")).count() == 1

    page.get_by_role("button", name="Lancer le tournoi").click()
    page.get_by_role("button", name="Tirage de la ronde 1").click()
    page.wait_for_load_state()
    assert page.locator("#round h2").inner_text().startswith("Ronde 1")
    assert page.locator("#round table.tables tbody tr").count() == 4
    screenshot(page, "director-round-1-drawn")

    tournament = Tournament.objects.get(name="Concours du Téléthon")
    assert tournament.status == "running" and tournament.competitors.filter(status="checked_in").count() == 8
    rnd = Round.objects.get(tournament=tournament, number=1)
    assert Seat.objects.filter(round=rnd).count() == 8

    page.get_by_role("link", name="Tirage pour le projecteur").click()
    page.wait_for_load_state()
    assert page.locator(".draw-table").count() == 4
    path = screenshot(page, "draw-round-1-projector")
    assert path.stat().st_size > 10_000
