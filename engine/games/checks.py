"""Field checks shared by the games' `validate()`.

A referee's hand arrives as decoded JSON, or as whatever a caller of the Python API
passes, so every check here looks at the value's exact type (a JSON `true` is not the
number 1, `57.0` is not a whole number) and reports a `RuleError` instead of raising.
Each helper appends its errors to the list it is given and returns the checked value, or
None when the value is missing or wrong, so that a game can run its cross-field checks
only on the parts that are sound.

Every English template is written literally inside `gettext_noop(...)` so that the
translation catalogue's extraction finds it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping
from typing import Any

from engine.core import RuleError, gettext_noop, rule_error

Number = int | float


def path(base: str, key: object) -> str:
    """The dotted path of `key` inside the field `base` (empty base: the hand itself)."""
    return f"{base}.{key}" if base else str(key)


def json_type(value: object) -> str:
    """The JSON name of a value's type, for messages a referee can read."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, float) and not math.isfinite(value):
        # Python's json accepts these, JSON itself does not: name them.
        return "NaN" if math.isnan(value) else "Infinity"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, list | tuple):
        return "array"
    return type(value).__name__


def show(value: object) -> str:
    """A short display of a bad value (long strings and objects are cut)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def is_int(value: object) -> bool:
    # bool is an int subclass; a JSON true must not pass for the number 1.
    return type(value) is int


def is_number(value: object) -> bool:
    return type(value) is int or (type(value) is float and math.isfinite(value))


def not_an_object(field: str, value: object) -> RuleError:
    return rule_error(field, "not_an_object", gettext_noop("Expected an object, got {type}."), type=json_type(value))


def required(field: str) -> RuleError:
    return rule_error(field, "required", gettext_noop("This field is required."))


def unknown_fields(obj: Mapping[Any, Any], known: Collection[str], base: str = "") -> list[RuleError]:
    """One error per key of `obj` that the game does not know (a typo must not pass silently)."""
    return [
        rule_error(path(base, key), "unknown_field", gettext_noop("Unknown field {name}."), name=str(key))
        for key in obj
        if key not in known
    ]


def check_int(errors: list[RuleError], field: str, value: object, low: int, high: int | None) -> int | None:
    """A whole number in low..high (no upper bound when `high` is None)."""
    if not is_int(value):
        errors.append(
            rule_error(
                field, "not_an_integer", gettext_noop("Expected a whole number, got {type}."), type=json_type(value)
            )
        )
        return None
    assert isinstance(value, int)
    if value < low or (high is not None and value > high):
        if high is None:
            errors.append(
                rule_error(
                    field,
                    "out_of_range",
                    gettext_noop("{value} is too small: the least is {min}."),
                    value=value,
                    min=low,
                )
            )
        else:
            errors.append(
                rule_error(
                    field,
                    "out_of_range",
                    gettext_noop("{value} is out of range: expected {min} to {max}."),
                    value=value,
                    min=low,
                    max=high,
                )
            )
        return None
    return value


def check_choice(errors: list[RuleError], field: str, value: object, choices: Collection[str]) -> str | None:
    """One of the given strings, compared exactly (no case folding: the API spells them)."""
    if type(value) is not str or value not in choices:
        errors.append(
            rule_error(
                field,
                "invalid_choice",
                gettext_noop("{value} is not one of {choices}."),
                value=show(value),
                choices=", ".join(choices),
            )
        )
        return None
    return value


def check_bool(errors: list[RuleError], field: str, value: object) -> bool | None:
    if type(value) is not bool:
        errors.append(
            rule_error(
                field, "not_a_boolean", gettext_noop("Expected true or false, got {type}."), type=json_type(value)
            )
        )
        return None
    return value


def check_list(errors: list[RuleError], field: str, value: object) -> list[Any] | None:
    # A tuple is what a Python caller naturally passes for a JSON array; accept both.
    if not isinstance(value, list | tuple):
        errors.append(
            rule_error(field, "not_a_list", gettext_noop("Expected a list, got {type}."), type=json_type(value))
        )
        return None
    return list(value)


def check_length(errors: list[RuleError], field: str, items: list[Any], length: int) -> bool:
    if len(items) != length:
        errors.append(
            rule_error(
                field,
                "wrong_length",
                gettext_noop("Expected {expected} entries, got {count}."),
                expected=length,
                count=len(items),
            )
        )
        return False
    return True


def whole(value: Number) -> Number:
    """An integral float as an int (JSON prints 100, not 100.0); a half point stays a float."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value
