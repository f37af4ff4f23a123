"""Personas and builders for the API tests, made in one place.

- *organiser*: organises "Belote Club de Rodez" (`club`), calls the API with a DRF token.
- *outsider*: organises another club, with a token of their own.
- *anonymous*: no credentials at all.
- *referee*: holds one table's secret (`X-Table-Token`), no account.
- `played(...)`: a running tournament with round 1 drawn (through the services), and
  `play_table(...)` to enter a whole partie at one table through the API.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts.services import api_token_create
from rounds.services import round_draw
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.tables import SOUND_HANDS
from tournaments import services
from tournaments.models import Club, Round, Table, Tournament

API = "/api/v1"


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    # The wrong-token limiter counts in the cache: each test starts with a clean slate.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def club(db: None) -> Club:
    return ClubFactory(name="Belote Club de Rodez", slug="bc-rodez")


@pytest.fixture
def other_club(db: None) -> Club:
    return ClubFactory(name="Tarot Club d'Albi", slug="tc-albi")


@pytest.fixture
def organiser(club: Club) -> Any:
    user = UserFactory(username="directrice")
    club.organisers.add(user)
    return user


@pytest.fixture
def outsider(other_club: Club) -> Any:
    user = UserFactory(username="voisin")
    other_club.organisers.add(user)
    return user


def token_client(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(by=user, name='tests').key}")
    return client


@pytest.fixture
def api(organiser: Any) -> APIClient:
    """The organiser's client, authenticated by an API token."""
    return token_client(organiser)


@pytest.fixture
def outsider_api(outsider: Any) -> APIClient:
    return token_client(outsider)


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


def referee(table: Table) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_TABLE_TOKEN=table.token)
    return client


def new_tournament(club: Club, by: Any, **values: Any) -> Tournament:
    defaults = {"name": "Concours du samedi", "date": datetime.date(2026, 12, 5), "game": "belote_classique"}
    return services.tournament_create(by=by, club=club, **{**defaults, **values})


@pytest.fixture
def played(club: Club, organiser: Any) -> Callable[..., tuple[Tournament, Round]]:
    """A running tournament of `count` checked-in competitors with round 1 drawn."""

    def build(count: int = 4, **values: Any) -> tuple[Tournament, Round]:
        values.setdefault("end_value", 2)
        tournament = new_tournament(club, organiser, **values)
        services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
        size = 2 if tournament.format == Tournament.Format.TEAMS else 1
        for _ in range(count):
            players = PlayerFactory.create_batch(size, club=club)
            services.competitor_register(by=organiser, tournament=tournament, players=players, checked_in=True)
        services.tournament_set_status(by=organiser, tournament=tournament, status="running")
        rnd = round_draw(by=organiser, tournament=tournament, seed=7)
        tournament.refresh_from_db()
        return tournament, rnd

    return build


def sound_hand(game: str = "belote_classique") -> dict[str, Any]:
    return dict(SOUND_HANDS[game][0])


def enter(table: Table, raw: Any, key: str | None = None, **body: Any) -> Any:
    """Enter one donne at `table` through the API, as a scoring app would."""
    headers = {"HTTP_IDEMPOTENCY_KEY": key or uuid.uuid4().hex}
    return referee(table).post(f"{API}/table/hands/", {"raw": raw, **body}, format="json", **headers)


def play_table(table: Table, donnes: int, game: str = "belote_classique") -> None:
    for number in range(1, donnes + 1):
        response = enter(table, sound_hand(game), expected_number=number)
        assert response.status_code == 201, response.json()
