"""The door (« Pointage ») in the browser: a tablet at the entrance (1024×768) checks in a
team's two players by name, accents typed or not, and shows the entry fee owed; the
director's dashboard counts the room without a reload. In French and in English, on the
tablet and on a 360 px phone (a player scanning the poster), axe clean."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.conftest import director_desk, screenshot
from tests.e2e.test_accessibility import serious_violations
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Tournament

TABLET = {"width": 1024, "height": 768}
SMALL_PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}
# The desk polls the room every 5 s: enough to wait for several polls.
POLLS = 30_000


def _concours(director) -> Tournament:
    """Registration open, self check-in on (each player), 10 € a team; four teams, none
    checked in; no. 1 is Hélène Lefèvre and Jean Bérard, no. 2 Anne Roux and Marc Vidal."""
    club = ClubFactory(name="Belote Club de Rodez")
    club.organisers.add(director)
    tournament = services.tournament_create(
        by=director,
        club=club,
        name="Concours du samedi",
        date=datetime.date(2026, 12, 5),
        game="belote_classique",
        entry_fee=Decimal("10"),
        self_check_in=True,
    )
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    for first, second in (
        (("Lefèvre", "Hélène"), ("Bérard", "Jean")),
        (("Roux", "Anne"), ("Vidal", "Marc")),
    ):
        players = [PlayerFactory(club=club, last_name=last, first_name=given) for last, given in (first, second)]
        services.competitor_register(by=director, tournament=tournament, players=players)
    for _ in range(2):
        services.competitor_register(
            by=director, tournament=tournament, players=PlayerFactory.create_batch(2, club=club)
        )
    return tournament


def _check_in(page, axe: Axe, typed: str, name: str, button: str) -> None:
    """Type `typed` in the door's search, touch `name`, then `button`."""
    field = page.locator("#door-q")
    field.fill(typed)
    page.locator(".door-person", has_text=name).wait_for()
    assert serious_violations(axe, page) == []
    page.locator(".door-person", has_text=name).click()
    page.get_by_role("button", name=button).wait_for()
    assert serious_violations(axe, page) == []
    page.get_by_role("button", name=button).click()
    page.locator(".door-done").wait_for()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_tablet_checks_in_a_team_s_two_players_and_the_dashboard_counts_them(browser, live_server) -> None:
    director = UserFactory(username="directrice")
    tournament = _concours(director)
    door = services.door_open(by=director, tournament=tournament)
    axe = Axe()

    desk = director_desk(browser, live_server, tournament, viewport=LAPTOP)
    room = desk.locator("#room .room-count")
    assert room.inner_text() == "0 / 4 pointés, 0 à encaisser"
    desk.evaluate("window.notReloaded = true")

    tablet_context = browser.new_context(viewport=TABLET, locale="fr-FR", has_touch=True)
    tablet = tablet_context.new_page()
    tablet.set_default_timeout(10_000)
    home = f"{live_server.url}/door/{door.token}/"
    tablet.goto(home)
    assert tablet.locator("h1").inner_text() == "Pointage"
    assert serious_violations(axe, tablet) == []
    screenshot(tablet, "door-tablet-search")

    # Hélène, typed without her accents: noted, waiting for Jean; 10 € owed.
    _check_in(tablet, axe, "helene lefevre", "Hélène Lefèvre", "Je suis là")
    done = tablet.locator(".door-done").inner_text()
    assert "Bienvenue, Hélène !" in done
    assert "Votre arrivée est notée. En attente de : Jean Bérard." in done
    assert "À régler à la table de l’organisateur : 10 €" in done
    assert serious_violations(axe, tablet) == []
    screenshot(tablet, "door-tablet-waiting")
    # Back to the search by itself after a few seconds.
    tablet.locator("#door-q").wait_for(timeout=20_000)
    assert tablet.url == home

    # Jean, by his last name in capitals: the team is checked in.
    _check_in(tablet, axe, "BERARD", "Jean Bérard", "Je suis là")
    done = tablet.locator(".door-done").inner_text()
    assert "Pointage fait : bon tournoi !" in done and "À régler à la table de l’organisateur : 10 €" in done
    screenshot(tablet, "door-tablet-done")

    # The dashboard counted them without a reload.
    desk.locator("#room .room-count", has_text="1 / 4 pointés, 1 à encaisser").wait_for(timeout=POLLS)
    assert "À encaisser : n° 1 Lefèvre – Bérard" in desk.locator("#room").inner_text().replace("\xa0", " ")
    assert desk.evaluate("window.notReloaded === true")
    desk.reload()
    assert "à la porte" in desk.locator("#competitors").inner_text()
    assert serious_violations(axe, desk) == []
    screenshot(desk, "door-dashboard-count")
    desk.context.close()
    tablet_context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_door_in_english_on_a_small_phone(browser, live_server) -> None:
    director = UserFactory(username="directrice")
    tournament = _concours(director)
    services.tournament_update(by=director, tournament=tournament, door_rule="one")
    door = services.door_open(by=director, tournament=tournament)
    axe = Axe()
    context = browser.new_context(viewport=SMALL_PHONE, locale="en-GB", device_scale_factor=2, has_touch=True)
    phone = context.new_page()
    phone.set_default_timeout(10_000)
    phone.goto(f"{live_server.url}/door/{door.token}/")
    assert phone.locator("h1").inner_text() == "Check-in"
    assert phone.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    _check_in(phone, axe, "anne roux", "Anne Roux", "We are both here")
    done = phone.locator(".door-done").inner_text()
    assert "Checked in: enjoy the tournament!" in done and "To pay at the organiser’s table: 10 €" in done
    assert phone.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    assert serious_violations(axe, phone) == []
    screenshot(phone, "door-phone-en")

    # Self check-in switched off: the door says so plainly.
    services.tournament_update(by=director, tournament=tournament, self_check_in=False)
    phone.goto(f"{live_server.url}/door/{door.token}/")
    assert "Self check-in is closed for this tournament" in phone.locator(".door-closed").inner_text()
    assert serious_violations(axe, phone) == []
    context.close()
