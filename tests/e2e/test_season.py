"""A director makes a season in a phone's browser: from the club's page, a new season of
two tournaments with its placing table; saving builds the ranking, which the season's
public page shows."""

from __future__ import annotations

import datetime

import pytest

from tests.e2e.conftest import screenshot
from tests.e2e.test_prizes import play_the_night
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Tournament


def finished_concours(club, director, name: str, day: int, teams: list[list]) -> Tournament:
    """A concours of `teams` (four pairs of the club's players), one donne played, finished."""
    tournament = services.tournament_create(
        by=director, club=club, name=name, date=datetime.date(2027, 1, day),
        game="belote_classique", rounds_planned=1, end_value=2,
    )  # fmt: skip
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    for players in teams:
        services.competitor_register(
            by=director, tournament=tournament, players=players, name=f"Les {players[0].last_name}", checked_in=True
        )
    play_the_night(tournament, director)
    return tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_director_creates_a_season_of_two_tournaments_and_sees_its_ranking(phone_page, live_server) -> None:
    club = ClubFactory(name="Belote Club de Rodez")
    director = UserFactory(username="directrice")
    club.organisers.add(director)
    teams = [
        [PlayerFactory(club=club, last_name=family, first_name=first) for first in ("Paul", "Lucie")]
        for family in ("Aubert", "Barre", "Costes", "Durand")
    ]
    finished_concours(club, director, "Concours de janvier", 10, teams)
    finished_concours(club, director, "Concours de février", 20, teams)
    page = phone_page
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "directrice")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()

    page.goto(f"{live_server.url}/manage/club/{club.pk}/")
    page.get_by_role("link", name="Nouvelle saison").click()
    page.fill("input[name=name]", "Saison d’hiver")
    page.fill("input[name=starts]", "2027-01-01")
    page.fill("input[name=ends]", "2026-12-31")
    page.get_by_label("Concours de janvier").check()
    page.get_by_label("Concours de février").check()
    page.get_by_role("button", name="Créer la saison").click()
    page.wait_for_load_state()
    assert page.locator("#field-ends .error").inner_text() == "La saison ne peut pas finir avant de commencer."

    page.fill("input[name=ends]", "2027-06-30")
    page.fill("input[name=placing_points]", "10, 6, 4, 2")
    page.get_by_role("button", name="Créer la saison").click()
    page.wait_for_load_state()
    assert page.url.endswith("/manage/s/saison-dhiver/")
    assert page.locator("input[name=placing_points]").input_value() == "10, 6, 4, 2"
    assert page.locator("input[name=starts]").input_value() == "2027-01-01"
    # The tests run the worker's tasks at once: the season job is through when the page shows.
    assert "2 sur 2 tournois" in page.locator("#season-jobs").inner_text()
    screenshot(page, "season-edit")

    page.get_by_role("link", name="Le classement public de la saison").click()
    page.wait_for_load_state()
    rows = page.locator("table.ranking-table tbody tr")
    assert rows.count() == 8
    # Every player played both tournaments, ranked alike in each (the same draw, the same
    # donne): 1st, 2nd, and the two teams of the unplayed table share the 3rd place.
    assert {row.locator("td").nth(3).inner_text() for row in rows.all()} == {"2"}
    points = [int(row.locator("td").nth(2).inner_text()) for row in rows.all()]
    assert points == [2 * 10] * 2 + [2 * 6] * 2 + [2 * 4] * 4
    assert page.get_by_role("link", name="Concours de janvier").count() == 1
    screenshot(page, "season-ranking")
