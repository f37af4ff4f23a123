"""The venue's outbox: what the relay is to send, queued as it happens (relay/__init__.py).

Ranking versions are queued by `snapshots_queued`, in the transaction that writes them
(scoring.signals.snapshots_written): a version the venue stored is in the outbox, and
is sent even when the venue prunes it before the network returns. The draw and the
results file are queued by `changes_queue`, at each pass of the sender, when they
changed since the last one queued (their digest): the draw as it stands (competitors,
rounds, tables and their results), the results file once the tournament is finished.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.db import transaction

from relay.models import Kind, Outgoing, RelayCursor
from results import building
from results.checking import digest as file_digest
from scoring.models import StandingsSnapshot, TableResult
from tournaments.models import Bye, Competitor, Seat, Table, Tournament

RELAYED = (Tournament.Status.RUNNING, Tournament.Status.FINISHED)


def relay_on() -> bool:
    return bool(settings.RELAY_URL and settings.RELAY_TOKEN)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _digest(value: Any) -> str:
    return "sha256:" + hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def snapshots_queued(*, tournament: Tournament, snapshots: list[StandingsSnapshot], **_kwargs: Any) -> None:
    """Queue the new ranking versions of a relayed tournament (one INSERT a version)."""
    if not relay_on() or tournament.status not in RELAYED:
        return
    Outgoing.objects.bulk_create(
        [
            Outgoing(
                tournament=tournament,
                kind=Kind.RANKING,
                key=snapshot.version,
                digest=snapshot.digest,
                body=dumps(
                    {
                        "version": snapshot.version,
                        "after_round": snapshot.after_round,
                        "rows": snapshot.rows,
                        "criteria": snapshot.criteria,
                    }
                ),
            )
            for snapshot in snapshots
        ],
        ignore_conflicts=True,
    )
    RelayCursor.objects.update_or_create(tournament=tournament, defaults={"open": True})


def draw_state(tournament: Tournament) -> dict[str, Any]:
    """The tournament's draw as the hosted site shows it: competitors, rounds, tables, results."""
    numbers = dict(Competitor.objects.filter(tournament=tournament).values_list("pk", "number"))
    competitors = [
        {
            "number": number, "name": name, "club": club, "status": status, "joined_round": joined,
            "withdrawn_after_round": withdrawn,
        }
        for number, name, club, status, joined, withdrawn in Competitor.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("number", "name", "affiliation", "status", "joined_round", "withdrawn_after_round")
    ]  # fmt: skip
    seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for table_id, competitor_id, side, position in (
        Seat.objects.filter(round__tournament=tournament)
        .order_by("table_id", "side", "position")
        .values_list("table_id", "competitor_id", "side", "position")
    ):
        seats[table_id].append({"competitor": numbers[competitor_id], "side": side, "position": position})
    results = {
        row[0]: {"totals": row[1], "donnes": row[2], "finished": row[3], "winner": row[4], "forced": row[5]}
        for row in TableResult.objects.filter(table__round__tournament=tournament).values_list(
            "table_id", "totals", "donnes_played", "finished", "winner_side", "forced"
        )
    }
    tables: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for table_id, round_id, number in (
        Table.objects.filter(round__tournament=tournament).order_by("number").values_list("pk", "round_id", "number")
    ):
        tables[round_id].append({"number": number, "seats": seats[table_id], "result": results.get(table_id)})
    byes: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for round_id, competitor_id, reason in (
        Bye.objects.filter(round__tournament=tournament)
        .order_by("competitor__number")
        .values_list("round_id", "competitor_id", "reason")
    ):
        byes[round_id].append({"competitor": numbers[competitor_id], "reason": reason})
    rounds = [
        {"number": number, "status": status, "method": method, "seed": seed, "tables": tables[pk], "byes": byes[pk]}
        for pk, number, status, method, seed in tournament.rounds.order_by("number").values_list(
            "pk", "number", "status", "method", "seed"
        )
    ]
    return {"competitors": competitors, "rounds": rounds}


def _queue(tournament: Tournament, kind: Kind, key: int, digest: str, data: dict[str, Any]) -> None:
    Outgoing.objects.create(tournament=tournament, kind=kind, key=key, digest=digest, body=dumps(data))


@transaction.atomic
def changes_queue(*, tournament_id: int) -> None:
    """Queue the tournament's draw and (finished) results file when they changed."""
    cursor = RelayCursor.objects.select_for_update().select_related("tournament").get(tournament_id=tournament_id)
    tournament = cursor.tournament
    draw = draw_state(tournament)
    digest = _digest(draw)
    if digest != cursor.draw_digest:
        cursor.draw_key += 1
        cursor.draw_digest = digest
        _queue(tournament, Kind.DRAW, cursor.draw_key, digest, draw)
    if tournament.status == Tournament.Status.FINISHED:
        results = building.results_file(tournament=tournament)
        digest = file_digest(results)
        if digest != cursor.results_digest:
            cursor.results_key += 1
            cursor.results_digest = digest
            _queue(tournament, Kind.RESULTS, cursor.results_key, digest, results)
        cursor.open = False
    cursor.save()


def open_tournaments() -> list[int]:
    """The tournaments whose draw or results may still change (the sender looks at them)."""
    return list(RelayCursor.objects.filter(open=True).values_list("tournament_id", flat=True))
