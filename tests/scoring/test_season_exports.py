"""A season's ranking as CSV and PDF, public like its page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring import seasons
from tests.scoring.test_standings_season import club_season  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db


def test_the_season_csv_has_rank_player_club_points_and_tournaments_played(club_season, client: Client) -> None:  # noqa: F811
    season, players = club_season
    players["A"].affiliation = "=Belote Club"
    players["A"].save()
    seasons.season_snapshot_write(season=season)
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
    seasons.season_snapshot_write(season=season)
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
