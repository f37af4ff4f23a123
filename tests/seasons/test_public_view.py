"""What a public reader sees of a season, the same on its page, its CSV, its PDF and the API.

A player who keeps their results off public pages keeps their rank and points in the
season, unnamed, with nothing that leads to them (id, club, tournaments); a private
tournament of the season is named nowhere, nor is anyone's rank or points in it. The
club's organisers see everything, on the page as through the API with their token.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from seasons import exports, ranking, selectors
from tests.api.conftest import token_client
from tests.factories import ClubFactory, UserFactory
from tests.seasons.test_ranking import club_season  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db
API = "/api/v1/seasons"


@pytest.fixture
def season_with_secrets(club_season):  # noqa: F811
    """The season of test_ranking's club: Bob keeps his results private, and the second
    tournament (Ann & Cat's second place, Eve & Fay's win) is a private one."""
    season, players = club_season
    players["B"].public_history = False
    players["B"].save()
    first, second = season.tournaments.order_by("pk")
    first.name, first.slug, first.is_public = "Concours de la Saint-Jean", "saint-jean", True
    second.name, second.slug, second.is_public = "Concours des membres", "entre-membres", False
    first.save()
    second.save()
    ranking.season_snapshot_write(season=season)
    return season, players, first, second


def page_names(html: str) -> list[str]:
    """The players' names in the ranking table of the season's page, in order."""
    table = html[html.index("<tbody>") : html.index("</tbody>")]
    return [cells[1] for cells in (re.findall(r"<td[^>]*>(.*?)</td>", row) for row in table.split("</tr>")) if cells]


def test_the_api_names_no_hidden_player_and_no_private_tournament_to_the_public(season_with_secrets) -> None:
    season, players, first, second = season_with_secrets
    response = APIClient().get(f"{API}/{season.slug}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    body = response.json()
    text = json.dumps(body, ensure_ascii=False)
    for secret in ("B X", second.name, second.slug):
        assert secret not in text
    assert players["B"].pk not in [row["player"] for row in body["rows"]]
    assert body["tournaments"] == [first.slug]
    rows = {row["name"]: row for row in body["rows"]}
    # Bob keeps his place and his points (1st of the public tournament: 10), unnamed.
    assert {key: rows["Joueur non affiché"][key] for key in ("player", "rank", "points", "played", "results")} == {
        "player": None,
        "rank": 3,
        "points": 10,
        "played": 1,
        "results": [],
    }
    # Ann's season counts both tournaments; only the public one is told.
    assert (rows["A X"]["points"], rows["A X"]["played"]) == (16, 2)
    assert rows["A X"]["results"] == [{"tournament": "saint-jean", "name": first.name, "rank": 1, "points": 10}]
    # Eve played only the private one: her season stands, its tournament unnamed.
    assert (rows["E X"]["points"], rows["E X"]["results"]) == (10, [])


def test_the_page_the_csv_the_pdf_and_the_api_show_the_public_the_same_season(
    season_with_secrets, client: Client
) -> None:
    season, _players, first, second = season_with_secrets
    slug = {"slug": season.slug}
    page = client.get(reverse("season:ranking", kwargs=slug), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    csv_lines = client.get(reverse("season:csv", kwargs=slug), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    api = APIClient().get(f"{API}/{season.slug}/", HTTP_ACCEPT_LANGUAGE="fr").json()
    from_api = [(row["rank"], row["name"], row["points"]) for row in api["rows"]]
    from_csv = [
        (int(rank), name, int(points))
        for rank, name, _club, points, _played in (
            line.split(";") for line in csv_lines.lstrip("\ufeff").splitlines()[1:]
        )
    ]
    assert from_csv == from_api
    assert page_names(page) == [name for _rank, name, _points in from_api]
    assert "Joueur non affiché" in page_names(page) and "B X" not in page
    assert first.name in page and second.name not in page
    # Uncompressed, the PDF's text can be read.
    pdf = exports.season_pdf(selectors.season_seen(season.slug, None), compress=False)
    assert b"A X" in pdf and b"B X" not in pdf
    assert client.get(reverse("season:pdf", kwargs=slug)).status_code == 200


def test_the_clubs_organisers_see_every_player_and_tournament_on_the_page_and_through_the_api(
    season_with_secrets, client: Client
) -> None:
    season, players, first, second = season_with_secrets
    organiser = UserFactory()
    season.club.organisers.add(organiser)
    body = token_client(organiser).get(f"{API}/{season.slug}/").json()
    assert body["tournaments"] == [first.slug, second.slug]
    rows = {row["name"]: row for row in body["rows"]}
    assert rows["B X"]["player"] == players["B"].pk and "Joueur non affiché" not in rows
    assert [result["tournament"] for result in rows["A X"]["results"]] == ["entre-membres", "saint-jean"]
    client.force_login(organiser)
    page = client.get(reverse("season:ranking", kwargs={"slug": season.slug})).content.decode()
    assert "B X" in page and second.name in page
    # An organiser of another club reads what the public reads.
    stranger = UserFactory()
    ClubFactory().organisers.add(stranger)
    body = token_client(stranger).get(f"{API}/{season.slug}/").json()
    assert "B X" not in json.dumps(body) and second.slug not in json.dumps(body)
