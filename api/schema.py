"""How the OpenAPI schema describes the table secret (the `X-Table-Token` header)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension

from api.access import TABLE_TOKEN_HEADER


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
club's organiser gets 403; nobody logged in gets 401.

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


def describe(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular post-processing hook: the API's description, kept beside its code,
    and the body errors of every operation that takes a body."""
    result.setdefault("info", {})["description"] = DESCRIPTION
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if "requestBody" not in operation:
                continue
            responses = operation.setdefault("responses", {})
            for code, text in BODY_ERRORS.items():
                responses.setdefault(code, {"content": error, "description": text})
    return result
