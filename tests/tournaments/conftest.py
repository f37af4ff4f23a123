"""Personas and builders for the tournament tests, made in one place.

- *organiser*: a user who organises the club "Belote Club de Rodez" (`club`).
- *outsider*: a user who organises another club, and nothing of Rodez.
- `running(...)`: a tournament of the club, created, filled and started through the
  services, as a director would on the night.
- `tournament_in(state, ...)`: a tournament brought to one of `STATES` the same way.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.test import Client

from rounds.services import round_close, round_draw
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Club, Competitor, Tournament
from tournaments.services.common import table_size


@pytest.fixture
def club(db: None) -> Club:
    return ClubFactory(name="Belote Club de Rodez", slug="bc-rodez")


@pytest.fixture
def other_club(db: None) -> Club:
    return ClubFactory(name="Tarot Club d'Albi", slug="tc-albi")


@pytest.fixture
def organiser(club: Club):
    user = UserFactory(username="directrice")
    club.organisers.add(user)
    return user


@pytest.fixture
def outsider(other_club: Club):
    user = UserFactory(username="voisin")
    other_club.organisers.add(user)
    return user


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def organiser_client(organiser) -> Client:
    return client_for(organiser)


@pytest.fixture
def outsider_client(outsider) -> Client:
    return client_for(outsider)


def new_tournament(club: Club, by, **values) -> Tournament:
    defaults = {"name": "Concours du samedi", "date": datetime.date(2026, 12, 5), "game": "belote_classique"}
    return services.tournament_create(by=by, club=club, **{**defaults, **values})


def register_many(
    tournament: Tournament, by, count: int, *, checked_in: bool = True, affiliations=None
) -> list[Competitor]:
    """`count` competitors of fresh club players, checked in by default."""
    size = 2 if tournament.format == Tournament.Format.TEAMS else 1
    competitors = []
    for index in range(count):
        affiliation = affiliations[index] if affiliations else ""
        players = PlayerFactory.create_batch(size, club=tournament.club, affiliation=affiliation)
        competitors.append(
            services.competitor_register(by=by, tournament=tournament, players=players, checked_in=checked_in)
        )
    return competitors


@pytest.fixture
def running(club: Club, organiser) -> Callable[..., tuple[Tournament, list[Competitor]]]:
    """Build a running tournament of `count` checked-in competitors (no round drawn)."""

    def build(count: int, **values) -> tuple[Tournament, list[Competitor]]:
        affiliations = values.pop("affiliations", None)
        tournament = new_tournament(club, organiser, **values)
        services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
        competitors = register_many(tournament, organiser, count, affiliations=affiliations)
        services.tournament_set_status(by=organiser, tournament=tournament, status="running")
        tournament.refresh_from_db()
        return tournament, competitors

    return build


# Every status, and the running tournament both before and after its first draw.
STATES = ["draft", "registration", "running", "running-drawn", "finished"]


def tournament_in(state: str, club, organiser, game: str = "belote_classique", **values) -> Tournament:
    """A tournament of `game` brought to `state` through the services, as on the night."""
    tournament = new_tournament(club, organiser, game=game, **values)
    if state == "draft":
        return tournament
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    register_many(tournament, organiser, 2 * table_size(tournament), checked_in=state != "registration")
    if state != "registration":
        services.tournament_set_status(by=organiser, tournament=tournament, status="running")
    if state in ("running-drawn", "finished"):
        rnd = round_draw(by=organiser, tournament=tournament)
        if state == "finished":
            round_close(by=organiser, round=rnd, force=True)
            services.tournament_set_status(by=organiser, tournament=tournament, status="finished")
    tournament.refresh_from_db()
    return tournament
