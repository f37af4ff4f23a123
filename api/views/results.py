"""Results files through the API: a tournament's file for its club, a season's import.

The same gates and code as the pages (results/views.py): the file is the club's
organisers' (it carries licences: never public), built by `results.building`; an import
is `results.importing.results_import`, into a season of a club the caller organises. A
refused file answers 400 with one error per problem: `field` the dotted path into the
file, `pointer` the same place as a JSON pointer, code `results_refused`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import organiser_tournament
from api.errors import ApiError, item
from api.etags import CONDITIONAL, NOT_MODIFIED, ConditionalGetMixin, make_etag, matches, tagged
from api.parsers import parsed_or_none
from api.views.base import ApiView, errors
from api.views.public import ok
from results import building
from results.checking import Problem, ResultsRefused, digest
from results.importing import results_import
from seasons.models import Season
from tournaments import access
from tournaments.models import Tournament

_R = TypeVar("_R", bound=HttpResponse)
WRITE_ERRORS = (400, 401, 403, 404)


def _private(response: _R) -> _R:
    """A club's answer: never kept by a shared cache (asked again each time: the ETag holds)."""
    response["Cache-Control"] = "private, no-cache"
    return response


def _file(request: Request, slug: str) -> tuple[Tournament, dict[str, Any], str]:
    """The tournament's file and its ETag: a digest of the content, its time of export aside."""
    tournament = organiser_tournament(request, slug)
    data = building.results_file(tournament=tournament)
    return tournament, data, make_etag(request.get_full_path(), get_language(), digest(data))


class ResultsFileView(ConditionalGetMixin, ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="tournament_results_file",
        summary="A tournament's results file (JSON, format atout-results 1; the club's organisers)",
        description="The file docs/results-format.md describes, licences included: for the club and its "
        "league, never public. Its JSON Schema is served at /results/schema/atout-results-1.json.",
        parameters=CONDITIONAL,
        responses=ok(OpenApiTypes.OBJECT, 403, 404),
        tags=["results"],
    )
    def get(self, request: Request, slug: str) -> Response:
        _tournament, data, etag = _file(request, slug)
        response = Response(status=304) if matches(request, etag) else Response(data)
        return _private(tagged(response, etag))


class ResultsCsvView(ConditionalGetMixin, ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="tournament_results_csv",
        summary="A tournament's results as CSV: one row per side of every table (the club's organisers)",
        parameters=CONDITIONAL,
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="One row per side of every table."),
            304: NOT_MODIFIED,
            **errors(401, 403, 404),
        },
        tags=["results"],
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament, data, etag = _file(request, slug)
        if matches(request, etag):
            return _private(tagged(HttpResponse(status=304), etag))
        response = HttpResponse(building.results_csv(data), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-resultats.csv"'
        return _private(tagged(response, etag))


class ImportAnswerSerializer(serializers.Serializer[Any]):
    season = serializers.SlugField(help_text="The season's slug.")
    tournament = serializers.SlugField(help_text="The slug of the season's tournament the file became.")
    done = serializers.ChoiceField(
        choices=["created", "updated", "unchanged", "own"],
        help_text="created: a new copy; updated: its copy rewritten from a newer file; unchanged: this very file "
        "was imported before; own: a tournament of the season's club itself, now counted.",
    )


def _refusal(problem: Problem) -> dict[str, Any]:
    field = ".".join(part.replace("~1", "/").replace("~0", "~") for part in problem.pointer.split("/")[1:])
    return item(field, "results_refused", problem.message) | {"pointer": problem.pointer}


class SeasonResultsImportView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="season_results_import",
        summary="Import a club's results file into a season (the season club's organisers)",
        description="The body is the results file itself (JSON). Every donne is scored again by the engine; a "
        "file whose schema, scores, totals, ranks or points do not check is refused (400), each error with "
        "its place (`field`, and `pointer` as a JSON pointer) and nothing is kept. The same tournament "
        "imported again updates its copy: never twice.",
        request=OpenApiTypes.OBJECT,
        responses={201: ImportAnswerSerializer, 200: ImportAnswerSerializer, **errors(*WRITE_ERRORS)},
        tags=["results"],
    )
    def post(self, request: Request, slug: str) -> Response:
        season = get_object_or_404(Season.objects.select_related("club"), slug=slug)
        access.require_organiser(request.user, season.club)
        # The body as sent, not DRF's parse: a broken file is told its line and column. A
        # NUL or a nesting too deep is refused as the API's parser refuses it.
        if request.content_type.split(";")[0].strip().lower() != "application/json":
            raise exceptions.UnsupportedMediaType(request.content_type)
        parsed_or_none(request.body)
        try:
            outcome = results_import(by=request.user, season=season, raw=request.body)  # type: ignore[arg-type]
        except ResultsRefused as refused:
            raise ApiError(status.HTTP_400_BAD_REQUEST, [_refusal(problem) for problem in refused.problems]) from None
        answer = {"season": season.slug, "tournament": outcome.tournament.slug, "done": outcome.done}
        code = status.HTTP_201_CREATED if outcome.done in ("created", "updated") else status.HTTP_200_OK
        return Response(ImportAnswerSerializer(answer).data, status=code)
