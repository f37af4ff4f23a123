"""What every API view shares: JSON in and out, the error shape, the authentication order.

Authentication: an API token (`Authorization: Token <key>`, api.authentication) first,
then the site's session. The token comes first so that an anonymous write is told 401 with
`WWW-Authenticate: Token` (DRF takes that header from the first authenticator; the
session's has none, and would turn the 401 into a 403).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import authentication, pagination, renderers
from rest_framework.views import APIView

from api.authentication import ApiTokenAuthentication
from api.errors import ErrorSerializer, exception_handler
from api.parsers import BoundedJSONParser


class ApiPagination(pagination.PageNumberPagination):
    """`?page=n` (from 1) and `?page_size=` up to 200; 50 by default."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class ApiView(APIView):
    renderer_classes = [renderers.JSONRenderer]
    parser_classes = [BoundedJSONParser]
    authentication_classes = [ApiTokenAuthentication, authentication.SessionAuthentication]

    def get_exception_handler(self) -> Callable[[Exception, dict[str, Any]], Any]:
        return exception_handler


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """The error responses of an operation, each with the API's one error shape."""
    descriptions = {
        400: "The request breaks a rule: each error names its field.",
        401: "No valid credentials (an API token, a session, or a table's secret).",
        403: "These credentials may not do this (another club's tournament, a withdrawn table secret).",
        404: "Not found (or not visible to this caller).",
        409: "The tournament's state refuses this now (round in play, partie over, donne already stored).",
        422: "This Idempotency-Key was used for another entry: nothing was stored (code idempotency_key_reused).",
        429: "Too many wrong table secrets from this address: wait a few minutes.",
    }
    return {code: OpenApiResponse(ErrorSerializer, description=descriptions[code]) for code in statuses}
