"""Model rows to plain JSON values and back, field by field, for tournament archives.

The archive carries every concrete field of each model except its primary key and its
relations (those become natural references: a club's slug, a competitor's number, a
player's `ref` within the archive). Fields are found from the models themselves, so a
field added to a model later travels in archives without touching this code.

Reading is strict: an unknown field (an archive from a newer Atout), a missing required
field, a value of the wrong type, outside the field's choices or beyond what the
database can store, is an `ArchiveError` naming the path of the value, e.g. `rounds[1].tables[3].hands[0].number`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator
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


# Only the limits the database itself enforces (lengths, integer ranges) are checked
# here. Format validators (an e-mail address, a slug) are for forms: a value stored by
# the Atout that wrote the archive is kept even if a form here would have refused it,
# or the import would lose it.
_STORAGE_LIMITS = (MaxLengthValidator, MinValueValidator, MaxValueValidator)


def _optional(field: models.Field[Any, Any]) -> bool:
    """May an archive leave this field out (the model then fills it in)?"""
    return bool(
        field.has_default()
        or field.null
        or field.blank
        or getattr(field, "auto_now", False)
        or getattr(field, "auto_now_add", False)
    )


def clean(field: models.Field[Any, Any], value: Any, path: str) -> Any:
    """`value` converted to the field's type and checked like a form would, or an ArchiveError."""
    try:
        value = field.to_python(value)
        if value is None:
            if not field.null:
                raise ValidationError("a value is required")
            return None
        if isinstance(value, datetime) and timezone.is_naive(value):
            raise ValidationError("a date and time must give its UTC offset")
        # An empty value of a field that may be blank is no choice, as Django's own checks
        # read it (a belote tournament's empty seating).
        if field.choices and not (field.blank and value in field.empty_values):
            valid = {str(key) for key, _label in field.flatchoices}
            if str(value) not in valid:
                raise ValidationError(f"{value!r} is not one of {', '.join(sorted(valid))}")
        for validator in field.validators:
            if isinstance(validator, _STORAGE_LIMITS):
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
) -> dict[str, Any]:
    """One record's fields, checked and converted; `references` are keys the caller reads."""
    if not isinstance(data, Mapping):
        raise ArchiveError(f"{path}: expected an object, found {type(data).__name__}")
    fields = data_fields(model, skip=skip)
    unknown = set(data) - set(fields) - set(references)
    if unknown:
        raise ArchiveError(f"{path}: unknown field(s) {', '.join(sorted(unknown))} (an archive from a newer Atout?)")
    missing = [name for name, field in fields.items() if name not in data and not _optional(field)]
    if missing:
        raise ArchiveError(f"{path}: missing field(s) {', '.join(missing)}")
    return {name: clean(field, data[name], f"{path}.{name}") for name, field in fields.items() if name in data}
