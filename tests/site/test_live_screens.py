"""The director's strip of messages and the round's clock served as files, as the ranking
is (scoring/live_screens.py).

A public tournament's projector, draw and « Ma soirée » pages wrap the files
`/live/<slug>/<lang>-screen.html` and `<lang>-clock.html`, which then poll themselves with
the file's time (nginx answers them in production; here the site, ahead of its chain). A
message posted or withdrawn, the clock started or stopped is a new file with a later time;
a message past its time leaves at its expiry's publication (its task, the workers' sweep,
or the site as it serves the file with no worker). A private tournament has no such file:
its pages poll the site's addresses by their ETag, as before.

Personas: the *room* looks at the projectors (no account); a *player* holds their
« Ma soirée » link; the *director* organises the tournament's club.
"""

from __future__ import annotations

import datetime
import html
import json
import re
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.http import http_date, parse_http_date

from rounds.services import round_clock_start, round_clock_stop, round_close
from scoring import live_files, live_screens, tasks
from tests.scoring.tables import director_of, make_table
from tournaments import services
from tournaments.models import Competitor, ScreenMessage, Table, Tournament
from tournaments.selectors import iso_moment

pytestmark = pytest.mark.django_db

ROUND_SOON = "Ronde 3 dans 5 minutes"
BAR = "La buvette ferme à minuit"
DRAW = "Tirage de la ronde 2 à 22 h"
HTMX = {"HX-Request": "true"}
STRIP = re.compile(r'<div id="screen-messages"[^>]*>.*?</div>', re.S)


@pytest.fixture
def table() -> Table:
    cache.clear()
    return make_table(tables=2)


def folder(tournament: Tournament) -> Path:
    return Path(settings.LIVE_ROOT) / tournament.slug


def on_disk(tournament: Tournament, kind: str) -> str:
    return (folder(tournament) / f"fr-{kind}.html").read_text(encoding="utf-8")


def modified(tournament: Tournament, kind: str) -> str:
    return http_date(int((folder(tournament) / f"fr-{kind}.html").stat().st_mtime))


def polled(markup: str, marker: str) -> tuple[str, dict[str, str]]:
    """The address and headers of the polling element that carries `marker` (its id or class)."""
    found = re.search(rf'<div (?:id|class)="{marker}"[^>]*>', markup)
    assert found, f"no {marker} here"
    tag = found.group(0)
    url = re.search(r'hx-get="([^"]+)"', tag)
    headers = re.search(r"hx-headers='([^']+)'", tag)
    assert url, tag
    return html.unescape(url.group(1)), json.loads(html.unescape(headers.group(1))) if headers else {}


def shown(markup: str) -> list[str]:
    """The messages a strip shows."""
    found = STRIP.search(markup)
    assert found, "no strip of messages"
    return [html.unescape(text) for text in re.findall(r'<p class="screen-message">(.*?)</p>', found.group(0))]


def projector(tournament: Tournament, client: Client | None = None) -> str:
    return (client or Client()).get(reverse("public:projector", kwargs={"slug": tournament.slug})).content.decode()


def post(tournament: Tournament, text: str, minutes: int | None, capture) -> ScreenMessage:
    with capture(execute=True):
        return services.screen_message_post(
            by=director_of(tournament), tournament=tournament, text=text, minutes=minutes
        )


def test_every_public_page_wraps_the_strips_file_which_polls_its_own_address(table: Table) -> None:
    tournament = table.round.tournament
    competitor = Competitor.objects.get(tournament=tournament, number=1)
    pages = {
        "projector": reverse("public:projector", kwargs={"slug": tournament.slug}),
        "draw": reverse("draw:round", args=[tournament.slug, 1]),
        "soiree": reverse("soiree:page", args=[competitor.link_token]),
        "soiree_public": reverse("public:soiree", args=[tournament.slug, 1]),
    }
    for name, url in pages.items():
        page = Client().get(url)
        assert page.status_code == 200, name
        text = page.content.decode()
        assert on_disk(tournament, "screen") in text, name
        address, headers = polled(text, "screen-messages")
        assert address == live_files.address(tournament.slug, "fr-screen"), name
        assert headers == {"If-Modified-Since": modified(tournament, "screen")}, name
    # The personal link's secret is in no address the strip polls.
    assert competitor.link_token not in on_disk(tournament, "screen")
    state = live_files.read_state(tournament.slug, "screen.json")
    assert state is not None and state.names == ("fr-screen",) and state.tournament_id == tournament.pk
    # The projector and the draw show the clock's file too; « Ma soirée » does not ask for it.
    assert live_files.read_state(tournament.slug, "clock.json").names == ("fr-clock",)  # type: ignore[union-attr]


def test_a_posted_message_is_a_new_file_with_a_later_time_and_a_withdrawn_one_leaves_it(
    table: Table, short_cut: list[str], django_capture_on_commit_callbacks
) -> None:
    tournament = table.round.tournament
    address, headers = polled(projector(tournament), "screen-messages")
    since = headers["If-Modified-Since"]
    assert shown(on_disk(tournament, "screen")) == []
    clock_before = modified(tournament, "clock")
    assert Client().get(address, headers={**HTMX, **headers}).status_code == 304

    time.sleep(1.01)  # a new file's time is the second it is written, after the last one
    message = post(tournament, ROUND_SOON, None, django_capture_on_commit_callbacks)
    moved = Client().get(address, headers={**HTMX, **headers})
    assert moved.status_code == 200 and shown(moved.content.decode()) == [ROUND_SOON]
    new_since = moved["Last-Modified"]
    assert parse_http_date(new_since) > parse_http_date(since)
    # The file polls with its own time: 304 on that exact date, the file on any other.
    assert polled(moved.content.decode(), "screen-messages")[1] == {"If-Modified-Since": new_since}
    assert Client().get(address, headers={"If-Modified-Since": new_since}).status_code == 304
    off = http_date(parse_http_date(new_since) + 1)
    assert Client().get(address, headers={"If-Modified-Since": off}).status_code == 200
    # Another family: the clock's file has not moved.
    assert modified(tournament, "clock") == clock_before
    assert set(short_cut) == {address}

    with django_capture_on_commit_callbacks(execute=True):
        services.screen_message_withdraw(by=director_of(tournament), message=message)
    gone = Client().get(address, headers={"If-Modified-Since": new_since})
    assert gone.status_code == 200 and shown(gone.content.decode()) == []
    assert ROUND_SOON not in projector(tournament)


def test_a_publication_with_nothing_moved_writes_nothing(table: Table) -> None:
    tournament = table.round.tournament
    projector(tournament)
    before = live_files.read_state(tournament.slug, "screen.json")
    time.sleep(1.01)
    after = live_screens.publish(tournament.pk, live_screens.SCREEN)
    assert after == before
    # A language newly asked for is written with the same time.
    english = Client(headers={"Accept-Language": "en"}).get(
        reverse("public:projector", kwargs={"slug": tournament.slug})
    )
    assert english.status_code == 200
    state = live_files.read_state(tournament.slug, "screen.json")
    assert state is not None and state.names == ("en-screen", "fr-screen") and state.modified == before.modified  # type: ignore[union-attr]
    assert (folder(tournament) / "en-screen.html").stat().st_mtime == before.modified  # type: ignore[union-attr]


def test_a_message_leaves_at_its_expirys_publication_the_task_or_the_sweep(
    table: Table, django_capture_on_commit_callbacks
) -> None:
    tournament = table.round.tournament
    projector(tournament)
    post(tournament, BAR, 30, django_capture_on_commit_callbacks)
    lasting = post(tournament, ROUND_SOON, None, django_capture_on_commit_callbacks)
    message = ScreenMessage.objects.get(text=BAR)
    state = live_files.read_state(tournament.slug, "screen.json")
    assert state is not None and state.expires == message.expires_at.timestamp()  # type: ignore[union-attr]
    assert shown(on_disk(tournament, "screen")) == [ROUND_SOON, BAR]

    # The sweep, a second before its time: nothing to publish.
    assert live_screens.expired_publish(now=state.expires - 1) == 0  # type: ignore[operator]
    assert shown(on_disk(tournament, "screen")) == [ROUND_SOON, BAR]
    # At its time: published, the message gone, nothing left to expire.
    assert live_screens.expired_publish(now=state.expires + 1) == 1  # type: ignore[operator]
    assert shown(on_disk(tournament, "screen")) == [ROUND_SOON]
    after = live_files.read_state(tournament.slug, "screen.json")
    assert after is not None and after.expires is None and after.modified > state.modified
    assert live_screens.expired_publish(now=state.expires + 60) == 0  # type: ignore[operator]
    assert lasting.expires_at is None

    # The task sent for an expiry (at the real time now): the message's end moved back
    # rather than the clock forward, the task publishes the strip without it.
    message.delete()
    post(tournament, DRAW, 5, django_capture_on_commit_callbacks)
    assert shown(on_disk(tournament, "screen")) == [DRAW, ROUND_SOON]
    ScreenMessage.objects.filter(text=DRAW).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    tasks.screen_files_publish(tournament_id=tournament.pk)
    assert shown(on_disk(tournament, "screen")) == [ROUND_SOON]


def test_a_publication_sends_the_task_for_its_first_expiry_once(
    table: Table, django_capture_on_commit_callbacks, settings, monkeypatch
) -> None:
    tournament = table.round.tournament
    projector(tournament)
    settings.CELERY_TASK_ALWAYS_EAGER = False  # a broker and its workers
    sent: list[tuple[str, float, dict[str, int]]] = []
    monkeypatch.setattr(
        live_screens, "enqueue_later", lambda name, seconds, **kwargs: sent.append((name, seconds, kwargs))
    )
    post(tournament, BAR, 30, django_capture_on_commit_callbacks)
    post(tournament, ROUND_SOON, 60, django_capture_on_commit_callbacks)
    # Both publications' first expiry is the bar's: one task, a little after it.
    assert len(sent) == 1
    name, seconds, kwargs = sent[0]
    assert name == "scoring.screen_files_publish" and kwargs == {"tournament_id": tournament.pk}
    assert 30 * 60 - 5 < seconds <= 30 * 60 + 1


def test_with_no_worker_the_site_publishes_the_strip_past_an_expiry_as_it_serves_it(
    table: Table, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    tournament = table.round.tournament
    address, headers = polled(projector(tournament), "screen-messages")
    post(tournament, BAR, 1, django_capture_on_commit_callbacks)
    fresh = Client().get(address, headers=headers)
    assert fresh.status_code == 200 and shown(fresh.content.decode()) == [BAR]
    since = {"If-Modified-Since": fresh["Last-Modified"]}
    assert Client().get(address, headers=since).status_code == 304
    # Two minutes later, no worker having published the strip at its time.
    later = time.time() + 120
    monkeypatch.setattr(live_screens.time, "time", lambda: later)
    gone = Client().get(address, headers=since)
    assert gone.status_code == 200 and shown(gone.content.decode()) == []


def test_the_clocks_file_holds_its_end_never_the_servers_time_and_follows_the_director(
    table: Table, django_capture_on_commit_callbacks
) -> None:
    tournament = table.round.tournament
    director = director_of(tournament)
    draw = Client().get(reverse("draw:round", args=[tournament.slug, 1])).content.decode()
    address, headers = polled(draw, "round-clock-slot")
    assert address == live_files.address(tournament.slug, "fr-clock")
    assert "data-clock-ends" not in on_disk(tournament, "clock")
    time.sleep(1.01)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = round_clock_start(by=director, round=table.round, minutes=30)
    started = Client().get(address, headers=headers)
    assert started.status_code == 200
    text = started.content.decode()
    assert rnd.clock_ends_at is not None
    assert f'data-clock-ends="{iso_moment(rnd.clock_ends_at)}"' in text and "data-clock-now" not in text
    assert polled(text, "round-clock-slot") == (address, {"If-Modified-Since": started["Last-Modified"]})
    assert 'hx-trigger="every 30s"' in text and 'hx-swap="outerHTML"' in text
    # The page wraps it in the page's own time (clock.js counts from it on a first load).
    page = projector(tournament)
    assert on_disk(tournament, "clock") in page
    assert re.search(r'<div class="round-clock-frame" data-clock-now="\d{4}-\d\d-\d\dT[\d:.]+Z">', page)

    time.sleep(1.01)
    with django_capture_on_commit_callbacks(execute=True):
        round_clock_stop(by=director, round=rnd)
    stopped = Client().get(address, headers={"If-Modified-Since": started["Last-Modified"]})
    assert stopped.status_code == 200 and "data-clock-ends" not in stopped.content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        round_clock_start(by=director, round=rnd, minutes=10)
    assert "data-clock-ends" in on_disk(tournament, "clock")
    with django_capture_on_commit_callbacks(execute=True):
        round_close(by=director, round=rnd, force=True)
    # A closed round's clock no longer runs.
    assert "data-clock-ends" not in on_disk(tournament, "clock")


def test_a_private_tournament_has_no_file_and_its_pages_poll_the_sites_addresses(
    table: Table, django_capture_on_commit_callbacks
) -> None:
    tournament = table.round.tournament
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    tournament.refresh_from_db()
    competitor = Competitor.objects.get(tournament=tournament, number=1)
    organiser = Client()
    organiser.force_login(director_of(tournament))
    post(tournament, ROUND_SOON, None, django_capture_on_commit_callbacks)
    projector_page = projector(tournament, organiser)
    draw_page = organiser.get(reverse("draw:round", args=[tournament.slug, 1])).content.decode()
    soiree_page = Client().get(reverse("soiree:page", args=[competitor.link_token])).content.decode()
    screen_url = reverse("draw:screen", kwargs={"slug": tournament.slug})
    for page, url in (
        (projector_page, screen_url),
        (draw_page, screen_url),
        (soiree_page, reverse("soiree:screen", args=[competitor.link_token])),
    ):
        address, headers = polled(page, "screen-messages")
        assert address == url and set(headers) == {"If-None-Match"}
        assert shown(page) == [ROUND_SOON]
    for page in (projector_page, draw_page):
        address, _headers = polled(page, "round-clock-slot")
        assert address == reverse("draw:clock", kwargs={"slug": tournament.slug})
        assert "round-clock-frame" not in page
    assert not list(folder(tournament).glob("*-screen.html*")) and not list(folder(tournament).glob("*-clock.html*"))
    assert live_screens.publish(tournament.pk, live_screens.SCREEN, want="fr-screen") is None
    assert Client().get(live_files.address(tournament.slug, "fr-screen")).status_code == 404
    assert Client().get(live_files.address(tournament.slug, "fr-clock")).status_code == 404


def test_a_tournament_made_private_loses_its_strip_and_clock_files(
    table: Table, django_capture_on_commit_callbacks
) -> None:
    tournament = table.round.tournament
    projector(tournament)
    assert (folder(tournament) / "fr-screen.html").exists() and (folder(tournament) / "fr-clock.html").exists()
    with django_capture_on_commit_callbacks(execute=True):
        tournament.is_public = False
        tournament.save()
    assert not folder(tournament).exists()
    # A publication that read it public a moment before writes nothing back.
    post(tournament, ROUND_SOON, None, django_capture_on_commit_callbacks)
    assert not folder(tournament).exists()


@pytest.mark.parametrize(
    "path",
    [
        "/live/no-such-concours/fr-screen.html",
        "/live/no-such-concours/fr-clock.html",
        "/live/{slug}/de-screen.html",
        "/live/{slug}/fr-screen-2.html",
        "/live/{slug}/fr-clock-1.html",
        "/live/{slug}/screen.json",
        "/live/{slug}/clock.json",
        "/live/{slug}/fr-clock.html.gz",
        "/live/{slug}/fr-screens.html",
        "/live/%C3%A9t%C3%A9/fr-screen.html",
    ],
)
def test_odd_addresses_of_the_screens_files_get_a_404_never_a_500(table: Table, path: str) -> None:
    tournament = table.round.tournament
    projector(tournament)
    assert Client().get(path.format(slug=tournament.slug)).status_code == 404


def test_a_missing_file_is_published_at_its_first_poll(table: Table) -> None:
    tournament = table.round.tournament
    for kind in ("screen", "clock"):
        response = Client().get(live_files.address(tournament.slug, f"en-{kind}"))
        assert response.status_code == 200 and response["Last-Modified"]
        assert response.content.decode() == (folder(tournament) / f"en-{kind}.html").read_text(encoding="utf-8")
