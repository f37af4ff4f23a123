"""« Ma soirée »'s polls answered before the middleware chain
(scoring.middleware.LivePollMiddleware, scoring.views.soiree_poll): a 304 for a page that
has not moved, else the part as the view draws it (scoring/views/soiree_parts.py): its
night kept or drawn, its rank and clock drawn anew.

The answer must be the chain's: the same status, ETag, headers and bytes, by the
personal link and by the public address; anything else (a first poll, a withdrawn link,
a private tournament's public address, a signed-in organiser) goes down the chain to the
view, which answers as before.

Personas: the *player* polls their page by its personal link; a *visitor* follows it from
the seat finder; the *director* organises the tournament's club.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rounds.services import round_clock_start
from scoring.services import hand_submit
from scoring.views import soiree_parts
from tests.scoring.tables import director_of
from tournaments import services
from tournaments.models import Competitor, ScreenMessage, Table, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
WIN_A = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}
BIG_WIN_A = {"taker": "A", "contract": "hearts", "points": {"A": 152, "B": 10}}
HEADERS = ("ETag", "Vary", "Cache-Control", "Content-Language", "X-Frame-Options", "X-Content-Type-Options")


def by_link(table: Table) -> str:
    competitor = table.round.tournament.competitors.get(number=1)
    return reverse("soiree:page", args=[competitor.link_token])


def public(table: Table) -> str:
    return reverse("public:soiree", kwargs={"slug": table.round.tournament.slug, "number": 1})


@pytest.mark.parametrize("address", [by_link, public])
def test_a_poll_of_an_unmoved_page_gets_the_chains_304_ahead_of_the_chain(
    running: Table, short_cut: list[str], address
) -> None:
    path = address(running)
    first = Client().get(path, headers=HTMX)
    assert first.status_code == 200 and short_cut == []
    with CaptureQueriesContext(connection) as queries:
        again = Client().get(path, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again.content == b"" and short_cut == [path]
    assert len(queries) == 2
    # The director's poll goes down the whole chain (a session): the same answer.
    director = Client()
    director.force_login(director_of(running.round.tournament))
    chained = director.get(path, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert chained.status_code == 304 and short_cut == [path]
    for header in (*HEADERS, "Referrer-Policy", "X-Robots-Tag"):
        assert again.get(header) == chained.get(header), header


def test_english_gets_its_own_etag_and_304(running: Table, short_cut: list[str]) -> None:
    english = Client(headers={"Accept-Language": "en"})
    first = english.get(by_link(running), headers=HTMX)
    assert first["Content-Language"] == "en" and first["ETag"].endswith('-en"')
    again = english.get(by_link(running), headers={**HTMX, "If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again["Content-Language"] == "en"
    french = Client().get(by_link(running), headers={**HTMX, "If-None-Match": first["ETag"]})
    # French: its own night, drawn ahead of the chain in French.
    assert french.status_code == 200 and short_cut == [by_link(running)] * 2
    assert french["Content-Language"] == "fr" and "Rang" in text(french) and french["ETag"].endswith('-fr"')


def test_a_donne_at_my_table_is_drawn_ahead_of_the_chain_as_the_chain_draws_it(
    running: Table, short_cut: list[str], django_capture_on_commit_callbacks
) -> None:
    path = by_link(running)
    first = Client().get(path, headers=HTMX)
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=running, raw=WIN_A)
    moved = Client().get(path, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert moved.status_code == 200 and "2 donnes jouées" in moved.content.decode()
    # Its night held (drawn once), its partie moved (drawn again).
    night, partie, _rank = moved["ETag"].split(".")
    assert short_cut == [path] and night == first["ETag"].split(".")[0] and partie != first["ETag"].split(".")[1]
    soiree_parts.forget()
    cache.clear()
    director = Client()
    director.force_login(director_of(running.round.tournament))
    chained = director.get(path, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert chained.content == moved.content and chained["ETag"] == moved["ETag"]


def test_another_process_takes_the_night_drawn_from_the_shared_cache(
    running: Table, short_cut: list[str], django_capture_on_commit_callbacks
) -> None:
    path = by_link(running)
    first = Client().get(path, headers=HTMX)
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=running, raw=WIN_A)
    drawn = Client().get(path, headers={**HTMX, "If-None-Match": first["ETag"]})
    # Another web process: nothing kept in it, the night in the shared cache.
    soiree_parts.forget()
    with CaptureQueriesContext(connection) as queries:
        taken = Client().get(path, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert taken.content == drawn.content and len(queries) == 2


def test_a_withdrawn_link_and_a_private_tournament_go_down_the_chain(
    running: Table, short_cut: list[str], django_capture_on_commit_callbacks
) -> None:
    path = by_link(running)
    moved = Client().get(path, headers=HTMX)

    tournament = running.round.tournament
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    hidden = Client().get(public(running), headers={**HTMX, "If-None-Match": moved["ETag"]})
    assert hidden.status_code == 404

    team = tournament.competitors.get(number=1)
    services.competitor_link_revoke(by=director_of(tournament), competitor=team)
    refused = Client().get(path, headers={**HTMX, "If-None-Match": moved["ETag"]})
    assert refused.status_code == 403 and refused["HX-Refresh"] == "true"
    assert short_cut == []


@pytest.mark.parametrize(
    "path",
    ["/soiree/short/", "/soiree/" + "x" * 80 + "/", "/soiree/%C3%A9t%C3%A9aaaaaaaaaaaaaaaaaa/", "/t/nope/c/1/soiree/"],
)
def test_odd_addresses_get_the_chains_answer_never_a_500(path: str) -> None:
    assert Client().get(path, headers={**HTMX, "If-None-Match": '"soiree-1-x-fr"'}).status_code == 404


def test_a_draft_tournaments_link_is_left_to_the_chain(running: Table, short_cut: list[str]) -> None:
    path = by_link(running)
    first = Client().get(path, headers=HTMX)
    Tournament.objects.filter(pk=running.round.tournament_id).update(status=Tournament.Status.DRAFT)
    assert Client().get(path, headers={**HTMX, "If-None-Match": first["ETag"]}).status_code == 404
    assert short_cut == [] and Competitor.objects.filter(tournament__status="draft").exists()


def test_the_messages_strip_gets_the_chains_304_ahead_of_the_chain_until_a_message_comes(
    running: Table, short_cut: list[str]
) -> None:
    team = running.round.tournament.competitors.get(number=1)
    path = reverse("soiree:screen", args=[team.link_token])
    first = Client().get(path, headers=HTMX)
    assert first.status_code == 200 and short_cut == []
    with CaptureQueriesContext(connection) as queries:
        again = Client().get(path, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert again.status_code == 304 and short_cut == [path] and len(queries) == 2
    director = Client()
    director.force_login(director_of(running.round.tournament))
    chained = director.get(path, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert chained.status_code == 304 and short_cut == [path]
    for header in (*HEADERS, "Referrer-Policy", "X-Robots-Tag"):
        assert again.get(header) == chained.get(header), header

    ScreenMessage.objects.create(tournament=running.round.tournament, text="Pause de dix minutes")
    moved = Client().get(path, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert moved.status_code == 200 and "Pause de dix minutes" in moved.content.decode()
    services.competitor_link_revoke(by=director_of(running.round.tournament), competitor=team)
    assert Client().get(path, headers={**HTMX, "If-None-Match": moved["ETag"]}).status_code == 403
    assert short_cut == [path]


def other_table(running: Table) -> Table:
    return Table.objects.get(round=running.round, number=2)


@pytest.mark.parametrize("address", [by_link, public])
def test_a_rank_moved_by_a_hand_elsewhere_is_drawn_ahead_of_the_chain_as_the_chain_draws_it(
    running: Table, short_cut: list[str], address, django_capture_on_commit_callbacks
) -> None:
    path = address(running)
    first = Client().get(path, headers=HTMX)
    assert "Rang 1" in text(first)
    # Table 2's team wins more than team 1 did: team 1 is second, its own night unmoved.
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=other_table(running), raw=BIG_WIN_A)
    with CaptureQueriesContext(connection) as queries:
        moved = Client().get(path, headers={**HTMX, "If-None-Match": first["ETag"]})
    # The competitor and its night's state, and the new version's rows (read once by this process).
    assert moved.status_code == 200 and short_cut == [path] and len(queries) == 3
    assert "Rang 2" in text(moved) and moved["ETag"] != first["ETag"]
    # The night's half of the ETag held, the rank's moved.
    assert moved["ETag"].split(".")[0] == first["ETag"].split(".")[0]

    # The chain's answer, the night drawn again from the database: the same bytes.
    soiree_parts.forget()
    director = Client()
    director.force_login(director_of(running.round.tournament))
    chained = director.get(path, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert chained.status_code == 200 and short_cut == [path]
    assert moved.content == chained.content
    for header in (*HEADERS, "Referrer-Policy", "X-Robots-Tag", "Content-Type"):
        assert moved.get(header) == chained.get(header), header


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_clock_drawn_ahead_of_the_chain_carries_the_servers_time_of_the_answer(
    running: Table, short_cut: list[str], django_capture_on_commit_callbacks, monkeypatch
) -> None:
    """The browser's countdown takes the server's time from the element (static/js/clock.js):
    a night kept for minutes must not hand it the time it was drawn at."""
    tournament = running.round.tournament
    started = datetime.datetime(2026, 12, 5, 21, 0, tzinfo=datetime.UTC)
    round_clock_start(by=director_of(tournament), round=running.round, minutes=45, now=started)
    path = by_link(running)
    monkeypatch.setattr(soiree_parts.timezone, "now", lambda: started + datetime.timedelta(minutes=5))
    first = Client().get(path, headers=HTMX)
    assert 'data-clock-now="2026-12-05T21:05:00.000Z"' in first.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=other_table(running), raw=BIG_WIN_A)
    monkeypatch.setattr(soiree_parts.timezone, "now", lambda: started + datetime.timedelta(minutes=12))
    moved = Client().get(path, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert moved.status_code == 200 and short_cut == [path]
    assert 'data-clock-now="2026-12-05T21:12:00.000Z"' in moved.content.decode()
    assert 'data-clock-ends="2026-12-05T21:45:00.000Z"' in moved.content.decode()


def test_the_layers_kept_are_bounded(monkeypatch) -> None:
    monkeypatch.setattr(soiree_parts, "KEPT", 2)
    cache.clear()
    nights = [soiree_parts.Night(stamp=str(n), pieces=("x",), clock=None) for n in range(3)]
    drawn: list[int] = []

    def get(number: int, stamp: str, language: str = "fr") -> soiree_parts.Night | None:
        def draw() -> soiree_parts.Night:
            drawn.append(number)
            return nights[number]

        return soiree_parts.kept(soiree_parts.Night, number, language, stamp, draw)

    for number in range(3):
        assert get(number, str(number)) is nights[number]
    assert drawn == [0, 1, 2]
    # 1 and 2 kept here; 0 dropped here, but another process's draw is in the shared cache.
    assert get(1, "1") is nights[1] and get(2, "2") is nights[2] and drawn == [0, 1, 2]
    assert get(0, "0") == nights[0] and drawn == [0, 1, 2]
    # Another stamp or language: drawn again.
    assert get(2, "2", "en") is nights[2] and drawn == [0, 1, 2, 2]
    cache.clear()
    soiree_parts.forget()
    assert get(1, "1") is nights[1] and drawn == [0, 1, 2, 2, 1]
