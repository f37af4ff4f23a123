"""Several phones at once, on PostgreSQL with real threads and their own connections:
never a hand lost, never a hand doubled."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection, connections

from scoring.models import Hand, TableResult
from scoring.services import HandOutcome, hand_submit
from tests.scoring.tables import SOUND_HANDS, make_table, numbers
from tournaments.models import Table

pytestmark = pytest.mark.django_db(transaction=True)

HAND = SOUND_HANDS["belote_classique"][0]


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every write anyway)")


def at_once(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run work(0..count-1) in `count` threads released together; each closes its connection."""
    barrier = threading.Barrier(count)

    def run(i: int) -> Any:
        try:
            barrier.wait(timeout=10)
            return work(i)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def test_eight_phones_sending_the_same_donne_store_one_and_are_told_what_was_stored() -> None:
    table = make_table()

    def send(i: int) -> HandOutcome:
        raw = {"taker": "A", "contract": "hearts", "points": {"A": 100 + i, "B": 62 - i}}
        return hand_submit(table=Table.objects.get(pk=table.pk), raw=raw, idempotency_key=f"phone-{i}",
                           expected_number=1)  # fmt: skip

    outcomes = at_once(8, send)
    created = [outcome for outcome in outcomes if outcome.created]
    assert len(created) == 1
    stored = Hand.objects.get(table=table)
    assert all(outcome.conflict and outcome.hand.pk == stored.pk for outcome in outcomes if not outcome.created)
    assert numbers(table) == [1]


def test_one_entry_resent_from_eight_threads_is_stored_once() -> None:
    table = make_table()
    outcomes = at_once(
        8,
        lambda i: hand_submit(
            table=Table.objects.get(pk=table.pk), raw=HAND, idempotency_key="retry", expected_number=1
        ),
    )
    assert sum(outcome.created for outcome in outcomes) == 1
    assert sum(outcome.replayed or outcome.conflict for outcome in outcomes) == 7
    assert numbers(table) == [1]


def test_phones_appending_to_one_table_at_once_get_consecutive_donnes_and_none_is_lost() -> None:
    table = make_table(end_value=20)
    at_once(10, lambda i: hand_submit(table=Table.objects.get(pk=table.pk), raw=HAND, idempotency_key=f"k{i}"))
    assert numbers(table) == list(range(1, 11))
    assert TableResult.objects.get(table=table).totals == [1020, 600]


def test_twelve_tables_with_two_phones_each_enter_twelve_donnes_exactly_once() -> None:
    first = make_table(tables=12)
    tables = list(Table.objects.filter(round=first.round).order_by("number"))

    def phone(i: int) -> None:
        # Two phones per table send every donne with the same key, as a retry would.
        table = tables[i // 2]
        for number in range(1, 13):
            hand_submit(table=table, raw=HAND, idempotency_key=f"t{table.number}-d{number}", expected_number=number)

    at_once(24, phone)
    for table in tables:
        assert numbers(table) == list(range(1, 13))
        result = TableResult.objects.get(table=table)
        assert result.finished and result.totals == [102 * 12, 60 * 12]
    assert Hand.objects.filter(table__round=first.round).count() == 144


def test_a_round_closed_by_force_while_a_tables_first_donne_is_being_written_waits_for_it() -> None:
    """The director forces the close as a referee sends a table's first donne: the donne is
    stored and counted in the forced result, or refused as after the close; never a deadlock
    (PostgreSQL would break it by failing one of the two: a 503 to the director)."""
    from rounds.services import round_close
    from scoring import services
    from tests.scoring.tables import director_of

    table = make_table()
    holding, closing = threading.Event(), threading.Event()
    real_play = services._play

    def slow_play(locked: Table, raws: Any) -> Any:
        # The table is locked and its first result not written yet: let the close start.
        holding.set()
        closing.wait(timeout=10)
        threading.Event().wait(0.5)
        return real_play(locked, raws)

    def enter() -> HandOutcome:
        try:
            return hand_submit(table=Table.objects.get(pk=table.pk), raw=HAND, idempotency_key="first")
        finally:
            connections.close_all()

    def close() -> Any:
        try:
            holding.wait(timeout=10)
            closing.set()
            rnd = table.round
            return round_close(by=director_of(rnd.tournament), round=type(rnd).objects.get(pk=rnd.pk), force=True)
        finally:
            connections.close_all()

    services._play = slow_play  # type: ignore[assignment]
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            entered, closed = pool.submit(enter), pool.submit(close)
            outcome, rnd = entered.result(timeout=30), closed.result(timeout=30)
    finally:
        services._play = real_play  # type: ignore[assignment]
    assert outcome.created and rnd.forced
    result = TableResult.objects.get(table=table)
    assert result.forced and result.totals == SOUND_HANDS["belote_classique"][1]
