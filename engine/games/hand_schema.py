"""The JSON Schema of a game's hand: its fields, their types, ranges and choices.

Each game's `hand_schema()` builds its schema from the same constants its validation
reads (the teams, suits, contracts, seats...), so that the two cannot drift apart; the
API documents hands with it (api.schema). The schema says what each field may hold and
which fields a played donne needs. What ties fields together (card points adding up to
the contract's total, a capot team holding them all, a belote against the other team's
announcements...) no schema says: the engine's validation refuses it with its own codes
(docs/rules.md). So a hand that matches the schema may still be refused, never the
other way round.

Plain JSON Schema, limited to what OpenAPI 3.0 also reads, except `null`: a field that
may be null says so as `"type": [..., "null"]`, or with a `{"type": "null"}` branch
when it has several shapes. The API turns these into OpenAPI 3.0's `nullable`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.games import announcements as annonces

Schema = dict[str, Any]


def _described(schema: Schema, description: str) -> Schema:
    return {**schema, "description": description} if description else schema


def integer(low: int, high: int | None = None, description: str = "", *, multiple_of: int | None = None) -> Schema:
    """A whole number from `low` to `high` (no upper bound when `high` is None)."""
    schema: Schema = {"type": "integer", "minimum": low}
    if high is not None:
        schema["maximum"] = high
    if multiple_of is not None:
        schema["multipleOf"] = multiple_of
    return _described(schema, description)


def number(low: float, high: float, description: str = "", *, multiple_of: float | None = None) -> Schema:
    schema: Schema = {"type": "number", "minimum": low, "maximum": high}
    if multiple_of is not None:
        schema["multipleOf"] = multiple_of
    return _described(schema, description)


def boolean(description: str = "") -> Schema:
    return _described({"type": "boolean"}, description)


def choice(values: Iterable[str], description: str = "") -> Schema:
    """One of the given strings, spelled exactly."""
    return _described({"type": "string", "enum": list(values)}, description)


def array(
    items: Schema, description: str = "", *, min_items: int = 0, max_items: int | None = None, unique: bool = False
) -> Schema:
    schema: Schema = {"type": "array", "items": items}
    if min_items:
        schema["minItems"] = min_items
    if max_items is not None:
        schema["maxItems"] = max_items
    if unique:
        schema["uniqueItems"] = True
    return _described(schema, description)


def record(properties: Mapping[str, Schema], required: Sequence[str] = (), description: str = "") -> Schema:
    """An object with these fields and no other (the engine refuses a field it does not know)."""
    schema: Schema = {"type": "object", "properties": dict(properties), "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    return _described(schema, description)


def one_of_shapes(*shapes: Schema, description: str = "") -> Schema:
    """A field that takes any of several shapes (a poignée, or a list of poignées)."""
    return _described({"anyOf": list(shapes)}, description)


def nullable(schema: Schema) -> Schema:
    """The same field, null allowed: the engine reads a null optional field as left out."""
    kind = schema.get("type")
    if isinstance(kind, str):
        widened: Schema = {**schema, "type": [kind, "null"]}
        if "enum" in schema:
            widened["enum"] = [*schema["enum"], None]
        return widened
    description = schema.get("description", "")
    inner = {key: value for key, value in schema.items() if key != "description"}
    shapes = inner["anyOf"] if inner.keys() == {"anyOf"} else [inner]
    return _described({"anyOf": [*shapes, {"type": "null"}]}, description)


def hand(
    code: str,
    description: str,
    properties: Mapping[str, Schema],
    required: Sequence[str],
    *,
    cancellable: bool,
) -> Schema:
    """A game's hand, titled by its code. `required` are the fields of a played donne; a
    `cancellable` game also takes a redealt donne, `{"cancelled": true}`, which needs
    none of them."""
    schema: Schema = {
        "title": code,
        "description": description,
        "type": "object",
        "properties": dict(properties),
        "additionalProperties": False,
    }
    if cancellable:
        schema["anyOf"] = [
            {"required": list(required)},
            {"required": ["cancelled"], "properties": {"cancelled": {"enum": [True]}}},
        ]
    else:
        schema["required"] = list(required)
    return schema


def required_fields(schema: Schema) -> list[str]:
    """The fields a played donne of this hand schema needs."""
    if "anyOf" in schema:
        needed: list[str] = schema["anyOf"][0]["required"]
        return needed
    return list(schema.get("required", ()))


ANNOUNCEMENT: Schema = record(
    {
        "kind": choice(annonces.KINDS),
        "high": choice(annonces.RANKS, "The top card of a sequence, or the rank of a carré."),
        "suit": nullable(
            choice(
                annonces.SUITS,
                "A sequence's suit (it decides between two equal sequences, one in trumps); never on a carré.",
            )
        ),
    },
    required=("kind", "high"),
    description="An announcement (annonce): a tierce, cinquante, cent or carré.",
)


def announcements(description: str = "") -> Schema:
    """One side's list of announcements."""
    return array(ANNOUNCEMENT, description)
