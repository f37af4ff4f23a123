"""The API's JSON parser: DRF's, bounded for bodies sent by anyone.

- *Depth*: Python's json module recurses once per level of nesting, so a body such as
  `[[[[...` 100,000 levels deep exhausts the stack (RecursionError) before a single rule
  is checked. The deepest thing the API reads is a hand's announcements
  (`raw.announcements.B.0.kind`, five levels), so a body deeper than `MAX_DEPTH` is not an
  entry of any kind: it is refused with 400 (code `too_deep`), however the parser failed.
- *Size*: Django refuses a body larger than `DATA_UPLOAD_MAX_MEMORY_SIZE` while it is read
  (RequestDataTooBig); api.errors answers that 413.
- *Encoding*: a body that is not UTF-8 is DRF's ParseError, 400 (code `parse_error`).
- *NUL*: a string holding a NUL character (`\\u0000`), as a value or as a key, at any
  depth, is refused with 400 (code `null_character`) before any field sees it: no text
  holds one, and PostgreSQL refuses it in text and in JSON (jsonb) alike. Query strings,
  forms and cookies are refused the same by atout.middleware.RequestTextMiddleware.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions, parsers

MAX_DEPTH = 32


def _walk(value: Any, limit: int) -> str | None:
    """What is wrong with a parsed body, if anything: "too_deep" (nested past `limit`
    levels) or "null_character" (a string or a key holding NUL); no recursion."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        current, level = pending.pop()
        if isinstance(current, str):
            if "\x00" in current:
                return "null_character"
            continue
        if isinstance(current, Mapping):
            if any(isinstance(key, str) and "\x00" in key for key in current):
                return "null_character"
            children: Any = current.values()
        elif isinstance(current, list):
            children = current
        else:
            continue
        if level > limit:
            return "too_deep"
        pending.extend((child, level + 1) for child in children)
    return None


def _too_deep() -> exceptions.ParseError:
    return exceptions.ParseError(
        _("The JSON body is nested more than %(limit)s levels deep.") % {"limit": MAX_DEPTH}, code="too_deep"
    )


def refuse_unsafe(data: Any) -> None:
    """Refuse (400) parsed JSON nested past MAX_DEPTH levels or holding a NUL, as every
    body the API parses is refused: also for a view that reads its body itself."""
    wrong = _walk(data, MAX_DEPTH)
    if wrong == "too_deep":
        raise _too_deep()
    if wrong == "null_character":
        raise exceptions.ParseError(
            _("The JSON body holds a null character (\\u0000), which no text on this site may hold."),
            code="null_character",
        )


def parsed_or_none(body: bytes) -> Any:
    """`body` parsed as JSON and refused as `refuse_unsafe` refuses it; None when it is
    not JSON at all (the view says where it breaks)."""
    try:
        data = json.loads(body)
    except RecursionError:
        raise _too_deep() from None
    except ValueError:
        return None
    refuse_unsafe(data)
    return data


class BoundedJSONParser(parsers.JSONParser):
    """JSON bodies no deeper than MAX_DEPTH levels, and without a NUL in any string."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise _too_deep() from None
        refuse_unsafe(data)
        return data
