"""Structured log lines: one per request, one per background job, errors with a request id.

Terms (request id, fields): docs/glossary.md. A proxy may hand a request id over in
`X-Request-ID`; otherwise the middleware makes one. Fields are passed as
`extra={"fields": {...}}`.

Two renderings, chosen by the `LOG_FORMAT` setting: `kv` (key=value after the message,
easy on a terminal and for grep) and `json` (one object per line, for a log shipper).
The ids come from context variables, so they are right in threads and in async code.

Every handler the site configures (Django's LOGGING, gunicorn's, and so the Celery
worker's, which keeps Django's) is built by `console_handler`, whose filters run on each
record before it is written:
- `ContextFilter` stamps the ids;
- `OneLineRefusals` makes a refusal (a 4xx answer: permission denied, a CSRF failure, a
  suspicious operation) one line, the request's own (its reason in `refusal`), without
  the traceback a visitor could otherwise make the site write again and again;
- `RedactSecrets` cuts every secret down to its first characters (`redact`): a referee's
  table link, a competitor's « Ma soirée » link, an invitation, a password reset link, an
  API or table token in a header, a secret named in a query string. Whoever reads the logs cannot use what they read.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Mapping
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
            # The traceback follows on its own lines, after the line that names the request
            # (as RedactSecrets left it in exc_text, when it went through it).
            line += "\n" + (record.exc_text or self.formatException(record.exc_info))
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
            body["exc_info"] = record.exc_text or self.formatException(record.exc_info)
        return json.dumps(body, ensure_ascii=False, default=str)


FORMATTERS: dict[str, type[logging.Formatter]] = {"kv": KeyValueFormatter, "json": JsonFormatter}


# -- secrets: never whole in a line ------------------------------------------------------

# How many characters of a secret a line keeps, at most: enough to tell two links apart
# in a night's log, far too few to use one (a table's token is 32 characters). Shorter
# secrets keep a quarter of theirs, and nothing under 4 characters.
SECRET_SHOWN = 4
ELLIPSIS = "…"
# A path separator, as written or %-encoded (a path inside a query string: `?next=/r/...`).
_SEP = r"(?:/|%2[Ff])"
# The paths whose next segment is a secret, after a separator (the site's own routes:
# tests/production/test_log_secrets.py checks that every route taking a secret is listed).
# `login/reset/<uidb64>/` is Django's password reset link; the user's id is no secret.
SECRET_ROUTES = (
    "r",  # a table's referee link (scoring/urls.py)
    "soiree",  # a competitor's « Ma soirée » link (scoring/urls.py)
    "door",  # a tournament's door for the self check-in (tournaments/door_urls.py)
    "invitation",  # an invitation to join a club (tournaments/club_urls.py)
    rf"login{_SEP}reset{_SEP}[^/\s?#&%]+",  # a password reset link (atout/urls.py)
    rf"signup{_SEP}confirm",  # a sign-up's confirmation link (accounts/signup_views.py)
)
# Possessive, and never followed by the ellipsis: a secret already cut is left alone,
# so that redacting a line twice changes nothing.
_PATH_SECRET = re.compile(
    rf"(?P<before>{_SEP}(?:{'|'.join(SECRET_ROUTES)}){_SEP})(?P<secret>[^/\s?#&%\"'<>{ELLIPSIS}]++)(?!{ELLIPSIS})"
)
# A value whose name says it is a secret, wherever it is written: `?token=...` or
# `&csrfmiddlewaretoken=...` in a query string, `Authorization: Token <key>` and
# `X-Table-Token: ...` in headers, `'HTTP_COOKIE': '...'` in a request's repr,
# `"password": "..."` in JSON, `Key (token)=(...)` in a database error.
_SECRET_NAMES = r"token|secret|passw(?:or)?d|pwd|api[_-]?key|signature|authori[sz]ation|session(?:id)?|cookie"
_NAMED_SECRET = re.compile(
    rf"(?P<before>(?<![\w.-])[\w.-]*?(?:{_SECRET_NAMES})[\w.-]*"
    r"(?:=|%3[Dd]|[\"']?\s*:\s*[\"']?|\)=\()"
    r"(?:(?:token|bearer|basic)\s+)?+)"
    rf"(?P<secret>[^\s&\"',;<>)}}\]{ELLIPSIS}]++)(?!{ELLIPSIS})",
    re.IGNORECASE,
)

# What every line is first looked through for, lower-cased (plain substring searches: a
# regular expression ignoring case costs ten times as much): a piece of a secret's name,
# or of a route taking one. Most lines hold none, and are written as they are.
_NAME_HINTS = ("token", "secret", "passw", "pwd", "key", "signature", "authori", "session", "cookie")
_ROUTE_HINTS = ("/r/", "soiree", "door", "invitation", "reset", "signup", "%2f")


def _cut(match: re.Match[str]) -> str:
    secret = match.group("secret")
    return match.group("before") + secret[: min(SECRET_SHOWN, len(secret) // 4)] + ELLIPSIS


def redact(text: str) -> str:
    """`text` with every secret it holds cut to its first characters and an ellipsis.

    The one rule of what a log line may not hold whole, for every line the site writes
    (`RedactSecrets`): `/r/1JnThV8Q.../hands/` becomes `/r/1JnT…/hands/`.
    """
    lowered = text.lower()
    if any(hint in lowered for hint in _ROUTE_HINTS):
        text = _PATH_SECRET.sub(_cut, text)
    if any(hint in lowered for hint in _NAME_HINTS):
        text = _NAMED_SECRET.sub(_cut, text)
    return text


class RedactSecrets(logging.Filter):
    """Writes each record's message, fields, traceback and stack through `redact`.

    The message is rendered here (its arguments merged in), so that no secret waits in an
    argument; the traceback is rendered into `exc_text`, which the site's formatters write.
    """

    _plain = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: logging reports it, not this filter
            return True
        record.msg, record.args = redact(message), None
        fields = getattr(record, "fields", None)
        if isinstance(fields, Mapping):
            record.fields = {key: redact(v) if isinstance(v, str) else v for key, v in fields.items()}
        if record.exc_info and not record.exc_text:
            record.exc_text = self._plain.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


# -- refusals: one line each ---------------------------------------------------------------


def _refusal(record: logging.LogRecord) -> bool:
    """Whether `record` tells of a request the site refused (a 4xx answer), not of a fault."""
    status = getattr(record, "status_code", None)
    if isinstance(status, int):
        return 400 <= status < 500
    # Without a status (a logger other than Django's handler): by the exception's kind.
    from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation

    error = record.exc_info[1] if record.exc_info else None
    return isinstance(error, PermissionDenied | SuspiciousOperation | BadRequest)


class OneLineRefusals(logging.Filter):
    """A refused request (permission denied, a CSRF failure, a suspicious operation, a
    malformed request: any 4xx Django logs) is one line: the request's own.

    Django writes the reason of each on a line of its own, most with the whole traceback
    (twenty lines and more) though the site did what it meant to; a visitor could make
    it write those lines at will. Here the reason, in one line with the exception's kind
    and message, goes into the request's line (`refusal`, atout.middleware), at Django's
    level if higher, and Django's line is not written; the status Django restates after
    the request's line is not written either. A record about no request the site's
    middleware logs is written as one line, without its traceback. A server error (5xx)
    keeps its traceback.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if not _refusal(record):
            return True
        reason = self._reason(record)
        request: Any = getattr(record, "request", None)
        if getattr(request, "request_id", None):
            if not getattr(request, "log_written", False) and not getattr(request, "log_refusal", None):
                request.log_refusal = reason
                request.log_refusal_level = record.levelno
            return False
        record.msg, record.args = reason, None
        record.exc_info = record.exc_text = record.stack_info = None
        return True

    @staticmethod
    def _reason(record: logging.LogRecord) -> str:
        """Django's message without the path it ends with (the line has its own), and the
        exception's kind and message when the message does not already say it."""
        message = record.getMessage()
        request = getattr(record, "request", None)
        path = getattr(request, "path", None)
        if isinstance(path, str):
            escaped = path.encode("unicode_escape").decode("ascii")  # as Django's log_response wrote it
            message = message.removesuffix(f": {escaped}")
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            told = str(error)
            if not told or told in message:
                message += f" ({type(error).__name__})"
            else:
                message += f" ({type(error).__name__}: {told})"
        return " ".join(message.split())  # one line, whatever the exception's message held


# -- the one handler every process writes through --------------------------------------------

# The filters of `console_handler`, by the names its configuration gives them; the order
# matters: the refusal's line is written before it is redacted.
FILTERS: dict[str, dict[str, str]] = {
    "context": {"()": "kit.logs.ContextFilter"},
    "refusals": {"()": "kit.logs.OneLineRefusals"},
    "redact": {"()": "kit.logs.RedactSecrets"},
}


def console_handler(formatter: str, stream: str | None = None) -> dict[str, object]:
    """The configuration of the site's one log handler (logging.config.dictConfig): a
    stream, `formatter`, and every filter of FILTERS, in their order. Django's LOGGING
    (atout/settings.py, which the Celery worker keeps) and gunicorn's (atout/gunicorn_conf.py)
    both write through it, so every line passes the same filters."""
    handler: dict[str, object] = {"class": "logging.StreamHandler", "formatter": formatter, "filters": list(FILTERS)}
    if stream is not None:
        handler["stream"] = stream
    return handler
