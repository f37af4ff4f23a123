"""The director corrects donne n while the table's referee sends donne n+1, at the same moment.

On PostgreSQL, with two threads released together, again and again: both writes are
kept, in their places; whichever commits second sees the first (the table's row lock),
so donne n+1 carries the reserve the corrected donne n leaves it; and the partie is
scored once: every stored score, the table's result and the live ranking are the
engine's for the entries as they now stand.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from engine.match import MatchResult
from scoring.models import Hand, HandRevision, StandingsSnapshot, TableResult
from scoring.partie import partie_play, score_fields, tournament_options
from scoring.services import HandOutcome, hand_correct, hand_submit
from tests.scoring.tables import LITIGE, director_of, make_table, numbers
from tests.scoring.test_hand_concurrency import at_once
from tournaments.models import Table

pytestmark = pytest.mark.django_db(transaction=True)

RACES = 6


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every write anyway)")


def made_by(side: str, points: int) -> dict[str, Any]:
    other = "B" if side == "A" else "A"
    return {"taker": side, "contract": "hearts", "points": {side: points, other: 162 - points}}


def scored_partie(table: Table) -> tuple[list[Hand], MatchResult]:
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    return hands, partie_play(table.round.tournament, [hand.raw for hand in hands])


def test_a_correction_of_donne_n_racing_the_entry_of_donne_n_plus_1_keeps_both_and_scores_once() -> None:
    table = make_table(end_value=30)
    tournament = table.round.tournament
    director = director_of(tournament)
    hand_submit(table=table, raw=made_by("A", 100), idempotency_key="first")
    for race in range(RACES):
        n = race + 1
        # The correction turns donne n into a litige every other race: its reserve then
        # goes to the winner of donne n+1, whichever of the two writes lands first.
        correction = LITIGE if race % 2 == 0 else made_by("B", 90 + race)
        entry = made_by("A", 95 + race)
        updates_before = HandRevision.objects.filter(table=table, number=n, action="update").count()

        def write(i: int, n: int = n, correction: dict[str, Any] = correction, entry: dict[str, Any] = entry) -> Any:
            fresh = Table.objects.get(pk=table.pk)
            if i == 0:
                hand = Hand.objects.get(table=fresh, number=n)
                return hand_correct(hand=hand, raw=correction, reason=f"course {n}", by=director)
            return hand_submit(table=fresh, raw=entry, idempotency_key=f"entry-{n + 1}", expected_number=n + 1)

        corrected, entered = at_once(2, write)
        assert isinstance(corrected, HandOutcome) and isinstance(entered, HandOutcome)
        assert entered.created and not entered.conflict

        # Both kept, in order.
        assert numbers(table) == list(range(1, n + 2))
        hands, result = scored_partie(table)
        assert hands[n - 1].raw == correction and hands[n].raw == entry
        assert HandRevision.objects.filter(table=table, number=n, action="update").count() == updates_before + 1
        assert HandRevision.objects.filter(table=table, number=n + 1, action="create").count() == 1

        # Scored once: each hand holds the engine's score for the partie as it stands.
        assert result.valid
        reserve = 0
        for hand, score in zip(hands, result.scores, strict=True):
            expected = score_fields(score, reserve)
            reserve = score.reserve_out
            assert {name: getattr(hand, name) for name in expected} == expected, f"donne {hand.number}"
            assert hand.options == tournament_options(tournament)
        stored = TableResult.objects.get(table=table)
        assert (stored.totals, stored.donnes_played) == (list(result.totals), result.donnes_played)

    # The live ranking counts the partie once: its points are the table's totals.
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).latest("version")
    assert sorted(row["points"] for row in snapshot.rows) == sorted(TableResult.objects.get(table=table).totals)
