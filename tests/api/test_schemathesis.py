"""schemathesis against the API's own OpenAPI schema: no 500, no answer that breaks it.

Every operation of the schema is fuzzed through the WSGI application in-process, on the
test database, with a bounded number of examples (hypothesis), valid requests and
invalid ones. Each answer is checked: never a server error, a status the schema
documents, the content type and headers it documents, a body that matches its schema.

So that the fuzzing reaches real objects and not only 404s, the schema's path
parameters are narrowed (in the copy fuzzed here, never in the served schema) to the
keys of a small world built for each operation: a running tournament `fuzz` with a
drawn round and donnes entered, a season `fuzz`, plus keys that name nothing. Requests
carry the organiser's API token and table 1's secret, or no credentials at all.
"""

from __future__ import annotations

import copy
import datetime
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.services import api_token_create
from atout.wsgi import application
from rounds.services import round_draw
from scoring.models import StandingsSnapshot
from seasons.models import Season, SeasonSnapshot
from tests.api.conftest import enter, sound_hand
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tiers import examples as scaled
from tournaments import services

# Schemathesis explores the schema with Hypothesis: the property tier (tests/tiers.py).
pytestmark = [pytest.mark.django_db, pytest.mark.property]

# Examples per operation and mode: 29 operations x (15 + 10) x 2 credentials, 1,450
# requests (10 + 5 before: 870); 43 operations since the club's seasons, players and
# payments, 2,150 requests. Measured on a 2-core machine shared with other work
# (load ~11): 344 s with 10 + 5, 732 s with 15 + 10; the earlier figure alone was about
# a minute and a half.
POSITIVE_EXAMPLES = 15
NEGATIVE_EXAMPLES = 10
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
PATH_VALUES: dict[str, list[Any]] = {
    "slug": ["fuzz", "nothing-here"],
    "club": ["fuzz-club", "nothing-here"],
    "number": [1, 2, 99],
    "table": [1, 2, 9],
    "donne": [1, 2, 9],
}


def _fuzzed_schema() -> dict[str, Any]:
    """The served schema, with each path parameter narrowed to the world's keys."""
    served = SchemaGenerator().get_schema(request=None, public=True)
    narrowed = copy.deepcopy(served)
    for operations in narrowed["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path" and parameter["name"] in PATH_VALUES:
                    parameter["schema"] = {**parameter["schema"], "enum": PATH_VALUES[parameter["name"]]}
    return narrowed


SCHEMA = schemathesis.openapi.from_dict(_fuzzed_schema())
OPERATIONS = sorted(
    (result.ok().method.upper(), result.ok().path) for result in SCHEMA.get_all_operations()
)  # fmt: skip


@pytest.fixture
def in_process(world: dict[str, str]) -> Iterator[dict[str, str]]:
    """Call the WSGI application as Django's test client does: on the test's connection.

    A real request closes the database connection when it ends (close_old_connections);
    here that connection holds the test's transaction, so the signal stays off meanwhile.
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield world
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def world(db: None) -> dict[str, str]:
    """A tournament, a season and credentials for the fuzzer to find; returns the headers."""
    cache.clear()
    club = ClubFactory(slug="fuzz-club")
    organiser = UserFactory(username="fuzz-director")
    club.organisers.add(organiser)
    tournament = services.tournament_create(
        by=organiser, club=club, name="Fuzz", date=datetime.date(2026, 5, 2), game="belote_classique", end_value=3
    )
    tournament.slug = "fuzz"
    tournament.save(update_fields=["slug"])
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    for _ in range(5):
        players = PlayerFactory.create_batch(2, club=club)
        services.competitor_register(by=organiser, tournament=tournament, players=players, checked_in=True)
    services.tournament_set_status(by=organiser, tournament=tournament, status="running")
    rnd = round_draw(by=organiser, tournament=tournament, seed=3)
    table = rnd.tables.get(number=1)
    enter(table, sound_hand())
    enter(rnd.tables.get(number=2), sound_hand())
    StandingsSnapshot.objects.create(tournament=tournament, version=1, after_round=1, rows=[], criteria=["wins"])
    season = Season.objects.create(club=club, name="Saison", slug="fuzz")
    season.tournaments.add(tournament)
    SeasonSnapshot.objects.create(season=season, version=1, rows=[])
    cache.clear()
    return {
        "Authorization": f"Token {api_token_create(by=organiser, name='tests').key}",
        "X-Table-Token": table.token,
    }


def _fuzz(method: str, path: str, headers: dict[str, str], mode: GenerationMode, examples: int) -> None:
    operation = SCHEMA[path][method]

    @settings(
        max_examples=scaled(examples),
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        # The fuzzer's own header values (a random token...) give way to the world's. Its
        # in-process WSGI client asks for gzip and reads the body without undoing it: ask
        # for none (the gzip answers are tested in tests/api/test_compression.py).
        case.headers = {**(case.headers or {}), "Accept-Encoding": "identity", **headers}
        case.call_and_validate(app=application, checks=CHECKS)
        # A run of wrong secrets must not lock the rest of the run out (429 is tested apart).
        cache.clear()

    run()


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
@pytest.mark.parametrize("credentials", ["organiser", "anonymous"])
def test_the_api_answers_every_request_as_its_schema_says(
    in_process: dict[str, str], method: str, path: str, credentials: str
) -> None:
    headers = in_process if credentials == "organiser" else {}
    _fuzz(method, path, headers, GenerationMode.POSITIVE, POSITIVE_EXAMPLES)
    _fuzz(method, path, headers, GenerationMode.NEGATIVE, NEGATIVE_EXAMPLES)
