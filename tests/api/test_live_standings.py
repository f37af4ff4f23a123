"""The API's live standings serve the published version, as the public pages do
(scoring/live_ranking.py): a newer version at most every ATOUT_RANKING_PUBLISH_SECONDS.
The clock is the test's own (`live_ranking.clock`).

Personas (tests/api/conftest.py): *anonymous* has no credentials.
"""

from __future__ import annotations

import pytest

from scoring import live_ranking
from scoring.standings import standings_rebuild
from tests.api.conftest import API, play_table

pytestmark = pytest.mark.django_db


def test_the_live_standings_move_at_most_every_publishing_time(
    played, anonymous, settings, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    now = [5_000.0]
    monkeypatch.setattr(live_ranking, "clock", lambda: now[0])
    tournament, rnd = played(4)
    with django_capture_on_commit_callbacks(execute=True):
        play_table(rnd.tables.order_by("number").first(), 1)
    url = f"{API}/tournaments/{tournament.slug}/standings/"
    first = anonymous.get(url)
    published = first.json()["version"]
    newer = standings_rebuild(tournament_id=tournament.pk).version
    assert newer > published
    now[0] += 1
    assert anonymous.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert anonymous.get(url).json()["version"] == published
    # A round's own ranking is not held back.
    assert anonymous.get(f"{API}/tournaments/{tournament.slug}/standings/after/1/").json()["version"] == newer
    now[0] += 1
    moved = anonymous.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and moved.json()["version"] == newer
