"""The public reads: tournaments, competitors and players, rounds and their draw, tables
and their hands, standings, clubs and seasons.

No login needed; a tournament is visible when its public pages are
(`scoring.selectors.standings.visible_tournament`: public and past its draft, or to its
own organisers), anything else is a 404 that says nothing about whether it exists.
Every answer carries an ETag and honours If-None-Match (api.etags).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api import selectors
from api.errors import ApiError
from api.etags import CONDITIONAL, ConditionalGetMixin, conditional_responses
from api.serializers import (
    ClubSerializer,
    CompetitorSerializer,
    GameSerializer,
    RoundDetailSerializer,
    RoundSummarySerializer,
    SeasonDetailSerializer,
    SeasonSummarySerializer,
    StandingsSerializer,
    TableDetailSerializer,
    TournamentDetailSerializer,
    TournamentPlayerSerializer,
    TournamentSummarySerializer,
)
from api.views.base import ApiPagination, ApiView, errors
from scoring.live_ranking import published_version
from scoring.selectors.standings import visible_tournament
from seasons.selectors import season_seen
from tournaments.models import Tournament


def ok(serializer: Any, *error_statuses: int) -> dict[int, Any]:
    """A conditional GET's answers: 200, 304, 401 (a wrong API token), and the error statuses given."""
    return conditional_responses(serializer, errors(401, *error_statuses))


class PublicView(ConditionalGetMixin, ApiView):
    permission_classes = [permissions.AllowAny]

    def tournament(self, request: Request, slug: str) -> Tournament:
        return visible_tournament(slug, request.user)


class PublicListView(ConditionalGetMixin, ApiView, generics.GenericAPIView[Any]):
    """A paged list: a page past the last one is a 404 (DRF's paginator says so)."""

    permission_classes = [permissions.AllowAny]
    pagination_class = ApiPagination

    def page(self, queryset: Any, serializer: type[serializers.BaseSerializer[Any]]) -> Response:
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(serializer(page, many=True).data)


# -- tournaments -----------------------------------------------------------------------


class TournamentQuerySerializer(serializers.Serializer[Any]):
    club = serializers.SlugField(required=False, help_text="A club's slug.")
    game = serializers.ChoiceField(choices=Tournament.Game.choices, required=False)
    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)
    date_from = serializers.DateField(required=False, help_text="On or after this date (YYYY-MM-DD).")
    date_to = serializers.DateField(required=False, help_text="On or before this date (YYYY-MM-DD).")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("date_from") and attrs.get("date_to") and attrs["date_from"] > attrs["date_to"]:
            raise serializers.ValidationError({"date_to": _("This date is before date_from.")}, code="date_range")
        return attrs


def tournament_list_response(view: PublicListView, request: Request) -> Response:
    """The public tournaments, filtered and paged (shared with the create endpoint's GET)."""
    query = TournamentQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    found = selectors.tournament_list(selectors.TournamentFilters(**query.validated_data))
    return view.conditional(
        request,
        lambda: view.page(found, TournamentSummarySerializer),
        *selectors.tournament_list_version(found),
    )


class TournamentDetailView(PublicView):
    @extend_schema(
        operation_id="tournament_detail",
        summary="A tournament: its settings, its rounds",
        parameters=CONDITIONAL,
        responses=ok(TournamentDetailSerializer, 404),
        tags=["tournaments"],
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(request, slug)
        return self.conditional(
            request,
            lambda: Response(TournamentDetailSerializer(selectors.tournament_detail(tournament)).data),
            *selectors.tournament_version(tournament),
        )


class CompetitorListView(PublicListView):
    @extend_schema(
        operation_id="competitor_list",
        summary="The competitors of a tournament (teams or players), with their players' public fields",
        parameters=CONDITIONAL,
        responses=ok(CompetitorSerializer(many=True), 404),
        tags=["competitors"],
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = visible_tournament(slug, request.user)
        # Registrations carry no version column: the tag is the body's hash.
        return self.hashed(request, self.page(selectors.competitors(tournament), CompetitorSerializer))


class PlayerListView(PublicListView):
    @extend_schema(
        operation_id="player_list",
        summary="The players of a tournament: names and club only",
        parameters=CONDITIONAL,
        responses=ok(TournamentPlayerSerializer(many=True), 404),
        tags=["competitors"],
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = visible_tournament(slug, request.user)
        return self.hashed(request, self.page(selectors.tournament_players(tournament), TournamentPlayerSerializer))


# -- rounds and tables -----------------------------------------------------------------


class RoundDetailView(PublicView):
    @extend_schema(
        operation_id="round_detail",
        summary="A round's draw: tables, seats, byes, and each table's result so far",
        parameters=CONDITIONAL,
        responses=ok(RoundDetailSerializer, 404),
        tags=["rounds"],
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        rnd = selectors.round_of(self.tournament(request, slug), number)
        return self.conditional(
            request,
            lambda: Response(RoundDetailSerializer(selectors.round_draw(rnd)).data),
            *selectors.round_version(rnd),
        )


class TableDetailView(PublicView):
    @extend_schema(
        operation_id="table_detail",
        summary="One table of a round: its sides, every donne with its scores, its result",
        description="The table's secret is never part of it.",
        parameters=CONDITIONAL,
        responses=ok(TableDetailSerializer, 404),
        tags=["rounds"],
    )
    def get(self, request: Request, slug: str, number: int, table: int) -> Response:
        tournament = self.tournament(request, slug)
        rnd = selectors.round_of(tournament, number)
        found = selectors.table_of(rnd, table)
        return self.conditional(
            request,
            lambda: Response(TableDetailSerializer(selectors.table_detail(tournament, rnd, found)).data),
            *selectors.table_version(found),
        )


# -- standings -------------------------------------------------------------------------


class StandingsView(PublicView):
    @extend_schema(
        operation_id="standings_live",
        summary="The live ranking: every result stored so far",
        description=(
            "Built in the background after each stored hand; `version` grows with each rebuild. A newer "
            "version is served at most every ATOUT_RANKING_PUBLISH_SECONDS (2 s by default), as on the "
            "public pages: polls within that time get the version served last (304 with its ETag)."
        ),
        parameters=CONDITIONAL,
        responses=ok(StandingsSerializer, 404),
        tags=["standings"],
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(request, slug)
        return self._answer(request, tournament, None)

    def _answer(self, request: Request, tournament: Tournament, after_round: int | None) -> Response:
        # The tag is the snapshot's version: a poll that finds the same version reads
        # one integer, never the rows.
        version = selectors.standings_version(tournament, after_round)
        if version is None and after_round is not None:
            raise ApiError(404, [{"field": None, "code": "not_found", "message": _no_ranking(after_round)}])
        if after_round is None and version is not None:
            # The live ranking's published version, as the public pages serve it.
            version = published_version(tournament.pk, version)
        return self.conditional(
            request,
            lambda: Response(StandingsSerializer(selectors.standings(tournament, after_round, version=version)).data),
            tournament.pk,
            version,
            tournament.criteria,
        )


def _no_ranking(number: int) -> str:
    return _("There is no ranking after round %(number)s yet.") % {"number": number}


class StandingsAfterRoundView(StandingsView):
    @extend_schema(
        operation_id="standings_after_round",
        summary="The ranking as it stood after round `number` (rounds 1 to n only)",
        parameters=CONDITIONAL,
        responses=ok(StandingsSerializer, 404),
        tags=["standings"],
    )
    def get(self, request: Request, slug: str, number: int) -> Response:  # type: ignore[override]
        return self._answer(request, self.tournament(request, slug), number)


# -- clubs and seasons -----------------------------------------------------------------


class ClubListView(PublicListView):
    @extend_schema(
        operation_id="club_list",
        summary="The clubs (their slugs filter the tournaments)",
        parameters=CONDITIONAL,
        responses=ok(ClubSerializer(many=True), 404),
        tags=["clubs"],
    )
    def get(self, request: Request) -> Response:
        return self.hashed(request, self.page(selectors.clubs(), ClubSerializer))


class SeasonListView(PublicListView):
    @extend_schema(
        operation_id="season_list",
        summary="The season rankings",
        parameters=CONDITIONAL,
        responses=ok(SeasonSummarySerializer(many=True), 404),
        tags=["seasons"],
    )
    def get(self, request: Request) -> Response:
        return self.hashed(request, self.page(selectors.seasons(), SeasonSummarySerializer))


class SeasonDetailView(PublicView):
    @extend_schema(
        operation_id="season_detail",
        summary="A season's ranking of players over its tournaments",
        parameters=CONDITIONAL,
        responses=ok(SeasonDetailSerializer, 404),
        tags=["seasons"],
    )
    def get(self, request: Request, slug: str) -> Response:
        # As its page shows it to this reader (seasons.selectors.season_seen): the public
        # read no hidden player nor private tournament, the club's organisers everything.
        seen = season_seen(slug, request.user)
        # The season's own fields carry no version: the tag is the body's hash.
        return self.hashed(request, Response(SeasonDetailSerializer(selectors.season_detail(seen)).data))


class RoundListView(PublicView):
    @extend_schema(
        operation_id="round_list",
        summary="The rounds drawn so far",
        parameters=CONDITIONAL,
        responses=ok(RoundSummarySerializer(many=True), 404),
        tags=["rounds"],
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(request, slug)
        return self.conditional(
            request,
            lambda: Response(RoundSummarySerializer(tournament.rounds.order_by("number"), many=True).data),
            *selectors.tournament_version(tournament),
        )


class GameQuerySerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=Tournament.Game.choices, required=False, help_text="One game only.")


class GamesView(PublicView):
    @extend_schema(
        operation_id="game_list",
        summary="The games: their rule options, settings and presets, in the reader's language",
        description="A tournament's `rule_options` take the options' names and values; `preset` (on create or "
        "update) sets every option and setting of one of the game's presets at once, the options given beside it "
        "overriding it. The first preset of each game is its defaults.",
        parameters=[*CONDITIONAL, GameQuerySerializer],
        responses=ok(GameSerializer(many=True), 400),
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        query = GameQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        found = selectors.games_list(query.validated_data.get("game"))
        # Fixed by the code and the reader's language: the tag is the body's hash.
        return self.hashed(request, Response(GameSerializer(found, many=True).data))
