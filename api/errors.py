"""The API's one error shape, and the exception handler that gives every failure that shape.

Every answer that is not a success carries the same JSON body:

    {"errors": [{"field": "raw.points.A", "code": "points_sum", "message": "..."}]}

- `field` names what the error concerns as a dotted path into the request body
  (`players.1`, `raw.announcements.B.0.kind`), a header (`Idempotency-Key`), or is
  `null` when the error concerns the request as a whole.
- `code` is stable and meant for programs: the engine's rule codes for a hand
  (`points_sum`, `partie_finished`...), DRF's codes for malformed input (`required`,
  `invalid`...), and `not_found`, `permission_denied`, `not_authenticated`... otherwise.
- `message` is for people, in the request's language (Accept-Language: French by
  default, English too).

Services raise Django's `ValidationError` / `PermissionDenied` / `Http404` and
`scoring.services.HandRefused`; views never catch them one by one. The statuses:
400 for a request the rules refuse, 401 without (valid) credentials, 403 for a user or a
table secret that may not do this, 404, 405, 409 when the state of the tournament
refuses the request (the round is still in play, the partie is over, the donne was
stored by another phone), 413 for a body larger than the site reads, 415, 422 for an
Idempotency-Key sent again with another entry, 429; and 503 with `Retry-After` while the
database is out of reach (nothing was stored: send the same request again).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response

from scoring.messages import rule_error_text
from scoring.services import KEY_REUSED, HandRefused

log = logging.getLogger(__name__)

# The database out of reach (restarting, a dropped connection, a deadlock): not a bug but
# a moment to wait. Every write runs in one transaction, so nothing was stored.
DATABASE_AWAY = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5

# Refusals of a hand write that come from the state of the table or the round, not from
# what was typed: the same entry may succeed later, or never, whatever its content.
STATE_CODES = frozenset(
    {"round_closed", "sheet_changed", "partie_finished", "hand_gone", "no_hand", "bad_rule_options", "hand_removed"}
)


class ErrorItemSerializer(serializers.Serializer[Any]):
    """One problem with the request (schema only: the handler builds these as dicts)."""

    field = serializers.CharField(allow_null=True, help_text="Dotted path into the body, a header name, or null.")
    code = serializers.CharField(help_text="Stable code for programs (the engine's rule codes included).")
    message = serializers.CharField(help_text="For people, in the request's language.")
    pointer = serializers.CharField(
        required=False,
        help_text="With `results_refused`: the place in the results file, as a JSON pointer "
        "(/tables/3/hands/2/scores).",
    )
    player_id = serializers.IntegerField(
        required=False,
        help_text="With `same_person`: the id of the club's player the one sent already is (send it as `id`).",
    )


class ErrorSerializer(serializers.Serializer[Any]):
    """The body of every error response of the API."""

    # A declared field: DRF takes it off the class, so it never hides Serializer.errors.
    errors = ErrorItemSerializer(many=True)  # type: ignore[assignment]


def item(field: str | None, code: str, message: str) -> dict[str, Any]:
    return {"field": field or None, "code": code, "message": str(message)}


class ApiError(Exception):
    """A refusal already in the API's shape, with its status and any extra body keys."""

    def __init__(self, status_code: int, errors: list[dict[str, Any]], **extra: Any) -> None:
        super().__init__(errors[0]["message"] if errors else str(status_code))
        self.status_code = status_code
        self.errors = errors
        self.extra = extra


def _drf_items(detail: Any, path: str = "") -> Iterator[dict[str, Any]]:
    """Flatten DRF's nested error details into items with dotted field paths."""
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            key = "" if key in (NON_FIELD_ERRORS, "non_field_errors") else str(key)
            yield from _drf_items(value, f"{path}.{key}" if path and key else path or key)
    elif isinstance(detail, list):
        # A list of messages for one field, or a list of per-item errors (many=True).
        nested = any(isinstance(entry, Mapping | list) for entry in detail)
        for index, entry in enumerate(detail):
            if nested:
                if entry:
                    yield from _drf_items(entry, f"{path}.{index}" if path else str(index))
            else:
                yield from _drf_items(entry, path)
    else:
        yield item(path, getattr(detail, "code", None) or "invalid", str(detail))


def django_validation_items(
    error: DjangoValidationError, fields: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """A service's ValidationError as items; `fields` renames the service's keys."""
    fields = fields or {}
    if hasattr(error, "error_dict"):
        return [
            item(
                None if key == NON_FIELD_ERRORS else fields.get(key, key),
                problem.code or "invalid",
                " ".join(str(message) for message in problem.messages),
            )
            # A player the club already has (tournaments.services.SAME_PERSON): their id.
            | ({"player_id": problem.params["player_id"]} if problem.params and "player_id" in problem.params else {})
            for key, problems in error.error_dict.items()
            for problem in problems
        ]
    return [item(None, problem.code or "invalid", " ".join(problem.messages)) for problem in error.error_list]


def hand_refusal_error(refused: HandRefused, prefix: str = "raw") -> ApiError:
    """A scoring refusal as 400 (the entry breaks a rule), 409 (the table's state refuses it)
    or 422 (the idempotency key stands for another entry)."""
    items = []
    for error in refused.errors:
        if error.code in STATE_CODES or error.field in ("reason", "side", "entered_side"):
            field = error.field or None
        else:
            field = f"{prefix}.{error.field}" if error.field else prefix
        items.append(item(field, error.code, rule_error_text(error)))
    codes = {error.code for error in refused.errors}
    if KEY_REUSED in codes:
        # Not the entry's fault nor the table's: the key names another entry (422).
        return ApiError(status.HTTP_422_UNPROCESSABLE_ENTITY, items)
    conflict = bool(codes & STATE_CODES)
    return ApiError(status.HTTP_409_CONFLICT if conflict else status.HTTP_400_BAD_REQUEST, items)


@contextmanager
def refusals(*, conflict: bool = False, fields: Mapping[str, str] | None = None) -> Iterator[None]:
    """Turn a service's ValidationError into the API's shape around a service call.

    `conflict=True` for actions whose only input is the state of the tournament (draw,
    close, start...): the service refusing them means the state forbids it now (409).
    Otherwise the request's values were refused (400). `fields` renames the service's
    error keys to the request's field paths.
    """
    try:
        yield
    except DjangoValidationError as error:
        code = status.HTTP_409_CONFLICT if conflict else status.HTTP_400_BAD_REQUEST
        raise ApiError(code, django_validation_items(error, fields)) from error
    except HandRefused as refused:
        raise hand_refusal_error(refused) from refused


def database_away_items() -> list[dict[str, Any]]:
    message = _("The site cannot reach its database for a moment: nothing was stored. Try again in a few seconds.")
    return [item(None, "unavailable", message)]


def _response(status_code: int, items: list[dict[str, Any]], headers: dict[str, str] | None = None) -> Response:
    return Response({"errors": items}, status=status_code, headers=headers)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF's exception handler for the API views: every exception gets the error shape."""
    if isinstance(exc, ApiError):
        return Response({"errors": exc.errors, **exc.extra}, status=exc.status_code)
    if isinstance(exc, HandRefused):
        exc = hand_refusal_error(exc)
        return Response({"errors": exc.errors}, status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        return _response(status.HTTP_400_BAD_REQUEST, django_validation_items(exc))
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        message = _("The request body is larger than the %(limit)s bytes the site accepts.") % {"limit": limit}
        return _response(status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, [item(None, "too_large", message)])
    if isinstance(exc, SuspiciousOperation):
        # Too many fields, a broken multipart body...: the request, not the site, is at fault.
        return _response(status.HTTP_400_BAD_REQUEST, [item(None, "bad_request", _("The request is malformed."))])
    if isinstance(exc, Http404):
        return _response(status.HTTP_404_NOT_FOUND, [item(None, "not_found", _("Not found."))])
    if isinstance(exc, PermissionDenied):
        message = _("You may not do this: it belongs to another club's organisers.")
        return _response(status.HTTP_403_FORBIDDEN, [item(None, "permission_denied", message)])
    if isinstance(exc, exceptions.ValidationError):
        return _response(status.HTTP_400_BAD_REQUEST, list(_drf_items(exc.detail)))
    if isinstance(exc, exceptions.APIException):
        headers: dict[str, str] = {}
        # Only some exceptions carry these (NotAuthenticated's challenge, Throttled's wait).
        auth_header = getattr(exc, "auth_header", None)
        if auth_header:
            headers["WWW-Authenticate"] = str(auth_header)
        wait = getattr(exc, "wait", None)
        if wait:
            headers["Retry-After"] = str(int(wait))
        code = exc.get_codes()
        items = list(_drf_items(exc.detail)) if isinstance(exc.detail, dict | list) else []
        if not items:
            items = [item(None, code if isinstance(code, str) else "error", str(exc.detail))]
        return _response(exc.status_code, items, headers)
    if isinstance(exc, DATABASE_AWAY):
        log.warning("database unavailable: %s", exc)
        return _response(
            status.HTTP_503_SERVICE_UNAVAILABLE, database_away_items(), {"Retry-After": str(RETRY_AFTER_SECONDS)}
        )
    # A bug, not a refusal: logged with its traceback, and still answered in the shape.
    log.exception("api error", exc_info=exc)
    message = _("Something went wrong on the server; the error is logged.")
    return _response(status.HTTP_500_INTERNAL_SERVER_ERROR, [item(None, "server_error", message)])
