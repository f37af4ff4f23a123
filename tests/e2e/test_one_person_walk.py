"""The director types a player already in the tournament under another spelling, on a phone.

« Lefevre Helene » is Hélène Lefèvre, registered with team 1: the registration form says
so beside the name, keeps everything typed, and registers the team once the director
types the partner who was meant.
"""

from __future__ import annotations

import datetime

import pytest

from tests.e2e.conftest import screenshot
from tests.factories import ClubFactory, UserFactory
from tournaments import services
from tournaments.models import Competitor, Player, Tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_typed_again_under_another_spelling_is_refused_beside_the_name(phone_page, live_server) -> None:
    club = ClubFactory(name="Belote Club de Rodez")
    director = UserFactory(username="directrice")
    club.organisers.add(director)
    tournament = services.tournament_create(
        by=director,
        club=club,
        name="Concours de la Sainte-Barbe",
        date=datetime.date(2026, 12, 5),
        game="belote_classique",
    )
    services.tournament_set_status(by=director, tournament=tournament, status=Tournament.Status.REGISTRATION)
    page = phone_page
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "directrice")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()

    page.goto(live_server.url + f"/manage/tournament/{tournament.pk}/register/")
    page.fill("input[name=last_name_1]", "Lefèvre")
    page.fill("input[name=first_name_1]", "Hélène")
    page.fill("input[name=last_name_2]", "Arnaud")
    page.fill("input[name=first_name_2]", "Paul")
    page.get_by_role("button", name="Inscrire et en ajouter un autre", exact=True).click()
    page.wait_for_load_state()

    page.fill("input[name=last_name_1]", "Blanc")
    page.fill("input[name=first_name_1]", "Marc")
    page.fill("input[name=last_name_2]", "Lefevre")
    page.fill("input[name=first_name_2]", "Helene")
    page.get_by_role("button", name="Inscrire", exact=True).click()
    page.wait_for_load_state()
    # "n° 1" holds a no-break space: the number never starts a line alone.
    refusal = page.get_by_text("Hélène Lefèvre a déjà une inscription (n°\u00a01).")
    refusal.wait_for()
    screenshot(page, "one-person-refused")
    # Everything typed is still there, and nobody was created or registered twice.
    assert page.locator("input[name=last_name_1]").input_value() == "Blanc"
    assert page.locator("input[name=last_name_2]").input_value() == "Lefevre"
    assert Competitor.objects.filter(tournament=tournament).count() == 1
    assert list(
        Player.objects.filter(club=club, first_name__in=["Hélène", "Helene"]).values_list("last_name", flat=True)
    ) == ["Lefèvre"]

    # The partner meant was her sister: typed, the team is registered.
    page.fill("input[name=first_name_2]", "Marie")
    page.get_by_role("button", name="Inscrire", exact=True).click()
    page.wait_for_load_state()
    assert Competitor.objects.filter(tournament=tournament).count() == 2
    assert Player.objects.filter(club=club, last_name__iexact="lefevre", first_name="Marie").count() == 1
