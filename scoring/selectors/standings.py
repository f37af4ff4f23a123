"""Reads that several pages share: tournaments shown to the public, their stored rankings.

Terms (the live snapshot, the snapshot after round n): docs/glossary.md. Nothing here
computes a ranking: pages read what scoring/standings/ stored.
"""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypedDict

from django.conf import settings
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.http import Http404

from scoring import live_ranking
from scoring.models import Hand, Job, StandingsSnapshot, TableResult
from scoring.partie import counted_count, game_for_seats, partie_or_none
from scoring.rows import SnapshotRow
from scoring.standings import RESULT_LABELS, competitor_history
from tournaments.access import Visitor, is_organiser
from tournaments.models import Prize, Round, Seat, Table, Tournament

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


@dataclass(frozen=True)
class RankingPage:
    """One page of a long public ranking: its number and the places it shows."""

    number: int
    first: int
    last: int


def ranking_pages(rows: int) -> list[RankingPage]:
    """The pages of a public ranking of `rows` rows (none: it fits on one)."""
    size = settings.RANKING_PAGE_ROWS
    if rows <= size:
        return []
    return [RankingPage(n + 1, start + 1, min(start + size, rows)) for n, start in enumerate(range(0, rows, size))]


def ranking_page_of(place: int, rows: int) -> int:
    """The page of `ranking_pages(rows)` that shows the row at `place` (0: the first)."""
    size = settings.RANKING_PAGE_ROWS
    return 1 if rows <= size else place // size + 1


class LiveAnnotations(TypedDict):
    """What `visible_tournament` adds to the tournament's row."""

    standings_version: int | None  # the live snapshot's version, None before the first
    has_prizes: bool


# A tournament as the public pages load it: with its live version and whether it has lots.
PublicTournament: TypeAlias = "WithAnnotations[Tournament, LiveAnnotations]"


def _live_annotated() -> QuerySet[PublicTournament]:
    """Tournaments with their live version and whether they have lots, for the public pages."""
    latest = StandingsSnapshot.objects.filter(tournament=OuterRef("pk")).order_by("-version").values("version")[:1]
    # Whether it has lots (the palmarès beside the ranks): a ranking without any reads none.
    lots = Prize.objects.filter(tournament=OuterRef("pk"))
    found: QuerySet[PublicTournament] = Tournament.objects.select_related("club").annotate(
        standings_version=Subquery(latest), has_prizes=Exists(lots)
    )
    return found


def tournament_by_pk(tournament_id: int) -> PublicTournament | None:
    """The tournament `tournament_id` with its live version, public or not (None: gone)."""
    return _live_annotated().filter(pk=tournament_id).first()


def followed_tournament(tournament_id: int) -> PublicTournament:
    """The tournament of a competitor's personal link, public or not, with its live version."""
    return _live_annotated().get(pk=tournament_id)


def visible_tournament(slug: str, user: Visitor | None = None) -> PublicTournament:
    """The tournament at `slug` if this visitor may follow it, with its live version; else 404.

    Anyone follows a public tournament past its draft; its organisers also see it when
    it is not (to try the projector before the doors open), as on the draw's page. One
    query for everyone else: the version annotation is what a polling page compares with
    its ETag.
    """
    found = _live_annotated().filter(slug=slug)
    tournament = found.filter(is_public=True).exclude(status=Tournament.Status.DRAFT).first()
    if tournament is None and user is not None and user.is_authenticated:
        tournament = found.first()
        if tournament is not None and not is_organiser(user, tournament.club):
            tournament = None
    if tournament is None:
        raise Http404("no such public tournament")
    return tournament


# Phones poll the same ranking every few seconds. Each web process keeps the public
# tournament row it read (with its live version) for LIVE_TTL seconds, so that most polls
# of an unchanged ranking answer 304 without a database round trip (scoring.live_ranking
# keeps it: a snapshot written in this process forgets it at once; one written by a
# worker shows within LIVE_TTL).
LIVE_TTL = 1.0


def polled_tournament(slug: str, user: Visitor | None = None) -> PublicTournament:
    """`visible_tournament` for the polling partials, kept LIVE_TTL seconds when public."""
    now = time.monotonic()
    kept: PublicTournament | None = live_ranking.polled_row(slug, now)
    if kept is not None:
        return kept
    tournament = visible_tournament(slug, user)
    if tournament.is_public and tournament.status != Tournament.Status.DRAFT:
        live_ranking.keep_polled_row(slug, now + LIVE_TTL, tournament)
    return tournament


def forget_polled(slug: str) -> None:
    live_ranking.forget_polled_row(slug)


def _with_last_round_status(snapshots: QuerySet[StandingsSnapshot]) -> QuerySet[StandingsSnapshot]:
    """The status of the last round each snapshot counts, for `ranking_progress`, in the same query."""
    last_round = Round.objects.filter(tournament_id=OuterRef("tournament_id"), number=OuterRef("after_round"))
    return snapshots.annotate(last_round_status=Subquery(last_round.values("status")[:1]))


def live_snapshot(tournament: Tournament | int) -> StandingsSnapshot | None:
    return _with_last_round_status(StandingsSnapshot.objects.filter(tournament=tournament)).order_by("-version").first()


def snapshot_version(tournament: Tournament | int, version: int) -> StandingsSnapshot | None:
    """The ranking of `version` (None once pruned): the published one (scoring.live_ranking)."""
    snapshots = StandingsSnapshot.objects.filter(tournament=tournament, version=version)
    return _with_last_round_status(snapshots).first()


def snapshot_after_round(tournament: Tournament, number: int) -> StandingsSnapshot | None:
    snapshots = StandingsSnapshot.objects.filter(tournament=tournament, after_round=number)
    return _with_last_round_status(snapshots).order_by("-version").first()


def snapshot_rounds(tournament: Tournament) -> list[int]:
    """The rounds closed that have a ranking of their own (after round 1, 2...): the round
    in play has only the live ranking."""
    numbers = StandingsSnapshot.objects.filter(tournament=tournament, after_round__isnull=False)
    closed = Round.objects.filter(tournament=tournament, status=Round.Status.CLOSED).values("number")
    shown = numbers.filter(after_round__in=closed).values_list("after_round", flat=True)
    return sorted({number for number in shown if number is not None})


def ranking_progress(snapshot: StandingsSnapshot | None) -> dict[str, Any] | None:
    """What a ranking counts: the rounds closed and the round in play, if any.

    Read from the snapshot's `last_round_status` (annotated by `live_snapshot` and
    `snapshot_after_round`: no query of its own). Rounds are drawn one after the other,
    each once the one before is closed (rounds.services), so every round before the last
    one counted is closed. A round's status is part of the version's digest
    (scoring/standings/snapshots.py): closing one writes a new version, and pages follow.
    """
    if snapshot is None or snapshot.after_round is None:
        return None
    last = snapshot.after_round
    status = getattr(snapshot, "last_round_status", None)
    if status is None:
        status = (
            Round.objects.filter(tournament_id=snapshot.tournament_id, number=last)
            .values_list("status", flat=True)
            .first()
        )
    in_play = status == Round.Status.OPEN
    return {"closed": list(range(1, last if in_play else last + 1)), "in_play": last if in_play else None}


def parties_in_play(snapshot: StandingsSnapshot | None) -> int:
    """How many parties a snapshot counts as they stand, unfinished (read from its rows)."""
    if snapshot is None:
        return 0
    rows: list[SnapshotRow] = snapshot.rows
    tables = {
        (partie["round"], partie["table"])
        for row in rows
        if (partie := row.get("current_partie")) and not partie.get("finished")
    }
    return len(tables)


def row_of(snapshot: StandingsSnapshot | None, number: int) -> dict[str, Any] | None:
    """A competitor's row in a snapshot, by the competitor's number."""
    if snapshot is None:
        return None
    return next((row for row in snapshot.rows if row.get("number") == number), None)


def round_tables_public(tournament: Tournament, number: int) -> tuple[Round, list[dict[str, Any]]]:
    """A round's tables with their competitors by side and their stored result: three queries."""
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        raise Http404("no such round")
    tables: dict[int, dict[str, Any]] = {
        pk: {"number": n, "sides": {}, "result": None}
        for pk, n in Table.objects.filter(round=rnd).values_list("pk", "number")
    }
    seats = Seat.objects.filter(round=rnd).order_by("side", "position")
    for table_id, side, competitor_id, number_, name in seats.values_list(
        "table_id", "side", "competitor_id", "competitor__number", "competitor__name"
    ):
        tables[table_id]["sides"].setdefault(side, []).append({"id": competitor_id, "number": number_, "name": name})
    results = TableResult.objects.filter(table__round=rnd)
    for table_id, totals, played, finished, winner in results.values_list(
        "table_id", "totals", "donnes_played", "finished", "winner_side"
    ):
        tables[table_id]["result"] = {"totals": totals, "played": played, "finished": finished, "winner": winner}
    ordered = sorted(tables.values(), key=lambda table: table["number"])
    for table in ordered:
        totals = (table["result"] or {}).get("totals") or []
        table["sides"] = [
            {
                "side": side,
                "competitors": members,
                "total": totals[side] if side < len(totals) else 0,
                "won": (table["result"] or {}).get("winner") == side,
            }
            for side, members in sorted(table["sides"].items())
        ]
    return rnd, ordered


def round_results_version(tournament: Tournament, number: int) -> str:
    """What changes whenever a result of the round does: for the round page's ETag."""
    stamp = (
        TableResult.objects.filter(table__round__tournament=tournament, table__round__number=number)
        .order_by("-updated_at")
        .values_list("updated_at", flat=True)
        .first()
    )
    return stamp.isoformat() if stamp else "none"


def latest_jobs(tournament: Tournament, limit: int = 5) -> list[Job]:
    return list(Job.objects.filter(tournament=tournament).order_by("-pk")[:limit])


RESULT_CODES = ("win", "loss", "draw", "bye", "pending", "absent")


def competitor_rounds(tournament: Tournament, snapshot: StandingsSnapshot, competitor_id: int) -> list[dict[str, Any]]:
    """A competitor's parties round by round, through the rounds `snapshot` counts.

    Snapshots hold the ranking, not the round histories (scoring/standings/ranking.py):
    read here when a page asks, for this competitor alone.
    """
    return competitor_history(tournament, competitor_id, after_round=snapshot.after_round)


def parties_of(history: list[dict[str, Any]], others: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """A competitor's round-by-round results (`competitor_rounds`), with opponents and partners named."""

    def named(ids: list[int]) -> list[dict[str, Any]]:
        return [{"number": others[i].get("number"), "name": others[i].get("name", "?")} for i in ids if i in others]

    parties = []
    for entry in history:
        parties.append(
            {
                **entry,
                "result_label": RESULT_LABELS.get(entry.get("result", ""), ""),
                "opponents_named": named(entry.get("opponents") or []),
                "partners_named": named(entry.get("partners") or []),
            }
        )
    return parties


def table_sheet_public(tournament: Tournament, round_number: int, table_number: int) -> dict[str, Any]:
    """One table's donnes with the running counted totals, for the public table page: four queries
    (`table_sheet`)."""
    table = (
        Table.objects.filter(round__tournament=tournament, round__number=round_number, number=table_number)
        .select_related("round")
        .first()
    )
    if table is None:
        raise Http404("no such table")
    sides: dict[int, list[dict[str, Any]]] = {}
    for side, number, name in (
        Seat.objects.filter(table=table)
        .order_by("side", "position")
        .values_list("side", "competitor__number", "competitor__name")
    ):
        sides.setdefault(side, []).append({"number": number, "name": name})
    return table_sheet(tournament, table, sides)


class SheetResult(Protocol):
    """What a table sheet shows of its table's result: a `TableResult`, or its fields as
    read alone (scoring.selectors.soiree.polled_partie)."""

    @property
    def totals(self) -> Any: ...

    @property
    def finished(self) -> bool: ...

    @property
    def updated_at(self) -> datetime.datetime: ...


def table_sheet(
    tournament: Tournament,
    table: Table,
    sides: dict[int, list[dict[str, Any]]],
    *,
    result: tuple[SheetResult | None] | None = None,
    stored: list[Hand] | None = None,
) -> dict[str, Any]:
    """`table_sheet_public` of a table in hand (its round read with it) whose competitors
    by side (number and name, by side and place) are known: two queries, one less when its
    `result` was read with it (a tuple of the result or None), one less when its hands
    were (`stored`, in donne order)."""
    rows = (
        [(hand.number, hand.raw, hand.scores, hand.outcome, hand.status, hand.updated_at) for hand in stored]
        if stored is not None
        else list(
            Hand.objects.filter(table=table)
            .order_by("number")
            .values_list("number", "raw", "scores", "outcome", "status", "updated_at")
        )
    )
    # As the table result counts them (scoring.partie): the engine's partie of the counted hands.
    counted = counted_count(tournament.confirmation_required, (row[4] for row in rows))
    game = game_for_seats(tournament, sum(len(seated) for seated in sides.values()))
    played = partie_or_none(tournament, [row[1] for row in rows[:counted]], game)
    running: list[Any] = [0] * len(game.sides)
    hands = []
    stamp = ""
    for index, (number, _raw, scores, outcome, _status, updated) in enumerate(rows):
        if index < counted and played is not None and index < len(played.running):
            running = list(played.running[index])
        hands.append(
            {
                "number": number,
                "scores": scores,
                "outcome": outcome,
                "counted": index < counted,
                "running": list(running),
            }
        )
        stamp = max(stamp, updated.isoformat())
    found: SheetResult | None = result[0] if result is not None else TableResult.objects.filter(table=table).first()
    return {
        "table": table,
        "round": table.round,
        "sides": [{"side": side, "competitors": members} for side, members in sorted(sides.items())],
        "hands": hands,
        "result": found,
        "stamp": f"{len(hands)}-{stamp}-{found.updated_at.isoformat() if found else ''}",
    }
