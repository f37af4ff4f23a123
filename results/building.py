"""Writing a tournament's results file (JSON, format `atout-results` version 1) and its CSV.

The layout is docs/results-format.md's, checked by `results/schema/atout-results-1.json`.
Unlike an archive (archive/exporting.py: everything, contact data included, to move a
tournament between its own club's Atouts), a results file carries what a league needs to
rank and to check: the rules, the competitors with their players' names, clubs and
licences, their rank and points, and each table's counted donnes as the engine reads
them (`input`) with the scores they made, so that the importer can score them again.
No e-mail, phone, referee link or payment leaves the club.

Licences identify people in the federation's lists: the file is downloaded by the
club's organisers (and a league's, for the copy it imported), never by the public.
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone

from archive.models import ArchiveIdentity
from kit.sheets import BOM, sheet_number, sheet_text
from scoring.models import Hand, TableResult
from scoring.partie import counted_count, table_game, tournament_end, tournament_options_or_defaults
from scoring.selectors.standings import live_snapshot
from scoring.standings.ranking import ranking_config
from tournaments.models import Bye, Competitor, Table, Tournament

FORMAT = "atout-results"
VERSION = 1
SCHEMA_NAME = "atout-results-1.json"
SCHEMA_FILE = Path(__file__).resolve().parent / "schema" / SCHEMA_NAME
# Where the site serves the schema (results/urls.py); the file names it.
SCHEMA_PATH = "/results/schema/" + SCHEMA_NAME

CSV_COLUMNS = (
    "tournament", "date", "game", "end", "options", "round", "table", "side", "competitor", "name",
    "players", "clubs", "licences", "rank", "points", "table_total", "winner",
)  # fmt: skip


def _players(tournament: Tournament) -> dict[int, list[dict[str, str]]]:
    """Each competitor's players (by competitor id) as the file lists them: one query."""
    through = Competitor.players.through.objects.filter(competitor__tournament=tournament)
    found: dict[int, list[dict[str, str]]] = defaultdict(list)
    rows = through.order_by("competitor_id", "player__last_name", "player__first_name", "player_id").values_list(
        "competitor_id", "player__last_name", "player__first_name", "player__licence", "player__affiliation",
        "player__club__name",
    )  # fmt: skip
    for competitor_id, last, first, licence, affiliation, club in rows:
        found[competitor_id].append(
            {"last_name": last, "first_name": first, "licence": licence, "club": affiliation or club}
        )
    return found


def _competitors(tournament: Tournament) -> tuple[list[dict[str, Any]], dict[int, int]]:
    snapshot = live_snapshot(tournament)
    ranked = {row.get("competitor"): row for row in (snapshot.rows if snapshot is not None else [])}
    players = _players(tournament)
    competitors = list(tournament.competitors.order_by("number"))
    listed = []
    for competitor in competitors:
        row = ranked.get(competitor.pk) or {}
        listed.append(
            {
                "number": competitor.number,
                "name": competitor.name,
                "club": competitor.affiliation,
                "joined_round": competitor.joined_round,
                "withdrawn_after_round": competitor.withdrawn_after_round,
                "players": players.get(competitor.pk, []),
                "rank": row.get("rank"),
                "points": row.get("points", 0),
                "wins": row.get("wins", 0),
                "played": row.get("played", 0),
            }
        )
    return listed, {competitor.pk: competitor.number for competitor in competitors}


def _hands(tournament: Tournament, table: Table, hands: list[Hand]) -> list[dict[str, Any]]:
    """The table's counted donnes (with confirmation, the confirmed prefix), in order."""
    ordered = sorted(hands, key=lambda hand: hand.number)
    counted = ordered[: counted_count(tournament.confirmation_required, (hand.status for hand in ordered))]
    return [
        {"number": hand.number, "input": hand.raw, "scores": list(hand.scores), "outcome": hand.outcome}
        for hand in counted
    ]


def _result(result: TableResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "totals": list(result.totals),
        "winner": result.winner_side,
        "finished": result.finished,
        "forced": result.forced,
        "donnes": result.donnes_played,
    }


def _tables(tournament: Tournament, number_of: dict[int, int]) -> list[dict[str, Any]]:
    tables = list(
        Table.objects.filter(round__tournament=tournament)
        .select_related("round__tournament")
        .prefetch_related("seats")
        .order_by("round__number", "number")
    )
    hands: dict[int, list[Hand]] = defaultdict(list)
    for hand in Hand.objects.filter(table__round__tournament=tournament):
        hands[hand.table_id].append(hand)
    results = {result.table_id: result for result in TableResult.objects.filter(table__round__tournament=tournament)}
    return [
        {
            "round": table.round.number,
            "number": table.number,
            "game": table_game(table).code,
            "seats": [
                {"competitor": number_of[seat.competitor_id], "side": seat.side, "position": seat.position}
                for seat in sorted(table.seats.all(), key=lambda seat: (seat.side, seat.position))
            ],
            "hands": _hands(tournament, table, hands[table.pk]),
            "result": _result(results.get(table.pk)),
        }
        for table in tables
    ]


def _rounds(tournament: Tournament, number_of: dict[int, int]) -> list[dict[str, Any]]:
    byes: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for bye in Bye.objects.filter(round__tournament=tournament).order_by("competitor__number"):
        byes[bye.round_id].append({"competitor": number_of[bye.competitor_id], "reason": bye.reason})
    return [{"number": rnd.number, "byes": byes[rnd.pk]} for rnd in tournament.rounds.order_by("number")]


def tournament_section(tournament: Tournament) -> dict[str, Any]:
    """The file's `tournament`: its rules and settings (the relay sends them too, relay/)."""
    return _tournament(tournament)


def _tournament(tournament: Tournament) -> dict[str, Any]:
    criteria, match_points = ranking_config(tournament)
    return {
        "name": tournament.name,
        "slug": tournament.slug,
        "date": tournament.date.isoformat(),
        "game": tournament.game,
        "format": tournament.format,
        "end": tournament_end(tournament).to_json(),
        "table_de_cinq": tournament.table_de_cinq,
        "options": tournament_options_or_defaults(tournament),
        "criteria": list(criteria),
        "match_points": dict(match_points),
        "bye_policy": tournament.bye_policy,
        "bye_points": tournament.bye_points,
        "late_policy": tournament.late_policy,
        "rounds_planned": tournament.rounds_planned,
        "public": tournament.is_public,
    }


@transaction.atomic
def results_file(*, tournament: Tournament) -> dict[str, Any]:
    """The results file of `tournament`: one consistent picture (one transaction).

    Its `id` is the tournament's identity across Atouts (`ArchiveIdentity`), given the
    first time it leaves this Atout, by an archive or a results file: every later file of
    the same tournament carries the same id, and an importer updates its copy by it.
    """
    identity, _ = ArchiveIdentity.objects.get_or_create(tournament=tournament)
    competitors, number_of = _competitors(tournament)
    club = tournament.club
    return {
        "format": FORMAT,
        "version": VERSION,
        "schema": SCHEMA_PATH,
        "id": str(identity.archive_id),
        "exported_at": timezone.now().isoformat(),
        "club": {"name": club.name, "slug": club.slug, "town": club.town},
        "tournament": _tournament(tournament),
        "competitors": competitors,
        "rounds": _rounds(tournament, number_of),
        "tables": _tables(tournament, number_of),
    }


def results_dumps(data: dict[str, Any]) -> str:
    """The file as text: UTF-8 JSON, one value a line for the eye and for diffs."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def results_csv(data: dict[str, Any]) -> str:
    """The same results as a spreadsheet: one row per side of every table, `CSV_COLUMNS`.

    A French Excel reads it as the ranking's CSV is read (scoring/exports.py: BOM, `;`,
    decimal commas, formulas defused); the column names are the format's, not translated,
    so that a program reads any club's file the same way.
    """
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    rules = data["tournament"]
    head = [
        sheet_text(rules["name"]),
        rules["date"],
        rules["game"],
        json.dumps(rules["end"]),
        json.dumps(rules["options"], sort_keys=True, ensure_ascii=False),
    ]
    competitors = {competitor["number"]: competitor for competitor in data["competitors"]}
    for table in data["tables"]:
        result = table["result"] or {}
        totals = result.get("totals") or []
        for seat in table["seats"]:
            competitor = competitors[seat["competitor"]]
            players = competitor["players"]
            side = seat["side"]
            writer.writerow(
                [
                    *head,
                    table["round"],
                    table["number"],
                    side,
                    competitor["number"],
                    sheet_text(competitor["name"]),
                    sheet_text(" / ".join(f"{p['first_name']} {p['last_name']}".strip() for p in players)),
                    sheet_text(" / ".join(p.get("club", "") for p in players)),
                    sheet_text(" / ".join(p.get("licence", "") for p in players)),
                    competitor["rank"],
                    sheet_number(competitor["points"]),
                    sheet_number(totals[side]) if side < len(totals) else "",
                    "" if not result else int(result.get("winner") == side),
                ]
            )
    return out.getvalue()
