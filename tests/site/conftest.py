"""Fixtures of the live polls' tests (tests/site/test_live_poll.py, test_soiree_poll.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache

from scoring import middleware
from scoring.services import hand_submit
from tests.scoring.tables import make_table
from tournaments.models import Table

WIN_A = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}


@pytest.fixture
def running(django_capture_on_commit_callbacks) -> Table:
    """Round 1 of a concours of four teams, a donne stored at table 1 (its ranking published)."""
    cache.clear()
    table = make_table(tables=2)
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=table, raw=WIN_A)
    return table


@pytest.fixture
def short_cut(monkeypatch) -> Iterator[list[str]]:
    """The addresses the polls' short cut (scoring.middleware.LivePollMiddleware) answered, in order."""
    answered: list[str] = []
    real = middleware.LivePollMiddleware.__call__

    def spied(self, request):  # type: ignore[no-untyped-def]
        response = real(self, request)
        if getattr(request, "resolver_match", None) is None and response.status_code in (200, 304):
            answered.append(request.path)
        return response

    monkeypatch.setattr(middleware.LivePollMiddleware, "__call__", spied)
    yield answered
