"""The organiser's season pages: a new season from the club's page, its edit page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Job
from seasons.models import Season, SeasonJob
from tests.factories import ClubFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client: Client):
    club = ClubFactory()
    user = UserFactory()
    club.organisers.add(user, through_defaults={"role": "organiser"})
    client.force_login(user)
    return club, user


def test_the_club_page_lists_its_seasons_and_offers_a_new_one(client: Client, director) -> None:
    club, _user = director
    Season.objects.create(club=club, name="Saison d’hiver", slug="hiver")
    page = client.get(reverse("manage:club", args=[club.pk]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Saisons" in page and "Saison d’hiver" in page
    assert reverse("season_manage:create", args=[club.pk]) in page
    assert reverse("season_manage:edit", kwargs={"slug": "hiver"}) in page


def test_a_director_creates_a_season_with_two_tournaments_and_its_rebuild_is_queued(client: Client, director) -> None:
    club, _user = director
    first, second = TournamentFactory(club=club), TournamentFactory(club=club)
    response = client.post(
        reverse("season_manage:create", args=[club.pk]),
        {
            "name": "Saison 2027",
            "starts": "2027-01-01",
            "ends": "2027-06-30",
            "scheme": "placing",
            "placing_points": "25, 20, 16",
            "tournaments": [first.pk, second.pk],
        },
    )
    season = Season.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("season_manage:edit", args=["saison-2027"])
    assert season.placing_points == [25, 20, 16] and str(season.ends) == "2027-06-30"
    assert set(season.tournaments.all()) == {first, second}
    assert Job.objects.get().season_link.season == season


def test_the_edit_page_shows_the_dates_as_iso_and_the_table_as_one_line(client: Client, director) -> None:
    club, _user = director
    client.post(
        reverse("season_manage:create", args=[club.pk]),
        {"name": "S", "starts": "2027-01-01", "scheme": "placing", "placing_points": "10, 6"},
    )
    page = client.get(reverse("season_manage:edit", args=["s"])).content.decode()
    assert 'value="2027-01-01"' in page and 'value="10, 6"' in page
    assert 'id="season-jobs"' in page and "hx-get" in page


def test_a_wrong_table_is_answered_in_french_beside_it_and_nothing_changes(client: Client, director) -> None:
    club, _user = director
    season = Season.objects.create(club=club, name="S", slug="s", placing_points=[10, 6])
    for table, message in (("10, vingt", "n’est pas un nombre entier"), ("6, 10", "au plus autant de points")):
        response = client.post(
            reverse("season_manage:edit", args=["s"]),
            {"name": "S", "scheme": "placing", "placing_points": table},
            HTTP_ACCEPT_LANGUAGE="fr",
        )
        assert response.status_code == 200
        assert message in response.content.decode()
    season.refresh_from_db()
    assert season.placing_points == [10, 6] and not Job.objects.exists()


def test_an_edit_ending_before_it_starts_is_refused_beside_the_end(client: Client, director) -> None:
    club, _user = director
    Season.objects.create(club=club, name="S", slug="s")
    response = client.post(
        reverse("season_manage:edit", args=["s"]),
        {"name": "S", "scheme": "points", "starts": "2027-05-01", "ends": "2027-04-01"},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert "La saison ne peut pas finir avant de commencer." in response.content.decode()
    assert Season.objects.get().scheme == "placing"


def test_a_tournament_of_another_club_cannot_be_ticked(client: Client, director) -> None:
    club, _user = director
    Season.objects.create(club=club, name="S", slug="s")
    stranger = TournamentFactory()
    response = client.post(
        reverse("season_manage:edit", args=["s"]), {"name": "S", "scheme": "placing", "tournaments": [stranger.pk]}
    )
    assert response.status_code == 200 and not Season.objects.get().tournaments.exists()


def test_an_organiser_of_another_club_gets_403_on_every_season_page(client: Client, director) -> None:
    club, _user = director
    Season.objects.create(club=club, name="S", slug="s")
    outsider = UserFactory()
    ClubFactory().organisers.add(outsider, through_defaults={"role": "admin"})
    client.force_login(outsider)
    assert client.get(reverse("season_manage:create", args=[club.pk])).status_code == 403
    assert client.post(reverse("season_manage:create", args=[club.pk]), {"name": "X"}).status_code == 403
    assert client.get(reverse("season_manage:edit", args=["s"])).status_code == 403
    assert client.post(reverse("season_manage:edit", args=["s"]), {"name": "X"}).status_code == 403
    assert client.get(reverse("season_manage:jobs", args=["s"])).status_code == 403
    assert Season.objects.get().name == "S"


def test_the_job_partial_shows_the_season_job_s_progress(client: Client, director) -> None:
    club, _user = director
    season = Season.objects.create(club=club, name="S", slug="s")
    job = Job.objects.create(kind="season", status="running", progress=1, total=2, heartbeat_at=timezone.now())
    SeasonJob.objects.create(job=job, season=season)
    page = client.get(reverse("season_manage:jobs", args=["s"]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "1 sur 2 tournois" in page and "every 1s" in page
