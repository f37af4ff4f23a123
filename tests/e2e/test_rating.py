"""The Atout rating in a browser: on a player's public page (read, and accessible), and the
order of round 1 chosen on the settings page."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from ratings.models import PlayerRating
from tests.e2e.conftest import screenshot
from tests.e2e.test_accessibility import serious_violations
from tests.e2e.test_settings import log_in
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.conftest import new_tournament
from tournaments.models import Tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_reads_their_rating_on_their_public_page(phone_page, live_server) -> None:
    player = PlayerFactory(club=ClubFactory(name="Belote Club d’Angers"), first_name="Jeanne", last_name="Bérard")
    PlayerRating.objects.create(player=player, mu=42.4, sigma=5, ordinal=27.4, parties=18)
    page = phone_page
    page.goto(f"{live_server.url}/joueur/{player.pk}/")
    heading = page.get_by_role("heading", name="Classement Atout : 27,4 (18 parties)")
    assert heading.is_visible()
    assert page.get_by_text("méthode openskill").is_visible()
    screenshot(page, "player-rating")
    assert serious_violations(Axe(), page) == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_director_draws_round_1_by_rating_from_the_settings_page(phone_page, live_server) -> None:
    club = ClubFactory(name="Belote Club de Rodez")
    director = UserFactory(username="directrice")
    club.organisers.add(director)
    tournament = new_tournament(club, director)
    page = phone_page
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/manage/tournament/{tournament.pk}/edit/")
    page.get_by_label("Ordre de la ronde 1").select_option(label="Par classement Atout (les plus forts séparés)")
    page.get_by_role("button", name="Enregistrer", exact=True).click()
    page.get_by_text("Tournoi enregistré.").wait_for()
    assert Tournament.objects.get(pk=tournament.pk).first_round_order == "rating"
    assert page.get_by_text("Par classement Atout (les plus forts séparés)").is_visible()
