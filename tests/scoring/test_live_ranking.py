"""The live ranking as the site serves its polls (scoring/live_ranking.py).

A public ranking is polled as files (tests/site/test_live_files.py); the site itself
serves the ranking of a tournament its organisers follow before it is public, and any
poll of the page's own address: one rendering of the ranking's fragment per version,
language and page, shared by the page and its partial through the cache; the published
version, which moves at most every RANKING_PUBLISH_SECONDS under load. The clock is the
tests' own (`live_ranking.clock`).

Personas: the *director* follows a tournament of their club not public yet.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import live_ranking
from scoring.models import StandingsSnapshot
from scoring.services import hand_submit
from scoring.standings import standings_rebuild
from tests.production.processes import free_port
from tests.scoring.tables import director_of, make_table
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db

WIN_A = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}
WIN_B = {"taker": "B", "contract": "spades", "points": {"A": 40, "B": 122}}
FRAGMENT = "scoring/public/ranking_table.html"
HTMX = {"HX-Request": "true"}


@pytest.fixture
def renders() -> Iterator[list[str]]:
    """The names of the templates rendered during the test, in order."""
    names: list[str] = []

    def seen(sender: object, template: object, **kwargs: object) -> None:
        names.append(getattr(template, "name", "") or "")

    cache.clear()
    template_rendered.connect(seen)
    yield names
    template_rendered.disconnect(seen)


@pytest.fixture
def running(django_capture_on_commit_callbacks) -> Table:
    table = make_table(tables=2)
    Tournament.objects.filter(pk=table.round.tournament_id).update(is_public=False)
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=table, raw=WIN_A)
    return table


def follower(table: Table, **kwargs: object) -> Client:
    """A browser of the tournament's director (the ranking is not public)."""
    browser = Client(**kwargs)  # type: ignore[arg-type]
    browser.force_login(director_of(table.round.tournament))
    return browser


@pytest.fixture
def client(running: Table) -> Client:
    return follower(running)


@pytest.fixture
def clock(monkeypatch) -> list[float]:
    """The time every process agrees on, moved by the test: `clock[0] = ...`."""
    now = [1_000_000.0]
    monkeypatch.setattr(live_ranking, "clock", lambda: now[0])
    return now


def url(table: Table, name: str = "ranking") -> str:
    return reverse(f"public:{name}", kwargs={"slug": table.round.tournament.slug})


def newest(table: Table) -> int:
    return StandingsSnapshot.objects.filter(tournament=table.round.tournament).latest("version").version


def shown_version(body: bytes) -> int:
    found = re.search(rb'data-version="(\d+)"', body)
    assert found is not None, body[:300]
    return int(found.group(1))


def new_version(table: Table, capture) -> int:
    # A rebuild always writes a new version; once committed, polls forget the row they kept.
    with capture(execute=True):
        standings_rebuild(tournament_id=table.round.tournament_id)
    return newest(table)


# -- one rendering per version ---------------------------------------------------------


def test_the_page_and_its_partial_share_one_rendering_per_version(
    running: Table, client: Client, renders: list[str]
) -> None:
    page = client.get(url(running))
    partial = client.get(url(running), headers=HTMX)
    again = client.get(url(running))
    assert page.status_code == partial.status_code == again.status_code == 200
    assert renders.count(FRAGMENT) == 1
    # The page wraps the very fragment the partial answers with.
    fragment = partial.content.decode()
    assert 'id="ranking"' in fragment and "<html" not in fragment
    assert fragment.strip() in page.content.decode() and fragment.strip() in again.content.decode()
    assert "C1" in fragment and "102" in fragment


def test_a_second_visitor_reads_the_fragment_the_first_one_had_rendered(
    running: Table, renders: list[str], django_assert_max_num_queries
) -> None:
    assert follower(running).get(url(running), headers=HTMX).status_code == 200
    # Another browser (another process would share the cache the same way): no snapshot read.
    second = follower(running)
    with CaptureQueriesContext(connection) as queries:
        assert second.get(url(running), headers=HTMX).status_code == 200
    assert not [query for query in queries if '"rows"' in query["sql"]]
    assert renders.count(FRAGMENT) == 1


def test_a_process_reads_a_version_from_the_shared_cache_once(running: Table, monkeypatch) -> None:
    cache.clear()
    reads: list[str] = []
    real_get = cache.get

    def counted(key: str, *args: object, **kwargs: object) -> object:
        if key.startswith("ranking-fragment:"):
            reads.append(key)
        return real_get(key, *args, **kwargs)

    assert follower(running).get(url(running), headers=HTMX).status_code == 200
    # Another web process rendered it: this one reads it from the shared cache, then keeps it.
    live_ranking.forget_local()
    monkeypatch.setattr(cache, "get", counted)
    bodies = {
        follower(running).get(url(running), headers={**HTMX, "Accept-Encoding": "gzip"}).content for _ in range(5)
    }
    assert len(bodies) == 1
    assert len(reads) == 2  # the fragment and its gzip body, once each
    # A new version is read again; a cleared process starts over.
    live_ranking.forget_local()
    follower(running).get(url(running), headers=HTMX)
    assert len(reads) == 3


def test_languages_are_rendered_apart_and_each_once(running: Table, renders: list[str]) -> None:
    french, english = (
        follower(running, headers={"Accept-Language": "fr"}),
        follower(running, headers={"Accept-Language": "en"}),
    )
    in_french = french.get(url(running), headers=HTMX).content.decode()
    in_english = english.get(url(running), headers=HTMX).content.decode()
    assert ">Rang<" in in_french and ">Rank<" not in in_french
    assert ">Rank<" in in_english and ">Rang<" not in in_english
    assert english.get(url(running)).status_code == french.get(url(running)).status_code == 200
    assert renders.count(FRAGMENT) == 2


def test_a_new_version_is_rendered_again_once(
    running: Table, client: Client, renders: list[str], django_capture_on_commit_callbacks
) -> None:
    first = client.get(url(running), headers=HTMX)
    version = new_version(running, django_capture_on_commit_callbacks)
    moved = client.get(url(running), headers={**HTMX, "If-None-Match": first["ETag"]})
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    assert shown_version(moved.content) == version > shown_version(first.content)
    assert client.get(url(running)).status_code == 200
    assert renders.count(FRAGMENT) == 2


def test_the_projector_has_its_own_fragment_polling_its_own_address(
    running: Table, client: Client, renders: list[str]
) -> None:
    projector = client.get(url(running, "projector"), headers=HTMX).content.decode()
    page = client.get(url(running), headers=HTMX).content.decode()
    assert f'hx-get="{url(running, "projector")}"' in projector and "projector-ranking" in projector
    assert f'hx-get="{url(running)}"' in page and "projector-ranking" not in page
    assert client.get(url(running, "projector")).status_code == 200
    assert renders.count(FRAGMENT) == 2


# -- the published version -------------------------------------------------------------


def test_polls_within_the_publishing_time_keep_the_published_version(
    running: Table, clock: list[float], settings, django_capture_on_commit_callbacks
) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    phone = follower(running)
    first = phone.get(url(running), headers=HTMX)
    published = shown_version(first.content)
    version = new_version(running, django_capture_on_commit_callbacks)
    assert version > published
    clock[0] += 1.5
    # The phone that shows the published version: 304; a newcomer: the published version too.
    assert phone.get(url(running), headers={**HTMX, "If-None-Match": first["ETag"]}).status_code == 304
    assert shown_version(follower(running).get(url(running)).content) == published
    assert shown_version(follower(running).get(url(running, "projector"), headers=HTMX).content) == published
    # Two seconds after the last publication, the newest version is published.
    clock[0] += 0.5
    moved = phone.get(url(running), headers={**HTMX, "If-None-Match": first["ETag"]})
    assert moved.status_code == 200 and shown_version(moved.content) == version
    assert phone.get(url(running), headers={**HTMX, "If-None-Match": moved["ETag"]}).status_code == 304


def test_a_quiet_ranking_shows_a_new_hand_at_the_first_poll(
    running: Table, clock: list[float], settings, django_capture_on_commit_callbacks
) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    phone = follower(running)
    first = phone.get(url(running), headers=HTMX)
    clock[0] += 60
    version = new_version(running, django_capture_on_commit_callbacks)
    moved = phone.get(url(running), headers={**HTMX, "If-None-Match": first["ETag"]})
    assert moved.status_code == 200 and shown_version(moved.content) == version


def test_with_no_publishing_time_every_version_is_served_at_once(
    running: Table, clock: list[float], settings, django_capture_on_commit_callbacks
) -> None:
    settings.RANKING_PUBLISH_SECONDS = 0
    phone = follower(running)
    first = phone.get(url(running), headers=HTMX)
    version = new_version(running, django_capture_on_commit_callbacks)
    moved = phone.get(url(running), headers={**HTMX, "If-None-Match": first["ETag"]})
    assert moved.status_code == 200 and shown_version(moved.content) == version


def test_a_published_version_pruned_before_it_was_drawn_gives_way_to_the_newest(
    running: Table, clock: list[float], settings, django_capture_on_commit_callbacks
) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    tournament_id = running.round.tournament_id
    old = newest(running)
    cache.clear()
    live_ranking.publish(tournament_id, old)
    version = new_version(running, django_capture_on_commit_callbacks)
    StandingsSnapshot.objects.filter(tournament_id=tournament_id, version=old).delete()
    clock[0] += 0.5
    served = follower(running).get(url(running), headers=HTMX)
    assert served.status_code == 200 and shown_version(served.content) == version
    assert live_ranking.published_version(tournament_id, version) == version


def test_the_published_version_never_moves_back(clock: list[float], settings) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    cache.clear()
    assert live_ranking.published_version(7, 5) == 5
    # A process that read the tournament a moment ago knows only version 4: it serves 5.
    clock[0] += 10
    assert live_ranking.published_version(7, 4) == 5
    # Newer ones wait for the publishing time, counted from the last publication.
    assert live_ranking.published_version(7, 9) == 9
    clock[0] += 1
    assert live_ranking.published_version(7, 12) == 9
    assert live_ranking.published_version(7, 12, every=0) == 12
    clock[0] += 1
    assert live_ranking.published_version(7, 12) == 12
    # No ranking yet: nothing to publish.
    assert live_ranking.published_version(8, 0) == 0


def test_a_poll_learns_of_a_new_version_from_the_refresh_not_from_its_stale_row(clock: list[float], settings) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    cache.clear()
    assert live_ranking.published_version(7, 5) == 5
    clock[0] += 3
    # The refresh (another process) committed version 6; this process's row still says 5.
    live_ranking.newest_written(7, 6)
    assert live_ranking.published_version(7, 5) == 6


def test_a_refresh_announces_its_version_once_committed(
    running: Table, settings, clock, django_capture_on_commit_callbacks
) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    tournament_id = running.round.tournament_id
    version = new_version(running, django_capture_on_commit_callbacks)
    clock[0] += 3
    assert live_ranking.published_version(tournament_id, 0) == version


def test_a_process_keeps_a_bounded_number_of_fragments(monkeypatch) -> None:
    cache.clear()
    monkeypatch.setattr(live_ranking, "LOCAL_CHARS", 10)
    for key in ("a", "b", "c"):
        assert live_ranking.shared_fragment(f"ranking-fragment:{key}", lambda: "x" * 4) == "x" * 4
    # The oldest went when the third came; asking again reads the shared cache, not render().
    assert list(live_ranking._local) == ["ranking-fragment:b", "ranking-fragment:c"]
    assert live_ranking.shared_fragment("ranking-fragment:a", lambda: None) == "x" * 4


# -- several processes, several machines (docs/live-refresh.md, "Several web nodes") -----


def test_a_poll_is_served_the_version_another_process_published_a_moment_ago(clock: list[float], settings) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    cache.clear()
    assert live_ranking.published_version(7, 5) == 5
    clock[0] += 2
    assert live_ranking.published_version(7, 5) == 5
    # Another web process (another machine) published version 9 just now, in the shared
    # cache: the next poll here, whatever this process read before, is served 9, never 5.
    cache.set_many({live_ranking._published_key(7): 9, live_ranking._published_at_key(7): int(clock[0] * 1000)})
    clock[0] += 0.01
    assert live_ranking.published_version(7, 5) == 9


def test_two_processes_publishing_at_once_leave_the_newer_version(clock: list[float], settings) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    cache.clear()
    assert live_ranking.published_version(7, 5) == 5
    clock[0] += 3
    # Both found the publication due; the one knowing of 9 wrote first, the one whose row
    # said 8 second: 9 stays, and the second is told so.
    assert live_ranking.publish(7, 9, now=clock[0]) == 9
    assert live_ranking.publish(7, 8, now=clock[0]) == 9
    assert live_ranking.published_version(7, 8) == 9
    # The publishing time still counts from 9's publication.
    clock[0] += 1
    assert live_ranking.published_version(7, 12) == 9
    clock[0] += 1
    assert live_ranking.published_version(7, 12) == 12


def test_an_announcement_arriving_after_a_newer_one_leaves_the_newer(clock: list[float], settings) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    cache.clear()
    assert live_ranking.published_version(7, 5) == 5
    # Two workers' refreshes committed 9 then 10; their announcements came in the other order.
    live_ranking.newest_written(7, 10)
    live_ranking.newest_written(7, 9)
    clock[0] += 3
    assert live_ranking.published_version(7, 5) == 10


def test_with_no_publishing_time_a_process_with_an_older_row_serves_the_newer_version(settings) -> None:
    settings.RANKING_PUBLISH_SECONDS = 0
    cache.clear()
    assert live_ranking.published_version(7, 6) == 6
    # Another process read the tournament a moment before version 6: it serves 6 too.
    assert live_ranking.published_version(7, 5) == 6


def test_a_publication_the_cache_lost_is_made_again_from_the_database_not_from_a_row_read_before(
    running: Table, clock: list[float], settings, django_capture_on_commit_callbacks
) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    tournament_id = running.round.tournament_id
    stale = newest(running)
    version = new_version(running, django_capture_on_commit_callbacks)
    clock[0] += 3
    assert live_ranking.published_version(tournament_id, version) == version
    # Redis restarted empty; a moment later, this process's row, read before the last
    # version, names an older one than was served: the newest stored is published again.
    cache.clear()
    clock[0] += 0.3
    assert live_ranking.published_version(tournament_id, stale) == version


def test_while_redis_is_away_polls_are_served_the_newest_version_stored(
    running: Table, clock: list[float], settings, django_capture_on_commit_callbacks
) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    tournament_id = running.round.tournament_id
    stale = newest(running)
    version = new_version(running, django_capture_on_commit_callbacks)
    # The site's Redis cache, on a port nothing listens on: an empty cache that keeps nothing.
    settings.CACHES = {
        "default": {"BACKEND": "atout.cache.TolerantRedisCache", "LOCATION": f"redis://127.0.0.1:{free_port()}/1"}
    }
    assert live_ranking.publish(tournament_id, stale) == stale
    assert live_ranking.published_version(tournament_id, stale) == version
    served = follower(running).get(url(running), headers=HTMX)
    assert served.status_code == 200 and shown_version(served.content) == version


def test_a_publication_another_database_left_in_the_cache_gives_way_to_this_ones(
    running: Table, clock: list[float], settings
) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    tournament_id = running.round.tournament_id
    version = newest(running)
    # A database made again beside the same Redis: its tournament had reached version 40.
    cache.clear()
    live_ranking.publish(tournament_id, 40, now=clock[0])
    live_ranking.newest_written(tournament_id, 40)
    served = follower(running).get(url(running), headers=HTMX)
    assert served.status_code == 200 and shown_version(served.content) == version
    clock[0] += 3
    assert live_ranking.published_version(tournament_id, version) == version
    assert shown_version(follower(running).get(url(running), headers=HTMX).content) == version


# -- one render per version, however many polls ask for it at once ---------------------


def test_polls_asking_at_once_for_a_version_not_rendered_yet_wait_for_one_render() -> None:
    cache.delete("fragment:threads")
    rendered: list[int] = []

    def slow_render() -> str:
        rendered.append(1)
        time.sleep(0.2)
        return "<table>v7</table>"

    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(lambda _: live_ranking.shared_fragment("fragment:threads", slow_render), range(6)))
    assert answers == ["<table>v7</table>"] * 6
    assert len(rendered) == 1
    assert cache.get("fragment:threads" + live_ranking.RENDERING) is None
    # Nobody holds or waits for the key's lock any more: it is gone, not kept for ever.
    assert "fragment:threads" not in live_ranking._render_locks


def test_a_process_waits_for_the_render_another_process_has_started() -> None:
    key = "fragment:elsewhere"
    cache.delete(key)
    # Another web process took the marker and is rendering: its fragment lands shortly.
    assert cache.add(key + live_ranking.RENDERING, 1, 10)
    threading.Timer(0.1, lambda: cache.set(key, "<table>theirs</table>", 60)).start()

    def render() -> str:
        raise AssertionError("rendered twice")

    assert live_ranking.shared_fragment(key, render) == "<table>theirs</table>"


def test_a_render_another_process_never_finished_is_done_here_after_a_while(monkeypatch) -> None:
    key = "fragment:abandoned"
    cache.delete(key)
    assert cache.add(key + live_ranking.RENDERING, 1, 10)  # its process died mid-render
    monkeypatch.setattr(live_ranking, "RENDER_WAIT_SECONDS", 0.1)
    assert live_ranking.shared_fragment(key, lambda: "<table>mine</table>") == "<table>mine</table>"
    assert cache.get(key) == "<table>mine</table>"


class AwayCache:
    """The shared cache while Redis is away, as atout.cache.TolerantRedisCache answers."""

    def get(self, key: str, default: object = None) -> object:
        return default

    def get_many(self, keys: list[str]) -> dict[str, object]:
        return {}

    def add(self, *args: object, **kwargs: object) -> bool:
        return False

    def set(self, *args: object, **kwargs: object) -> None:
        return None

    def delete(self, *args: object, **kwargs: object) -> None:
        return None


def test_with_the_shared_cache_away_a_poll_renders_at_once_rather_than_wait(monkeypatch) -> None:
    monkeypatch.setattr(live_ranking, "cache", AwayCache())

    def no_waiting(seconds: float) -> None:
        raise AssertionError(f"waited {seconds} s for a render nobody else is doing")

    monkeypatch.setattr(live_ranking.time, "sleep", no_waiting)
    assert live_ranking.shared_fragment("fragment:away", lambda: "<table>here</table>") == "<table>here</table>"
