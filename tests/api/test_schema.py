"""The OpenAPI schema at /api/schema/ and its browsable docs at /api/docs/: complete, valid,
served without any CDN, and describing each game's hand as the engine reads it."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import jsonschema
import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from drf_spectacular.validation import validate_schema

import engine
from engine.games.hand_schema import required_fields

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client) -> dict:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


def operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_the_schema_is_valid_openapi_3_and_versioned(schema) -> None:
    validate_schema(schema)
    assert schema["openapi"].startswith("3.")
    assert all(path.startswith("/api/v1/") for path in schema["paths"])
    assert "Idempotency-Key" in schema["info"]["description"]


def test_every_error_answer_has_the_one_error_shape(schema) -> None:
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["errors"]
    item = schema["components"]["schemas"]["ErrorItem"]
    assert set(item["required"]) == {"field", "code", "message"}
    # Two optional keys: the club's player a refused new player already is (same_person),
    # and the place of a refused results file's problem as a JSON pointer (results_refused).
    assert set(item["properties"]) == {"field", "code", "message", "player_id", "pointer"}
    for path, method, operation in operations(schema):
        for status, answer in operation["responses"].items():
            if status.startswith(("4", "5")):
                ref = answer["content"]["application/json"]["schema"]["$ref"]
                assert ref.rsplit("/", 1)[-1] in {"Error", "EntryConflict"}, (path, method, status)


def test_every_public_read_documents_if_none_match_its_etag_and_304(schema) -> None:
    reads = [(path, op) for path, method, op in operations(schema) if method == "get" and "/table/" not in path]
    assert len(reads) >= 12
    for path, operation in reads:
        if path.endswith("/secrets/"):
            continue
        names = {parameter["name"] for parameter in operation.get("parameters", [])}
        assert "If-None-Match" in names, path
        assert "304" in operation["responses"] and "ETag" in operation["responses"]["200"]["headers"], path


def test_the_table_secret_and_the_idempotency_key_are_documented(schema) -> None:
    scheme = schema["components"]["securitySchemes"]["tableToken"]
    assert scheme == {**scheme, "type": "apiKey", "in": "header", "name": "X-Table-Token"}
    entry = schema["paths"]["/api/v1/table/hands/"]["post"]
    assert entry["security"] == [{"tableToken": []}]
    assert "Idempotency-Key" in {parameter["name"] for parameter in entry["parameters"]}
    assert {"200", "201", "400", "401", "403", "409", "429"} <= set(entry["responses"])
    assert entry["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/EntryRequest")


def test_lists_are_documented_as_paged(schema) -> None:
    listed = schema["paths"]["/api/v1/tournaments/"]["get"]
    names = {parameter["name"] for parameter in listed["parameters"]}
    assert {"page", "page_size", "club", "game", "status", "date_from", "date_to"} <= names
    page = listed["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert set(schema["components"]["schemas"][page]["properties"]) == {"count", "next", "previous", "results"}


# Organisers' answers, never a public one (test_private_shapes_are_answered_to_organisers_only).
PRIVATE_COMPONENTS = {"TableSecret", "ClubPlayer", "Payment"}


def test_no_documented_answer_offers_a_licence_an_email_a_phone_or_a_token(schema) -> None:
    for name, component in schema["components"]["schemas"].items():
        if name in PRIVATE_COMPONENTS or name.endswith("Request"):
            continue
        properties = set(component.get("properties", {}))
        assert not properties & {"licence", "email", "phone", "token"}, name


def _refs(node: Any, components: dict[str, Any], seen: set[str]) -> set[str]:
    """Every component `node` refers to, through other components too."""
    if isinstance(node, dict):
        found: set[str] = set()
        ref = node.get("$ref", "")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                found |= {name} | _refs(components.get(name, {}), components, seen)
        for value in node.values():
            found |= _refs(value, components, seen)
        return found
    if isinstance(node, list):
        return set().union(*(_refs(value, components, seen) for value in node)) if node else set()
    return set()


def test_private_shapes_are_answered_to_organisers_only(schema) -> None:
    components = schema["components"]["schemas"]
    answering = set()
    for path, method, operation in operations(schema):
        found = _refs(operation.get("responses", {}), components, set()) & PRIVATE_COMPONENTS
        if found:
            answering.add((method, path))
            # No anonymous way in: `{}` among the securities means "no credentials needed".
            assert {} not in operation.get("security", [{}]), (method, path, found)
    assert ("get", "/api/v1/clubs/{club}/players/") in answering
    assert ("put", "/api/v1/tournaments/{slug}/competitors/{number}/payment/") in answering
    assert "Payment" in components and {"payment_status", "amount_paid"} <= set(components["Payment"]["properties"])


@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_the_docs_load_their_scripts_from_this_site_not_a_cdn(client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    found = re.findall(r'src="([^"]+)"', page)
    # Swagger UI's start-up script is served by the docs page itself (`?script`), not inline.
    scripts = [src for src in found if src != f"{url}?script="]
    assert scripts and all(src.startswith("/static/drf_spectacular_sidecar/") for src in scripts), scripts
    assert "cdn" not in page.lower() and "googleapis" not in page
    assert "<script>" not in page and "<style>" not in page
    # Installed with the project (drf-spectacular-sidecar), found by collectstatic.
    for src in scripts:
        assert finders.find(src.removeprefix("/" + settings.STATIC_URL.lstrip("/"))), src


# -- the hands ----------------------------------------------------------------------------

HAND_BODIES = [
    ("/api/v1/table/hands/", "post"),
    ("/api/v1/table/hands/{donne}/", "put"),
    ("/api/v1/tournaments/{slug}/rounds/{number}/tables/{table}/hands/{donne}/", "put"),
]


def component(schema: dict, ref: str) -> dict:
    return schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]


def as_json_schema(openapi: Any) -> Any:
    """An OpenAPI 3.0 schema as plain JSON Schema (`nullable` as a null type), to validate with."""
    if isinstance(openapi, list):
        return [as_json_schema(each) for each in openapi]
    if not isinstance(openapi, dict):
        return openapi
    plain = {key: as_json_schema(value) for key, value in openapi.items() if key != "nullable"}
    if openapi.get("nullable"):
        return {"anyOf": [plain, {"type": "null"}]}
    return plain


def hand_variants(schema: dict) -> dict[str, dict]:
    union = schema["components"]["schemas"]["GameHand"]
    return {component(schema, ref["$ref"])["title"]: component(schema, ref["$ref"]) for ref in union["anyOf"]}


def test_every_hand_a_request_carries_is_one_of_the_games_hands(schema) -> None:
    for path, method in HAND_BODIES:
        body = schema["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
        raw = component(schema, body["$ref"])["properties"]["raw"]
        assert raw["allOf"] == [{"$ref": "#/components/schemas/GameHand"}], path
    union = schema["components"]["schemas"]["GameHand"]
    assert "discriminator" not in union and "oneOf" not in union
    # The table games too: a tarot à 4 table of five with a mort sends their hands.
    assert sorted(hand_variants(schema)) == sorted([*engine.GAMES, *engine.TABLE_GAMES])


@pytest.mark.parametrize("code", sorted([*engine.GAMES, *engine.TABLE_GAMES]))
def test_each_games_hand_is_the_engines_with_its_fields_types_and_required_fields(schema, code: str) -> None:
    served = hand_variants(schema)[code]
    own = engine.get_game(code).hand_schema()
    assert served["title"] == code and served["additionalProperties"] is False
    assert list(served["properties"]) == list(own["properties"])
    assert required_fields(served) == required_fields(own)
    assert "nullable" not in json.dumps(own) and '"null"' not in json.dumps(served)


@pytest.mark.parametrize("code", sorted([*engine.GAMES, *engine.TABLE_GAMES]))
def test_a_minimal_hand_from_a_variants_required_fields_is_valid_for_the_engine(schema, code: str) -> None:
    game = engine.get_game(code)
    options = game.resolve_options({})
    variant = jsonschema.Draft4Validator(as_json_schema(hand_variants(schema)[code]))
    drawn = (game.random_hand(random.Random(seed)) for seed in range(100))
    played = next(hand for hand in drawn if not hand.get("cancelled") and not game.validate(hand, options))
    assert variant.is_valid(played)
    minimal = {name: played[name] for name in required_fields(hand_variants(schema)[code])}
    assert variant.is_valid(minimal) and game.validate(minimal, options) == []
    for name in minimal:
        without = {key: value for key, value in minimal.items() if key != name}
        assert not variant.is_valid(without), name
        assert "required" in {error.code for error in game.validate(without, options) if error.field == name}, name


def test_the_sides_a_table_takes_are_documented_beyond_three(schema) -> None:
    confirm = schema["components"]["schemas"]["ConfirmRequest"]["properties"]["side"]
    assert confirm["maximum"] >= 4 and "tarot à 5" in confirm["description"]


def test_every_operation_says_it_may_refuse_an_address_holding_a_nul_character(schema, client) -> None:
    # The site's middleware answers 400 to a NUL in any path, query or cookie before a view runs.
    assert all("400" in operation["responses"] for _path, _method, operation in operations(schema))
    answer = client.get("/api/v1/tournaments/?page_size=1%002")
    assert answer.status_code == 400 and answer.json()["errors"]
