"""Conditional GETs for the public endpoints: an ETag on every answer, 304 when it holds.

A display polls the ranking every few seconds; most polls find nothing new. A view
names what its body depends on (`etag_parts`: the standings version, the newest
`updated_at` of a round's results...), read with one small query and without building
the body, and the answer is 304 with no body while those parts are unchanged. A view
whose data carries no version hashes its body instead: the client still saves the
download, the server only the sending.

The language is part of every tag: the same data reads differently in French and in
English (labels of criteria, statuses).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, TypeVar

from django.http.response import HttpResponseBase
from django.utils.http import parse_etags
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.request import Request
from rest_framework.response import Response

IF_NONE_MATCH = OpenApiParameter(
    name="If-None-Match",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="An ETag of an earlier answer: 304 with no body while it still holds.",
)
ETAG = OpenApiParameter(
    name="ETag",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    response=[200, 304],
    description="The version of this answer: send it back in If-None-Match.",
)
# The parameters of every conditional GET: the request's If-None-Match, the answer's ETag.
CONDITIONAL = [IF_NONE_MATCH, ETAG]
NOT_MODIFIED = OpenApiResponse(description="Not modified: the ETag sent in If-None-Match still holds (no body).")


def conditional_responses(serializer: Any, more: dict[int, Any]) -> dict[int, Any]:
    """A conditional GET's documented answers: 200, 304, and `more` (the errors)."""
    return {200: serializer, 304: NOT_MODIFIED, **more}


# Any answer takes a tag: DRF's, or a plain one (a CSV file).
_Answer = TypeVar("_Answer", bound=HttpResponseBase)


def make_etag(*parts: object) -> str:
    digest = hashlib.sha256(json.dumps([str(part) for part in parts]).encode()).hexdigest()[:32]
    return f'"{digest}"'


def matches(request: Request, etag: str) -> bool:
    header = request.META.get("HTTP_IF_NONE_MATCH", "")
    if not header:
        return False
    # Weak comparison, as RFC 9110 asks for If-None-Match: W/"x" matches "x".
    wanted = {tag.removeprefix("W/") for tag in parse_etags(header)}
    return "*" in wanted or etag in wanted


def tagged(response: _Answer, etag: str) -> _Answer:
    response["ETag"] = etag
    # Always ask again (the ETag makes asking cheap); never a stale ranking from a cache.
    response["Cache-Control"] = "no-cache"
    response["Vary"] = "Accept, Accept-Language, Cookie, Authorization"
    return response


class ConditionalGetMixin:
    """For a view whose `get` answers through `conditional(request, build, *parts)`."""

    def conditional(self, request: Request, build: Any, *parts: object) -> Response:
        """304 when `parts` (with the path, query and language) match If-None-Match; else `build()`."""
        etag = make_etag(request.get_full_path(), get_language(), *parts)
        if matches(request, etag):
            return tagged(Response(status=304), etag)
        built: Response = build()
        return tagged(built, etag)

    def hashed(self, request: Request, response: Response) -> Response:
        """For data with no version to compare: the tag is a hash of the body itself."""
        if response.status_code != 200:
            return response
        body = json.dumps(response.data, sort_keys=True, default=str)
        etag = make_etag(request.get_full_path(), get_language(), body)
        if matches(request, etag):
            return tagged(Response(status=304), etag)
        return tagged(response, etag)
