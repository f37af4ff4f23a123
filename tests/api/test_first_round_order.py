"""The order of round 1 through the API: chosen at creation, changed until round 1 is drawn,
and a round drawn by rating says so (`method: seeded`)."""

from __future__ import annotations

import pytest

from rounds.services import round_draw
from tests.api.conftest import API
from tests.tournaments.conftest import register_many
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NEW = {"club": "bc-rodez", "name": "Concours de Noël", "date": "2026-12-19", "game": "belote_classique"}


def test_the_order_of_round_1_is_random_unless_asked_and_fixed_once_drawn(api, organiser, anonymous) -> None:
    assert api.post(f"{API}/tournaments/", NEW, format="json").json()["first_round_order"] == "random"
    created = api.post(f"{API}/tournaments/", {**NEW, "first_round_order": "rating"}, format="json")
    assert created.status_code == 201 and created.json()["first_round_order"] == "rating"
    slug = created.json()["slug"]
    url = f"{API}/tournaments/{slug}/"
    bad = api.patch(url, {"first_round_order": "strongest"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "first_round_order"
    # Another change leaves it as it is.
    assert api.patch(url, {"rounds_planned": 5}, format="json").json()["first_round_order"] == "rating"
    tournament = Tournament.objects.get(slug=slug)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    register_many(tournament, organiser, 4)
    services.tournament_set_status(by=organiser, tournament=tournament, status="running")
    round_draw(by=organiser, tournament=tournament)
    frozen = api.patch(url, {"first_round_order": "random"}, format="json")
    assert frozen.status_code == 400 and frozen.json()["errors"][0]["field"] == "first_round_order"
    body = anonymous.get(url).json()
    assert body["first_round_order"] == "rating"
    assert [r["method"] for r in body["rounds"]] == ["seeded"]
