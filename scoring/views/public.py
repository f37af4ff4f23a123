"""The live public pages of a tournament (no login): ranking, rounds, tables, competitors.

Every page reads what is stored (the standings snapshot, the table results, the hands)
and never computes a ranking. Each live page includes one partial; the partial polls its
own URL with htmx (`HX-Request`), sending the ETag it was rendered with in
`If-None-Match`, and gets 304 Not Modified, with no body, until what it shows has moved.
htmx is told not to swap a 304 (`scoring/public/live_head.html`), so the page keeps what
it shows.

Terms (projector mode, poster): docs/glossary.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.functional import cached_property
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scoring import exports, pdf
from scoring.models import StandingsSnapshot
from scoring.selectors import standings as selectors
from scoring.standings import columns_for
from tournaments.access import is_organiser
from tournaments.models import Bye, Prize, Tournament
from tournaments.qr import only_this_computer, public_url, qr_svg_response

# Seconds between two polls of a live partial; slower once the tournament is over.
POLL_SECONDS = 3
POLL_SECONDS_FINISHED = 30


def _etag(*parts: object) -> str:
    return '"' + "-".join(str(part) for part in parts) + '"'


def _poll(tournament: Tournament) -> int:
    return POLL_SECONDS_FINISHED if tournament.status == Tournament.Status.FINISHED else POLL_SECONDS


def _live(request: HttpRequest, etag: str, template: str, context: Callable[[], dict[str, Any]]) -> HttpResponse:
    """The partial alone (304 when the ETag still holds), for htmx's polling."""
    response = get_conditional_response(request, etag=etag)
    if response is None:
        values = context()
        values.update(etag=etag, live_headers=json.dumps({"If-None-Match": etag}))
        response = HttpResponse(render_to_string(template, values, request))
    response["ETag"] = etag
    # Always ask again (the ETag makes asking cheap); never a stale ranking from a cache.
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["HX-Request", "Accept-Language", "Cookie"])
    return response


def _page(request: HttpRequest, template: str, context: dict[str, Any], etag: str) -> HttpResponse:
    context.update(etag=etag, live_headers=json.dumps({"If-None-Match": etag}))
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _base_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    return {"tournament": tournament, "poll_seconds": _poll(tournament), "live": True, **extra}


class Ranking:
    """A ranking for the templates, read from the database only if a template asks.

    `version` is known without reading the snapshot (the tournament carries the live
    version), so a cached rendering of that version never loads the rows at all.
    """

    def __init__(
        self,
        tournament: Tournament,
        version: int,
        load: Callable[[], StandingsSnapshot | None],
        *,
        with_prizes: bool = True,
    ) -> None:
        self.tournament, self.version, self._load = tournament, version, load
        self.with_prizes = with_prizes

    @cached_property
    def prizes(self) -> list[Prize]:
        """The lots shown beside the ranks (*palmarès*): the live ranking only, not a past round's."""
        # `has_prizes` comes with the tournament's row (selectors.standings.visible_tournament).
        if not self.with_prizes or not getattr(self.tournament, "has_prizes", True):
            return []
        return list(self.tournament.prizes.order_by("rank_from"))

    @cached_property
    def snapshot(self) -> StandingsSnapshot | None:
        return self._load()

    @cached_property
    def progress(self) -> dict[str, Any] | None:
        """The rounds this ranking counts, closed and in play (read with the snapshot)."""
        return selectors.ranking_progress(self.snapshot)

    @cached_property
    def columns(self) -> list[dict[str, Any]]:
        criteria = self.snapshot.criteria if self.snapshot is not None else list(self.tournament.criteria or [])
        return columns_for(criteria)


def _live_ranking(tournament: Tournament) -> Ranking:
    return Ranking(tournament, tournament.standings_version or 0, lambda: selectors.live_snapshot(tournament))


def _ranking_context(tournament: Tournament, ranking: Ranking, **extra: Any) -> dict[str, Any]:
    competitor_base = reverse("public:ranking", kwargs={"slug": tournament.slug}) + "c/"
    return _base_context(tournament, ranking=ranking, competitor_base=competitor_base, **extra)


# -- ranking ----------------------------------------------------------------------------


def _ranking_partial(request: HttpRequest, tournament: Tournament, etag: str, *, projector: bool) -> HttpResponse:
    ranking = _live_ranking(tournament)
    return _live(
        request,
        etag,
        "scoring/public/ranking_table.html",
        lambda: _ranking_context(tournament, ranking, projector=projector),
    )


def _ranking_etag(tournament: Tournament) -> str:
    # `updated_at` moves with the settings and the lots (shown beside the ranks).
    stamp = int(tournament.updated_at.timestamp() * 1000)
    return _etag("ranking", tournament.pk, tournament.standings_version or 0, stamp, get_language())


@require_safe
def ranking(request: HttpRequest, slug: str) -> HttpResponse:
    """The live ranking (the newest snapshot); its partial is `ranking_table.html`."""
    if request.htmx:
        tournament = selectors.polled_tournament(slug, request.user)
        return _ranking_partial(request, tournament, _ranking_etag(tournament), projector=False)
    tournament = selectors.visible_tournament(slug, request.user)
    etag = _ranking_etag(tournament)
    context = _ranking_context(
        tournament, _live_ranking(tournament), rounds=selectors.snapshot_rounds(tournament), after=None
    )
    return _page(request, "scoring/public/ranking.html", context, etag)


@require_safe
def ranking_after(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The ranking as it stood after round `number` (no polling: a past round is settled)."""
    tournament = selectors.visible_tournament(slug, request.user)
    snapshot = selectors.snapshot_after_round(tournament, number)
    if snapshot is None:
        raise Http404("no ranking after this round")
    ranking = Ranking(tournament, snapshot.version, lambda: snapshot, with_prizes=False)
    context = _ranking_context(tournament, ranking, rounds=selectors.snapshot_rounds(tournament), after=number)
    context["live"] = False
    return _page(request, "scoring/public/ranking.html", context, _etag("after", snapshot.version))


@require_safe
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The ranking full screen in large type; it pages by itself (static/js/projector.js)."""
    if request.htmx:
        tournament = selectors.polled_tournament(slug, request.user)
        return _ranking_partial(request, tournament, _ranking_etag(tournament), projector=True)
    tournament = selectors.visible_tournament(slug, request.user)
    etag = _ranking_etag(tournament)
    context = _ranking_context(tournament, _live_ranking(tournament), projector=True)
    return _page(request, "scoring/public/projector.html", context, etag)


# -- rounds and tables ------------------------------------------------------------------


@require_safe
def round_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every table of a round with its running totals, and the byes."""
    tournament = selectors.visible_tournament(slug, request.user)
    etag = _etag("round", tournament.pk, number, selectors.round_results_version(tournament, number), get_language())

    def context() -> dict[str, Any]:
        rnd, tables = selectors.round_tables_public(tournament, number)
        byes = list(Bye.objects.filter(round=rnd).select_related("competitor").order_by("competitor__number"))
        return _base_context(tournament, round=rnd, tables=tables, byes=byes)

    if request.htmx:
        return _live(request, etag, "scoring/public/round_tables.html", context)
    values = context()
    values["rounds"] = list(tournament.rounds.order_by("number").values_list("number", flat=True))
    return _page(request, "scoring/public/round.html", values, etag)


@require_safe
def table_score(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """One table's partie, donne by donne, with the running score."""
    tournament = selectors.visible_tournament(slug, request.user)
    sheet = selectors.table_sheet_public(tournament, number, table)
    etag = _etag("table", sheet["table"].pk, sheet["stamp"], get_language())
    values = _base_context(tournament, **sheet)
    if request.htmx:
        return _live(request, etag, "scoring/public/table_hands.html", lambda: values)
    return _page(request, "scoring/public/table.html", values, etag)


# -- competitors ------------------------------------------------------------------------


@require_safe
def competitor(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A competitor's place and parties, from the live snapshot."""
    tournament = selectors.visible_tournament(slug, request.user)
    version = tournament.standings_version or 0
    etag = _etag("competitor", tournament.pk, number, version, get_language())

    def context() -> dict[str, Any]:
        snapshot = selectors.live_snapshot(tournament)
        row = selectors.row_of(snapshot, number)
        if row is None:
            raise Http404("no such competitor in the ranking")
        names = {other["competitor"]: other for other in snapshot.rows} if snapshot else {}
        return _base_context(
            tournament,
            row=row,
            parties=selectors.parties_of(selectors.competitor_rounds(tournament, snapshot, row["competitor"]), names),
            columns=[
                {**column, "value": value}
                for column, value in zip(
                    columns_for(snapshot.criteria if snapshot else []), row.get("values") or [], strict=False
                )
            ],
            snapshot=snapshot,
        )

    if request.htmx:
        return _live(request, etag, "scoring/public/competitor_parties.html", context)
    return _page(request, "scoring/public/competitor.html", context(), etag)


# -- posters and exports ----------------------------------------------------------------


def _public_url(request: HttpRequest, tournament: Tournament) -> str:
    return public_url(request, tournament.get_absolute_url())


@require_safe
def qr_code(request: HttpRequest, slug: str) -> HttpResponse:
    """The QR code of the ranking's address, as SVG."""
    tournament = selectors.visible_tournament(slug, request.user)
    return qr_svg_response(_public_url(request, tournament))


@require_safe
def poster(request: HttpRequest, slug: str) -> HttpResponse:
    """A page to print and pin up: the tournament's name and the QR code of its ranking."""
    tournament = selectors.visible_tournament(slug, request.user)
    context = {
        "tournament": tournament,
        "url": _public_url(request, tournament),
        "seat_url": public_url(request, reverse("draw:seat", kwargs={"slug": tournament.slug})),
        # Codes of 127.0.0.1 open on no phone: the poster says so instead of showing them.
        "only_this_computer": only_this_computer(request),
    }
    return render(request, "scoring/public/poster.html", context)


@require_safe
def ranking_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.visible_tournament(slug, request.user)
    snapshot = selectors.live_snapshot(tournament)
    prizes = list(tournament.prizes.order_by("rank_from"))
    # Each team's players and clubs for the league; their licences for the club's organisers only.
    players = exports.team_players(tournament)
    licences = is_organiser(request.user, tournament.club)
    text = exports.ranking_csv(snapshot, prizes, players=players, licences=licences)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-classement.csv"'
    return response


@require_safe
def ranking_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.visible_tournament(slug, request.user)
    # Drawn once per ranking version and language (a 1,000-team ranking takes ~0.3 s),
    # however many phones download it.
    version = tournament.standings_version or 0
    drawn = f"{version}:{tournament.updated_at.isoformat()}:{tournament.club.logo_version}"
    key = f"ranking-pdf:{tournament.pk}:{drawn}:{get_language()}"
    document = cache.get(key)
    if document is None:
        prizes = list(tournament.prizes.order_by("rank_from"))
        document = pdf.ranking_pdf(tournament, selectors.live_snapshot(tournament), prizes=prizes)
        cache.set(key, document, 600)
    response = HttpResponse(document, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}-classement.pdf"'
    return response


@require_safe
def ranking_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The ranking laid out for paper: no navigation, no polling."""
    tournament = selectors.visible_tournament(slug, request.user)
    context = _ranking_context(tournament, _live_ranking(tournament))
    context["live"] = False
    return render(request, "scoring/public/ranking_print.html", context)
