"""What the tournament side tells the apps above it: a ranking to refresh, once committed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.factories import round_with_tables
from tournaments import services
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
