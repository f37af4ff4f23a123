"""Builders for the results files' tests: a club's played tournament, a league's season.

Personas: the *director* organises the club that played the tournament; the *league
manager* organises the league (a club of the site) whose season imports the files; an
*outsider* is logged in but organises neither.
"""

from __future__ import annotations

import copy
import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from results.building import results_dumps, results_file
from scoring.standings import standings_rebuild
from seasons.models import Season
from tests.factories import ClubFactory, TournamentFactory, UserFactory, competitors_for, round_with_tables
from tournaments.models import Club, Round, Tournament


def played_tournament(club: Club, *, rounds: int = 2, teams: int = 4, donnes: int = 3) -> Tournament:
    """A finished belote concours of `club`: `teams` teams, `rounds` rounds, every table
    played to the end with random valid donnes through the referee's service."""
    tournament = TournamentFactory(club=club, end_value=donnes, status="running", rounds_planned=rounds)
    competitors = competitors_for(tournament, teams)
    for number in range(1, rounds + 1):
        # Round 2 seats them in another order, so that the ranking mixes the tables.
        order = competitors if number % 2 else competitors[::2] + competitors[1::2]
        rnd = round_with_tables(tournament, order, number)
        call_command("simulate_round", tournament.slug, "--round", str(number), stdout=StringIO())
        Round.objects.filter(pk=rnd.pk).update(status="closed")
    standings_rebuild(tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(status="finished")
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def club() -> Club:
    return ClubFactory(name="Belote Club de Vannes", slug="bc-vannes")


@pytest.fixture
def tournament(club: Club) -> Tournament:
    return played_tournament(club)


@pytest.fixture
def director(club: Club) -> Any:
    user = UserFactory()
    club.organisers.add(user)
    return user


@pytest.fixture
def league() -> Club:
    return ClubFactory(name="Ligue de Bretagne", slug="ligue-bretagne")


@pytest.fixture
def league_manager(league: Club) -> Any:
    user = UserFactory()
    league.organisers.add(user)
    return user


@pytest.fixture
def season(league: Club) -> Season:
    return Season.objects.create(club=league, name="Saison 2026", slug="saison-2026", placing_points=[10, 6, 4, 2])


@pytest.fixture
def outsider() -> Any:
    user = UserFactory()
    ClubFactory().organisers.add(user)
    return user


@pytest.fixture
def results(tournament: Tournament) -> dict[str, Any]:
    """The tournament's results file, as its club downloads it."""
    return results_file(tournament=tournament)


def edited(data: dict[str, Any], change: Any) -> str:
    """The file's text after `change(copy)` edited a copy of it by hand."""
    copied = copy.deepcopy(data)
    change(copied)
    return results_dumps(copied)


def text(data: dict[str, Any]) -> str:
    return json.dumps(data)
