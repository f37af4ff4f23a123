"""The engine's rule errors in the reader's language.

The engine carries an English template and its parameters in every RuleError; the
template is also the message id of the translation catalogue (extracted from engine/ by
`makemessages`, which knows the engine's `gettext_noop` marker).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext

from engine.core import RuleError


def rule_error_text(error: RuleError) -> str:
    """The error's message in the active language."""
    try:
        return gettext(error.template).format(**error.params)
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
