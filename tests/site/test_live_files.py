"""The public ranking's polls served as files (scoring/live_files.py).

A public tournament's page wraps the file its polls then read at `/live/<slug>/...`:
nginx sends those in production (tests/production, tests/e2e through nginx); here, the
site sends the same file ahead of its middleware chain, as nginx would (304 while
If-Modified-Since is the file's time, gzip to who takes it), and publishes a file not
there yet. A new version is a new file with a later time; an older version is never
written back; a private, moved or deleted tournament's files are gone at once.

Personas: a *visitor* follows a public tournament without an account; the *director*
organises the tournament's club.
"""

from __future__ import annotations

import datetime
import fcntl
import gzip
import html
import json
import os
import re
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils.http import http_date, parse_http_date

from scoring import live_files
from scoring.models import StandingsSnapshot
from scoring.selectors.standings import ranking_page_of, ranking_pages
from scoring.services import hand_submit
from scoring.standings import standings_rebuild
from scoring.views.public import files_behind_publish, publish_files, publish_files_when_due
from tests.scoring.tables import director_of, make_table
from tests.site.conftest import WIN_A
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
GZIP = {"Accept-Encoding": "gzip, deflate, br"}
POLLED = re.compile(r'hx-get="(?P<url>[^"]+)"[^>]*hx-headers="(?P<headers>[^"]+)"[^>]*data-version="(?P<version>\d+)"')


def page_url(tournament: Tournament, name: str = "ranking") -> str:
    return reverse(f"public:{name}", kwargs={"slug": tournament.slug})


def polled(page: bytes) -> tuple[str, str, int]:
    """The address the page's ranking polls, the If-Modified-Since it sends, its version."""
    found = POLLED.search(page.decode())
    assert found, "the page's ranking polls nothing"
    headers = json.loads(html.unescape(found["headers"]))
    return html.unescape(found["url"]), headers["If-Modified-Since"], int(found["version"])


def body(response) -> bytes:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return gzip.decompress(content) if response.get("Content-Encoding") == "gzip" else content


def folder(tournament: Tournament) -> Path:
    return Path(settings.LIVE_ROOT) / tournament.slug


def test_the_page_wraps_the_file_its_polls_read_and_they_are_answered_ahead_of_the_chain(
    running: Table, short_cut: list[str]
) -> None:
    tournament = running.round.tournament
    page = Client().get(page_url(tournament))
    assert page.status_code == 200
    address, since, version = polled(page.content)
    assert address == f"/live/{tournament.slug}/fr-ranking.html"
    assert version == StandingsSnapshot.objects.filter(tournament=tournament).latest("version").version
    on_disk = (folder(tournament) / "fr-ranking.html").read_bytes()
    assert on_disk in page.content
    assert since == http_date(int((folder(tournament) / "fr-ranking.html").stat().st_mtime))

    unchanged = Client().get(address, headers={**HTMX, "If-Modified-Since": since})
    assert unchanged.status_code == 304 and unchanged.content == b""
    fresh = Client().get(address, headers={**HTMX, **GZIP})
    assert fresh.status_code == 200 and fresh["Content-Encoding"] == "gzip"
    assert body(fresh) == on_disk and fresh["Last-Modified"] == since
    assert fresh["Cache-Control"] == "no-cache" and fresh["Vary"] == "Accept-Encoding"
    assert fresh["Content-Type"] == "text/html; charset=utf-8"
    plain = Client().get(address)
    assert plain.content == on_disk and "Content-Encoding" not in plain
    # nginx's headers: the tag of a static file (its time and size).
    assert re.fullmatch(r'"[0-9a-f]+-[0-9a-f]+"', plain["ETag"])
    assert short_cut == [address] * 3
    # The fragment is swapped into a page that has its policy: the file needs none.
    assert "Content-Security-Policy" not in fresh


def test_a_new_hand_is_a_new_file_with_a_later_time_and_the_old_tag_gets_it(
    running: Table, django_capture_on_commit_callbacks
) -> None:
    tournament = running.round.tournament
    address, since, version = polled(Client().get(page_url(tournament)).content)
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=running, raw=WIN_A)
    moved = Client().get(address, headers={**HTMX, "If-Modified-Since": since})
    assert moved.status_code == 200
    new_address, new_since, new_version = polled(moved.content)
    assert new_address == address and new_version > version
    assert parse_http_date(new_since) > parse_http_date(since)
    assert Client().get(address, headers={"If-Modified-Since": new_since}).status_code == 304


def test_each_language_and_the_projector_have_their_own_file(running: Table) -> None:
    tournament = running.round.tournament
    english = Client(headers={"Accept-Language": "en"}).get(page_url(tournament))
    address, _since, _version = polled(english.content)
    assert address == f"/live/{tournament.slug}/en-ranking.html" and b">Rank<" in english.content
    projector = Client().get(page_url(tournament, "projector"))
    address, _since, _version = polled(projector.content)
    assert address == f"/live/{tournament.slug}/fr-projector.html" and b"projector-ranking" in projector.content
    # A file never asked for is published at its first poll (nginx hands the miss to the site).
    missing = Client().get(f"/live/{tournament.slug}/en-projector.html")
    assert missing.status_code == 200 and b"projector-ranking" in missing.content
    # (the page's strip of messages and clock are files of their own: scoring/live_screens.py)
    files = folder(tournament).glob("*.html*")
    ranking = [path for path in files if live_files.kind_of(path.name.split(".")[0]) in live_files.RANKING]
    assert sorted(path.name for path in ranking if path.suffix == ".html") == [
        "en-projector.html",
        "en-ranking.html",
        "fr-projector.html",
    ]
    # Every file of one publication carries one time.
    assert len({path.stat().st_mtime for path in ranking}) == 1


def test_a_version_older_than_the_folders_is_never_written_back(running: Table) -> None:
    tournament = running.round.tournament
    Client().get(page_url(tournament))
    held = live_files.read_state(tournament.slug)
    assert held is not None
    # Another process's newer publication (a later version, stored), then this one's,
    # which read the tournament's row before it.
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).latest("version")
    snapshot.pk, snapshot.version = None, snapshot.version + 5
    snapshot.save()
    newer = publish_files(tournament.pk)
    assert newer is not None and newer.version == held.version + 5
    StandingsSnapshot.objects.filter(tournament=tournament, version=held.version + 5).update(version=held.version + 6)
    # The folder names a version the database no longer holds (a restore): the newest there is.
    again = publish_files(tournament.pk)
    assert again is not None and again.version == held.version + 6 and again.modified > newer.modified
    StandingsSnapshot.objects.create(
        tournament=tournament, version=held.version + 1, rows=[], criteria=[], digest="old", built_at=snapshot.built_at
    )
    kept = publish_files(tournament.pk)
    assert kept is not None and kept.version == held.version + 6


def test_a_tournament_made_private_moved_or_deleted_is_served_no_more(
    running: Table, django_capture_on_commit_callbacks
) -> None:
    tournament = running.round.tournament
    Client().get(page_url(tournament))
    address = f"/live/{tournament.slug}/fr-ranking.html"
    assert Client().get(address).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        tournament.is_public = False
        tournament.save()
    assert not folder(tournament).exists()
    assert Client().get(address).status_code == 404
    # Its organisers still follow it, through the site (never a file).
    director = Client()
    director.force_login(director_of(tournament))
    assert director.get(page_url(tournament)).status_code == 200
    assert not folder(tournament).exists()

    with django_capture_on_commit_callbacks(execute=True):
        tournament.is_public = True
        tournament.save()
    assert Client().get(address).status_code == 200
    old = tournament.slug
    with django_capture_on_commit_callbacks(execute=True):
        tournament.slug = "ailleurs"
        tournament.save()
    assert not (Path(settings.LIVE_ROOT) / old).exists()
    assert Client().get(address).status_code == 404
    assert Client().get("/live/ailleurs/fr-ranking.html").status_code == 200


def test_a_deleted_tournament_is_served_no_more(django_capture_on_commit_callbacks) -> None:
    # A concours opened for registration, nobody yet: its page says no ranking yet.
    tournament = Tournament.objects.create(
        club=make_table(tables=1).round.tournament.club,
        name="Concours annulé",
        slug="annule",
        date=datetime.date(2026, 12, 5),
        status=Tournament.Status.REGISTRATION,
    )
    assert Client().get(page_url(tournament)).status_code == 200
    assert Client().get("/live/annule/fr-ranking.html").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        tournament.delete()
    assert not (Path(settings.LIVE_ROOT) / "annule").exists()
    assert Client().get("/live/annule/fr-ranking.html").status_code == 404


def test_a_new_setting_is_drawn_again_at_once(running: Table, django_capture_on_commit_callbacks) -> None:
    tournament = running.round.tournament
    address, since, _version = polled(Client().get(page_url(tournament)).content)
    with django_capture_on_commit_callbacks(execute=True):
        tournament.name = "Concours de la Saint-Nicolas"
        tournament.save()
    # (The lots beside the ranks, the criteria: the tournament's row moves with them.)
    moved = Client().get(address, headers={"If-Modified-Since": since})
    assert moved.status_code == 200
    assert parse_http_date(moved["Last-Modified"]) > parse_http_date(since)


@pytest.mark.parametrize(
    "path",
    [
        "/live/no-such-concours/fr-ranking.html",
        "/live/{slug}/de-ranking.html",
        "/live/{slug}/fr-ranking.json",
        "/live/{slug}/state.json",
        "/live/{slug}/fr-ranking.html.gz",
        "/live/{slug}/../x/fr-ranking.html",
        "/live/%C3%A9t%C3%A9/fr-ranking.html",
        "/live/.locks/{slug}",
    ],
)
def test_odd_addresses_get_a_404_never_a_500_nor_a_file_not_published(running: Table, path: str) -> None:
    tournament = running.round.tournament
    Client().get(page_url(tournament))
    assert Client().get(path.format(slug=tournament.slug)).status_code == 404


def test_other_methods_are_refused(running: Table) -> None:
    tournament = running.round.tournament
    Client().get(page_url(tournament))
    assert Client().post(f"/live/{tournament.slug}/fr-ranking.html").status_code in (403, 405)


def test_a_new_version_waits_for_the_publications_pace_then_shows(running: Table, settings, monkeypatch) -> None:
    settings.RANKING_PUBLISH_SECONDS = 2
    tournament = running.round.tournament
    Client().get(page_url(tournament))
    held = live_files.read_state(tournament.slug)
    assert held is not None
    # A new version stored (its message not sent: outside a committed transaction).
    standings_rebuild(tournament_id=tournament.pk)
    wait = publish_files_when_due(tournament.pk)
    assert 0 < wait <= 2 and live_files.read_state(tournament.slug) == held
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 2.5)
    assert publish_files_when_due(tournament.pk) == 0
    moved = live_files.read_state(tournament.slug)
    assert moved is not None and moved.version > held.version and moved.modified > held.modified


def test_the_workers_sweep_publishes_files_a_lost_message_left_behind(running: Table) -> None:
    tournament = running.round.tournament
    Client().get(page_url(tournament))
    held = live_files.read_state(tournament.slug)
    assert held is not None
    standings_rebuild(tournament_id=tournament.pk)
    assert files_behind_publish() == 1
    moved = live_files.read_state(tournament.slug)
    newest = StandingsSnapshot.objects.filter(tournament=tournament).latest("version").version
    assert moved is not None and moved.version == newest > held.version
    assert files_behind_publish() == 0


def test_a_lock_held_too_long_elsewhere_holds_neither_the_page_nor_the_removal(
    running: Table, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    tournament = running.round.tournament
    Client().get(page_url(tournament))
    monkeypatch.setattr(live_files.locked, "__defaults__", (0.2,))
    # Another process (a stalled node) holds the tournament's lock.
    handle = os.open(Path(settings.LIVE_ROOT) / ".locks" / tournament.slug, os.O_RDWR)
    fcntl.flock(handle, fcntl.LOCK_EX)
    try:
        with pytest.raises(live_files.LockTimeout):
            publish_files(tournament.pk, again=True)
        # The English page wants a file nobody published: it is drawn by the site instead.
        english = Client(headers={"Accept-Language": "en"}).get(page_url(tournament))
        assert english.status_code == 200 and b">Rank<" in english.content
        assert not (folder(tournament) / "en-ranking.html").exists()
        # Made private meanwhile: its files go all the same.
        with django_capture_on_commit_callbacks(execute=True):
            tournament.is_public = False
            tournament.save()
        assert not folder(tournament).exists()
    finally:
        os.close(handle)


ROW = re.compile(rb'<tr[^>]*><td class="num rank">')


def test_a_long_ranking_is_served_to_phones_a_page_a_file_and_the_projector_whole(
    running: Table, settings, django_capture_on_commit_callbacks
) -> None:
    settings.RANKING_PAGE_ROWS = 3
    tournament = running.round.tournament
    first = Client().get(page_url(tournament))
    address, since, _version = polled(first.content)
    assert address == f"/live/{tournament.slug}/fr-ranking.html"
    assert len(ROW.findall(first.content)) == 3
    assert "Pages du classement" in first.content.decode() and "1–3" in first.content.decode()
    second = Client().get(page_url(tournament) + "?page=2")
    second_address, _since, _version = polled(second.content)
    assert second_address == f"/live/{tournament.slug}/fr-ranking-2.html"
    assert len(ROW.findall(second.content)) == 1
    assert re.search(r'aria-current="page">4–4<', second.content.decode())
    # The pages' rows, one after the other, are the projector's: nothing lost or shown twice.
    projector = Client().get(page_url(tournament, "projector")).content
    rows = re.compile(rb'<tr[^>]*><td class="num rank">.*?</tr>')
    paged = [row for page in (first.content, second.content) for row in rows.findall(page)]
    assert paged == rows.findall(projector) and len(paged) == 4
    # Each page polls its own file: a new hand moves both, the same time on each.
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=running, raw=WIN_A)
    for each in (address, second_address):
        moved = Client().get(each, headers={"If-Modified-Since": since})
        assert moved.status_code == 200 and parse_http_date(polled(moved.content)[1]) > parse_http_date(since)
    # An address of a page the ranking does not have, or no page at all, shows the first.
    for odd in ("?page=9", "?page=abc", "?page=-1", "?page=0", "?page=%C2%B2"):
        shown = Client().get(page_url(tournament) + odd)
        assert shown.status_code == 200 and polled(shown.content)[0] == address
    assert Client().get(f"/live/{tournament.slug}/fr-ranking-9.html").status_code == 404
    # The ranking fits in one page again: the second page's file goes at the next version.
    settings.RANKING_PAGE_ROWS = 10
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=running, raw=WIN_A)
    publish_files(tournament.pk)
    assert not (folder(tournament) / "fr-ranking-2.html").exists()
    assert Client().get(second_address).status_code == 404
    assert len(ROW.findall(Client().get(page_url(tournament) + "?page=2").content)) == 4


def test_each_language_has_every_page_of_a_long_ranking(running: Table, settings) -> None:
    settings.RANKING_PAGE_ROWS = 2
    tournament = running.round.tournament
    Client().get(page_url(tournament))
    english = Client(headers={"Accept-Language": "en"}).get(page_url(tournament) + "?page=2")
    assert polled(english.content)[0] == f"/live/{tournament.slug}/en-ranking-2.html"
    assert "Pages of the ranking" in english.content.decode()
    names = sorted(path.name for path in folder(tournament).glob("*.html"))
    assert names == ["en-ranking-2.html", "en-ranking.html", "fr-ranking-2.html", "fr-ranking.html"]


@pytest.mark.parametrize("rows", [1, 10, 11, 25, 30, 31])
def test_the_page_of_a_place_is_the_page_that_shows_it(rows: int, settings) -> None:
    settings.RANKING_PAGE_ROWS = 10
    pages = ranking_pages(rows)
    for place in range(rows):
        number = ranking_page_of(place, rows)
        if not pages:
            assert number == 1
        else:
            shown = pages[number - 1]
            assert shown.number == number and shown.first <= place + 1 <= shown.last
