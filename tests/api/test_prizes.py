"""The entry fee and the lots through the API: readable by anyone on the tournament's
detail, the fee set by its organiser on creation and change."""

from __future__ import annotations

import pytest

from tests.api.conftest import API, new_tournament
from tournaments import services

pytestmark = pytest.mark.django_db


def test_the_tournament_detail_shows_the_fee_and_the_lots_in_rank_order(club, organiser, anonymous) -> None:
    tournament = new_tournament(club, organiser, entry_fee="8")
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    services.prize_add(by=organiser, tournament=tournament, rank_from=2, rank_to=4, text="Une bouteille")
    services.prize_add(by=organiser, tournament=tournament, rank_from=1, text="Un jambon", value="60")
    body = anonymous.get(f"{API}/tournaments/{tournament.slug}/").json()
    assert body["entry_fee"] == "8.00"
    assert body["prizes"] == [
        {"rank_from": 1, "rank_to": 1, "text": "Un jambon", "value": "60.00"},
        {"rank_from": 2, "rank_to": 4, "text": "Une bouteille", "value": None},
    ]


def test_a_lot_added_changes_the_details_etag(club, organiser, anonymous) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    url = f"{API}/tournaments/{tournament.slug}/"
    etag = anonymous.get(url)["ETag"]
    assert anonymous.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    services.prize_add(by=organiser, tournament=tournament, rank_from=1, text="Un jambon")
    assert anonymous.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_the_organiser_sets_the_fee_and_a_negative_one_is_refused(api) -> None:
    new = {"club": "bc-rodez", "name": "Concours", "date": "2026-12-19", "game": "belote_classique"}
    created = api.post(f"{API}/tournaments/", {**new, "entry_fee": "7.50"}, format="json")
    assert created.status_code == 201 and created.json()["entry_fee"] == "7.50"
    url = f"{API}/tournaments/{created.json()['slug']}/"
    assert api.patch(url, {"entry_fee": "10"}, format="json").json()["entry_fee"] == "10.00"
    refused = api.patch(url, {"entry_fee": "-1"}, format="json")
    assert refused.status_code == 400
    assert api.get(url).json()["entry_fee"] == "10.00"
