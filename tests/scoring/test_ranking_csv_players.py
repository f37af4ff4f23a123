"""The ranking's CSV for the league: each team's players and their clubs for everyone, their
licences only for the club's organisers; names a spreadsheet would take for formulas stay text."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import StandingsSnapshot
from tests.factories import ClubFactory, CompetitorFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament() -> Tournament:
    club = ClubFactory(name="Belote Club d’Angers")
    tournament = TournamentFactory(club=club, status="running")
    jeanne = PlayerFactory(club=club, first_name="Jeanne", last_name="Bérard", licence="L-4242")
    paul = PlayerFactory(
        club=club, first_name="Paul", last_name="Durand", licence="L-77", affiliation="Amicale de Trélazé"
    )
    trick = PlayerFactory(club=club, first_name="=HYPERLINK(1)", last_name="", licence="")
    first = CompetitorFactory(tournament=tournament, number=1, name="Bérard – Durand", players=[jeanne, paul])
    second = CompetitorFactory(tournament=tournament, number=2, name="Piège", players=[trick])
    StandingsSnapshot.objects.create(
        tournament=tournament,
        version=1,
        rows=[
            {"competitor": first.pk, "number": 1, "name": first.name, "rank": 1, "values": [], "played": 1},
            {"competitor": second.pk, "number": 2, "name": second.name, "rank": 2, "values": [], "played": 1},
        ],
    )
    return tournament


def lines(client: Client, tournament: Tournament) -> list[dict[str, str]]:
    response = client.get(reverse("public:ranking_csv", kwargs={"slug": tournament.slug}))
    text = response.content.decode("utf-8").lstrip("\ufeff")
    return list(csv.DictReader(io.StringIO(text), delimiter=";"))


def test_everyone_reads_each_teams_players_and_clubs(tournament: Tournament, client: Client) -> None:
    first = lines(client, tournament)[0]
    assert first["Joueurs"] == "Jeanne Bérard / Paul Durand"
    assert first["Clubs"] == "Belote Club d’Angers / Amicale de Trélazé"


def test_the_public_file_has_no_licences(tournament: Tournament, client: Client) -> None:
    rows = lines(client, tournament)
    assert "Licences" not in rows[0]
    assert all("L-4242" not in value for row in rows for value in row.values())


def test_the_clubs_organisers_also_read_the_licences(tournament: Tournament, client: Client) -> None:
    organiser = UserFactory()
    tournament.club.organisers.add(organiser, through_defaults={"role": "organiser"})
    client.force_login(organiser)
    assert lines(client, tournament)[0]["Licences"] == "L-4242 / L-77"


def test_an_organiser_of_another_club_reads_no_licences(tournament: Tournament, client: Client) -> None:
    outsider = UserFactory()
    ClubFactory().organisers.add(outsider, through_defaults={"role": "organiser"})
    client.force_login(outsider)
    assert "Licences" not in lines(client, tournament)[0]


def test_a_player_named_like_a_formula_stays_text(tournament: Tournament, client: Client) -> None:
    assert lines(client, tournament)[1]["Joueurs"] == "'=HYPERLINK(1)"


def test_a_player_who_opted_out_stays_named_in_the_tournaments_file_without_anything_to_follow_them_by(
    tournament: Tournament, client: Client
) -> None:
    """Opting out hides the player's history page, not the night's results (docs/glossary.md)."""
    jeanne = tournament.competitors.get(number=1).players.get(first_name="Jeanne")
    jeanne.public_history = False
    jeanne.save()
    assert client.get(reverse("player_public", args=[jeanne.pk])).status_code == 404
    response = client.get(reverse("public:ranking_csv", kwargs={"slug": tournament.slug}))
    text = response.content.decode("utf-8")
    first = lines(client, tournament)[0]
    assert first["Joueurs"] == "Jeanne Bérard / Paul Durand"
    assert "/joueur/" not in text and "L-4242" not in text
    assert str(jeanne.pk) not in [value for row in lines(client, tournament) for value in row.values()]
