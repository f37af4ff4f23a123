"""The director's desk in the browser: several players registered at once, then two records
of one player merged, preview first.

A teams concours is open. The director ticks Hélène Lefèvre and Jean Bérard in the club's
list (one team), pastes four names (two of the club, two new: created once ticked), then
finds that « Jean Dupont L0042 », new tonight, is the Jean Dupond typed by hand at the
spring concours: they merge the two records, reading what moves before confirming. On a
390 px phone and on a laptop, in French, axe clean; screenshots in test-results/.
"""

from __future__ import annotations

import datetime

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.conftest import LAPTOP, PHONE, screenshot
from tests.e2e.test_accessibility import serious_violations
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import ClubLogEntry, Competitor, Player, Tournament


def _club_and_concours(director) -> tuple[Tournament, Player]:
    club = ClubFactory(name="Belote Club de Rodez")
    club.organisers.add(director, through_defaults={"role": "admin"})
    for last, first in (("Lefèvre", "Hélène"), ("Bérard", "Jean"), ("Roux", "Anne"), ("Vidal", "Marc")):
        PlayerFactory(club=club, last_name=last, first_name=first, licence="")
    dupond = PlayerFactory(club=club, last_name="Dupond", first_name="Jean", licence="", email="jean@example.org")
    spring = services.tournament_create(
        by=director, club=club, name="Concours du printemps", date=datetime.date(2026, 4, 11), game="belote_classique"
    )
    services.tournament_set_status(by=director, tournament=spring, status="registration")
    services.competitor_register(by=director, tournament=spring, players=[dupond, PlayerFactory(club=club)])
    tonight = services.tournament_create(
        by=director, club=club, name="Concours du samedi", date=datetime.date(2026, 12, 5), game="belote_classique"
    )
    services.tournament_set_status(by=director, tournament=tonight, status="registration")
    return tonight, dupond


def _log_in(browser, live_server, viewport: dict):
    page = browser.new_context(viewport=viewport, locale="fr-FR").new_page()
    page.set_default_timeout(10_000)
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "directrice")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()
    return page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_director_registers_several_players_then_merges_two_records_after_a_preview(
    browser, live_server, size: str
) -> None:
    director = UserFactory(username="directrice")
    tournament, dupond = _club_and_concours(director)
    club = tournament.club
    axe = Axe()
    page = _log_in(browser, live_server, PHONE if size == "phone" else LAPTOP)

    # Ticked in the club's list: one team, in the list's order.
    page.goto(f"{live_server.url}/manage/tournament/{tournament.pk}/register/")
    page.get_by_role("heading", name="Plusieurs joueurs à la fois").wait_for()
    assert "deux par deux dans l’ordre donné" in page.locator("#several").inner_text()
    page.get_by_label("Bérard Jean").check()
    page.get_by_label("Lefèvre Hélène").check()
    assert serious_violations(axe, page) == []
    screenshot(page, f"desk-{size}-tick")
    page.get_by_role("button", name="Inscrire les joueurs cochés").click()
    page.get_by_role("heading", name="1 inscription faite").wait_for()
    assert "Bérard – Lefèvre (n° 1)" in page.locator("#added").inner_text().replace("\xa0", " ")

    # A pasted list: two of the club, two new ones created only once ticked.
    page.get_by_role("link", name="Inscrire d’autres joueurs").click()
    page.get_by_label("Noms, un par ligne").fill("Anne Roux\nVIDAL Marc\nJean Dupont L0042\nPaul Martin")
    page.get_by_role("button", name="Vérifier la liste").click()
    page.get_by_role("heading", name="Inscrire une liste").wait_for()
    assert page.locator(".paste-lines .ok").count() == 2
    page.get_by_role("button", name="Inscrire ces joueurs").click()
    # Not ticked to be created: said beside the line, the list kept as typed.
    page.locator("#line-3 .error").wait_for()
    assert "Jean Dupont L0042" in page.get_by_label("Noms, un par ligne").input_value()
    assert not Player.objects.filter(last_name="Dupont").exists()
    page.locator("#line-3").get_by_label("Créer ce joueur").check()
    page.locator("#line-4").get_by_label("Créer ce joueur").check()
    assert serious_violations(axe, page) == []
    screenshot(page, f"desk-{size}-paste")
    page.get_by_role("button", name="Inscrire ces joueurs").click()
    page.get_by_role("heading", name="2 inscriptions faites").wait_for()
    screenshot(page, f"desk-{size}-registered")
    assert [c.name for c in tournament.competitors.order_by("number")] == [
        "Bérard – Lefèvre",
        "Roux – Vidal",
        "Dupont – Martin",
    ]
    dupont = Player.objects.get(club=club, last_name="Dupont")
    assert dupont.licence == "L0042" and not dupont.public_history

    # Jean Dupont is the Jean Dupond of the spring: merged into tonight's record.
    page.goto(f"{live_server.url}/manage/club/{club.pk}/players/")
    page.get_by_role("link", name="Fusionner deux joueurs").click()
    page.select_option("select[name=kept]", label="Dupont Jean (L0042)")
    page.select_option("select[name=merged]", label="Dupond Jean")
    page.get_by_role("button", name="Voir ce qui change").click()
    preview = page.locator("#merge-preview")
    preview.wait_for()
    assert "Concours du printemps" in preview.inner_text()
    assert "jean@example.org" in preview.inner_text()
    assert Player.objects.filter(pk=dupond.pk).exists()
    assert serious_violations(axe, page) == []
    screenshot(page, f"desk-{size}-merge-preview")
    page.get_by_role("button", name="Fusionner définitivement").click()
    page.get_by_text("Jean Dupond fusionné dans Jean Dupont.").wait_for()
    screenshot(page, f"desk-{size}-merged")

    assert not Player.objects.filter(pk=dupond.pk).exists()
    assert Competitor.objects.filter(tournament__name="Concours du printemps", players=dupont).exists()
    dupont.refresh_from_db()
    assert dupont.email == "jean@example.org"

    # The club's log, for its administrators.
    page.goto(f"{live_server.url}/manage/club/{club.pk}/")
    page.get_by_role("link", name="Journal du club").click()
    assert "fusionné dans Jean Dupont (L0042)" in page.locator("main").inner_text()
    assert serious_violations(axe, page) == []
    screenshot(page, f"desk-{size}-log")
    assert ClubLogEntry.objects.filter(club=club, by=director).count() == 1
    page.context.close()
