"""Structured log lines: one per request, one per background job, errors with a request id.

Terms (request id, fields): docs/glossary.md. A proxy may hand a request id over in
`X-Request-ID`; otherwise the middleware makes one. Fields are passed as
`extra={"fields": {...}}`.

Two renderings, chosen by the `LOG_FORMAT` setting: `kv` (key=value after the message,
easy on a terminal and for grep) and `json` (one object per line, for a log shipper).
The ids come from context variables, so they are right in threads and in async code.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

request_id_var: ContextVar[str | None] = ContextVar("atout_request_id", default=None)
task_id_var: ContextVar[str | None] = ContextVar("atout_task_id", default=None)

# What a proxy may pass as a request id: letters, digits and a few separators, at most
# 128 characters. Anything else (spaces, quotes, newlines) could forge or break log lines,
# so it is replaced by an id of our own rather than cleaned up.
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@+/=-]{0,127}")


def new_request_id() -> str:
    return uuid.uuid4().hex


def sane_request_id(candidate: str | None) -> str | None:
    """The proxy's request id if it is safe to log as it is, else None."""
    if candidate and _SANE_REQUEST_ID.fullmatch(candidate):
        return candidate
    return None


class ContextFilter(logging.Filter):
    """Stamps every record with the current request id and task id (None outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id_var.get()
        if not hasattr(record, "task_id"):
            record.task_id = task_id_var.get()
        return True


def record_fields(record: logging.LogRecord) -> dict[str, Any]:
    """The structured fields of a record: its `fields` extra, then the request and task ids.

    Other `extra` attributes are left out on purpose: libraries attach their own (Celery
    repeats its whole message as `data`), and a line should hold what Atout chose to say.
    """
    fields: dict[str, Any] = dict(getattr(record, "fields", None) or {})
    for key in ("request_id", "task_id"):
        value = getattr(record, key, None)
        if value is not None:
            fields.setdefault(key, value)
    return fields


def _timestamp(record: logging.LogRecord) -> str:
    return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _kv_value(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.1f}"
    text = str(value)
    # Quote anything a reader (or a regex) would split wrongly; json.dumps escapes newlines.
    if not text or any(ch in text for ch in ' ="\n\t'):
        return json.dumps(text, ensure_ascii=False)
    return text


class KeyValueFormatter(logging.Formatter):
    """`2026-12-05T20:31:02.123Z INFO atout.request request method=GET path=/ status=200 ...`"""

    def format(self, record: logging.LogRecord) -> str:
        parts = [_timestamp(record), record.levelname, record.name, record.getMessage()]
        parts.extend(f"{key}={_kv_value(value)}" for key, value in record_fields(record).items())
        line = " ".join(parts)
        if record.exc_info:
            # The traceback follows on its own lines, after the line that names the request.
            line += "\n" + self.formatException(record.exc_info)
        elif record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the fields, the traceback."""

    def format(self, record: logging.LogRecord) -> str:
        body: dict[str, Any] = {
            "time": _timestamp(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record_fields(record).items():
            body.setdefault(key, value)
        if record.exc_info:
            body["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(body, ensure_ascii=False, default=str)


FORMATTERS: dict[str, type[logging.Formatter]] = {"kv": KeyValueFormatter, "json": JsonFormatter}
