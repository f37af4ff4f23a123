"""Model rows to plain JSON values and back, field by field, for tournament archives.

The archive carries every concrete field of each model except its primary key and its
relations (those become natural references: a club's slug, a competitor's number, a
player's `ref` within the archive). Fields are found from the models themselves, so a
field added to a model later travels in archives without touching this code.

Reading is strict: an unknown field (an archive from a newer Atout), a missing required
field, a value of the wrong JSON type, empty where the site requires one, outside the
field's choices, or refused by one of the field's validators (an address that is not a
slug, a length or a number beyond what the site allows) is an `ArchiveError` naming the
path of the value, e.g. `rounds[1].tables[3].hands[0].number`: the same checks as the
site's forms and models, so that nothing imported can be what the site itself would
never have stored (an address its pages cannot link to).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.core.exceptions import ValidationError
from django.core.validators import EmailValidator
from django.db import models
from django.utils import timezone


class ArchiveError(ValueError):
    """The archive cannot be read or imported; the message says where and why."""


def data_fields(model: type[models.Model], *, skip: Iterable[str] = ()) -> dict[str, models.Field[Any, Any]]:
    """The fields an archive carries for `model`: concrete, not the key, not a relation."""
    skipped = set(skip)
    return {
        field.name: field
        for field in model._meta.concrete_fields
        if not field.primary_key and not field.is_relation and field.name not in skipped
    }


def to_json(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal | UUID):
        return str(value)
    return value


def dump(obj: models.Model, *, skip: Iterable[str] = ()) -> dict[str, Any]:
    """Every archived field of `obj`, as JSON values."""
    return {name: to_json(field.value_from_object(obj)) for name, field in data_fields(type(obj), skip=skip).items()}


# The kinds of JSON value each kind of field is read from, as an export writes them; any
# other is refused (a list where a number is due, true where a date is), not coerced.
_JSON_TYPES: tuple[tuple[type[models.Field[Any, Any]], tuple[type, ...], str], ...] = (
    (models.BooleanField, (bool,), "true or false"),
    (models.IntegerField, (int,), "a whole number"),
    (models.DecimalField, (str, int), "a number"),
    (models.DateField, (str,), "a date"),  # DateTimeField too
    (models.UUIDField, (str,), "an identifier"),
    (models.CharField, (str,), "text"),  # SlugField, EmailField too
    (models.TextField, (str,), "text"),
)
# A field's validators are the site's own checks of its shape: an address (a slug), a
# length, a range, a number of digits. Contact data aside: a player's e-mail address that
# a form here would refuse is still theirs, and addresses nothing on the site.
_CONTACT_VALIDATORS = (EmailValidator,)


def _optional(field: models.Field[Any, Any]) -> bool:
    """May an archive leave this field out (the model then fills it in)?"""
    return bool(
        field.has_default()
        or field.null
        or field.blank
        or getattr(field, "auto_now", False)
        or getattr(field, "auto_now_add", False)
    )


def _check_type(field: models.Field[Any, Any], value: Any) -> None:
    for kind, types, said in _JSON_TYPES:
        if isinstance(field, kind):
            if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
                raise ValidationError(f"expected {said}, found {json_type(value)}")
            return


def shown(value: Any, limit: int = 60) -> str:
    """A value as a message quotes it: its repr, cut short (a file may hold a megabyte of it)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, for messages."""
    names = {bool: "true or false", int: "a number", float: "a number", str: "text", list: "a list", dict: "an object"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def clean(field: models.Field[Any, Any], value: Any, path: str, *, blank_ok: bool = False) -> Any:
    """`value` converted to the field's type and checked as the site's forms and models
    check it (its type, choices, blank, every validator), or an ArchiveError.

    `blank_ok`: an empty text is allowed where the site itself writes one (the first name
    of an anonymised player).
    """
    try:
        if value is None:
            if not field.null:
                raise ValidationError("a value is required")
            return None
        _check_type(field, value)
        value = field.to_python(value)
        if isinstance(value, datetime) and timezone.is_naive(value):
            raise ValidationError("a date and time must give its UTC offset")
        text = isinstance(field, models.CharField | models.TextField)
        if text and value == "" and not field.blank and not blank_ok:
            raise ValidationError("a value is required")
        # An empty value of a field that may be blank is no choice, as Django's own checks
        # read it (a belote tournament's empty seating).
        if field.choices and not (field.blank and value in field.empty_values):
            valid = {str(key) for key, _label in field.flatchoices}
            if str(value) not in valid:
                raise ValidationError(f"{shown(value)} is not one of {', '.join(sorted(valid))}")
        if value not in field.empty_values:
            for validator in field.validators:
                if not isinstance(validator, _CONTACT_VALIDATORS):
                    validator(value)
    except ValidationError as exc:
        raise ArchiveError(f"{path}: {'; '.join(str(message) for message in exc.messages)}") from None
    return value


def load(
    model: type[models.Model],
    data: Any,
    path: str,
    *,
    skip: Iterable[str] = (),
    references: Iterable[str] = (),
    blank_ok: Iterable[str] = (),
) -> dict[str, Any]:
    """One record's fields, checked and converted; `references` are keys the caller reads,
    `blank_ok` fields that may be empty text here (see `clean`)."""
    if not isinstance(data, Mapping):
        raise ArchiveError(f"{path}: expected an object, found {json_type(data)}")
    fields = data_fields(model, skip=skip)
    unknown = set(data) - set(fields) - set(references)
    if unknown:
        names = ", ".join(sorted(name if name.isidentifier() and len(name) <= 40 else shown(name) for name in unknown))
        raise ArchiveError(f"{path}: unknown field(s) {names} (an archive from a newer Atout?)")
    missing = [name for name, field in fields.items() if name not in data and not _optional(field)]
    if missing:
        raise ArchiveError(f"{path}: missing field(s) {', '.join(missing)}")
    empty_allowed = set(blank_ok)
    return {
        name: clean(field, data[name], f"{path}.{name}", blank_ok=name in empty_allowed)
        for name, field in fields.items()
        if name in data
    }
