"""The results files on the site and through the API: the club's organisers download
them, nobody else; a league's organisers import them on the season's page or by the API."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from results.building import results_dumps
from results.checking import schema
from results.models import ResultsImport
from seasons.models import Season
from tests.results.conftest import edited
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def logged(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api(user: Any | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def upload(data: dict[str, Any] | str, name: str = "resultats.json") -> SimpleUploadedFile:
    body = data if isinstance(data, str) else results_dumps(data)
    return SimpleUploadedFile(name, body.encode(), content_type="application/json")


# -- downloads ----------------------------------------------------------------------------------


def test_the_director_downloads_the_file_and_its_csv_from_the_tournaments_page(
    tournament: Tournament, director: Any
) -> None:
    client = logged(director)
    dashboard = client.get(reverse("manage:dashboard", args=[tournament.pk])).content.decode()
    assert reverse("results:json", kwargs={"slug": tournament.slug}) in dashboard
    answer = client.get(reverse("results:json", kwargs={"slug": tournament.slug}))
    assert answer.status_code == 200 and answer["Cache-Control"] == "private, no-store"
    data = json.loads(answer.content)
    assert data["format"] == "atout-results" and data["competitors"][0]["players"][0]["licence"]
    csv = client.get(reverse("results:csv", kwargs={"slug": tournament.slug}))
    assert csv.status_code == 200 and data["competitors"][0]["players"][0]["licence"] in csv.content.decode()


def test_the_public_and_other_clubs_never_get_the_licences(tournament: Tournament, outsider: Any) -> None:
    for name in ("results:json", "results:csv"):
        url = reverse(name, kwargs={"slug": tournament.slug})
        assert Client().get(url).status_code == 302  # to the login page
        assert logged(outsider).get(url).status_code == 403
    for url in (
        f"/api/v1/tournaments/{tournament.slug}/results/",
        f"/api/v1/tournaments/{tournament.slug}/results/csv/",
    ):
        assert api().get(url).status_code == 401
        assert api(outsider).get(url).status_code == 403


def test_the_api_gives_the_club_its_file_and_csv(tournament: Tournament, director: Any) -> None:
    answer = api(director).get(f"/api/v1/tournaments/{tournament.slug}/results/")
    assert answer.status_code == 200 and answer.json()["tournament"]["slug"] == tournament.slug
    again = api(director).get(f"/api/v1/tournaments/{tournament.slug}/results/", HTTP_IF_NONE_MATCH=answer["ETag"])
    assert again.status_code == 304 and answer["Cache-Control"] == "private, no-cache"
    csv = api(director).get(f"/api/v1/tournaments/{tournament.slug}/results/csv/")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")


def test_the_schema_is_served_at_the_address_every_file_names(results: dict[str, Any]) -> None:
    answer = Client().get(results["schema"])
    assert answer.status_code == 200 and answer["Content-Type"] == "application/schema+json"
    assert json.loads(answer.content) == schema()
    assert Client().get("/results/schema/atout-results-2.json").status_code == 404


# -- the season's import page ---------------------------------------------------------------------


def test_a_league_manager_imports_a_file_on_the_seasons_page(
    results: dict[str, Any], season: Season, league_manager: Any
) -> None:
    client = logged(league_manager)
    url = reverse("results:season_import", kwargs={"slug": season.slug})
    assert url in client.get(reverse("season_manage:edit", kwargs={"slug": season.slug})).content.decode()
    answer = client.post(url, {"file": upload(results)}, follow=True)
    page = answer.content.decode()
    assert answer.status_code == 200 and "est importé dans la saison" in page
    assert results["tournament"]["name"] in page and season.tournaments.count() == 1


def test_a_refused_file_shows_each_problem_with_its_place_and_keeps_nothing(
    results: dict[str, Any], season: Season, league_manager: Any
) -> None:
    def cheat(data: dict[str, Any]) -> None:
        data["tables"][0]["hands"][1]["scores"] = [1, 2]

    url = reverse("results:season_import", kwargs={"slug": season.slug})
    answer = logged(league_manager).post(url, {"file": upload(edited(results, cheat))})
    page = answer.content.decode()
    assert answer.status_code == 400
    assert "Le fichier est refusé : 1 problème," in page
    assert "<code>/tables/0/hands/1/scores</code>" in page and "pas 1, 2" in page
    assert not ResultsImport.objects.exists() and season.tournaments.count() == 0


def test_the_page_says_no_file_and_broken_json_beside_the_field(season: Season, league_manager: Any) -> None:
    url = reverse("results:season_import", kwargs={"slug": season.slug})
    client = logged(league_manager)
    assert "Ce champ est obligatoire." in client.post(url, {}).content.decode()
    page = client.post(url, {"file": upload("{oops")}).content.decode()
    assert "pas du JSON valide : ligne 1, colonne 2" in page


def test_only_the_seasons_organisers_open_its_import_page(season: Season, director: Any) -> None:
    url = reverse("results:season_import", kwargs={"slug": season.slug})
    assert Client().get(url).status_code == 302
    assert logged(director).get(url).status_code == 403


# -- the API's import ---------------------------------------------------------------------------------


def test_the_api_imports_a_file_once(results: dict[str, Any], season: Season, league_manager: Any) -> None:
    url = f"/api/v1/seasons/{season.slug}/results/"
    body = results_dumps(results)
    first = api(league_manager).post(url, body, content_type="application/json")
    assert first.status_code == 201 and first.json()["done"] == "created"
    again = api(league_manager).post(url, body, content_type="application/json")
    assert again.status_code == 200 and again.json() == {**first.json(), "done": "unchanged"}
    assert Tournament.objects.filter(club=season.club).count() == 1


def test_the_api_refuses_a_file_with_each_place(results: dict[str, Any], season: Season, league_manager: Any) -> None:
    def twice(data: dict[str, Any]) -> None:
        data["competitors"].append(dict(data["competitors"][2]))

    answer = api(league_manager).post(
        f"/api/v1/seasons/{season.slug}/results/", edited(results, twice), content_type="application/json"
    )
    assert answer.status_code == 400
    errors = {error["pointer"]: error for error in answer.json()["errors"]}
    assert errors["/competitors/4/number"]["field"] == "competitors.4.number"
    assert errors["/competitors/4/number"]["code"] == "results_refused"
    broken = api(league_manager).post(f"/api/v1/seasons/{season.slug}/results/", "{", content_type="application/json")
    assert broken.status_code == 400 and "ligne 1" in broken.json()["errors"][0]["message"]


def test_the_api_import_is_the_seasons_organisers(results: dict[str, Any], season: Season, director: Any) -> None:
    url = f"/api/v1/seasons/{season.slug}/results/"
    assert api().post(url, results, format="json").status_code == 401
    assert api(director).post(url, results, format="json").status_code == 403
