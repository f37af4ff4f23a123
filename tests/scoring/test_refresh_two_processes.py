"""Two processes refresh the same tournament in turn, and the ranking is always the full rebuild.

Each process keeps what its live refreshes built (scoring/standings/kept.py): the round
in play's tables, the summed records, the digest of the competitors, the last order. On
a night several worker processes take the refresh tasks of one tournament in turn, so
what one process kept was built before hands that another process's refreshes counted.
Here every other refresh runs in a real Celery worker process (its own memos, the same
PostgreSQL database) and the others in this process, over any sequence of entries,
corrections, deletions, withdrawals, late arrivals and round closes; after every step
every stored snapshot holds the rows the full rebuild computes now.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rounds.services import round_draw
from scoring.enqueue import STANDINGS_REFRESH
from scoring.enqueue import enqueue as send
from scoring.models import StandingsRefresh
from scoring.standings import refresh, snapshots
from tests.scoring.test_incremental_standings import CRITERIA, entry, operation, play, ranked_as_rebuilt
from tests.tiers import examples
from tests.tournaments.conftest import club, organiser, running

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

# The tournaments' personas and builders (tests/tournaments/conftest.py), as fixtures here.
__all__ = ["club", "organiser", "running"]

WORKER_SECONDS = 30
# Mostly hands, so that many live refreshes follow one another across the two processes.
step = st.one_of(entry, entry, entry, entry, operation)


def test_two_processes_refreshing_one_tournament_in_turn_always_write_the_full_rebuild(
    running: Any, organiser: Any, celery_worker: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    turns: Counter[str] = Counter()

    def in_turn(name: str, **kwargs: int) -> None:
        """The refresh asked for: every other one here, the others by the worker process
        (waited for, so that the next step starts from its snapshot)."""
        if name != STANDINGS_REFRESH:
            send(name, **kwargs)
            return
        here = sum(turns.values()) % 2 == 0
        turns["here" if here else "worker"] += 1
        if here:
            refresh.standings_refresh(tournament_id=kwargs["tournament_id"], ticket=kwargs.get("ticket", 0))
            return
        send(name, **kwargs)
        deadline = time.monotonic() + WORKER_SECONDS
        while time.monotonic() < deadline:
            built = StandingsRefresh.objects.filter(pk=kwargs["tournament_id"]).values_list("built", flat=True).first()
            if built is not None and built >= kwargs.get("ticket", 0):
                return
            time.sleep(0.01)
        raise AssertionError(f"the worker did not refresh in {WORKER_SECONDS} s: see {celery_worker.log_path}")

    monkeypatch.setattr("scoring.standings.refresh.enqueue", in_turn)
    # The refreshes of this process, and which way each went.
    paths: Counter[str] = Counter()
    live_update = snapshots.live_update

    def counted(*args: Any, **kwargs: Any) -> Any:
        outcome = live_update(*args, **kwargs)
        paths["full" if outcome is snapshots.FULL else "incremental"] += 1
        return outcome

    monkeypatch.setattr(snapshots, "live_update", counted)

    @settings(
        max_examples=examples(20),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        criteria=st.sampled_from(CRITERIA),
        late_policy=st.sampled_from(["absent", "bye"]),
        donnes=st.sampled_from([1, 2, 3]),
        steps=st.lists(step, min_size=2, max_size=16),
    )
    def night(criteria: list[str], late_policy: str, donnes: int, steps: list[tuple[str, int, int]]) -> None:
        tournament, _teams = running(
            5, criteria=criteria, bye_policy="average_win", late_policy=late_policy,
            end_rule="donnes", end_value=donnes, rounds_planned=3,
        )  # fmt: skip
        round_draw(by=organiser, tournament=tournament)
        ranked_as_rebuilt(tournament)
        for step in steps:
            play(tournament, organiser, step)
            ranked_as_rebuilt(tournament)

    night()
    # Both processes refreshed, many times each; this one from what it kept, and in full.
    assert turns["here"] > 10 and turns["worker"] > 10
    assert paths["incremental"] > 0 and paths["full"] > 0
    assert "scoring.standings_refresh" in celery_worker.log_path.read_text()
