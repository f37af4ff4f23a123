"""What the OpenAPI schema adds to what drf-spectacular reads from the views: the table
secret (the `X-Table-Token` header), the API's description, and the hand of each game."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension

import engine
from api.access import TABLE_TOKEN_HEADER

# The component every hand a request carries refers to (api.serializers.HandField).
HAND_COMPONENT = "GameHand"
HAND_REF = f"#/components/schemas/{HAND_COMPONENT}"
HAND_DESCRIPTION = """\
A donne as the rules engine reads it (docs/rules.md): one of the games' hands, the one of
the game the table plays (the table's secret says which; a tarot table plays the tarot of
its seat count, and a table of five at a tarot à 4 tournament whose `table_de_cinq` is
`mort` plays `tarot_a_quatre_mort`: tarot à 4 with the hand's `mort` sitting out). The
schema gives each field's type, range and choices, and which fields a played donne
needs; what ties fields together (card points adding up to the contract's total, a capot
team holding them all...) the engine checks and refuses with its own codes, field by
field (400, fields under `raw.`).
"""


class TableTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.access.TableTokenAuthentication"
    name = "tableToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": TABLE_TOKEN_HEADER,
            "description": "A table's secret, from its QR code: opens that table only, while its round is open. "
            "Wrong secrets are counted per client address; past the limit, wrong ones get 429 for a while "
            "(a right one always opens its table).",
        }


DESCRIPTION = """\
Tournaments, draws, hands and standings of French card-game tournaments (belote, belote
moderne, belote à 3, tarot à 3), for a league's site, a club's display or a scoring app.

**Reading** needs nothing: every public tournament (public and past its draft), its
competitors and players (names and club only: never a licence, an email or a phone),
its rounds and their draw, each table's donnes, the live ranking and the ranking after
each round, and the season rankings. Lists are paged: `?page=` (from 1) and
`?page_size=` (up to 200, 50 by default); a page answers `count`, `next`, `previous`
and `results`.

**ETags**: every read answers an `ETag` and honours `If-None-Match` with
`304 Not Modified` and no body while nothing changed: poll every few seconds freely.

**Organisers** write to their own club's tournaments with an API token
(`Authorization: Token <key>`, made on the account page, `/manage/account/`) or the
site's session (with its CSRF token). Another
club's organiser gets 403; nobody logged in gets 401. They also run their club's
affairs: its players (`/clubs/{club}/players/`, with licences and contact details, and
each player's whole history), its seasons (create, edit, rebuild, and follow the
rebuild's progress), their tournaments' results files (`/tournaments/{slug}/results/`,
JSON or CSV, licences included: docs/results-format.md) and the import of other clubs'
files into a season (`/seasons/{slug}/results/`), and the entry fee each competitor paid (`/payments/`, never part of
a public answer). A player's public history (`/players/{id}/history/`) follows the
public page: public tournaments only, and 404 once the player opted out or was
anonymised.

**At the table**, a scoring app sends each donne with the table's secret in the
`X-Table-Token` header and an `Idempotency-Key` per entry: a resend never stores a
donne twice; the same key with another entry is refused (422,
`idempotency_key_reused`, naming the donne stored under it). Wrong secrets are counted
per client address, as on the referee's pages: past the limit, wrong ones answer 429 for
a while; a right secret always opens its table.

**Errors** all have one shape, whatever the status:
`{"errors": [{"field": "raw.points.A", "code": "points_sum", "message": "..."}]}`.
`field` is a dotted path into the request body (or a header's name, or null for the
request as a whole); `code` is stable (the rules engine's codes for a hand); `message`
is in the request's language (`Accept-Language`: French by default, English).
400: the request breaks a rule (or its body is not JSON, not UTF-8, or nested too
deep). 401: no valid credentials. 403: not yours. 404: not found or not visible. 409:
the tournament's state refuses it now (a round in play, a partie over, a donne already
stored by another phone). 413: the body is too large. 415: the body is not JSON. 422:
an Idempotency-Key sent again with another entry. 429: too many wrong secrets.
"""


# What any operation that reads a body may answer, whatever its view says: the body's
# parser refuses these before the view runs (api.parsers, api.errors).
BODY_ERRORS = {
    "400": "The body is not JSON, not UTF-8, nested too deep, or breaks a rule: each error names its field.",
    "413": "The body is larger than the site reads (DATA_UPLOAD_MAX_MEMORY_SIZE).",
    "415": "The body is not application/json.",
}


# What any operation may answer, before its view runs: the site refuses a NUL character
# in the address, its query or a cookie (atout.middleware.RequestTextMiddleware).
ADDRESS_ERROR = "The address, its query or a cookie holds a NUL character, or a parameter breaks a rule."


def describe(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular post-processing hook: the API's description, kept beside its code,
    the address's errors of every operation and the body errors of every operation that
    takes a body."""
    result.setdefault("info", {})["description"] = DESCRIPTION
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            responses.setdefault("400", {"content": error, "description": ADDRESS_ERROR})
            if "requestBody" not in operation:
                continue
            for code, text in BODY_ERRORS.items():
                responses.setdefault(code, {"content": error, "description": text})
    return result


def hand_component_name(code: str) -> str:
    """`belote_classique` -> `BeloteClassiqueHand`."""
    return "".join(part.capitalize() for part in code.split("_")) + "Hand"


def openapi_30(schema: Any) -> Any:
    """A JSON Schema from the engine in OpenAPI 3.0's dialect: `null` as `nullable`.

    The engine writes a null-allowing field as `"type": [t, "null"]`, or with a
    `{"type": "null"}` branch among several shapes; OpenAPI 3.0 has neither and says
    `nullable: true` instead.
    """
    if isinstance(schema, list):
        return [openapi_30(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    converted = {key: openapi_30(value) for key, value in schema.items()}
    kind = converted.get("type")
    if isinstance(kind, list) and "null" in kind:
        (converted["type"],) = [each for each in kind if each != "null"]
        converted["nullable"] = True
    shapes = converted.get("anyOf")
    if isinstance(shapes, list) and {"type": "null"} in shapes:
        rest = [shape for shape in shapes if shape != {"type": "null"}]
        converted["nullable"] = True
        if len(rest) == 1:
            del converted["anyOf"]
            converted = {**rest[0], **converted}
        else:
            converted["anyOf"] = rest
    return converted


def hand_schemas(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular post-processing hook: one component per game's hand, from the
    engine (`Game.hand_schema`), and `GameHand`, any of them.

    `anyOf`, not `oneOf`: the game comes from the table, not from the body, and some hands
    fit two games (a hand of belote classique is one of belote moderne too; a hand of
    tarot à 3 one of tarot à 4), which `oneOf` would refuse. Added after the enum hook,
    which would otherwise pull the hands' choices out into shared, colliding enums.
    """
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    variants = []
    # The table games too: a tarot à 4 table of five with a mort sends their hands.
    for code, game in {**engine.GAMES, **engine.TABLE_GAMES}.items():
        name = hand_component_name(code)
        schemas[name] = openapi_30(game.hand_schema())
        variants.append({"$ref": f"#/components/schemas/{name}"})
    schemas[HAND_COMPONENT] = {"description": HAND_DESCRIPTION, "anyOf": variants}
    result["components"]["schemas"] = dict(sorted(schemas.items()))
    return result
