"""Entry at the table: a scoring app sends each donne with the table's secret.

The secret goes in the `X-Table-Token` header (api.access: the referee pages' own gate
and wrong-token limiter). Writes call the same services as the referee's web form, so
the guarantees are the form's:

- *Idempotency-Key* (header, up to 64 characters): a resend of the same entry (a
  dropped connection, an offline queue) gets the stored hand back (200, `replayed`),
  never a second donne; the database's unique (table, key) backs it. The same key with
  another entry is refused (422, `idempotency_key_reused`): nothing is stored. The key of
  a hand deleted since (undone, deleted by the director) is refused (409,
  `hand_removed`): what was removed stays removed.
- *expected_number*: the donne the app thinks it is entering. When another phone
  stored that donne first, nothing is written and the answer is 409 with that donne
  (`hand`), so the app can show it and ask.
- Writers of one table queue on its row lock; other tables go on (scoring.services).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import selectors
from api.access import HasTableToken, TableTokenAuthentication, table_of
from api.errors import ErrorItemSerializer, hand_refusal_error, item, refusals
from api.serializers import HandField, HandSerializer, TableDetailSerializer, TableResultSerializer
from api.views.base import ApiView, errors
from scoring import services
from scoring.models import Hand
from tournaments.models import Table

IDEMPOTENCY_KEY = OpenApiParameter(
    name="Idempotency-Key",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="One key per entry (a UUID): sending the same entry again returns the stored hand.",
)
# A side is an index into the sides of the table's game, and the table decides how many:
# scoring.services refuses one it does not have (400, code bad_side, naming the range).
# The schema bounds a side only by its storage's small integer.
SIDE_STORAGE_MAX = 32_767
SIDES = (
    "0 or 1 for the two teams of belote at four, one side per player elsewhere (0 to 2 at the games for "
    "three, 0 to 3 at tarot à 4, 0 to 4 at tarot à 5); a side the table does not have is refused "
    "(400, code bad_side)"
)
# What a hand's history shows as the author of an entry or confirmation made here.
AUTHOR_LABEL = "API"


class TableView(ApiView):
    authentication_classes = [TableTokenAuthentication]
    permission_classes = [HasTableToken]


class TableInfoSerializer(serializers.Serializer[Any]):
    tournament = serializers.SlugField()
    game = serializers.CharField()
    confirmation_required = serializers.BooleanField()
    next_number = serializers.IntegerField(help_text="The number of the next donne to enter.")
    finished = serializers.BooleanField(help_text="The partie is over: no donne can follow.")
    table = TableDetailSerializer()


class EntrySerializer(serializers.Serializer[Any]):
    raw = HandField(help_text="The hand, as the engine reads it (see docs/rules.md and docs/engine-cli.md).")
    expected_number = serializers.IntegerField(
        required=False, min_value=1, max_value=32_767, help_text="The donne the app means to enter."
    )
    entered_side = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=SIDE_STORAGE_MAX,
        help_text=f"The side that typed it (for confirmation): {SIDES}.",
    )


class EntryResultSerializer(serializers.Serializer[Any]):
    hand = HandSerializer()
    result = TableResultSerializer(allow_null=True)
    replayed = serializers.BooleanField(help_text="true: this Idempotency-Key was seen; the hand is the stored one.")


class EntryConflictSerializer(serializers.Serializer[Any]):
    # A declared field: DRF takes it off the class, so it never hides Serializer.errors.
    errors = ErrorItemSerializer(many=True)  # type: ignore[assignment]
    hand = HandSerializer(required=False, help_text="The donne another phone stored first (code donne_taken).")


class ConfirmSerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField(
        min_value=0, max_value=SIDE_STORAGE_MAX, help_text=f"The side that agrees (not the one that typed it): {SIDES}."
    )


def _info(table: Any) -> dict[str, Any]:
    rnd = table.round
    tournament = rnd.tournament
    detail = selectors.table_detail(tournament, rnd, table)
    result = detail["result"]
    hands = detail["hands"]
    return {
        "tournament": tournament.slug,
        "game": tournament.game,
        "confirmation_required": tournament.confirmation_required,
        "next_number": (hands[-1]["number"] + 1) if hands else 1,
        "finished": bool(result is not None and result.finished),
        "table": detail,
    }


class TableInfoView(TableView):
    @extend_schema(
        operation_id="table_current",
        summary="The table this secret opens: who sits where, the donnes so far, what comes next",
        responses={200: TableInfoSerializer, **errors(401, 403, 429)},
        tags=["table entry"],
    )
    def get(self, request: Request) -> Response:
        return Response(TableInfoSerializer(_info(table_of(request))).data)


class HandEntryView(TableView):
    @extend_schema(
        operation_id="hand_submit",
        summary="Enter the table's next donne",
        description="201 with the stored hand; 200 with `replayed: true` for an Idempotency-Key already used "
        "with this same entry; 422 (code idempotency_key_reused, naming that donne) when it was used with "
        "another entry; 409 (code hand_removed) when the hand stored with it was deleted since; "
        "409 (code donne_taken, with `hand`) when expected_number was stored by another phone; 400 with the "
        "engine's codes (fields under `raw.`) when the hand breaks a rule; 409 when the partie is over or the "
        "round closed.",
        parameters=[IDEMPOTENCY_KEY],
        request=EntrySerializer,
        responses={
            201: EntryResultSerializer,
            200: EntryResultSerializer,
            409: OpenApiResponse(EntryConflictSerializer, description="The table's state refuses it (see codes)."),
            **errors(400, 401, 403, 422, 429),
        },
        tags=["table entry"],
    )
    def post(self, request: Request) -> Response:
        table = table_of(request)
        entry = EntrySerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data = entry.validated_data
        key = request.META.get("HTTP_IDEMPOTENCY_KEY") or None
        try:
            outcome = services.hand_submit(
                table=table,
                raw=data["raw"],
                idempotency_key=key,
                expected_number=data.get("expected_number"),
                # A scoring app at the table is a referee: its donnes wait for the other
                # side's confirmation like the form's (scoring.services counts only
                # referee entries as pending), and the revision records the API.
                via=Hand.Via.REFEREE,
                author_label=AUTHOR_LABEL,
                entered_side=data.get("entered_side"),
            )
        except services.HandRefused as refused:
            error = hand_refusal_error(refused)
            for problem in error.errors:
                # The service's refusals of the key itself: name the header.
                if problem["code"] in ("bad_key", services.KEY_REUSED, services.HAND_REMOVED):
                    problem["field"] = "Idempotency-Key"
            raise error from refused
        hand = outcome.hand
        assert hand is not None
        if outcome.conflict:
            message = _("Donne %(number)s was already entered from another phone: nothing was stored.") % {
                "number": hand.number
            }
            body = {"errors": [item("expected_number", "donne_taken", message)], "hand": HandSerializer(hand).data}
            return Response(body, status=status.HTTP_409_CONFLICT)
        body = EntryResultSerializer({"hand": hand, "result": outcome.result, "replayed": outcome.replayed}).data
        return Response(body, status=status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK)


class LastDonneCorrectionSerializer(serializers.Serializer[Any]):
    raw = HandField(help_text="The corrected donne, as the engine reads it.")
    entered_side = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=SIDE_STORAGE_MAX,
        help_text=f"The side that typed it (for confirmation): {SIDES}.",
    )


class UndoResultSerializer(serializers.Serializer[Any]):
    result = TableResultSerializer(allow_null=True, help_text="The table's result without the donne taken back.")


class LastHandView(TableView):
    """The table's last donne, which the table may correct or take back until the partie ends."""

    @extend_schema(
        operation_id="hand_correct_last",
        summary="Correct the table's last donne (until the partie is over)",
        description="`donne` must be the last one on the sheet (409 sheet_changed otherwise: another phone "
        "moved it). With confirmation, the corrected donne waits for the other side again.",
        request=LastDonneCorrectionSerializer,
        responses={200: EntryResultSerializer, **errors(400, 401, 403, 404, 409, 429)},
        tags=["table entry"],
    )
    def put(self, request: Request, donne: int) -> Response:
        table = table_of(request)
        entry = LastDonneCorrectionSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data = entry.validated_data
        with refusals():
            outcome = services.hand_correct_last(
                table=table,
                raw=data["raw"],
                expected_number=donne,
                author_label=AUTHOR_LABEL,
                entered_side=data.get("entered_side"),
            )
        return Response(EntryResultSerializer({"hand": outcome.hand, "result": outcome.result, "replayed": False}).data)

    @extend_schema(
        operation_id="hand_undo_last",
        summary="Take back the table's last donne (until the partie is over)",
        description="`donne` must be the last one on the sheet (409 sheet_changed otherwise). The history keeps it.",
        request=None,
        responses={200: UndoResultSerializer, **errors(401, 403, 404, 409, 429)},
        tags=["table entry"],
    )
    def delete(self, request: Request, donne: int) -> Response:
        table = table_of(request)
        with refusals():
            services.hand_undo_last(table=table, expected_number=donne, author_label=AUTHOR_LABEL)
        result = getattr(Table.objects.select_related("result").get(pk=table.pk), "result", None)
        return Response(UndoResultSerializer({"result": result}).data)


class HandConfirmView(TableView):
    @extend_schema(
        operation_id="hand_confirm",
        summary="A player of another side agrees with a pending donne: from now on it counts",
        request=ConfirmSerializer,
        responses={200: HandSerializer, **errors(400, 401, 403, 404, 409, 429)},
        tags=["table entry"],
    )
    def post(self, request: Request, donne: int) -> Response:
        table = table_of(request)
        data = ConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hand = get_object_or_404(Hand, table=table, number=donne)
        hand = services.hand_confirm(hand=hand, side=data.validated_data["side"], author_label=AUTHOR_LABEL)
        return Response(HandSerializer(hand).data)
