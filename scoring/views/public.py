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
import logging
import shutil
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Max
from django.http import Http404, HttpResponse
from django.middleware.gzip import re_accepts_gzip
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.functional import cached_property
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from kit.requests import SiteRequest
from scoring import exports, live_draw, live_files, live_ranking, live_screens, pdf
from scoring.models import StandingsSnapshot
from scoring.selectors import standings as selectors
from scoring.standings import columns_for
from scoring.templatetags.ranking_rows import row_list
from tournaments import treasury
from tournaments.access import is_organiser
from tournaments.models import Bye, Round, Tournament
from tournaments.palmares import Palmares
from tournaments.qr import only_this_computer, public_url, qr_svg_response
from tournaments.services import online

log = logging.getLogger(__name__)

# Seconds between two polls of a live partial; slower once the tournament is over.
POLL_SECONDS = 3
POLL_SECONDS_FINISHED = 30


def _etag(*parts: object) -> str:
    return '"' + "-".join(str(part) for part in parts) + '"'


def _poll(tournament: Tournament) -> int:
    return POLL_SECONDS_FINISHED if tournament.status == Tournament.Status.FINISHED else POLL_SECONDS


def _live(request: SiteRequest, etag: str, template: str, context: Callable[[], dict[str, Any]]) -> HttpResponse:
    """The partial alone (304 when the ETag still holds), for htmx's polling."""
    response = get_conditional_response(request, etag=etag)
    if response is None:
        values = context()
        values.update(etag=etag, live_headers=json.dumps({"If-None-Match": etag}))
        response = HttpResponse(render_to_string(template, values, request))
    return _polled(response, etag)


def _polled(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    # Always ask again (the ETag makes asking cheap); never a stale ranking from a cache.
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["HX-Request", "Accept-Language", "Cookie"])
    return response


def _page(request: SiteRequest, template: str, context: dict[str, Any], etag: str) -> HttpResponse:
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
    def prizes(self) -> Palmares:
        """The prizes shown beside the ranks (*palmarès*): the final ranking's, not a past round's."""
        if not self.with_prizes:
            return Palmares()
        # `has_prizes` comes with the tournament's row (selectors.standings.visible_tournament).
        has_lots = getattr(self.tournament, "has_prizes", True)
        if not has_lots and self.tournament.prize_pool_kind == Tournament.PrizePool.NONE:
            return Palmares()
        return treasury.palmares_shown(self.tournament, with_lots=has_lots)

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


def _stamp(tournament: Tournament) -> int:
    # `updated_at` moves with the settings and the lots (shown beside the ranks).
    return int(tournament.updated_at.timestamp() * 1000)


def _ranking_etag(tournament: Tournament, version: int) -> str:
    return _etag("ranking", tournament.pk, version, _stamp(tournament), get_language())


def _ranking_fragment(
    tournament: Tournament, ranking: Ranking, *, kind: str, live: bool, etag: str, exact: bool = True
) -> tuple[str, SafeString | None]:
    """The ranking's table (`ranking_table.html`), rendered once per version for every process,
    with the key it is kept under.

    `kind` is the page it is for: "page" and "projector" (live, polling their own
    address), "after" (a past round's), "print". Its key holds everything the fragment
    shows: the version, the settings and lots (`updated_at`), the language, the kind,
    the polling. With `exact`, None when the version's snapshot is gone (pruned) and
    nothing was cached.
    """
    key = live_ranking.fragment_key(
        tournament.pk,
        ranking.version,
        _stamp(tournament),
        get_language(),
        kind,
        int(live),
        _poll(tournament),
        int(ranking.with_prizes),
        tournament.slug,
    )

    def render() -> str | None:
        if exact and ranking.version and ranking.snapshot is None:
            return None
        name = "public:projector" if kind == "projector" else "public:ranking"
        poll_url = reverse(name, kwargs={"slug": tournament.slug})
        context = _ranking_context(tournament, ranking, projector=kind == "projector", poll_url=poll_url)
        context.update(live=live, etag=etag, live_headers=json.dumps({"If-None-Match": etag}))
        return render_to_string("scoring/public/ranking_table.html", context)

    return key, live_ranking.shared_fragment(key, render)


def _served_version(tournament: selectors.PublicTournament) -> int:
    """The version a poll of the live ranking is served: the published one (scoring.live_ranking)."""
    return live_ranking.published_version(tournament.pk, tournament.standings_version or 0)


def _live_fragment(tournament: Tournament, version: int, *, kind: str) -> tuple[str, str, SafeString]:
    """The live ranking's ETag, cache key and fragment at `version`, or at the newest when it is gone."""
    ranking = Ranking(tournament, version, lambda: selectors.snapshot_version(tournament, version))
    etag = _ranking_etag(tournament, version)
    key, fragment = _ranking_fragment(tournament, ranking, kind=kind, live=True, etag=etag)
    if fragment is None:
        # The published version was pruned before this language or page drew it: publish the newest.
        snapshot = selectors.live_snapshot(tournament)
        newest = snapshot.version if snapshot is not None else 0
        live_ranking.publication_gone(tournament.pk, gone=version, newest=newest)
        ranking = Ranking(tournament, newest, lambda: snapshot)
        etag = _ranking_etag(tournament, newest)
        key, fragment = _ranking_fragment(tournament, ranking, kind=kind, live=True, etag=etag)
        assert fragment is not None  # a snapshot in hand (or none at all) always renders
    return etag, key, fragment


def _ranking_context(tournament: Tournament, ranking: Ranking, **extra: Any) -> dict[str, Any]:
    competitor_base = reverse("public:ranking", kwargs={"slug": tournament.slug}) + "c/"
    return _base_context(tournament, ranking=ranking, competitor_base=competitor_base, **extra)


# -- ranking ----------------------------------------------------------------------------


def _ranking_partial(request: SiteRequest, tournament: selectors.PublicTournament, *, kind: str) -> HttpResponse:
    """The shared fragment alone, or 304 while the published version is the one the client shows."""
    version = _served_version(tournament)
    etag = _ranking_etag(tournament, version)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        etag, key, fragment = _live_fragment(tournament, version, kind=kind)
        if re_accepts_gzip.search(request.headers.get("Accept-Encoding", "")):
            # Compressed once per fragment, as atout.middleware.PublicGZipMiddleware would:
            # the fragment holds no token and no secret. The tag turns weak, as there.
            response = _polled(HttpResponse(live_ranking.shared_gzip(key, fragment)), etag)
            response["Content-Encoding"] = "gzip"
            response["ETag"] = "W/" + etag
        else:
            response = _polled(HttpResponse(fragment), etag)
    else:
        response = _polled(response, etag)
    patch_vary_headers(response, ["Accept-Encoding"])
    return response


def _ranking_page(
    request: SiteRequest,
    tournament: selectors.PublicTournament,
    template: str,
    *,
    kind: str,
    page: int = 1,
    **extra: Any,
) -> HttpResponse:
    """A page wrapping the published fragment: a public tournament's is the file its polls
    read (scoring/live_files.py; `page`: of a long ranking, the first when it has no such
    page), a private one's (its organisers alone) the shared fragment, whole."""
    if served_as_files(tournament):
        if kind == "projector":
            fragment = live_file_text(tournament, live_files.file_name(get_language(), "projector"))
        else:
            fragment = live_file_text(tournament, page_name(get_language(), page)) if page > 1 else None
            fragment = fragment or live_file_text(tournament, page_name(get_language(), 1))
        if fragment is not None:
            return _page(request, template, _base_context(tournament, ranking_fragment=fragment, **extra), "")
    etag, _key, fragment = _live_fragment(tournament, _served_version(tournament), kind=kind)
    return _page(request, template, _base_context(tournament, ranking_fragment=fragment, **extra), etag)


# -- the ranking as files ---------------------------------------------------------------


def served_as_files(tournament: Tournament) -> bool:
    """Whether the tournament's ranking is polled as files: anyone may follow it (the rule
    of the whole folder, scoring.live_files.served_as_files)."""
    return live_files.served_as_files(tournament)


def live_file_text(tournament: selectors.PublicTournament, name: str) -> SafeString | None:
    """The file `name` of the tournament's publication, published first when it is missing,
    behind the newest version and due, drawn with other settings, or of another tournament
    once at this address.
    None when it cannot be (the tournament is no longer public)."""
    state = live_files.read_state(tournament.slug)
    behind = state is not None and state.version < (tournament.standings_version or 0) and not live_files.due_in(state)
    # Its settings, lots or names moved since (a receiver's publication may not have run yet).
    redrawn = state is not None and state.stamp != _stamp(tournament)
    return live_files.text_of(
        tournament.slug,
        tournament.pk,
        name,
        state,
        lambda: publish_files(tournament.pk, want=name),
        stale=behind or redrawn,
    )


def page_name(language: str, page: int) -> str:
    """The file of a page of the ranking: the first is the ranking's own ("fr-ranking")."""
    name = live_files.file_name(language, "ranking")
    return name if page <= 1 else f"{name}-{page}"


def _page_names(names: set[str], snapshot: StandingsSnapshot | None) -> set[str]:
    """`names` with every page of the ranking in each language that has one (and no page
    the ranking no longer has)."""
    pages = selectors.ranking_pages(len(snapshot.rows) if snapshot is not None else 0)
    languages = {name.split("-", 1)[0] for name in names if live_files.kind_of(name) == "ranking"}
    kept = {name for name in names if live_files.kind_of(name) != "ranking"}
    numbers = [page.number for page in pages] or [1]
    return kept | {page_name(language, number) for language in languages for number in numbers}


def _file_fragments(
    tournament: Tournament, ranking: Ranking, *, names: set[str], published: live_files.Published
) -> dict[str, str]:
    """The ranking's fragment as each file of `names` holds it: it polls its own address
    with the files' time (docs/live-refresh.md, "Polls served as files"). Its content is
    drawn once per language, for the page and the projector alike; a long ranking's rows
    once per language too, each page of the phones' taking its slice."""
    fragments: dict[str, str] = {}
    snapshot = ranking.snapshot
    pages = selectors.ranking_pages(len(snapshot.rows) if snapshot is not None else 0)
    page_base = reverse("public:ranking", kwargs={"slug": tournament.slug})
    for language in sorted({name.split("-", 1)[0] for name in names}):
        wanted = sorted(name for name in names if name.startswith(language + "-"))
        with translation.override(language):
            context = _ranking_context(tournament, ranking, poll_seconds=_file_poll(tournament), live=True)
            # The relay's line (one query), once for every page of the language.
            context["relay_line"] = mark_safe(render_to_string("scoring/public/relay_line.html", context))
            # The rows drawn once, for the whole ranking and its pages alike.
            rows = row_list(snapshot.rows, context["competitor_base"], ranking.prizes) if snapshot is not None else []
            bodies: dict[str, SafeString] = {}
            if not pages or any(live_files.kind_of(name) == "projector" for name in wanted):
                whole = {**context, "rows_html": mark_safe("\n".join(rows))}
                bodies["whole"] = mark_safe(render_to_string("scoring/public/ranking_body.html", whole))
            if pages:
                for page in pages:
                    name = page_name(language, page.number)
                    if name in wanted:
                        paged = {**context, "pages": pages, "page": page.number, "page_base": page_base}
                        paged["rows_html"] = mark_safe("\n".join(rows[page.first - 1 : page.last]))
                        bodies[name] = mark_safe(render_to_string("scoring/public/ranking_body.html", paged))
            for name in wanted:
                kind = live_files.kind_of(name)
                context.update(
                    projector=kind == "projector",
                    poll_url=live_files.address(tournament.slug, name),
                    live_headers=json.dumps({"If-Modified-Since": published.last_modified}),
                    body=bodies.get(name, bodies.get("whole")),
                )
                fragments[name] = render_to_string("scoring/public/ranking_table.html", context)
    return fragments


def _file_poll(tournament: Tournament) -> str:
    """Seconds between two polls of a file (a file costs the server next to nothing), as
    htmx reads them: never localised ("1.5", not "1,5")."""
    if tournament.status == Tournament.Status.FINISHED:
        return str(POLL_SECONDS_FINISHED)
    return f"{settings.RANKING_POLL_SECONDS:g}"


def publish_files(
    tournament_id: int, *, want: str | None = None, again: bool = False, now: float | None = None
) -> live_files.Published | None:
    """Publish the tournament's newest ranking as files (scoring/live_files.py): every
    file published before, and `want` (a page asked for it); `again`: even when the
    version and the settings have not moved (names rewritten in the stored rankings).

    Under the tournament's lock the tournament is read again: one no longer public has
    its folder removed instead. A version older than the one the folder holds is never
    written back. Returns what the folder holds afterwards (None: nothing, not public).
    """
    slug = Tournament.objects.filter(pk=tournament_id).values_list("slug", flat=True).first()
    if slug is None:
        return None
    with live_files.locked(slug):
        tournament = selectors.tournament_by_pk(tournament_id)
        if tournament is None or tournament.slug != slug or not served_as_files(tournament):
            shutil.rmtree(live_files.folder(slug), ignore_errors=True)
            return None
        state = live_files.read_state(slug)
        if state is not None and state.tournament_id != tournament_id:
            state = None  # another tournament's, once at this address
        names = set(state.names if state is not None else ()) | ({want} if want else set())
        names = {
            name
            for name in names
            if name.split("-", 1)[0] in live_files.LANGUAGES and live_files.kind_of(name) in live_files.RANKING
        }
        if not names:
            return state  # no page has asked for a file yet: nothing to publish
        newest = tournament.standings_version or 0
        snapshot: StandingsSnapshot | None = None
        if state is not None and state.version > newest:
            # Never back: the folder's version, while the database holds it (a database
            # restored to an earlier moment holds it no longer: then the newest).
            snapshot = selectors.snapshot_version(tournament, state.version)
            if snapshot is not None:
                newest = state.version
        stamp = _stamp(tournament)
        moved = state is None or state.version != newest or state.stamp != stamp or again
        if not moved and names <= set(state.names):  # type: ignore[union-attr]
            return state
        if snapshot is None and newest:
            snapshot = selectors.snapshot_version(tournament, newest)
            if snapshot is None:  # pruned since the row was read: the newest there is now
                snapshot = selectors.live_snapshot(tournament)
                newest = snapshot.version if snapshot is not None else 0
                moved = state is None or state.version != newest or state.stamp != stamp or again
        # Every page of a long ranking, in each language asked for (none it no longer has).
        names = _page_names(names, snapshot)
        if not moved and names == set(state.names):  # type: ignore[union-attr]
            return state  # a page asked for that the ranking does not have
        clock = time.time() if now is None else now
        published = live_files.Published(
            tournament_id=tournament_id,
            version=newest,
            stamp=stamp,
            modified=live_files.next_modified(state, clock) if moved else state.modified,  # type: ignore[union-attr]
            at=clock if moved else state.at,  # type: ignore[union-attr]
            names=tuple(sorted(names)),
        )
        ranking = Ranking(tournament, newest, lambda: snapshot)
        # Unmoved, only the files asked for the first time (a language's ranking: all its pages).
        drawn = names if moved else names - set(state.names)  # type: ignore[union-attr]
        fragments = _file_fragments(tournament, ranking, names=drawn, published=published)
        live_files.write(slug, published, fragments)
    # The pages that read the published version from the shared cache (« Ma soirée », a
    # private ranking's) follow: never behind the files.
    if newest:
        live_ranking.publish(tournament_id, newest, now=clock)
    return published


# Who publishes a missing file of each kind (scoring/live_files.py), given the tournament
# and the file's name: its text, or None when there is no such file to serve.
_FILE_PUBLISHERS: dict[str, Callable[[selectors.PublicTournament, str], SafeString | None]] = {
    "ranking": live_file_text,
    "projector": live_file_text,
    # The director's messages and the round's clock (scoring/live_screens.py).
    "screen": live_screens.file_text,
    "clock": live_screens.file_text,
    "draw": live_draw.draw_file_text,
}


@require_safe
def live_file(request: SiteRequest, slug: str, name: str) -> HttpResponse:
    """A public ranking's file (scoring/live_files.py) when it is not there to be served
    as it is (scoring.middleware answers those, or nginx): published, then served."""
    found = live_files.NAME.fullmatch(name)
    if found is None or found.group("language") not in live_files.LANGUAGES:
        raise Http404("no such file")
    tournament = selectors.visible_tournament(slug, None)
    publish = _FILE_PUBLISHERS.get(found.group("kind"))
    if publish is None or publish(tournament, name.removesuffix(".html")) is None:
        raise Http404("no such file")
    response = live_files.answer(request, slug, name)
    if response is None:
        raise Http404("no such file")
    return response


def files_behind_publish() -> int:
    """Publish each public ranking whose files are behind the newest version stored (the
    workers' sweep calls it: a publication whose message was lost, the broker away or
    restarted empty, would otherwise wait for the next hand). How many were published."""
    root = live_files.root()
    states = []
    if root.is_dir():
        for entry in root.iterdir():
            state = live_files.read_state(entry.name) if live_files.SLUG.fullmatch(entry.name) else None
            if state is not None:
                states.append(state)
    newest = dict(
        StandingsSnapshot.objects.filter(tournament_id__in=[state.tournament_id for state in states])
        .values("tournament_id")
        .annotate(newest=Max("version"))
        .values_list("tournament_id", "newest")
    )
    behind = [state for state in states if newest.get(state.tournament_id, 0) > state.version]
    for state in behind:
        publish_files(state.tournament_id)
    return len(behind)


def publish_files_when_due(tournament_id: int) -> float:
    """After a new version: publish it now if the last publication is old enough
    (RANKING_PUBLISH_SECONDS), else the seconds to wait (the caller publishes then)."""
    slug = Tournament.objects.filter(pk=tournament_id).values_list("slug", flat=True).first()
    if slug is None:
        return 0.0
    wait = live_files.due_in(live_files.read_state(slug))
    if wait <= 0:
        publish_files(tournament_id)
    return wait


@require_safe
def ranking(request: SiteRequest, slug: str) -> HttpResponse:
    """The live ranking (the published snapshot); its partial is `ranking_table.html`."""
    if request.htmx:
        return _ranking_partial(request, selectors.polled_tournament(slug, request.user), kind="page")
    tournament = selectors.visible_tournament(slug, request.user)
    rounds = selectors.snapshot_rounds(tournament)
    return _ranking_page(
        request,
        tournament,
        "scoring/public/ranking.html",
        kind="page",
        page=_page_number(request),
        rounds=rounds,
        after=None,
        signup_open=_signup_open(tournament),
    )


def _page_number(request: SiteRequest) -> int:
    """The page of a long ranking the address asks for (?page=2); the first for anything else."""
    raw = request.GET.get("page", "")
    return int(raw) if raw.isascii() and raw.isdigit() and 0 < len(raw) <= 4 else 1


def _signup_open(tournament: Tournament) -> bool:
    """Whether the page offers « S'inscrire » (registration online open: services.online)."""
    if tournament.status != Tournament.Status.REGISTRATION:
        return False
    return not online.online_closed(tournament, online.online_settings(tournament))


@require_safe
def ranking_after(request: SiteRequest, slug: str, number: int) -> HttpResponse:
    """The ranking as it stood after round `number` (no polling: a past round is settled)."""
    tournament = selectors.visible_tournament(slug, request.user)
    if number not in selectors.snapshot_rounds(tournament):
        if number in tournament.rounds.filter(status=Round.Status.OPEN).values_list("number", flat=True):
            # A round still in play has only the live ranking (a link shared too early).
            return redirect("public:ranking", slug=tournament.slug)
        raise Http404("no ranking after this round")
    snapshot = selectors.snapshot_after_round(tournament, number)
    if snapshot is None:
        raise Http404("no ranking after this round")
    ranking = Ranking(tournament, snapshot.version, lambda: snapshot, with_prizes=False)
    etag = _etag("after", snapshot.version)
    _key, fragment = _ranking_fragment(tournament, ranking, kind="after", live=False, etag=etag, exact=False)
    context = _base_context(
        tournament, ranking_fragment=fragment, rounds=selectors.snapshot_rounds(tournament), after=number, live=False
    )
    return _page(request, "scoring/public/ranking.html", context, etag)


@require_safe
def projector(request: SiteRequest, slug: str) -> HttpResponse:
    """The ranking full screen in large type; it pages by itself (static/js/projector.js)."""
    if request.htmx:
        return _ranking_partial(request, selectors.polled_tournament(slug, request.user), kind="projector")
    tournament = selectors.visible_tournament(slug, request.user)
    # The director's messages and the round's clock: their files for a tournament served as files.
    screen = live_screens.page_parts(
        tournament, screen_url=reverse("draw:screen", kwargs={"slug": tournament.slug}), clock=True
    )
    return _ranking_page(
        request, tournament, "scoring/public/projector.html", kind="projector", projector=True, **screen
    )


# -- rounds and tables ------------------------------------------------------------------


@require_safe
def round_results(request: SiteRequest, slug: str, number: int) -> HttpResponse:
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
def table_score(request: SiteRequest, slug: str, number: int, table: int) -> HttpResponse:
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
def competitor(request: SiteRequest, slug: str, number: int) -> HttpResponse:
    """A competitor's place and parties, from the live snapshot."""
    tournament = selectors.visible_tournament(slug, request.user)
    version = tournament.standings_version or 0
    etag = _etag("competitor", tournament.pk, number, version, get_language())

    def context() -> dict[str, Any]:
        snapshot = selectors.live_snapshot(tournament)
        row = selectors.row_of(snapshot, number)
        if row is None or snapshot is None:  # (no snapshot, no row)
            raise Http404("no such competitor in the ranking")
        names = {other["competitor"]: other for other in snapshot.rows}
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


def _public_url(request: SiteRequest, tournament: Tournament) -> str:
    return public_url(request, tournament.get_absolute_url())


@require_safe
def qr_code(request: SiteRequest, slug: str) -> HttpResponse:
    """The QR code of the ranking's address, as SVG."""
    tournament = selectors.visible_tournament(slug, request.user)
    return qr_svg_response(_public_url(request, tournament))


@require_safe
def poster(request: SiteRequest, slug: str) -> HttpResponse:
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
def ranking_csv(request: SiteRequest, slug: str) -> HttpResponse:
    tournament = selectors.visible_tournament(slug, request.user)
    snapshot = selectors.live_snapshot(tournament)
    prizes = treasury.palmares_shown(tournament)
    # Each team's players and clubs for the league; their licences for the club's organisers only.
    players = exports.team_players(tournament)
    licences = is_organiser(request.user, tournament.club)
    text = exports.ranking_csv(snapshot, prizes, players=players, licences=licences)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-classement.csv"'
    return response


@require_safe
def ranking_pdf(request: SiteRequest, slug: str) -> HttpResponse:
    tournament = selectors.visible_tournament(slug, request.user)
    # Drawn once per ranking version and language (a 1,000-team ranking takes ~0.3 s),
    # however many phones download it.
    version = tournament.standings_version or 0
    drawn = f"{version}:{tournament.updated_at.isoformat()}:{tournament.club.logo_version}"
    key = f"ranking-pdf:{tournament.pk}:{drawn}:{get_language()}"
    document = cache.get(key)
    if document is None:
        prizes = treasury.palmares_shown(tournament)
        document = pdf.ranking_pdf(tournament, selectors.live_snapshot(tournament), prizes=prizes)
        cache.set(key, document, 600)
    response = HttpResponse(document, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}-classement.pdf"'
    return response


@require_safe
def ranking_print(request: SiteRequest, slug: str) -> HttpResponse:
    """The ranking laid out for paper: no navigation, no polling."""
    tournament = selectors.visible_tournament(slug, request.user)
    ranking = Ranking(tournament, tournament.standings_version or 0, lambda: selectors.live_snapshot(tournament))
    _key, fragment = _ranking_fragment(tournament, ranking, kind="print", live=False, etag="", exact=False)
    context = _base_context(tournament, ranking_fragment=fragment, live=False)
    return render(request, "scoring/public/ranking_print.html", context)
