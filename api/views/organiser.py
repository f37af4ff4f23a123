"""The organiser's writes: create a tournament, open and start it, register and check in,
draw and close rounds, correct a hand.

Each endpoint checks the club through `api.access.organiser_tournament` (tournaments.access,
the site's one gate), turns the request into the service's arguments, calls the same
service as the director's pages, and answers what the service returned. No rule lives
here: when a service refuses, its reasons are the answer (api.errors).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import selectors
from api.access import organiser_tournament
from api.errors import ApiError, item, refusals
from api.etags import CONDITIONAL, conditional_responses
from api.serializers import (
    CompetitorSerializer,
    HandField,
    HandSerializer,
    RoundDetailSerializer,
    StorableJSONField,
    TableResultSerializer,
    TournamentDetailSerializer,
    TournamentSummarySerializer,
)
from api.views.base import ApiView, errors
from api.views.public import (
    CompetitorListView,
    PublicListView,
    RoundListView,
    TournamentDetailView,
    TournamentQuerySerializer,
    tournament_list_response,
)
from rounds.services import (
    CLOCK_MINUTES_MAX,
    round_clock_adjust,
    round_clock_start,
    round_clock_stop,
    round_close,
    round_draw,
)
from scoring import services as scoring_services
from scoring.models import Hand
from tournaments import services
from tournaments.models import Club, Competitor, Player, Tournament

WRITE_ERRORS = (400, 401, 403, 404)
# Limits of the database columns (not rules): larger numbers are refused as input.
SMALL_MAX = 32_767
INT_MAX = 2_147_483_647


def _user(request: Request) -> User:
    return request.user  # type: ignore[return-value]


def _detail(tournament: Tournament) -> dict[str, Any]:
    tournament = Tournament.objects.select_related("club").get(pk=tournament.pk)
    return TournamentDetailSerializer(selectors.tournament_detail(tournament)).data


# -- tournaments -----------------------------------------------------------------------


class TournamentCreateSerializer(serializers.Serializer[Any]):
    club = serializers.SlugField(help_text="The slug of a club you organise.")
    name = serializers.CharField(max_length=200)
    date = serializers.DateField()
    game = serializers.ChoiceField(choices=Tournament.Game.choices)
    format = serializers.ChoiceField(choices=Tournament.Format.choices, required=False, help_text="The game's first.")
    rounds_planned = serializers.IntegerField(min_value=0, max_value=SMALL_MAX, default=4)
    end_rule = serializers.ChoiceField(choices=Tournament.EndRule.choices, default=Tournament.EndRule.DONNES)
    end_value = serializers.IntegerField(
        min_value=0, max_value=INT_MAX, required=False, allow_null=True, help_text="The game's usual when omitted."
    )
    pairing_method = serializers.ChoiceField(
        choices=Tournament.PairingMethod.choices, default=Tournament.PairingMethod.SWISS
    )
    first_round_order = serializers.ChoiceField(
        choices=Tournament.FirstRoundOrder.choices,
        default=Tournament.FirstRoundOrder.RANDOM,
        help_text="How round 1 is drawn: `random`, or `rating`: by the players' Atout ratings, the strongest "
        "apart. Fixed once the first round is drawn.",
    )
    criteria = serializers.ListField(
        child=serializers.CharField(max_length=32), required=False, max_length=10, help_text="The game's when omitted."
    )
    bye_policy = serializers.ChoiceField(choices=Tournament.ByePolicy.choices, default="average_win")
    bye_points = serializers.IntegerField(min_value=0, max_value=INT_MAX, default=0)
    late_policy = serializers.ChoiceField(choices=Tournament.LatePolicy.choices, default=Tournament.LatePolicy.ABSENT)
    separate_clubs_rounds = serializers.IntegerField(min_value=0, max_value=SMALL_MAX, default=0)
    table_preference = serializers.ChoiceField(
        choices=Tournament.TablePreference.choices,
        required=False,
        help_text="Tarot à 4 and à 5 only: tables of 4 first or of 5 first; the game's own when omitted "
        "(`four_first` for tarot à 4, `five_first` for tarot à 5). Fixed once the first round is drawn.",
    )
    allow_tables_of_three = serializers.BooleanField(
        required=False,
        help_text="Tarot à 4 and à 5 only: allow a table of 3 as a last resort (false when omitted). "
        "Fixed once the first round is drawn.",
    )
    table_de_cinq = serializers.ChoiceField(
        choices=Tournament.TableDeCinq.choices,
        required=False,
        help_text="Tarot à 4 only: what a table of five plays, `mort` (the default: the dealer sits each donne "
        "out) or `tarot_a_cinq`. Fixed once the first round is drawn.",
    )
    rule_options = serializers.DictField(child=StorableJSONField(), required=False)
    preset = serializers.CharField(
        required=False,
        max_length=32,
        help_text="A preset of the game (GET /games/): every rule option and setting at once; the `rule_options` "
        "and `table_de_cinq` given beside it override it.",
    )
    is_public = serializers.BooleanField(default=True)
    confirmation_required = serializers.BooleanField(default=False)
    entry_fee = serializers.DecimalField(
        max_digits=7, decimal_places=2, min_value=Decimal("0"), default=Decimal("0"), help_text="In euros."
    )


class TournamentsView(PublicListView):
    """GET: the public tournaments; POST: a new tournament (organisers)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="tournament_list",
        summary="The public tournaments, newest first; filter by club, game, status, dates",
        parameters=[*CONDITIONAL, TournamentQuerySerializer],
        responses=conditional_responses(TournamentSummarySerializer(many=True), errors(400, 401, 404)),
        tags=["tournaments"],
    )
    def get(self, request: Request) -> Response:
        return tournament_list_response(self, request)

    @extend_schema(
        operation_id="tournament_create",
        summary="Create a tournament (in draft) for a club you organise",
        request=TournamentCreateSerializer,
        responses={201: TournamentDetailSerializer, **errors(*WRITE_ERRORS)},
        tags=["tournaments"],
    )
    def post(self, request: Request) -> Response:
        data = _valid(TournamentCreateSerializer, request)
        club = Club.objects.filter(slug=data.pop("club")).first()
        if club is None:
            raise ApiError(400, [item("club", "unknown_club", _("No club has this slug."))])
        with refusals():
            tournament = services.tournament_create(by=_user(request), club=club, **data)
        return Response(_detail(tournament), status=status.HTTP_201_CREATED)


class TournamentUpdateSerializer(TournamentCreateSerializer):
    """The settings to change; those left out stay as they are."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, partial=True, **kwargs)
        self.fields.pop("club")


class TournamentView(TournamentDetailView):
    """GET: a tournament (public); PATCH: change its settings (organisers)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="tournament_update",
        summary="Change a tournament's settings (what its status still allows)",
        description="Once the tournament runs, its game, format, end rule, rule options and ranking criteria are "
        "fixed (400 on each such field): the director changes rule options and criteria from the site, which "
        "re-scores every hand in the background. Once the first round is drawn, the seating of tarot à 4 and à 5 "
        "(`table_preference`, `allow_tables_of_three`) and the order of round 1 (`first_round_order`) are fixed "
        "too. Once finished, only its name, date and "
        "visibility change.",
        request=TournamentUpdateSerializer,
        responses={200: TournamentDetailSerializer, **errors(*WRITE_ERRORS)},
        tags=["tournaments"],
    )
    def patch(self, request: Request, slug: str) -> Response:
        tournament = organiser_tournament(request, slug)
        data = _valid(TournamentUpdateSerializer, request)
        with refusals():
            services.tournament_update(by=_user(request), tournament=tournament, **data)
        return Response(_detail(tournament))


def _valid(serializer_class: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class StatusSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=Tournament.Status.choices,
        help_text="draft -> registration -> running -> finished (registration may go back to draft).",
    )


class OrganiserView(ApiView):
    permission_classes = [permissions.IsAuthenticated]


class TournamentStatusView(OrganiserView):
    @extend_schema(
        operation_id="tournament_set_status",
        summary="Open registration, start, or finish a tournament",
        request=StatusSerializer,
        responses={200: TournamentDetailSerializer, **errors(*WRITE_ERRORS, 409)},
        tags=["tournaments"],
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = organiser_tournament(request, slug)
        data = _valid(StatusSerializer, request)
        with refusals(conflict=True):
            services.tournament_set_status(by=_user(request), tournament=tournament, status=data["status"])
        return Response(_detail(tournament))


# -- registration ----------------------------------------------------------------------


class PlayerInputSerializer(serializers.Serializer[Any]):
    """A player of the club by `id`, or a new one by name (added to the club's list)."""

    id = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    last_name = serializers.CharField(required=False, allow_blank=True, max_length=100)
    first_name = serializers.CharField(required=False, allow_blank=True, max_length=100)
    licence = serializers.CharField(required=False, allow_blank=True, max_length=30)
    affiliation = serializers.CharField(required=False, allow_blank=True, max_length=200)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "id" not in attrs and not ("last_name" in attrs or "first_name" in attrs):
            raise serializers.ValidationError(
                {"id": _("Give a player's id, or a new player's last_name and first_name.")}, code="required"
            )
        return attrs


class RegisterSerializer(serializers.Serializer[Any]):
    players = PlayerInputSerializer(many=True, help_text="Two players for a team, one otherwise.")
    name = serializers.CharField(required=False, allow_blank=True, max_length=200, help_text="The team's name.")
    checked_in = serializers.BooleanField(default=False, help_text="Register and check in at once.")


def _players(tournament: Tournament, given: list[dict[str, Any]]) -> list[Player | services.NewPlayer]:
    chosen: list[Player | services.NewPlayer] = []
    for index, values in enumerate(given):
        if "id" in values:
            # Looked up in the tournament's club only: another club's id is unknown here,
            # which tells an outsider nothing either.
            player = Player.objects.filter(pk=values["id"], club=tournament.club).first()
            if player is None:
                raise ApiError(400, [item(f"players.{index}.id", "unknown_player", _("No player has this id."))])
            chosen.append(player)
        else:
            chosen.append(
                services.NewPlayer(
                    last_name=values.get("last_name", ""),
                    first_name=values.get("first_name", ""),
                    licence=values.get("licence", ""),
                    affiliation=values.get("affiliation", ""),
                )
            )
    return chosen


class CompetitorsView(CompetitorListView):
    """GET: the competitors (public); POST: register one (organisers)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="competitor_register",
        summary="Register a team or a player (new players join the club's list)",
        description="Errors about the n-th player name `players.n` (from 0).",
        request=RegisterSerializer,
        responses={201: CompetitorSerializer, **errors(*WRITE_ERRORS)},
        tags=["competitors"],
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = organiser_tournament(request, slug)
        data = _valid(RegisterSerializer, request)
        players = _players(tournament, data["players"])
        # The service numbers the players from 1 (player_1); the body's list is from 0.
        fields = {f"player_{n + 1}": f"players.{n}" for n in range(len(players))}
        with refusals(fields=fields):
            competitor = services.competitor_register(
                by=_user(request),
                tournament=tournament,
                players=players,
                name=data.get("name", ""),
                checked_in=data["checked_in"],
            )
        return Response(_competitor(competitor), status=status.HTTP_201_CREATED)


def _competitor(competitor: Competitor) -> dict[str, Any]:
    found = selectors.competitors(competitor.tournament).get(pk=competitor.pk)
    return CompetitorSerializer(found).data


class CheckInSerializer(serializers.Serializer[Any]):
    present = serializers.BooleanField(default=True, help_text="false takes a check-in back.")


class CompetitorCheckInView(OrganiserView):
    @extend_schema(
        operation_id="competitor_check_in",
        summary="Check a competitor in (pointage), or take it back",
        request=CheckInSerializer,
        responses={200: CompetitorSerializer, **errors(*WRITE_ERRORS, 409)},
        tags=["competitors"],
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        tournament = organiser_tournament(request, slug)
        competitor = get_object_or_404(Competitor, tournament=tournament, number=number)
        data = _valid(CheckInSerializer, request)
        with refusals(conflict=True):
            competitor = services.competitor_check_in(by=_user(request), competitor=competitor, present=data["present"])
        return Response(_competitor(competitor))


class _CompetitorActionView(OrganiserView):
    """POST changes one competitor's status through one service that needs nothing else."""

    # Not `action`: DRF and drf-spectacular read that name on every view.
    service: Callable[..., Competitor]

    def post(self, request: Request, slug: str, number: int) -> Response:
        tournament = organiser_tournament(request, slug)
        competitor = get_object_or_404(Competitor, tournament=tournament, number=number)
        with refusals(conflict=True):
            competitor = type(self).service(by=_user(request), competitor=competitor)
        return Response(_competitor(competitor))


def _competitor_action_schema(operation_id: str, summary: str) -> Any:
    return extend_schema_view(
        post=extend_schema(
            operation_id=operation_id,
            summary=summary,
            request=None,
            responses={200: CompetitorSerializer, **errors(*WRITE_ERRORS, 409)},
            tags=["competitors"],
        )
    )


@_competitor_action_schema("competitor_withdraw", "Withdraw a competitor (abandon): results stay, never drawn again")
class CompetitorWithdrawView(_CompetitorActionView):
    service = staticmethod(services.competitor_withdraw)


@_competitor_action_schema(
    "competitor_reinstate", "Take back a withdrawal before the next draw: drawn again from the next round"
)
class CompetitorReinstateView(_CompetitorActionView):
    service = staticmethod(services.competitor_reinstate)


# -- rounds ----------------------------------------------------------------------------


class DrawSerializer(serializers.Serializer[Any]):
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=2**31 - 1, help_text="Replay a draw; a random seed when omitted."
    )


class RoundsView(RoundListView):
    """GET: the rounds drawn so far (public); POST: draw the next one (organisers)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="round_draw",
        summary="Draw the next round",
        description="Round 1 at random, later rounds by the tournament's method. "
        "409 while a round is in play, when all planned rounds are drawn, or with too few present.",
        request=DrawSerializer,
        responses={201: RoundDetailSerializer, **errors(*WRITE_ERRORS, 409)},
        tags=["rounds"],
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = organiser_tournament(request, slug)
        data = _valid(DrawSerializer, request)
        with refusals(conflict=True):
            rnd = round_draw(by=_user(request), tournament=tournament, seed=data.get("seed"))
        return Response(RoundDetailSerializer(selectors.round_draw(rnd)).data, status=status.HTTP_201_CREATED)


class CloseSerializer(serializers.Serializer[Any]):
    force = serializers.BooleanField(default=False, help_text="End the tables still playing as they stand.")


class RoundCloseView(OrganiserView):
    @extend_schema(
        operation_id="round_close",
        summary="Close a round whose parties are over (or force it)",
        request=CloseSerializer,
        responses={200: RoundDetailSerializer, **errors(*WRITE_ERRORS, 409)},
        tags=["rounds"],
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        tournament = organiser_tournament(request, slug)
        rnd = selectors.round_of(tournament, number)
        data = _valid(CloseSerializer, request)
        with refusals(conflict=True):
            rnd = round_close(by=_user(request), round=rnd, force=data["force"])
        return Response(RoundDetailSerializer(selectors.round_draw(rnd)).data)


class ClockSerializer(serializers.Serializer[Any]):
    action = serializers.ChoiceField(
        choices=[("start", "start"), ("adjust", "adjust"), ("stop", "stop")],
        help_text="start: the clock runs `minutes` from now; adjust: `minutes` more (fewer when negative); stop.",
    )
    minutes = serializers.IntegerField(
        required=False, min_value=-CLOCK_MINUTES_MAX, max_value=CLOCK_MINUTES_MAX, help_text="For start and adjust."
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["action"] != "stop" and "minutes" not in data:
            raise serializers.ValidationError({"minutes": _("Give a number of minutes.")})
        if data["action"] == "start" and data["minutes"] < 1:
            raise serializers.ValidationError(
                {"minutes": _("A round lasts between 1 and %(max)s minutes.") % {"max": CLOCK_MINUTES_MAX}}
            )
        return data


class RoundClockView(OrganiserView):
    @extend_schema(
        operation_id="round_clock",
        summary="Start, adjust or stop a round's clock",
        description=f"400 when a clock would start for less than 1 or more than {CLOCK_MINUTES_MAX} minutes; "
        "409 when the round is closed, when no clock runs to adjust, or when the time added or taken off "
        f"would make the round last less than 1 or more than {CLOCK_MINUTES_MAX} minutes.",
        request=ClockSerializer,
        responses={200: RoundDetailSerializer, **errors(*WRITE_ERRORS, 409)},
        tags=["rounds"],
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        tournament = organiser_tournament(request, slug)
        rnd = selectors.round_of(tournament, number)
        data = _valid(ClockSerializer, request)
        with refusals(conflict=True):
            if data["action"] == "start":
                rnd = round_clock_start(by=_user(request), round=rnd, minutes=data["minutes"])
            elif data["action"] == "adjust":
                rnd = round_clock_adjust(by=_user(request), round=rnd, minutes=data["minutes"])
            else:
                rnd = round_clock_stop(by=_user(request), round=rnd)
        return Response(RoundDetailSerializer(selectors.round_draw(rnd)).data)


# -- hands -----------------------------------------------------------------------------


class CorrectionSerializer(serializers.Serializer[Any]):
    raw = HandField(help_text="The corrected hand, as the engine reads it.")
    reason = serializers.CharField(allow_blank=True, max_length=2000, help_text="Why: kept in the hand's history.")


class HandWriteSerializer(serializers.Serializer[Any]):
    hand = HandSerializer()
    result = TableResultSerializer(allow_null=True)


class DeletionSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(allow_blank=True, max_length=2000, help_text="Why: kept in the table's history.")


class DeletionResultSerializer(serializers.Serializer[Any]):
    result = TableResultSerializer(allow_null=True, help_text="The table's result once the later donnes moved up.")


class HandCorrectView(OrganiserView):
    @staticmethod
    def _hand(request: Request, slug: str, number: int, table: int, donne: int) -> Hand:
        # The scoring services leave access to their caller: organiser_tournament checks the club.
        tournament = organiser_tournament(request, slug)
        found = selectors.table_of(selectors.round_of(tournament, number), table)
        return get_object_or_404(Hand, table=found, number=donne)

    @extend_schema(
        operation_id="hand_correct",
        summary="Correct any donne of any table, giving a reason (the director's correction)",
        description="The whole partie is scored again; the later donnes follow. "
        "A correction that leaves a later donne invalid is refused (code other_donne).",
        request=CorrectionSerializer,
        responses={200: HandWriteSerializer, **errors(*WRITE_ERRORS, 409)},
        tags=["hands"],
    )
    def put(self, request: Request, slug: str, number: int, table: int, donne: int) -> Response:
        hand = self._hand(request, slug, number, table, donne)
        data = _valid(CorrectionSerializer, request)
        with refusals():
            outcome = scoring_services.hand_correct(
                hand=hand, raw=data["raw"], reason=data["reason"], by=_user(request)
            )
        return Response(HandWriteSerializer({"hand": outcome.hand, "result": outcome.result}).data)

    @extend_schema(
        operation_id="hand_delete",
        summary="Remove any donne of any table, giving a reason (the director's deletion)",
        description="The later donnes move up one and the whole partie is scored again; the history keeps "
        "the removed donne. A deletion that leaves a later donne invalid is refused (code other_donne).",
        request=DeletionSerializer,
        responses={200: DeletionResultSerializer, **errors(*WRITE_ERRORS, 409)},
        tags=["hands"],
    )
    def delete(self, request: Request, slug: str, number: int, table: int, donne: int) -> Response:
        hand = self._hand(request, slug, number, table, donne)
        data = _valid(DeletionSerializer, request)
        with refusals():
            result = scoring_services.hand_delete(hand=hand, reason=data["reason"], by=_user(request))
        return Response(DeletionResultSerializer({"result": result}).data)


class TableSecretSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    token = serializers.CharField(help_text="The table's secret, for its X-Table-Token header (or its QR code).")
    revoked = serializers.BooleanField()


class RoundSecretsView(OrganiserView):
    @extend_schema(
        operation_id="round_secrets",
        summary="The round's table secrets, to hand to each table's scoring app (organisers only)",
        description="What the printed table sheets carry as QR codes. Never cached.",
        responses={200: TableSecretSerializer(many=True), **errors(401, 403, 404)},
        tags=["rounds"],
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        rnd = selectors.round_of(organiser_tournament(request, slug), number)
        secrets = [
            {"table": table, "token": token, "revoked": revoked}
            for table, token, revoked in rnd.tables.order_by("number").values_list("number", "token", "token_revoked")
        ]
        response = Response(TableSecretSerializer(secrets, many=True).data)
        response["Cache-Control"] = "no-store"
        return response
