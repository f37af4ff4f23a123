"""The rounds already closed, kept as totals: what the live refresh adds the round in play to.

A closed round's contribution to the ranking does not change with a hand of the round
in play, so it is not read again on every hand: the full rebuild stores every
competitor's engine record through the last of the leading closed rounds
(`StandingsBase` and its `StandingsTotal` rows), and the live refresh copies those
records and adds the results of the rounds after it (scoring/standings/snapshots.py).

The base is dropped (`base_forget`: its token emptied) whenever something it counts may have changed: a
table result of a round that is not in play (a correction in a closed round, a
re-scoring, an archive's results), and every change the tournament's side asks a
refresh for (a draw, a close, a registration, a late arrival's byes). It is also checked
on every use: its `head` digest (the ranking's configuration and the competitors) and its
round must be those of the tournament now. The next refresh then rebuilds everything and
stores the base again.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import F

import engine.standings as engine_standings
from scoring.models import StandingsBase, StandingsTotal


@dataclass(frozen=True, slots=True)
class Base:
    """A tournament's stored totals through `through_round`, as named by `token` (their
    records: `base_records`, decoded once per token by the live refresh's keeping)."""

    through_round: int
    head: str
    prefix: str
    token: str


def base_forget(*, tournament_id: int) -> None:
    """The tournament's stored totals no longer hold: the next refresh rebuilds from every round.

    Empties the token and moves the generation (one UPSERT, row-locked to the end of the
    caller's transaction): a full rebuild that read the results before this commits
    stores nothing (`base_store` compares the generation it started from).
    """
    table = StandingsBase._meta.db_table
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"""
                INSERT INTO {table} (tournament_id, through_round, head, prefix, token, generation, built_at)
                VALUES (%s, 0, '', '', '', 1, now())
                ON CONFLICT (tournament_id) DO UPDATE
                   SET token = '', generation = {table}.generation + 1, built_at = now()
                """,
                [tournament_id],
            )
        return
    with transaction.atomic():
        StandingsBase.objects.get_or_create(tournament_id=tournament_id)
        StandingsBase.objects.filter(pk=tournament_id).update(token="", generation=F("generation") + 1)


def base_generation(tournament_id: int) -> int | None:
    """The generation a full rebuild starts from (read before the results), None without a base row."""
    return StandingsBase.objects.filter(pk=tournament_id).values_list("generation", flat=True).first()


def base_read(tournament_id: int) -> Base | None:
    """The tournament's stored totals' round, digests and token; None when there are none
    or they no longer hold."""
    meta = (
        StandingsBase.objects.filter(pk=tournament_id)
        .exclude(token="")
        .values_list("through_round", "head", "prefix", "token")
        .first()
    )
    return Base(*meta) if meta is not None else None


def base_records(tournament_id: int) -> dict[str, engine_standings.Record]:
    """Every competitor's stored record, decoded (read under the standings lock, so they
    are those of the token `base_read` just gave)."""
    return {
        str(competitor_id): record_from_json(str(competitor_id), data)
        for competitor_id, data in StandingsTotal.objects.filter(tournament_id=tournament_id).values_list(
            "competitor_id", "record"
        )
    }


def base_store(
    *,
    tournament_id: int,
    generation: int | None,
    through_round: int,
    head: str,
    prefix: str,
    records: Mapping[str, engine_standings.Record],
) -> bool:
    """Store the totals through `through_round`; the caller holds the standings lock.

    `generation` is `base_generation` as read before the results: when the totals were
    dropped since (a closed round's result changed meanwhile), nothing is stored. Returns
    whether they were stored (or already were).
    """
    current = (
        StandingsBase.objects.filter(pk=tournament_id)
        .values_list("through_round", "head", "prefix", "token", "generation")
        .first()
    )
    if current is not None and current[:3] == (through_round, head, prefix) and current[3] and current[4] == generation:
        return True
    fields = {"through_round": through_round, "head": head, "prefix": prefix, "token": secrets.token_hex(16)}
    if generation is None:
        if current is not None:
            return False
        try:
            with transaction.atomic():
                StandingsBase.objects.create(tournament_id=tournament_id, **fields)
        except IntegrityError:
            return False  # dropped meanwhile by another transaction
    elif not StandingsBase.objects.filter(pk=tournament_id, generation=generation).update(**fields):
        return False
    StandingsTotal.objects.filter(tournament_id=tournament_id).delete()
    StandingsTotal.objects.bulk_create(
        (
            StandingsTotal(tournament_id=tournament_id, competitor_id=int(competitor), record=record_to_json(record))
            for competitor, record in records.items()
        ),
        batch_size=1000,
    )
    return True


def record_to_json(record: engine_standings.Record) -> dict[str, Any]:
    return {
        "played": record.played,
        "wins": record.wins,
        "draws": record.draws,
        "losses": record.losses,
        "byes": record.byes,
        "absences": record.absences,
        "for": record.points_for,
        "against": record.points_against,
        "missing_against": record.missing_against,
        "results": [
            [r.round, [int(o) for o in r.opponents], r.points_for, r.points_against, r.outcome, r.finished]
            for r in record.results
        ],
    }


def record_from_json(competitor: str, data: Mapping[str, Any]) -> engine_standings.Record:
    results = [_result_from_json(competitor, item) for item in data["results"]]
    return engine_standings.Record(
        competitor, results, data["played"], data["wins"], data["draws"], data["losses"], data["byes"],
        data["absences"], data["for"], data["against"], data["missing_against"],
    )  # fmt: skip


def _result_from_json(competitor: str, item: Sequence[Any]) -> engine_standings.PartieResult:
    number, opponents, points_for, points_against, outcome, finished = item
    return engine_standings.PartieResult(
        round=number, competitor=competitor, opponents=tuple(str(o) for o in opponents),
        points_for=points_for, points_against=points_against, outcome=outcome, finished=finished,
    )  # fmt: skip
