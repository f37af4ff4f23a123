"""The API registers one person once: a name the tournament or the club already has is refused,
with the club's player's id to send instead (tests/tournaments/test_one_person.py: the forms)."""

from __future__ import annotations

import pytest

from tests.api.conftest import API, new_tournament
from tests.factories import PlayerFactory
from tournaments import services
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def test_registering_her_again_by_name_through_the_api_is_refused(api, club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    helene = PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="")
    services.competitor_register(by=organiser, tournament=tournament, players=[helene, PlayerFactory(club=club)])
    url = f"{API}/tournaments/{tournament.slug}/competitors/"
    for typed in ({"last_name": "Lefevre", "first_name": "Helene"}, {"last_name": "HELENE", "first_name": "lefèvre"}):
        response = api.post(url, {"players": [{"id": PlayerFactory(club=club).pk}, typed]}, format="json")
        assert response.status_code == 400
        (error,) = response.json()["errors"]
        assert (error["field"], error["code"]) == ("players.1", "already_registered")
    twice = api.post(url, {"players": [{"id": helene.pk}, {"id": PlayerFactory(club=club).pk}]}, format="json")
    assert twice.status_code == 400 and twice.json()["errors"][0]["field"] == "players.0"
    assert tournament.competitors.count() == 1


def test_a_name_the_club_has_is_refused_with_the_id_to_send(api, club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    helene = PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="")
    partner = {"id": PlayerFactory(club=club).pk}
    url = f"{API}/tournaments/{tournament.slug}/competitors/"
    response = api.post(url, {"players": [partner, {"last_name": "Lefevre", "first_name": "Helene"}]}, format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["field"], error["code"], error["player_id"]) == ("players.1", "same_person", helene.pk)
    again = api.post(url, {"players": [partner, {"id": error["player_id"]}]}, format="json")
    assert again.status_code == 201
    assert Player.objects.filter(club=club).count() == 2


def test_adding_her_to_the_clubs_list_through_the_api_is_refused(api, club) -> None:
    helene = PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="")
    response = api.post(
        f"{API}/clubs/{club.slug}/players/", {"last_name": "Helene", "first_name": "Lefevre"}, format="json"
    )
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["field"], error["code"], error["player_id"]) == ("last_name", "same_person", helene.pk)
