"""The API's reads: what its public endpoints show, and the versions their ETags compare.

Who may see a tournament is not decided here (scoring.selectors.standings and
tournaments.selectors decide it); these functions shape what is visible into plain
dicts for the serializers, in a few queries each, and never compute a ranking. Each
`*_version` reads the small thing that changes whenever its body would (an
`updated_at`, a count, a snapshot version), so a poll that finds nothing new costs one
short query.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, TypedDict

from django.db.models import Count, Max, Prefetch, Q, QuerySet, Sum
from django.http import Http404

import engine
from engine.core import OptionSpec
from scoring.job_config import ACTIVE
from scoring.jobs import job_is_stale
from scoring.models import Hand, StandingsSnapshot, TableResult
from scoring.selectors.standings import table_sheet
from scoring.standings import columns_for, round_histories
from seasons import selectors as season_selectors
from seasons.models import Season, SeasonSnapshot
from seasons.selectors import SeasonSeen
from tournaments import games
from tournaments import selectors as tournament_selectors
from tournaments.models import Bye, Club, Competitor, Player, Round, Seat, Table, Tournament
from tournaments.services.tournament import TOURNAMENT_FIELDS


@dataclass(frozen=True, slots=True)
class TournamentFilters:
    club: str = ""
    game: str = ""
    status: str = ""
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None


def tournament_list(filters: TournamentFilters) -> QuerySet[Tournament]:
    """The public tournaments (newest first), narrowed by `filters`."""
    # Unsliced: public_tournaments' rule (public, past the draft) with the API's paging.
    found = tournament_selectors.public_tournaments(limit=None)  # type: ignore[arg-type]
    if filters.club:
        found = found.filter(club__slug=filters.club)
    if filters.game:
        found = found.filter(game=filters.game)
    if filters.status:
        found = found.filter(status=filters.status)
    if filters.date_from:
        found = found.filter(date__gte=filters.date_from)
    if filters.date_to:
        found = found.filter(date__lte=filters.date_to)
    return found


def tournament_list_version(found: QuerySet[Tournament]) -> tuple[Any, ...]:
    summary = found.order_by().aggregate(count=Count("pk"), changed=Max("updated_at"))
    return summary["count"], summary["changed"]


def _round_state(tournament: Tournament) -> tuple[Any, ...]:
    summary = tournament.rounds.aggregate(
        count=Count("pk"),
        closed=Count("pk", filter=Q(status=Round.Status.CLOSED)),
        drawn=Max("drawn_at"),
        # The rounds' clocks: started, stopped, or given more or less time.
        clocks=Count("clock_started_at"),
        clock_started=Max("clock_started_at"),
        clock_minutes=Sum("clock_minutes"),
    )
    return tuple(summary.values())


def tournament_version(tournament: Tournament) -> tuple[Any, ...]:
    """Changes with the tournament's row, its rounds, and its number of competitors."""
    return (tournament.updated_at, *_round_state(tournament), tournament.competitors.count())


def tournament_detail(tournament: Tournament) -> dict[str, Any]:
    values = {name: getattr(tournament, name) for name in _DETAIL_FIELDS}
    # Empty on a tarot tournament imported from an older archive: the game's own seating.
    values["table_preference"] = tournament.table_preference or games.usual_table_preference(tournament.game)
    values["club"] = tournament.club
    values["rounds"] = list(tournament.rounds.order_by("number"))
    values["competitors_count"] = tournament.competitors.count()
    values["prizes"] = list(tournament.prizes.order_by("rank_from"))
    state = games.tournament_preset(tournament)
    values["preset"] = state.preset.code if state.preset is not None else None
    values["preset_modified"] = state.modified
    return values


def _spec(spec: OptionSpec, label: str, labels: list[str]) -> dict[str, Any]:
    return {
        "name": spec.name,
        "label": label,
        "default": spec.default,
        "choices": list(spec.choices),
        "choice_labels": labels,
        "description": spec.description,
    }


def games_list(only: str | None = None) -> list[dict[str, Any]]:
    """Every game a tournament plays (or the one named `only`): its options, its settings
    and its presets, in words."""
    labels = dict(Tournament.Game.choices)
    found = []
    for code, game in engine.GAMES.items():
        if only is not None and code != only:
            continue
        options = [
            _spec(spec, field.label, [label for _value, label in field.choices])
            for spec, field in zip(game.option_specs, games.option_fields(code), strict=True)
        ]
        settings = [
            _spec(
                spec, games.setting_label(spec.name), [games.setting_choice_label(spec.name, v) for v in spec.choices]
            )
            for spec in game.setting_specs
        ]
        presets = [
            {"code": p.code, "name": p.name, "description": p.description, "options": p.options, "settings": p.settings}
            for p in games.presets_for(code)
        ]
        found.append(
            {
                "code": code,
                "label": str(labels.get(code, code)),
                "players_per_table": game.players_per_table,
                "formats": list(games.formats_for(code)),
                "options": options,
                "settings": settings,
                "presets": presets,
            }
        )
    return found


# Every setting a director can change, and what the tournament's life adds to them.
_DETAIL_FIELDS = ("slug", "status", "updated_at", *TOURNAMENT_FIELDS)


def competitors(tournament: Tournament) -> QuerySet[Competitor]:
    # Only the columns a public answer shows: private player data is not even loaded.
    players = (
        Player.objects.select_related("club")
        .only("first_name", "last_name", "affiliation", "club__name")
        .order_by(*(Player._meta.ordering or ()))
    )
    return tournament.competitors.prefetch_related(Prefetch("players", queryset=players)).order_by("number")


def tournament_players(tournament: Tournament) -> QuerySet[Player]:
    return (
        Player.objects.filter(competitors__tournament=tournament)
        .select_related("club")
        .only("first_name", "last_name", "affiliation", "club__name")
        .annotate(competitor=Max("competitors__number", filter=Q(competitors__tournament=tournament)))
        .order_by(*(Player._meta.ordering or ()), "pk")
    )


def round_of(tournament: Tournament, number: int) -> Round:
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        raise Http404("no such round")
    return rnd


def round_version(rnd: Round) -> tuple[Any, ...]:
    """Changes with the draw (seed, time, status) and with every table result of the round."""
    latest = TableResult.objects.filter(table__round=rnd).aggregate(changed=Max("updated_at"), count=Count("pk"))
    return (
        *(rnd.pk, rnd.seed, rnd.drawn_at, rnd.status, rnd.closed_at, rnd.clock_started_at, rnd.clock_minutes),
        *(latest["changed"], latest["count"]),
    )


class CompetitorRef(TypedDict):
    id: int
    number: int
    name: str


class DrawSeat(TypedDict):
    side: int
    position: str
    competitor: CompetitorRef


class DrawTable(TypedDict):
    number: int
    seats: list[DrawSeat]
    result: TableResult | None


class DrawBye(TypedDict):
    competitor: CompetitorRef
    reason: str


def _ref(competitor_id: int, number: int, name: str) -> CompetitorRef:
    return {"id": competitor_id, "number": number, "name": name}


def round_clock_data(rnd: Round) -> dict[str, Any] | None:
    """A round's clock as the API shows it, or None when the director started none."""
    ends_at = rnd.clock_ends_at
    if ends_at is None:
        return None
    return {"started_at": rnd.clock_started_at, "minutes": rnd.clock_minutes, "ends_at": ends_at}


def round_draw(rnd: Round) -> dict[str, Any]:
    """A round with its tables (seats and results) and its byes: four queries."""
    results = {result.table_id: result for result in TableResult.objects.filter(table__round=rnd)}
    tables: dict[int, DrawTable] = {
        pk: {"number": number, "seats": [], "result": results.get(pk)}
        for pk, number in Table.objects.filter(round=rnd).order_by("number").values_list("pk", "number")
    }
    for table_id, side, position, competitor_id, number, name in (
        Seat.objects.filter(round=rnd)
        .order_by("side", "position")
        .values_list("table_id", "side", "position", "competitor_id", "competitor__number", "competitor__name")
    ):
        tables[table_id]["seats"].append(
            {"side": side, "position": position, "competitor": _ref(competitor_id, number, name)}
        )
    byes: list[DrawBye] = [
        {"competitor": _ref(competitor_id, number, name), "reason": reason}
        for competitor_id, number, name, reason in Bye.objects.filter(round=rnd)
        .order_by("competitor__number")
        .values_list("competitor_id", "competitor__number", "competitor__name", "reason")
    ]
    values = {name: getattr(rnd, name) for name in ("number", "status", "method", "seed", "drawn_at", "closed_at")}
    return {
        **values,
        "forced": rnd.forced,
        "round": rnd,
        "tables": list(tables.values()),
        "byes": byes,
        "repeats": rnd.repeats,
    }


def table_of(rnd: Round, number: int) -> Table:
    table = Table.objects.filter(round=rnd, number=number).first()
    if table is None:
        raise Http404("no such table")
    return table


def table_version(table: Table) -> tuple[Any, ...]:
    """Changes with every hand written, corrected, confirmed or deleted, and with the result."""
    hands = Hand.objects.filter(table=table).aggregate(count=Count("pk"), changed=Max("updated_at"))
    result = TableResult.objects.filter(table=table).values_list("updated_at", flat=True).first()
    clock = Round.objects.filter(pk=table.round_id).values_list("clock_started_at", "clock_minutes").first()
    return table.pk, hands["count"], hands["changed"], result, clock


def table_detail(tournament: Tournament, rnd: Round, table: Table) -> dict[str, Any]:
    """A table's sides, its donnes with the running counted totals, and its result: three
    queries (seats, hands, result), each ordered by its own columns alone (a model's
    default ordering would join the round and the tournament to sort one table's rows).
    `rnd` is the table's own round, already read: the table keeps it, so that the sheet
    does not read it again."""
    if table.round_id != rnd.pk:
        raise ValueError(f"table {table.pk} is not in round {rnd.pk}")
    table.round = rnd
    sides: dict[int, list[dict[str, Any]]] = {}
    competitor_ids: dict[int, int] = {}
    for side, competitor_id, number, name in (
        Seat.objects.filter(table=table)
        .order_by("side", "position")
        .values_list("side", "competitor_id", "competitor__number", "competitor__name")
    ):
        sides.setdefault(side, []).append({"number": number, "name": name})
        competitor_ids[number] = competitor_id
    stored = list(Hand.objects.filter(table=table).order_by("number"))
    sheet = table_sheet(tournament, table, sides, stored=stored)
    by_number = {hand.number: hand for hand in stored}
    hands = [
        {**_hand_values(by_number[row["number"]]), "counted": row["counted"], "running": row["running"]}
        for row in sheet["hands"]
    ]
    return {
        "round": rnd.number,
        "number": table.number,
        "sides": [
            {
                "side": side["side"],
                "competitors": [_ref(competitor_ids[c["number"]], c["number"], c["name"]) for c in side["competitors"]],
            }
            for side in sheet["sides"]
        ],
        "hands": hands,
        "result": sheet["result"],
        "clock": round_clock_data(rnd),
    }


_HAND_FIELDS = [
    "number",
    "raw",
    "scores",
    "outcome",
    "reserve_in",
    "reserve_out",
    "status",
    "entered_via",
    "version",
    "created_at",
    "updated_at",
]


def _hand_values(hand: Hand) -> dict[str, Any]:
    return {name: getattr(hand, name) for name in _HAND_FIELDS}


def standings_version(tournament: Tournament, after_round: int | None) -> int | None:
    snapshots = StandingsSnapshot.objects.filter(tournament=tournament)
    if after_round is not None:
        snapshots = snapshots.filter(after_round=after_round)
    return snapshots.order_by("-version").values_list("version", flat=True).first()


def standings(tournament: Tournament, after_round: int | None, *, version: int | None = None) -> dict[str, Any]:
    """The live ranking, or the one after round `after_round` (404 if it has none).

    With `version`, that version of it (the published one, scoring.live_ranking), or the
    newest when it is gone (pruned).
    """
    snapshots = StandingsSnapshot.objects.filter(tournament=tournament)
    if after_round is not None:
        snapshots = snapshots.filter(after_round=after_round)
    snapshot = snapshots.filter(version=version).first() if version is not None else None
    if snapshot is None:
        snapshot = snapshots.order_by("-version").first()
    if snapshot is None:
        if after_round is not None:
            raise Http404("no ranking after this round")
        criteria = list(tournament.criteria or [])
        return {"version": None, "after_round": None, "built_at": None, "columns": columns_for(criteria), "rows": []}
    histories = round_histories(tournament, after_round=snapshot.after_round)
    return {
        "version": snapshot.version,
        "after_round": snapshot.after_round,
        "built_at": snapshot.built_at,
        "columns": columns_for(snapshot.criteria or list(tournament.criteria or [])),
        # The snapshot ranks; each row's parties round by round are read beside it.
        "rows": [{**row, "rounds": histories.get(row["competitor"], [])} for row in snapshot.rows],
    }


def clubs() -> QuerySet[Club]:
    return Club.objects.order_by("name")


def seasons() -> QuerySet[Season]:
    return Season.objects.select_related("club").order_by("-created_at", "pk")


def season_version(season: Season) -> int | None:
    return SeasonSnapshot.objects.filter(season=season).order_by("-version").values_list("version", flat=True).first()


def season_detail(seen: SeasonSeen) -> dict[str, Any]:
    """A season's ranking as its reader may see it (`seasons.selectors.season_seen` decides)."""
    return {
        "slug": seen.season.slug,
        "name": seen.season.name,
        "club": seen.season.club,
        "scheme": seen.season.scheme,
        "tournaments": [tournament.slug for tournament in seen.tournaments],
        "version": seen.snapshot.version if seen.snapshot is not None else None,
        "built_at": seen.snapshot.built_at if seen.snapshot is not None else None,
        "rows": seen.rows,
    }


# -- organisers' reads: a season as edited, its rebuilds -----------------------------------

SEASON_JOBS_SHOWN = 3


def season_jobs(season: Season) -> list[dict[str, Any]]:
    """The season's latest rebuilds, newest first, as the season's edit page shows them."""
    found = []
    for job in season_selectors.season_jobs(season)[:SEASON_JOBS_SHOWN]:
        found.append(
            {
                "id": job.pk,
                "status": job.status,
                "progress": job.progress,
                "total": job.total,
                "percent": int(100 * job.progress / job.total) if job.total else 0,
                "stale": job_is_stale(job),
                "error": job.error,
                "created_at": job.created_at,
                "finished_at": job.finished_at,
            }
        )
    return found


def season_manage(season: Season) -> dict[str, Any]:
    recent = season_jobs(season)
    return {
        "slug": season.slug,
        "name": season.name,
        "club": season.club,
        "starts": season.starts,
        "ends": season.ends,
        "scheme": season.scheme,
        "placing_points": list(season.placing_points or []),
        "tournaments": list(season.tournaments.order_by("date", "pk").values_list("slug", flat=True)),
        "active": any(job["status"] in ACTIVE and not job["stale"] for job in recent),
        "jobs": recent,
    }


def payments(tournament: Tournament) -> QuerySet[Competitor]:
    return (
        Competitor.objects.filter(tournament=tournament)
        .order_by("number")
        .only("number", "name", "payment_status", "payment_method", "amount_paid")
    )
