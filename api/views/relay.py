"""The relay's receiving end: POST /api/v1/relay/, an item from the club's venue laptop.

The body is one item of the relay (docs/relay.md; relay/receiving.py), sent with an API
token of an organiser of the club it names. Taken: 201; already taken (the venue sent it
again after a lost answer): 200; refused: 400 with the place of the problem, 403 for a
club the token's user does not organise, 404 for an unknown club, 409 for another club's
tournament. The body is JSON read by the API's parser: bounded by DATA_UPLOAD_MAX_MEMORY_SIZE (413),
its depth bounded and a NUL anywhere refused (400).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ApiError, item
from api.views.base import ApiView, errors
from relay.receiving import RelayRefused, relay_receive


class RelayAnswerSerializer(serializers.Serializer[Any]):
    tournament = serializers.SlugField(help_text="The slug of the club's tournament the item went to.")
    done = serializers.ChoiceField(choices=["taken", "already"], help_text="already: the item was taken before.")


class RelayView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="relay_item",
        summary="Take an item relayed by the club's venue laptop (the club's organisers)",
        description="A ranking version, the draw, or the results file of a tournament played at the venue, "
        "taken into the club's tournament of the same identity (made on first sight). Idempotent by "
        "(tournament, kind, key).",
        request=OpenApiTypes.OBJECT,
        responses={201: RelayAnswerSerializer, 200: RelayAnswerSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["relay"],
    )
    def post(self, request: Request) -> Response:
        try:
            taken = relay_receive(by=request.user, item=request.data)  # type: ignore[arg-type]
        except RelayRefused as refused:
            raise ApiError(refused.status, [item(refused.field, "relay_refused", refused.message)]) from None
        answer = RelayAnswerSerializer({"tournament": taken.tournament.slug, "done": taken.done}).data
        return Response(answer, status=status.HTTP_201_CREATED if taken.done == "taken" else status.HTTP_200_OK)
