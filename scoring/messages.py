"""The engine's rule errors in the reader's language.

The engine carries an English template and its parameters in every RuleError; the
template is also the message id of the translation catalogue (extracted from engine/ by
`makemessages`, which knows the engine's `gettext_noop` marker).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext

from engine.core import RuleError


def _localised(value: Any) -> Any:
    """A number as the reader writes it: 52,5 in French, 52.5 in English."""
    if isinstance(value, float):
        return number_format(value)
    return value


def rule_error_text(error: RuleError) -> str:
    """The error's message in the active language, its numbers written the reader's way."""
    try:
        params = {name: _localised(value) for name, value in error.params.items()}
        return gettext(error.template).format(**params)
    except (KeyError, IndexError, ValueError):
        # A translation whose placeholders drifted from the English must not break a page.
        return error.message


def rule_errors_by_field(errors: Iterable[RuleError], prefix: str = "") -> dict[str, list[str]]:
    """Translated messages grouped by field path, with `prefix.` stripped (a partie's `hands.3`)."""
    grouped: dict[str, list[str]] = {}
    strip = f"{prefix}." if prefix else ""
    for error in errors:
        field = error.field
        if strip and field.startswith(strip):
            field = field[len(strip) :]
        elif prefix and field == prefix:
            field = ""
        grouped.setdefault(field, []).append(rule_error_text(error))
    return grouped
