"""The rating on the player's pages (organisers' history, public page), in French, and
the order of round 1 on the tournament's settings page and in the API."""

from __future__ import annotations

import datetime
import html

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import PlayerRating
from ratings.services import ratings_rebuild
from rounds.services import round_draw
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tests.ratings.builders import director_of, new_players, played
from tests.tournaments.conftest import register_many
from tests.tournaments.test_pages import tournament_post
from tournaments import services
from tournaments.models import Club, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return ClubFactory(name="Belote Club d’Angers")


@pytest.fixture
def player(club: Club) -> Player:
    return PlayerFactory(club=club, first_name="Jeanne", last_name="Bérard")


def text(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_both_pages_show_the_rating_with_its_parties_in_french(player: Player, club: Club, client: Client) -> None:
    PlayerRating.objects.create(player=player, mu=42.4, sigma=5, ordinal=27.4, parties=18)
    public = text(client, reverse("player_public", args=[player.pk]))
    assert "Classement Atout : 27,4 (18 parties)" in public
    assert "méthode openskill" in public
    client.force_login(director_of(club))
    manage = text(client, reverse("player_history", args=[club.pk, player.pk]))
    assert "Classement Atout : 27,4 (18 parties)" in manage


def test_one_partie_is_singular(player: Player, client: Client) -> None:
    PlayerRating.objects.create(player=player, mu=30, sigma=8, ordinal=6.0, parties=1)
    assert "Classement Atout : 6,0 (1 partie)" in text(client, reverse("player_public", args=[player.pk]))


def test_an_unrated_player_shows_no_rating(player: Player, client: Client) -> None:
    body = text(client, reverse("player_public", args=[player.pk]))
    assert "Jeanne Bérard" in body and "Classement Atout" not in body


def test_a_rating_rebuilt_from_a_won_partie_shows_on_the_public_page(club: Club, client: Client) -> None:
    a, b, c, d = new_players(4, club)
    played([[102, 60]], players=[[a, b], [c, d]], club=club)
    ratings_rebuild()
    winner = text(client, reverse("player_public", args=[a.pk]))
    loser = text(client, reverse("player_public", args=[c.pk]))
    assert "(1 partie)" in winner and "(1 partie)" in loser
    value = PlayerRating.objects.get(player=a).ordinal
    assert f"Classement Atout : {value:.1f}".replace(".", ",") in winner


def test_the_settings_page_offers_the_order_of_round_1(club: Club, client: Client) -> None:
    tournament = TournamentFactory(club=club, status="draft", date=datetime.date(2026, 12, 5))
    client.force_login(director_of(club))
    url = reverse("manage:tournament_edit", args=[tournament.pk])
    body = text(client, url)
    assert "Ordre de la ronde 1" in body
    assert "Au hasard" in body and "Par classement Atout (les plus forts séparés)" in body


def test_the_settings_page_saves_the_order_of_round_1_and_shows_it_fixed_once_drawn(club: Club, client: Client) -> None:
    director = director_of(club)
    client.force_login(director)
    tournament = TournamentFactory(club=club, status="registration")
    edit = reverse("manage:tournament_edit", args=[tournament.pk])
    response = client.post(edit, tournament_post(name=tournament.name, first_round_order="rating"))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.first_round_order == "rating"
    # A form sent without the select keeps the setting.
    assert client.post(edit, tournament_post(name=tournament.name)).status_code == 302
    tournament.refresh_from_db()
    assert tournament.first_round_order == "rating"
    register_many(tournament, director, 4)
    services.tournament_set_status(by=director, tournament=tournament, status="running")
    round_draw(by=director, tournament=tournament)
    form = client.get(edit).context["form"]
    assert form.fields["first_round_order"].disabled
    dashboard = text(client, reverse("manage:dashboard", args=[tournament.pk]))
    assert "Ordre de la ronde 1" in dashboard and "Par classement Atout (les plus forts séparés)" in dashboard
