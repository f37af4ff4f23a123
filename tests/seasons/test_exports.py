"""A season's ranking as CSV and PDF, public like its page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.exports import team_players
from seasons import ranking
from tests.factories import ClubFactory, UserFactory
from tests.seasons.test_ranking import club_season  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db


def test_the_season_csv_has_rank_player_club_points_and_tournaments_played(club_season, client: Client) -> None:  # noqa: F811
    season, players = club_season
    players["A"].affiliation = "=Belote Club"
    players["A"].save()
    ranking.season_snapshot_write(season=season)
    response = client.get(reverse("season:csv", kwargs={"slug": season.slug}), HTTP_ACCEPT_LANGUAGE="fr")
    lines = response.content.decode().lstrip("\ufeff").splitlines()
    assert response["Content-Type"].startswith("text/csv")
    assert lines[0] == "Rang;Joueur;Club;Points;Tournois joués"
    # Ann: 1st then 2nd (10 + 6) in two tournaments; her affiliation stays text, not a formula.
    assert lines[1] == "1;A X;'=Belote Club;16;2"
    assert lines[2].endswith(f";{season.club.name};12;2")


def test_the_season_pdf_is_a_pdf_and_an_empty_season_has_one_too(club_season, client: Client) -> None:  # noqa: F811
    season, _players = club_season
    url = reverse("season:pdf", kwargs={"slug": season.slug})
    empty = client.get(url)
    assert empty.status_code == 200 and empty.content.startswith(b"%PDF")
    ranking.season_snapshot_write(season=season)
    full = client.get(url)
    assert full["Content-Type"] == "application/pdf" and len(full.content) > len(empty.content)


def test_the_public_season_page_links_its_exports_and_its_tournaments(club_season, client: Client) -> None:  # noqa: F811
    season, _players = club_season
    season.tournaments.update(is_public=True)
    page = client.get(reverse("season:ranking", kwargs={"slug": season.slug})).content.decode()
    assert reverse("season:csv", kwargs={"slug": season.slug}) in page
    assert reverse("season:pdf", kwargs={"slug": season.slug}) in page
    for tournament in season.tournaments.all():
        assert reverse("public:ranking", kwargs={"slug": tournament.slug}) in page


def test_the_season_csv_gives_licences_to_the_clubs_organisers_only(club_season, client: Client) -> None:  # noqa: F811
    season, players = club_season
    players["A"].licence = "=cmd|' /C calc'!A0"
    players["A"].save()
    ranking.season_snapshot_write(season=season)
    url = reverse("season:csv", kwargs={"slug": season.slug})
    stranger = UserFactory()
    ClubFactory().organisers.add(stranger)
    for who in (None, stranger):
        if who is not None:
            client.force_login(who)
        text = client.get(url).content.decode()
        assert "Licence" not in text and "calc" not in text and players["B"].licence not in text
    organiser = UserFactory()
    season.club.organisers.add(organiser)
    client.force_login(organiser)
    lines = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode().lstrip("\ufeff").splitlines()
    assert lines[0] == "Rang;Joueur;Club;Licence;Points;Tournois joués"
    # Through the tournament CSV's formula guard: a licence that looks like a formula stays text.
    assert lines[1] == f"1;A X;{season.club.name};'=cmd|' /C calc'!A0;16;2"
    by_name = {line.split(";")[1]: line for line in lines[1:]}
    assert by_name["B X"].split(";")[3] == players["B"].licence


def test_the_season_csv_names_each_players_club_as_the_tournament_csv_does(club_season, client: Client) -> None:  # noqa: F811
    season, players = club_season
    # Bob plays for another club than the one that holds him: his affiliation is his club,
    # in the season's file as in each tournament's (scoring/exports.py team_players).
    players["B"].affiliation = "Amicale de Millau"
    players["B"].save()
    ranking.season_snapshot_write(season=season)
    text = client.get(reverse("season:csv", kwargs={"slug": season.slug})).content.decode()
    by_name = {line.split(";")[1]: line.split(";")[2] for line in text.lstrip("\ufeff").splitlines()[1:]}
    tournament = season.tournaments.order_by("date", "pk").first()
    clubs = {p.name: p.club for team in team_players(tournament).values() for p in team}
    assert by_name["B X"] == clubs["B X"] == "Amicale de Millau"
    assert by_name["A X"] == clubs["A X"] == season.club.name


def test_players_who_keep_their_results_private_and_private_tournaments_stay_off_the_public_season(
    club_season,  # noqa: F811
    client: Client,
) -> None:
    season, players = club_season
    players["B"].public_history = False
    players["B"].save()
    first, second = season.tournaments.order_by("date", "pk")
    first.name, second.name = "Concours de la Saint-Jean", "Concours des membres"
    first.is_public, second.is_public = True, False
    first.save()
    second.save()
    ranking.season_snapshot_write(season=season)
    slug = {"slug": season.slug}
    page = client.get(reverse("season:ranking", kwargs=slug), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    csv_text = client.get(reverse("season:csv", kwargs=slug), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    for text in (page, csv_text):
        # Bob keeps his rank and points, not his name; Ann is named as ever.
        assert "B X" not in text and "A X" in text and "Joueur non affiché" in text
    assert "Concours de la Saint-Jean" in page and "Concours des membres" not in page
    lines = csv_text.lstrip("\ufeff").splitlines()
    hidden = next(line for line in lines if "Joueur non affiché" in line).split(";")
    assert hidden[2:] == ["", "10", "1"]  # no club either: it could name him
    # The club's organisers see everyone and every tournament.
    organiser = UserFactory()
    season.club.organisers.add(organiser)
    client.force_login(organiser)
    page = client.get(reverse("season:ranking", kwargs=slug)).content.decode()
    assert "B X" in page and "Concours des membres" in page
    assert "B X" in client.get(reverse("season:csv", kwargs=slug)).content.decode()
