"""What the tournament side tells the apps above it by signals (a ranking to refresh, once
committed), and what it shows of a round's tables when a page above it hands it their
progress (it asks nobody: tests/site/test_signal_arrows.py)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.factories import round_with_tables
from tournaments import selectors, services
from tournaments.signals import standings_refresh_requested

pytestmark = pytest.mark.django_db


@pytest.fixture
def asked() -> Iterator[list[int]]:
    """The tournament ids the signal carried, in order."""
    heard: list[int] = []

    def listen(*, tournament_id: int, **_kwargs: Any) -> None:
        heard.append(tournament_id)

    standings_refresh_requested.connect(listen)
    yield heard
    standings_refresh_requested.disconnect(listen)


def test_a_withdrawal_after_a_round_asks_for_the_ranking_once_committed_and_not_before(
    running, organiser, asked, django_capture_on_commit_callbacks
) -> None:
    tournament, competitors = running(4)
    round_with_tables(tournament, competitors)
    with django_capture_on_commit_callbacks() as callbacks:
        services.competitor_withdraw(by=organiser, competitor=competitors[1])
    assert asked == []
    for callback in callbacks:
        callback()
    assert asked == [tournament.pk]


def test_a_withdrawal_before_any_round_asks_nothing(
    running, organiser, asked, django_capture_on_commit_callbacks
) -> None:
    _tournament, competitors = running(4)
    with django_capture_on_commit_callbacks(execute=True):
        services.competitor_withdraw(by=organiser, competitor=competitors[1])
    assert asked == []


@dataclass
class Progress:
    finished: bool
    forced: bool
    donnes_played: int
    totals: list[int]
    pending: int
    waiting: tuple[()] = ()


def test_the_drawn_tables_show_the_progress_they_are_handed(running) -> None:
    tournament, competitors = running(4)
    rnd = round_with_tables(tournament, competitors)
    first, second = rnd.tables.get(number=1), rnd.tables.get(number=2)
    progress = {
        first.pk: Progress(finished=True, forced=True, donnes_played=7, totals=[500, 300], pending=0),
        second.pk: Progress(finished=False, forced=False, donnes_played=0, totals=[], pending=1),
    }
    tables = selectors.drawn_tables(rnd, progress=progress)
    assert [(t.number, t.finished, t.donnes_played, t.pending) for t in tables] == [(1, True, 7, 0), (2, False, 0, 1)]
