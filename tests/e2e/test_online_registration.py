"""Registration online in the browser: a player on a 390 px phone opens the public page,
touches « S'inscrire » and registers a team into a capped concours; the next team goes on
the waiting list; the director, on a laptop, withdraws a team at the desk and sees the
waiting team take the place (its players told by e-mail). The club's embed page fits a
400 px frame. French, axe clean, screenshots in test-results/screenshots/."""

from __future__ import annotations

from decimal import Decimal

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core import mail
from django.utils import timezone

from scoring.standings.refresh import standings_rebuild
from tests.e2e.conftest import PHONE, director_desk, screenshot
from tests.e2e.test_accessibility import serious_violations
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import OnlineEntry, Tournament
from tournaments.services import online

LAPTOP = {"width": 1280, "height": 800}
EMBED = {"width": 400, "height": 600}


def _concours(director) -> Tournament:
    """Registration open, 10 € a team, two teams registered at the desk, at most three."""
    club = ClubFactory(name="Belote Club de Rodez", slug="bc-rodez")
    club.organisers.add(director)
    tournament = services.tournament_create(
        by=director,
        club=club,
        name="Concours du samedi",
        date=timezone.localdate(),
        game="belote_classique",
        entry_fee=Decimal("10"),
    )
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    for _ in range(2):
        services.competitor_register(
            by=director, tournament=tournament, players=PlayerFactory.create_batch(2, club=club)
        )
    online.online_settings_update(by=director, tournament=tournament, is_open=True, cap=3)
    return tournament


def _register(page, axe: Axe, url: str, first: tuple[str, str], second: tuple[str, str], email: str, shot: str) -> None:
    page.goto(url)
    page.get_by_role("link", name="S’inscrire").click()
    page.get_by_role("heading", name="S’inscrire au concours Concours du samedi").wait_for()
    assert serious_violations(axe, page) == []
    page.fill("input[name=last_name_1]", first[0])
    page.fill("input[name=first_name_1]", first[1])
    page.fill("input[name=last_name_2]", second[0])
    page.fill("input[name=first_name_2]", second[1])
    page.fill("input[name=email]", email)
    screenshot(page, f"{shot}-form")
    page.get_by_role("button", name="Envoyer mon inscription").click()
    page.locator(".notice").wait_for()
    assert serious_violations(axe, page) == []
    screenshot(page, f"{shot}-done")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_team_registers_online_and_the_waiting_list_moves_up_when_a_team_withdraws(browser, live_server) -> None:
    director = UserFactory(username="directrice")
    tournament = _concours(director)
    axe = Axe()
    public = f"{live_server.url}/t/{tournament.slug}/"

    phone = browser.new_context(viewport=PHONE, locale="fr-FR", device_scale_factor=2, has_touch=True).new_page()
    phone.set_default_timeout(10_000)
    _register(phone, axe, public, ("Lefèvre", "Hélène"), ("Bérard", "Jean"), "helene@example.org", "online-phone")
    assert "Vous êtes inscrits, numéro 3." in phone.locator("main").inner_text()
    # A mistake comes back beside its field, with what was typed.
    phone.goto(public + "register/")
    assert "Le concours est complet" in phone.locator("main").inner_text()
    phone.fill("input[name=last_name_1]", "Roux")
    phone.fill("input[name=first_name_1]", "Anne")
    phone.fill("input[name=last_name_2]", "Vidal")
    phone.fill("input[name=first_name_2]", "Marc")
    phone.get_by_role("button", name="Envoyer mon inscription").click()
    phone.locator("#field-email .error").wait_for()
    assert phone.input_value("input[name=last_name_2]") == "Vidal"
    assert serious_violations(axe, phone) == []
    screenshot(phone, "online-phone-error")
    phone.fill("input[name=email]", "anne@example.org")
    phone.get_by_role("button", name="Envoyer mon inscription").click()
    phone.locator(".notice").wait_for()
    assert "vous êtes numéro 1 sur la liste d’attente" in phone.locator("main").inner_text()
    screenshot(phone, "online-phone-waiting")
    phone.context.close()

    desk = director_desk(browser, live_server, tournament, viewport=LAPTOP)
    desk.get_by_role("link", name="Inscriptions en ligne (« S’inscrire »)").click()
    waiting = desk.locator("ol.entries-list")
    assert "Anne Roux – Marc Vidal" in waiting.inner_text()
    assert serious_violations(axe, desk) == []
    screenshot(desk, "online-desk-waiting")
    mail.outbox.clear()
    desk.goto(f"{live_server.url}/manage/tournament/{tournament.pk}/")
    desk.get_by_role("button", name="Abandon").first.click()
    desk.get_by_role("button", name="Abandon").click()
    desk.wait_for_load_state()
    desk.goto(f"{live_server.url}/manage/tournament/{tournament.pk}/online/")
    assert "Personne n’attend." in desk.locator("main").inner_text()
    assert "Anne Roux – Marc Vidal" in desk.locator("main").inner_text()
    screenshot(desk, "online-desk-moved-up")
    entry = OnlineEntry.objects.get(email="anne@example.org")
    assert entry.status == OnlineEntry.Status.ACCEPTED
    (message,) = mail.outbox
    assert message.to == ["anne@example.org"]
    assert f"{live_server.url}/soiree/{entry.competitor.link_token}/" in message.body
    assert "10,00 €" in message.body or "10.00 €" in message.body
    desk.context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_embed_page_fits_a_400_px_frame_with_register(browser, live_server) -> None:
    director = UserFactory(username="directrice")
    tournament = _concours(director)
    axe = Axe()
    page = browser.new_context(viewport=EMBED, locale="fr-FR").new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/club/bc-rodez/embed/")
    link = page.get_by_role("link", name="S’inscrire")
    assert link.get_attribute("target") == "_blank"
    assert tournament.name in page.locator("main").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    assert serious_violations(axe, page) == []
    screenshot(page, "online-embed-400")
    # Framed by another page, as a club's website would: the frame loads (no refusal).
    page.set_content(
        f'<!doctype html><html lang="fr"><title>Club</title><iframe src="{live_server.url}/club/bc-rodez/embed/" '
        'width="400" height="500" title="Concours"></iframe></html>'
    )
    frame = page.frame_locator("iframe")
    frame.get_by_role("link", name="S’inscrire").wait_for()
    screenshot(page, "online-embed-framed")
    page.context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_embed_page_shows_the_live_ranking_on_the_night_at_400_px(browser, live_server) -> None:
    director = UserFactory(username="directrice")
    tournament = _concours(director)
    club = tournament.club
    for _ in range(2):
        services.competitor_register(
            by=director, tournament=tournament, players=PlayerFactory.create_batch(2, club=club)
        )
    services.competitors_check_in_all(by=director, tournament=tournament)
    services.tournament_set_status(by=director, tournament=tournament, status="running")
    standings_rebuild(tournament_id=tournament.pk)
    page = browser.new_context(viewport=EMBED, locale="fr-FR").new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/club/bc-rodez/embed/")
    page.get_by_role("heading", name="Classement en direct").wait_for()
    assert page.locator("main ol li").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    assert serious_violations(Axe(), page) == []
    screenshot(page, "online-embed-night-400")
    page.context.close()
