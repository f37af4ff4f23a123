"""The suite's tiers and Hypothesis's profiles, in one place.

Tiers (pytest markers; the README says how to run each, "Tests"):
- the **fast tier**: every test without one of the markers below (the engine, the
  services, the views through Django's test client, the API). `./test` runs it.
- `browser`: drives Debian's Chromium (any test using the `browser` fixture).
- `celery_worker`: needs a real Celery worker on Redis (any test using `celery_worker`).
- `production`: starts the production processes (gunicorn, workers, servers of their
  own: everything under tests/production/).
- `property`: Hypothesis explores many generated cases (any `@given` test, or a test that
  runs one inside it, marked by hand).
- `slow`: a test of the fast kinds that alone takes several seconds (a whole night played
  through the services, say), marked by hand.
`./test --all` runs every tier.

Hypothesis runs **derandomised** by default (profile `ci`): the same examples on every
machine and every clone, so a fresh clone never goes red on a seed nobody saw before.
`HYPOTHESIS_PROFILE=explore` draws new examples on each run with twenty times as many of
them (`examples()` scales the tests that set their own count); `--hypothesis-seed=N`
replays one exploration.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# The markers that take a test out of the fast tier.
SLOW_TIERS = frozenset({"browser", "celery_worker", "production", "property", "slow"})

EXPLORE_SCALE = 20

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", derandomize=False, max_examples=100 * EXPLORE_SCALE, print_blob=True)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)


def examples(count: int) -> int:
    """A test's own number of examples, scaled up when exploring."""
    return count * EXPLORE_SCALE if PROFILE == "explore" else count


def mark_tiers(items: list[pytest.Item]) -> None:
    """Give each collected test the markers of the tiers its fixtures and place imply."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if "browser" in fixtures:
            item.add_marker(pytest.mark.browser)
        if "celery_worker" in fixtures:
            item.add_marker(pytest.mark.celery_worker)
        if "tests/production/" in item.nodeid:
            item.add_marker(pytest.mark.production)
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.property)


def split_fast_tier(items: list[pytest.Item]) -> tuple[list[pytest.Item], list[pytest.Item]]:
    """The tests of the fast tier, and the others."""
    kept: list[pytest.Item] = []
    left: list[pytest.Item] = []
    for item in items:
        slow = any(marker.name in SLOW_TIERS for marker in item.iter_markers())
        (left if slow else kept).append(item)
    return kept, left
