"""A catalogue of bad requests, sent to every API write and every form: never a 500,
never a stored row.

Bodies: oversized (5 MB, past DATA_UPLOAD_MAX_MEMORY_SIZE), nested 100,000 levels deep
(and just past the API's limit), wrong types, bodies that are not objects, wrong content
types, unknown fields, broken encodings (invalid UTF-8), too many fields, a broken
multipart body. Every answer must be below 500; an API answer that refuses must be in
the error shape; nothing may be added to any table of the database.

The targets are found, not listed: the API's writes are the operations of its OpenAPI
schema that take a body, and the forms are every URL of the site outside the API and the
admin (plus the admin's login), posted to as a logged-in organiser with a valid CSRF
token, as a browser would. A new endpoint or form is covered the day it is added.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator

from accounts.services import api_token_create
from rounds.services import round_draw
from scoring.models import Job
from scoring.services import referee_call
from seasons.models import Season
from tests.api.conftest import enter, sound_hand
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import ForbiddenPair, OnlineEntry

pytestmark = pytest.mark.django_db

FIVE_MB = 5 * 1024 * 1024
DEEP = 100_000
# Rows of these tables record the request itself, not what it asked to store.
BOOKKEEPING = {"sessions.session", "axes.accessattempt", "axes.accesslog", "axes.accessfailurelog"}


@dataclass(frozen=True)
class Bad:
    """One bad request body: its name, bytes and content type, and the statuses it may get."""

    name: str
    body: bytes
    content_type: str
    api_statuses: frozenset[int] = frozenset(range(400, 500))
    form_statuses: frozenset[int] = frozenset(range(200, 500))


def _json(value: Any) -> bytes:
    return json.dumps(value).encode()


def _nested(depth: int) -> bytes:
    return b'{"raw": ' + b"[" * depth + b"]" * depth + b"}"


BASIC = [
    Bad("oversized", b'{"raw": "' + b"x" * FIVE_MB + b'"}', "application/json", frozenset({413})),
    Bad("nested 100,000 deep", b"[" * DEEP + b"]" * DEEP, "application/json", frozenset({400})),
    Bad("nested past the limit", _nested(40), "application/json", frozenset({400})),
    Bad("invalid UTF-8", b'{"raw": "\xff\xfe\xfd", "reason": "\xc3\x28"}', "application/json", frozenset({400})),
    Bad("not JSON", b"{raw: nope", "application/json", frozenset({400})),
    Bad("NaN", b'{"raw": NaN, "expected_number": Infinity}', "application/json", frozenset({400})),
    Bad("a list", _json([1, 2, 3]), "application/json"),
    Bad("a string", _json("donne"), "application/json"),
    Bad("null", b"null", "application/json"),
    # Unknown fields are ignored (a PATCH of nothing but them changes nothing, 200).
    Bad(
        "unknown fields",
        _json({"unexpected": 1, "__proto__": {"admin": True}}),
        "application/json",
        frozenset(range(200, 500)),
    ),
    Bad("form-encoded", b"raw=1&expected_number=2", "application/x-www-form-urlencoded", frozenset({415})),
    Bad("plain text", b'{"raw": {}}', "text/plain", frozenset({415})),
    Bad("broken multipart", b"--x\r\nnonsense", "multipart/form-data; boundary=x", frozenset({400, 415})),
    Bad("XML", b"<raw><points>1</points></raw>", "application/xml", frozenset({415})),
]


def wrong_types(properties: dict[str, Any]) -> list[Bad]:
    """Each field of a request schema given values of the wrong types (all at once)."""
    values = {
        "an object": {"nested": ["wrong"]},
        "text": "not-what-was-asked \u0000 \U0001f0a1",
        "a huge number": 10**40,
        "a negative number": -(2**63),
        "a list": [[], {}, None],
    }
    return [
        Bad(f"wrong types: {label}", _json(dict.fromkeys(properties, value)), "application/json")
        for label, value in values.items()
    ]


# -- the world the requests aim at -------------------------------------------------------


@dataclass
class World:
    values: dict[str, Any]
    organiser: Any
    api_headers: dict[str, str]


@pytest.fixture
def world(db: None) -> World:
    cache.clear()
    club = ClubFactory(slug="bad-club")
    organiser = UserFactory(username="bad-director")
    # The club's administrator: the club's own pages (settings, members) take the bad bodies too.
    club.organisers.add(organiser, through_defaults={"role": "admin"})
    tournament = services.tournament_create(
        by=organiser, club=club, name="Bad", date=datetime.date(2026, 5, 2), game="belote_classique", end_value=3
    )
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    competitors = [
        services.competitor_register(
            by=organiser, tournament=tournament, players=PlayerFactory.create_batch(2, club=club), checked_in=True
        )
        for _ in range(4)
    ]
    pair = ForbiddenPair.objects.create(tournament=tournament, first=competitors[2], second=competitors[3])
    prize = services.prize_add(by=organiser, tournament=tournament, rank_from=1, text="Un jambon")
    services.tournament_set_status(by=organiser, tournament=tournament, status="running")
    rnd = round_draw(by=organiser, tournament=tournament, seed=3)
    table = rnd.tables.get(number=1)
    enter(table, sound_hand())
    season = Season.objects.create(club=club, name="Saison", slug=tournament.slug)
    season.tournaments.add(tournament)
    job = Job.objects.create(kind="rescore", tournament=tournament, status="done")
    # A call already open: a bad body to the call's button updates it, never adds one.
    call = referee_call(table=table, reason="dispute")
    message = services.screen_message_post(by=organiser, tournament=tournament, text="Pause")
    entry = OnlineEntry.objects.create(
        tournament=tournament, players=[{"last_name": "Roux", "first_name": "Anne"}], email="anne@example.org"
    )
    links: list[str] = []
    invitation = services.invitation_create(
        by=organiser, club=club, email="invitee@example.org", role="organiser", link_for=lambda t: links.append(t) or t
    )
    api_token = api_token_create(by=organiser, name="tests")
    cache.clear()
    values = {
        "pk": tournament.pk, "slug": tournament.slug, "name": "fr-ranking.html", "club_id": club.pk,
        "club": club.slug, "number": 1, "table": 1,
        "donne": 1, "token": table.token, "table_id": table.pk, "hand_id": table.hands.get().pk,
        "player_id": competitors[0].players.first().pk, "competitor_id": competitors[0].pk,
        "pair_id": pair.pk, "job_id": job.pk, "prize_id": prize.pk, "membership_id": club.memberships.get().pk,
        "invitation_id": invitation.pk, "invitation_token": links[0], "token_id": api_token.token.pk,
        "uidb64": "MQ", "call_id": call.pk, "message_id": message.pk, "version": 1,
        "entry_id": entry.pk,
    }  # fmt: skip
    headers = {"HTTP_AUTHORIZATION": f"Token {api_token.key}"}
    headers["HTTP_X_TABLE_TOKEN"] = table.token
    return World(values, organiser, headers)


def row_counts() -> dict[str, int]:
    """The number of rows of every table the site stores things in, in one query."""
    models = [
        model
        for model in apps.get_models()
        if model._meta.label_lower not in BOOKKEEPING and not model._meta.proxy and model._meta.managed
    ]
    parts = [f"(SELECT count(*) FROM {connection.ops.quote_name(model._meta.db_table)})" for model in models]
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts))
        counts = cursor.fetchone()
    return {model._meta.label: count for model, count in zip(models, counts, strict=True)}


def effect(client: Client, method: str, url: str, bad: Bad, **headers: str) -> tuple[Any, dict[str, int]]:
    """Send `bad` and undo it: the response, and the rows it added or removed per table.

    Each request runs in a savepoint rolled back at once, so every one of them meets the
    same world, and the catalogue needs to build it only once.
    """
    with transaction.atomic():
        before = row_counts()
        response = client.generic(method, url, bad.body, content_type=bad.content_type, **headers)
        after = row_counts()
        transaction.set_rollback(True)
    cache.clear()
    return response, {name: after[name] - before[name] for name in after if after[name] != before[name]}


def fill(route: str, values: dict[str, Any]) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda match: str(values[match.group(1)]), route)


# -- the API's writes --------------------------------------------------------------------


def _api_writes() -> Iterator[tuple[str, str, dict[str, Any]]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    for path, operations in sorted(schema["paths"].items()):
        for method, operation in sorted(operations.items()):
            content = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if content is None:
                continue
            ref = content["schema"].get("$ref", "")
            properties = components.get(ref.rsplit("/", 1)[-1], {}).get("properties", {})
            yield method.upper(), path, properties


API_WRITES = list(_api_writes())


def test_the_catalogue_reaches_every_kind_of_api_write() -> None:
    operations = {(method, path) for method, path, _ in API_WRITES}
    assert ("POST", "/api/v1/table/hands/") in operations
    assert ("PUT", "/api/v1/table/hands/{donne}/") in operations
    assert ("POST", "/api/v1/tournaments/") in operations
    assert len(operations) >= 10


def test_the_catalogue_reaches_the_clubs_own_writes() -> None:
    operations = {(method, path) for method, path, _ in API_WRITES}
    assert {
        ("POST", "/api/v1/seasons/"),
        ("PATCH", "/api/v1/seasons/{slug}/"),
        ("POST", "/api/v1/seasons/{slug}/rebuild/"),
        ("POST", "/api/v1/clubs/{club}/players/"),
        ("PATCH", "/api/v1/clubs/{club}/players/{player_id}/"),
        ("PUT", "/api/v1/tournaments/{slug}/competitors/{number}/payment/"),
    } <= operations


@pytest.mark.slow
def test_no_bad_body_to_an_api_write_is_a_server_error_or_stores_anything(world: World) -> None:
    client = Client()
    failures = []
    for method, path, properties in API_WRITES:
        url = re.sub(r"{(\w+)}", lambda match: str(world.values[match.group(1)]), path)
        for bad in BASIC + wrong_types(properties):
            response, change = effect(client, method, url, bad, **world.api_headers)
            status = response.status_code
            shaped = status < 400 or _error_shaped(response.json())
            if status not in bad.api_statuses or change or not shaped:
                failures.append((method, path, bad.name, status, change, response.content[:200]))
    assert failures == []


def _error_shaped(body: Any) -> bool:
    errors = body.get("errors") if isinstance(body, dict) else None
    # `pointer`: where in a results file (api/errors.py), beside the three every error has.
    return bool(errors) and all(
        {"field", "code", "message"} <= set(error) <= {"field", "code", "message", "pointer"} for error in errors
    )


def test_the_oversized_and_deep_bodies_are_answered_413_and_400_with_their_codes(world: World) -> None:
    client = Client()
    url = "/api/v1/table/hands/"
    big, deep = BASIC[0], BASIC[1]
    too_large = client.post(url, big.body, content_type=big.content_type, **world.api_headers)
    assert too_large.status_code == 413 and too_large.json()["errors"][0]["code"] == "too_large"
    too_deep = client.post(url, deep.body, content_type=deep.content_type, **world.api_headers)
    assert too_deep.status_code == 400 and too_deep.json()["errors"][0]["code"] == "too_deep"


# -- the forms ---------------------------------------------------------------------------


def _site_routes(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if route.startswith(("api/", "admin/")):
                continue
            yield from _site_routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and "^" not in route:
            yield route


FORM_ROUTES = [*sorted(set(_site_routes(get_resolver().url_patterns))), "admin/login/"]

FORM_BODIES = [
    Bad("oversized", b"text=" + b"x" * FIVE_MB, "application/x-www-form-urlencoded", form_statuses=frozenset({413})),
    Bad("nested 100,000 deep", b"[" * DEEP + b"]" * DEEP, "application/json"),
    Bad(
        "too many fields",
        "&".join(f"f{n}=1" for n in range(2000)).encode(),
        "application/x-www-form-urlencoded",
        form_statuses=frozenset({400}),
    ),
    Bad("invalid UTF-8", b"number=\xff\xfe&reason=\xc3\x28&taker=%FF", "application/x-www-form-urlencoded"),
    Bad("broken multipart", b"--x\r\nnonsense", "multipart/form-data; boundary=x"),
    Bad("plain text", b"number=1", "text/plain"),
    Bad("unknown fields", b"unexpected=1&__proto__=admin", "application/x-www-form-urlencoded"),
]


class _FormFields(HTMLParser):
    """The fields of a page's POST forms: name -> "text" (free text) or "typed"."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self.in_post_form = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.in_post_form = attributes.get("method", "").lower() == "post"
        name = attributes.get("name", "")
        if not self.in_post_form or not name or name == "csrfmiddlewaretoken":
            return
        if tag == "textarea" or (tag == "input" and attributes.get("type", "text") in {"text", "search", "password"}):
            self.fields.setdefault(name, "text")
        elif tag in {"input", "select"}:
            self.fields[name] = "typed"

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.in_post_form = False


def form_fields(client: Client, url: str) -> dict[str, str]:
    """The fields of the page's POST forms, if a GET shows any."""
    page = client.get(url)
    if page.status_code != 200 or "text/html" not in page.get("Content-Type", ""):
        return {}
    parser = _FormFields()
    parser.feed(page.content.decode())
    return parser.fields


def wrong_form_types(fields: dict[str, str]) -> list[Bad]:
    """The page's own fields, each typed one (numbers, choices, dates, ids...) given a value
    of the wrong kind; free-text fields, where any text is right, are left empty."""
    if not fields:
        return []
    values = {"text": "pas-un-nombre", "a huge number": "9" * 40, "a negative number": "-7", "markup": "<b>&x"}
    return [
        Bad(
            f"wrong types: {label}",
            urlencode({name: value if kind == "typed" else "" for name, kind in fields.items()}).encode(),
            "application/x-www-form-urlencoded",
        )
        for label, value in values.items()
    ]


def test_the_catalogue_reaches_every_kind_of_form() -> None:
    assert {"login/", "r/<str:token>/hands/", "manage/club/<int:club_id>/players/add/"} <= set(FORM_ROUTES)
    assert "manage/t/<slug:slug>/hands/<int:hand_id>/edit/" in FORM_ROUTES
    assert {"manage/club/<int:club_id>/seasons/new/", "manage/s/<slug:slug>/"} <= set(FORM_ROUTES)
    assert len(FORM_ROUTES) >= 40


@pytest.mark.slow
def test_no_bad_body_to_a_form_is_a_server_error_or_stores_anything(world: World) -> None:
    # A browser's session: logged in, with the CSRF cookie and its token, as the forms send it.
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.organiser)
    client.get("/login/")
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    empty = Bad("empty", b"", "application/x-www-form-urlencoded")
    failures = []
    for route in FORM_ROUTES:
        url = fill(route, world.values)
        # An action that takes no input (a button: draw, delete this pair...) does its work
        # on an empty post too: a bad body may do that much, never more.
        _response, honest = effect(client, "POST", url, empty, HTTP_X_CSRFTOKEN=token)
        for bad in FORM_BODIES + wrong_form_types(form_fields(client, url)):
            response, change = effect(client, "POST", url, bad, HTTP_X_CSRFTOKEN=token)
            if response.status_code not in bad.form_statuses or change not in ({}, honest):
                failures.append((route, bad.name, response.status_code, change))
    assert failures == []


def test_an_oversized_form_gets_a_page_that_says_so(world: World) -> None:
    client = Client()
    client.force_login(world.organiser)
    response = client.post(
        f"/manage/club/{world.values['club_id']}/players/add/",
        b"last_name=" + b"x" * FIVE_MB,
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 413
    page = response.content.decode()
    assert "Trop de données" in page and "Rien n’a été enregistré" in page


def test_a_form_in_broken_utf8_is_refused_rather_than_stored_with_replacement_characters(world: World) -> None:
    client = Client()
    client.force_login(world.organiser)
    before = row_counts()
    response = client.post(
        f"/manage/club/{world.values['club_id']}/players/add/",
        b"last_name=Dupr%E9&first_name=Ren\xe9e",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 400
    assert "Requête mal formée" in response.content.decode()
    assert row_counts() == before
