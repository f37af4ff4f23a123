"""A whole concours driven through the API alone: created, filled, started, four rounds
drawn and played table by table from each table's scoring app, closed, finished, ranked."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import API
from tests.scoring.tables import SOUND_HANDS

pytestmark = pytest.mark.django_db(transaction=True)

TEAMS = [("Vidal", "Rose"), ("Marty", "Paul"), ("Costes", "Anne"), ("Bonnal", "Luc"), ("Fabre", "Inès"),
         ("Roques", "Jean"), ("Calmels", "Léa"), ("Alric", "Marc"), ("Bru", "Élise"), ("Soulié", "Hugo")]  # fmt: skip
# Each side wins a donne in turn, so that the parties are not all won by side A.
HANDS = [
    SOUND_HANDS["belote_classique"][0],
    {"taker": "B", "contract": "spades", "points": {"A": 40, "B": 122}},
]


def ok(response, status: int = 200):
    assert response.status_code == status, response.json()
    return response.json()


def scoring_app(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_TABLE_TOKEN=token)
    return client


def play_round(api: APIClient, url: str, number: int) -> int:
    """Every table of round `number` plays its partie from its own app; returns the tables."""
    secrets = ok(api.get(f"{url}/rounds/{number}/secrets/"))
    for secret in secrets:
        app = scoring_app(secret["token"])
        sheet = ok(app.get(f"{API}/table/"))
        while not sheet["finished"]:
            donne = sheet["next_number"]
            raw = HANDS[(donne + secret["table"]) % 2]
            entry = {"raw": raw, "expected_number": donne}
            ok(app.post(f"{API}/table/hands/", entry, format="json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex), 201)
            sheet = ok(app.get(f"{API}/table/"))
    return len(secrets)


def test_a_concours_from_creation_to_final_standings_through_the_api_alone(api, anonymous) -> None:
    created = ok(
        api.post(
            f"{API}/tournaments/",
            {"club": "bc-rodez", "name": "Concours du printemps", "date": "2026-04-18", "game": "belote_classique",
             "rounds_planned": 3, "end_value": 2, "bye_policy": "fixed", "bye_points": 100},
            format="json",
        ),
        201,
    )  # fmt: skip
    url = f"{API}/tournaments/{created['slug']}"
    ok(api.post(f"{url}/status/", {"status": "registration"}, format="json"))
    for index in range(0, 10, 2):
        players = [{"last_name": last, "first_name": first} for last, first in TEAMS[index : index + 2]]
        competitor = ok(api.post(f"{url}/competitors/", {"players": players}, format="json"), 201)
        ok(api.post(f"{url}/competitors/{competitor['number']}/check-in/", {"present": True}, format="json"))
    assert ok(api.post(f"{url}/status/", {"status": "running"}, format="json"))["status"] == "running"

    tables_played = 0
    for number in (1, 2, 3):
        drawn = ok(api.post(f"{url}/rounds/", {}, format="json"), 201)
        assert drawn["number"] == number and len(drawn["tables"]) == 2 and len(drawn["byes"]) == 1
        tables_played += play_round(api, url, number)
        results = ok(anonymous.get(f"{url}/rounds/{number}/"))["tables"]
        assert all(table["result"]["finished"] for table in results)
        assert ok(api.post(f"{url}/rounds/{number}/close/", {}, format="json"))["status"] == "closed"
    refused = api.post(f"{url}/rounds/", {}, format="json")
    assert refused.status_code == 409
    assert ok(api.post(f"{url}/status/", {"status": "finished"}, format="json"))["status"] == "finished"

    final = ok(anonymous.get(f"{url}/standings/"))
    rows = final["rows"]
    assert final["after_round"] == 3 and len(rows) == 5
    assert [row["rank"] for row in rows] == sorted(row["rank"] for row in rows) and rows[0]["rank"] == 1
    # Each partie has one winner (the scores of these donnes never tie), each of the three
    # byes is a won partie (fixed policy), and every team is in every round, seated or out.
    assert sum(row["wins"] for row in rows) == tables_played + 3
    assert sum(row["played"] for row in rows) == 2 * tables_played
    assert sum(row["byes"] for row in rows) == 3
    assert all(row["played"] + row["byes"] == 3 for row in rows)
    byes_points = [row["points"] for row in rows if row["byes"]]
    assert byes_points and all(points >= 100 for points in byes_points)
    for number in (1, 2, 3):
        assert ok(anonymous.get(f"{url}/standings/after/{number}/"))["after_round"] == number
    detail = ok(anonymous.get(f"{url}/"))
    assert detail["status"] == "finished" and [r["status"] for r in detail["rounds"]] == ["closed"] * 3
