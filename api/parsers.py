"""The API's JSON parser: DRF's, bounded for bodies sent by anyone.

- *Depth*: Python's json module recurses once per level of nesting, so a body such as
  `[[[[...` 100,000 levels deep exhausts the stack (RecursionError) before a single rule
  is checked. The deepest thing the API reads is a hand's announcements
  (`raw.announcements.B.0.kind`, five levels), so a body deeper than `MAX_DEPTH` is not an
  entry of any kind: it is refused with 400 (code `too_deep`), however the parser failed.
- *Size*: Django refuses a body larger than `DATA_UPLOAD_MAX_MEMORY_SIZE` while it is read
  (RequestDataTooBig); api.errors answers that 413.
- *Encoding*: a body that is not UTF-8 is DRF's ParseError, 400 (code `parse_error`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions, parsers

MAX_DEPTH = 32


def depth_exceeds(value: Any, limit: int) -> bool:
    """Whether `value` nests lists and objects more than `limit` levels (no recursion)."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        current, level = pending.pop()
        if isinstance(current, Mapping):
            children: Any = current.values()
        elif isinstance(current, list):
            children = current
        else:
            continue
        if level > limit:
            return True
        pending.extend((child, level + 1) for child in children)
    return False


def _too_deep() -> exceptions.ParseError:
    return exceptions.ParseError(
        _("The JSON body is nested more than %(limit)s levels deep.") % {"limit": MAX_DEPTH}, code="too_deep"
    )


class BoundedJSONParser(parsers.JSONParser):
    """JSON bodies no deeper than MAX_DEPTH levels."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise _too_deep() from None
        if depth_exceeds(data, MAX_DEPTH):
            raise _too_deep()
        return data
