"""A club's own affairs through the API: its seasons, its players and their histories, and
the entry fees its competitors paid.

The same gates and services as the club's pages: `tournaments.access` decides who may
(a club's organisers, its administrators among them; a site administrator who is not a
member gets 403 here as on the pages), `seasons.services` and
`seasons.ranking.season_rebuild_launch` write seasons, `tournaments.services` players and
payments, and `scoring.selectors.history.player_history` reads a player's tournaments.
A player's public history follows the rules of the page `/joueur/<id>/`: 404 when the
player opted out or was anonymised, public tournaments only, name and club only.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import selectors
from api.access import organiser_tournament
from api.club_serializers import (
    ClubPlayerHistorySerializer,
    ClubPlayerSerializer,
    PaymentSerializer,
    PaymentWriteSerializer,
    PlayerUpdateSerializer,
    PlayerWriteSerializer,
    PublicHistorySerializer,
    RebuildSerializer,
    SeasonJobSerializer,
    SeasonManageSerializer,
    SeasonUpdateSerializer,
    SeasonWriteSerializer,
)
from api.errors import ApiError, item, refusals
from api.etags import CONDITIONAL
from api.serializers import SeasonDetailSerializer, SeasonSummarySerializer
from api.views.base import ApiPagination, errors
from api.views.public import PublicListView, PublicView, SeasonDetailView, SeasonListView, ok
from scoring.selectors.history import player_history
from seasons import ranking
from seasons import services as season_services
from seasons.models import Season
from tournaments import access, services
from tournaments.models import Club, Competitor, Player, Tournament
from tournaments.selectors import club_players

WRITE_ERRORS = (400, 401, 403, 404)
SEASON_FIELDS = ("name", "starts", "ends", "scheme", "placing_points")


def _by(request: Request) -> User:
    """The user acting (authenticated: every write's permission says so)."""
    return request.user  # type: ignore[return-value]


def _private(response: Response) -> Response:
    """An organiser's answer: never kept by a shared cache."""
    response["Cache-Control"] = "private, no-cache"
    return response


class ClubReadView(PublicView):
    """A GET for the club's organisers only, with an ETag of its body."""

    permission_classes = [permissions.IsAuthenticated]

    def answer(self, request: Request, data: Any) -> Response:
        return _private(self.hashed(request, Response(data)))


class ClubListReadView(PublicListView):
    permission_classes = [permissions.IsAuthenticated]
    pagination_class = ApiPagination


def _organised_club(request: Request, slug: str) -> Club:
    """The club at `slug` for its organisers: 404 if there is none, 403 for anyone else."""
    club = get_object_or_404(Club, slug=slug)
    access.require_organiser(request.user, club)
    return club


def _valid(serializer_class: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


# -- seasons -------------------------------------------------------------------------------


def _organised_season(request: Request, slug: str) -> Season:
    season = get_object_or_404(Season.objects.select_related("club"), slug=slug)
    access.require_organiser(request.user, season.club)
    return season


def _club_tournaments(club: Club, slugs: list[str]) -> list[Tournament]:
    """The club's tournaments named by `slugs`; another club's slug is as unknown as a wrong one."""
    found = {tournament.slug: tournament for tournament in Tournament.objects.filter(club=club, slug__in=slugs)}
    unknown = [
        item(f"tournaments.{index}", "unknown_tournament", _("No tournament of the club has this slug."))
        for index, slug in enumerate(slugs)
        if slug not in found
    ]
    if unknown:
        raise ApiError(status.HTTP_400_BAD_REQUEST, unknown)
    return list({slug: found[slug] for slug in slugs}.values())


def _season_save(
    request: Request, club: Club, season: Season | None, fields: dict[str, Any], chosen: list[Tournament]
) -> Season:
    """As the season's page saves it: the season, its tournaments and its rebuild queued, at once."""
    with refusals(), transaction.atomic():
        if season is None:
            season = season_services.season_create(by=_by(request), club=club, **fields)
        else:
            season = season_services.season_update(by=_by(request), season=season, **fields)
        season_services.season_tournaments_set(by=_by(request), season=season, tournaments=chosen)
        ranking.season_rebuild_launch(season=season, by=_by(request))
    return season


def _season_answer(season: Season, code: int = status.HTTP_200_OK) -> Response:
    season = Season.objects.select_related("club").get(pk=season.pk)
    return _private(Response(SeasonManageSerializer(selectors.season_manage(season)).data, status=code))


class SeasonsView(SeasonListView):
    """GET: the season rankings (public); POST: a new season (the club's organisers)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="season_list",
        summary="The season rankings",
        parameters=CONDITIONAL,
        responses=ok(SeasonSummarySerializer(many=True), 404),
        tags=["seasons"],
    )
    def get(self, request: Request) -> Response:
        return super().get(request)

    @extend_schema(
        operation_id="season_create",
        summary="Create a season of a club you organise; its ranking is then built by the worker",
        description="As the season's page does: the season, the tournaments it counts and its rebuild queued "
        "together. Errors name their field (`name`, `ends`, `placing_points`, `tournaments.n`...). "
        "The answer's `jobs` follow the rebuild (`GET .../rebuild/`).",
        request=SeasonWriteSerializer,
        responses={201: SeasonManageSerializer, **errors(*WRITE_ERRORS)},
        tags=["seasons"],
    )
    def post(self, request: Request) -> Response:
        data = _valid(SeasonWriteSerializer, request)
        club = Club.objects.filter(slug=data.pop("club")).first()
        if club is None:
            raise ApiError(400, [item("club", "unknown_club", _("No club has this slug."))])
        access.require_organiser(request.user, club)
        chosen = _club_tournaments(club, data.pop("tournaments"))
        data.setdefault("placing_points", list(ranking.DEFAULT_PLACING_POINTS))
        season = _season_save(request, club, None, data, chosen)
        return _season_answer(season, status.HTTP_201_CREATED)


class SeasonView(SeasonDetailView):
    """GET: a season's ranking (public); PATCH: change it (the club's organisers)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="season_detail",
        summary="A season's ranking of players over its tournaments",
        parameters=CONDITIONAL,
        responses=ok(SeasonDetailSerializer, 404),
        tags=["seasons"],
    )
    def get(self, request: Request, slug: str) -> Response:
        return super().get(request, slug)

    @extend_schema(
        operation_id="season_update",
        summary="Change a season's name, dates, scheme, placing table or tournaments; its ranking is rebuilt",
        description="The fields left out stay as they are; `tournaments`, when given, is the whole new list. "
        "The public address (`slug`) stays. Every change queues a rebuild, as the page does; a PATCH that "
        "changes nothing queues none.",
        request=SeasonUpdateSerializer,
        responses={200: SeasonManageSerializer, **errors(*WRITE_ERRORS)},
        tags=["seasons"],
    )
    def patch(self, request: Request, slug: str) -> Response:
        season = _organised_season(request, slug)
        data = _valid(SeasonUpdateSerializer, request)
        fields = {name: data.get(name, getattr(season, name)) for name in SEASON_FIELDS}
        before = set(season.tournaments.all())
        chosen = _club_tournaments(season.club, data["tournaments"]) if "tournaments" in data else list(before)
        unchanged = all(getattr(season, name) == value for name, value in fields.items()) and set(chosen) == before
        if unchanged:
            # Nothing to save, nothing to rebuild (a PATCH of unknown fields only, or of the same values).
            return _season_answer(season)
        season = _season_save(request, season.club, season, fields, chosen)
        return _season_answer(season)


class SeasonProgressSerializer(serializers.Serializer[Any]):
    active = serializers.BooleanField(help_text="A rebuild is queued or running.")
    jobs = SeasonJobSerializer(many=True, help_text="The latest rebuilds, newest first.")


class SeasonRebuildView(ClubReadView):
    @extend_schema(
        operation_id="season_rebuild_progress",
        summary="A season's latest rebuilds and their progress (the club's organisers)",
        description="Poll while `active`: `progress` of `total` tournaments, then the season ranked.",
        parameters=CONDITIONAL,
        responses=ok(SeasonProgressSerializer, 403, 404),
        tags=["seasons"],
    )
    def get(self, request: Request, slug: str) -> Response:
        season = _organised_season(request, slug)
        recent = selectors.season_manage(season)
        return self.answer(request, SeasonProgressSerializer(recent).data)

    @extend_schema(
        operation_id="season_rebuild",
        summary="Rebuild a season's ranking now (every tournament re-scored, or only re-ranked)",
        request=RebuildSerializer,
        responses={202: SeasonManageSerializer, **errors(*WRITE_ERRORS)},
        tags=["seasons"],
    )
    def post(self, request: Request, slug: str) -> Response:
        season = _organised_season(request, slug)
        data = _valid(RebuildSerializer, request)
        with refusals():
            ranking.season_rebuild_launch(season=season, by=_by(request), rescore=data["rescore"])
        return _season_answer(season, status.HTTP_202_ACCEPTED)


# -- players -------------------------------------------------------------------------------

SEARCH = OpenApiParameter(
    name="q", type=str, required=False, description="Words of a name or a licence, without accents or case."
)


def _player_fields(data: dict[str, Any], player: Player | None = None) -> dict[str, Any]:
    """The service's arguments: what the body gives, else what the player has."""
    names = ("last_name", "first_name", "licence", "affiliation", "email", "phone", "public_history")
    if player is None:
        return {name: data[name] for name in names}
    return {name: data.get(name, getattr(player, name)) for name in names}


def _club_player(request: Request, club: str, player_id: int) -> Player:
    found = _organised_club(request, club)
    return access.player_for_user_or_403(request.user, found, player_id)


def _player_answer(player: Player, code: int = status.HTTP_200_OK) -> Response:
    player = Player.objects.select_related("club", "rating").get(pk=player.pk)
    return _private(Response(ClubPlayerSerializer(player).data, status=code))


class ClubPlayersView(ClubListReadView):
    @extend_schema(
        operation_id="club_player_list",
        summary="A club's players, with their licences and contact details (the club's organisers)",
        parameters=[*CONDITIONAL, SEARCH],
        responses=ok(ClubPlayerSerializer(many=True), 403, 404),
        tags=["players"],
    )
    def get(self, request: Request, club: str) -> Response:
        found = _organised_club(request, club)
        search = request.query_params.get("q", "")[:100]
        players = club_players(found, search).select_related("club", "rating")
        return _private(self.hashed(request, self.page(players, ClubPlayerSerializer)))

    @extend_schema(
        operation_id="club_player_create",
        summary="Add a player to a club's list",
        description="Refused beside `last_name` or `licence` when the club already has the player "
        "(same licence, or same name without two different licences).",
        request=PlayerWriteSerializer,
        responses={201: ClubPlayerSerializer, **errors(*WRITE_ERRORS)},
        tags=["players"],
    )
    def post(self, request: Request, club: str) -> Response:
        found = _organised_club(request, club)
        data = _valid(PlayerWriteSerializer, request)
        with refusals():
            player = services.player_create(by=_by(request), club=found, **_player_fields(data))
        return _player_answer(player, status.HTTP_201_CREATED)


class ClubPlayerView(ClubReadView):
    @extend_schema(
        operation_id="club_player_detail",
        summary="A player of the club, with their licence and contact details",
        parameters=CONDITIONAL,
        responses=ok(ClubPlayerSerializer, 403, 404),
        tags=["players"],
    )
    def get(self, request: Request, club: str, player_id: int) -> Response:
        player = _club_player(request, club, player_id)
        return self.answer(request, ClubPlayerSerializer(player).data)

    @extend_schema(
        operation_id="club_player_update",
        summary="Change a player's details (those left out stay as they are)",
        description="An anonymised player's details stay erased (400).",
        request=PlayerUpdateSerializer,
        responses={200: ClubPlayerSerializer, **errors(*WRITE_ERRORS)},
        tags=["players"],
    )
    def patch(self, request: Request, club: str, player_id: int) -> Response:
        player = _club_player(request, club, player_id)
        data = _valid(PlayerUpdateSerializer, request)
        with refusals():
            player = services.player_update(by=_by(request), player=player, **_player_fields(data, player))
        return _player_answer(player)


class ClubPlayerHistoryView(ClubReadView):
    @extend_schema(
        operation_id="club_player_history",
        summary="Every tournament a player of the club played, private ones included: rank, points, partners",
        parameters=CONDITIONAL,
        responses=ok(ClubPlayerHistorySerializer, 403, 404),
        tags=["players"],
    )
    def get(self, request: Request, club: str, player_id: int) -> Response:
        player = _club_player(request, club, player_id)
        body = {"player": player, "tournaments": player_history(player)}
        return self.answer(request, ClubPlayerHistorySerializer(body).data)


class PublicHistoryView(PublicView):
    @extend_schema(
        operation_id="player_history",
        summary="A player's public tournaments: rank, points, partners (name and club only)",
        description="As the page /joueur/<id>/: 404 when the player opted out of a public history or was "
        "anonymised; only public tournaments past their draft.",
        parameters=CONDITIONAL,
        responses=ok(PublicHistorySerializer, 404),
        tags=["players"],
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
        if not player.followed_publicly:
            raise Http404("no public history")
        body = {"player": player, "tournaments": player_history(player, public_only=True)}
        return self.hashed(request, Response(PublicHistorySerializer(body).data))


# -- payments ------------------------------------------------------------------------------


class PaymentsView(ClubListReadView):
    @extend_schema(
        operation_id="payment_list",
        summary="Each competitor's entry fee: paid (how, how much), unpaid or free (the club's organisers)",
        parameters=CONDITIONAL,
        responses=ok(PaymentSerializer(many=True), 403, 404),
        tags=["competitors"],
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = organiser_tournament(request, slug)
        return _private(self.hashed(request, self.page(selectors.payments(tournament), PaymentSerializer)))


class PaymentView(ClubReadView):
    @staticmethod
    def _competitor(request: Request, slug: str, number: int) -> Competitor:
        tournament = organiser_tournament(request, slug)
        return get_object_or_404(Competitor, tournament=tournament, number=number)

    @extend_schema(
        operation_id="payment_detail",
        summary="A competitor's entry fee (the club's organisers)",
        parameters=CONDITIONAL,
        responses=ok(PaymentSerializer, 403, 404),
        tags=["competitors"],
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        return self.answer(request, PaymentSerializer(self._competitor(request, slug, number)).data)

    @extend_schema(
        operation_id="payment_set",
        summary="Record a competitor's entry fee: paid (with a method), unpaid, or free",
        description="As the check-in page does, at any status of the tournament. A method goes with a paid "
        "entry only; the amount is the tournament's fee unless given.",
        request=PaymentWriteSerializer,
        responses={200: PaymentSerializer, **errors(*WRITE_ERRORS)},
        tags=["competitors"],
    )
    def put(self, request: Request, slug: str, number: int) -> Response:
        competitor = self._competitor(request, slug, number)
        data = _valid(PaymentWriteSerializer, request)
        with refusals():
            competitor = services.competitor_set_payment(
                by=_by(request),
                competitor=competitor,
                status=data["payment_status"],
                method=data["payment_method"],
                amount=data.get("amount_paid"),
            )
        return _private(Response(PaymentSerializer(competitor).data))
