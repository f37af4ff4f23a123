"""A public round's draw served as files (scoring/live_draw.py).

The draw's page of a public tournament past its draft wraps the round's file,
`/live/<slug>/<language>-draw-<round>.html`, which polls itself with its time: 304 while
the draw has not moved, the new file once a table, a seat, a bye or a name has. Here the
site answers those polls ahead of its middleware chain, as nginx would (tests/e2e through
nginx for nginx itself). A file whose round did not move keeps its time; a round gone
has no file; a private tournament's draw has none, and its page reloads as it always did.

Personas: a *visitor* follows a public tournament without an account (the projector of
the room is one); the *director* organises the tournament's club.
"""

from __future__ import annotations

import html
import json
import re
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse
from django.utils.http import http_date, parse_http_date

from archive.models import ArchiveIdentity
from relay.models import Kind
from rounds.services import round_close, round_draw, round_redraw
from scoring import live_draw, live_files
from tests.api.conftest import token_client
from tests.factories import ClubFactory, UserFactory
from tests.relay.test_relay import RELAY, _hosted_items
from tests.results.conftest import played_tournament
from tests.tournaments.conftest import new_tournament, register_many
from tournaments import services
from tournaments.models import Competitor, Round, Seat, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
POLLED = re.compile(r'<section id="draw-live"[^>]*hx-get="(?P<url>[^"]+)"[^>]*hx-headers="(?P<headers>[^"]+)"')


@pytest.fixture
def committed(django_capture_on_commit_callbacks) -> Callable[[], Any]:
    """What the block commits, followed by what waits for its commit (the publications)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def concours(teams: int = 9, **values: Any) -> tuple[Tournament, Any]:
    """A running concours of `teams` teams, round 1 drawn (one team sits out when odd)."""
    club = ClubFactory(name="Amicale de Millau")
    director = UserFactory()
    club.organisers.add(director)
    tournament = new_tournament(club, director, name="Concours de la Saint-Nicolas", **values)
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    register_many(tournament, director, teams)
    services.tournament_set_status(by=director, tournament=tournament, status="running")
    round_draw(by=director, tournament=tournament, seed=1)
    tournament.refresh_from_db()
    return tournament, director


def page_url(tournament: Tournament, number: int = 1) -> str:
    return reverse("draw:round", kwargs={"slug": tournament.slug, "number": number})


def file_of(tournament: Tournament, name: str = "fr-draw-1") -> Path:
    return Path(settings.LIVE_ROOT) / tournament.slug / f"{name}.html"


def file_time(tournament: Tournament, name: str = "fr-draw-1") -> str:
    return http_date(int(file_of(tournament, name).stat().st_mtime))


def polled(content: bytes) -> tuple[str, str]:
    """The address the draw polls and the If-Modified-Since it sends."""
    found = POLLED.search(content.decode())
    assert found, "the draw polls nothing"
    return html.unescape(found["url"]), json.loads(html.unescape(found["headers"]))["If-Modified-Since"]


def seating(tournament: Tournament, number: int = 1) -> list[tuple[int, int, str]]:
    return sorted(
        Seat.objects.filter(round__tournament=tournament, round__number=number).values_list(
            "table__number", "competitor__number", "position"
        )
    )


def test_the_page_wraps_the_file_which_polls_itself_and_the_site_answers_it_as_nginx_would(
    short_cut: list[str],
) -> None:
    tournament, _director = concours()
    page = Client().get(page_url(tournament))
    assert page.status_code == 200
    on_disk = file_of(tournament).read_bytes()
    assert on_disk in page.content
    address, since = polled(page.content)
    assert address == f"/live/{tournament.slug}/fr-draw-1.html"
    assert since == file_time(tournament)
    # The page no longer reloads itself: the file brings what moves (projector.js still pages).
    assert b"data-reload-seconds" not in page.content
    assert b'data-page-items=".draw-tables > li, .draw-byes"' in page.content
    assert b'hx-trigger="every 10s"' in on_disk and b'hx-swap="outerHTML"' in on_disk
    # Every seat's name, and the team sitting out, are in the file.
    text = on_disk.decode()
    for seat in Seat.objects.filter(round__tournament=tournament).select_related("competitor"):
        assert html.escape(seat.competitor.name) in text
    bye = Round.objects.get(tournament=tournament, number=1).byes.get().competitor
    assert "Exempt" in text and html.escape(bye.name) in text

    unchanged = Client().get(address, headers={**HTMX, "If-Modified-Since": since})
    assert unchanged.status_code == 304 and unchanged.content == b""
    fresh = Client().get(address, headers=HTMX)
    assert fresh.status_code == 200 and fresh.content == on_disk and fresh["Last-Modified"] == since
    assert short_cut == [address, address]


def test_a_round_drawn_again_is_a_new_file_with_a_later_time_and_the_old_time_gets_it(committed) -> None:
    tournament, director = concours()
    address, since = polled(Client().get(page_url(tournament)).content)
    before = seating(tournament)
    seed = 2
    while True:
        with committed():
            round_redraw(by=director, round=Round.objects.get(tournament=tournament, number=1), seed=seed)
        if seating(tournament) != before:
            break
        seed += 1
    moved = Client().get(address, headers={**HTMX, "If-Modified-Since": since})
    assert moved.status_code == 200
    new_address, new_since = polled(moved.content)
    assert new_address == address and parse_http_date(new_since) > parse_http_date(since)
    assert moved.content == file_of(tournament).read_bytes()
    # The new seating: each table's names as the database now has them.
    round_one = Round.objects.get(tournament=tournament, number=1)
    for table in round_one.tables.order_by("number"):
        names = [html.escape(seat.competitor.name) for seat in table.seats.select_related("competitor")]
        block = moved.content.decode().split(f"</span> {table.number}</div>", 1)[1].split("</ul>", 1)[0]
        assert all(name in block for name in names), (table.number, names)
    assert Client().get(address, headers={**HTMX, "If-Modified-Since": new_since}).status_code == 304


def test_a_late_team_is_shown_sitting_out_at_once(committed) -> None:
    tournament, director = concours(teams=8)
    address, since = polled(Client().get(page_url(tournament)).content)
    assert b"Exempt" not in file_of(tournament).read_bytes()
    with committed():
        late = register_many(tournament, director, 1)[0]
    late.refresh_from_db()
    assert late.joined_round == 2
    moved = Client().get(address, headers={**HTMX, "If-Modified-Since": since})
    assert moved.status_code == 200 and "Exempt" in moved.content.decode()
    assert html.escape(late.name) in moved.content.decode()


def test_nothing_moved_keeps_the_files_time_and_the_polls_get_304(committed) -> None:
    tournament, director = concours()
    address, since = polled(Client().get(page_url(tournament)).content)
    held = live_files.read_state(tournament.slug, live_draw.STATE)
    # Publications for nothing: the worker's task again, and what a withdrawal sends (the
    # draw's page shows no status).
    live_draw.publish_draw(tournament.pk, now=parse_http_date(since) + 60)
    seated = Seat.objects.filter(round__tournament=tournament).first()
    assert seated is not None
    with committed():
        services.competitor_withdraw(by=director, competitor=seated.competitor)
    assert file_time(tournament) == since
    assert live_files.read_state(tournament.slug, live_draw.STATE) == held
    assert Client().get(address, headers={**HTMX, "If-Modified-Since": since}).status_code == 304
    # The page loaded again wraps the same file.
    assert polled(Client().get(page_url(tournament)).content) == (address, since)


def test_each_round_and_language_has_its_own_file_and_one_round_drawn_leaves_the_others_time(committed) -> None:
    tournament, director = concours(rounds_planned=3)
    Client().get(page_url(tournament))
    english = Client(headers={"Accept-Language": "en"}).get(page_url(tournament))
    address, _since = polled(english.content)
    assert address == f"/live/{tournament.slug}/en-draw-1.html"
    assert "North–South" in file_of(tournament, "en-draw-1").read_text()
    assert "Nord–Sud" in file_of(tournament).read_text() and "North" not in file_of(tournament).read_text()
    first = (file_time(tournament), file_time(tournament, "en-draw-1"))

    with committed():
        round_close(by=director, round=Round.objects.get(tournament=tournament, number=1), force=True)
    with committed():
        round_draw(by=director, tournament=tournament, seed=3)
    # Round 2 has no file until a page asks for it.
    assert not file_of(tournament, "fr-draw-2").exists()
    second = Client().get(page_url(tournament, 2))
    address, since = polled(second.content)
    assert address == f"/live/{tournament.slug}/fr-draw-2.html" and since == file_time(tournament, "fr-draw-2")
    for seat in Seat.objects.filter(round__tournament=tournament, round__number=2).select_related("competitor"):
        assert html.escape(seat.competitor.name) in file_of(tournament, "fr-draw-2").read_text()
    # Round 1's files did not move: their projectors' polls stay 304.
    assert (file_time(tournament), file_time(tournament, "en-draw-1")) == first
    names = sorted(path.name for path in file_of(tournament).parent.glob("*-draw-*.html"))
    assert names == ["en-draw-1.html", "fr-draw-1.html", "fr-draw-2.html"]


def test_a_players_new_name_and_an_erased_one_redraw_the_file(committed) -> None:
    tournament, director = concours()
    address, since = polled(Client().get(page_url(tournament)).content)
    seat = Seat.objects.filter(round__tournament=tournament).select_related("competitor").first()
    assert seat is not None
    player = seat.competitor.players.first()
    with committed():
        services.player_update(by=director, player=player, last_name="Bérard", first_name="Hélène")
    renamed = Client().get(address, headers={**HTMX, "If-Modified-Since": since})
    assert renamed.status_code == 200 and "Hélène Bérard" in html.unescape(renamed.content.decode())
    _address, since = polled(renamed.content)

    player.refresh_from_db()
    president = UserFactory()
    tournament.club.organisers.add(president, through_defaults={"role": "admin"})
    with committed():
        services.player_anonymise(by=president, player=player)
    erased = Client().get(address, headers={**HTMX, "If-Modified-Since": since})
    assert erased.status_code == 200 and "Bérard" not in html.unescape(erased.content.decode())


def test_a_private_tournaments_draw_has_no_file_and_reloads_as_before(committed) -> None:
    tournament, director = concours()
    Client().get(page_url(tournament))
    assert file_of(tournament).exists()
    with committed():
        services.tournament_update(by=director, tournament=tournament, is_public=False)
    assert not file_of(tournament).exists()
    assert Client().get(page_url(tournament)).status_code == 404
    organiser = Client()
    organiser.force_login(director)
    page = organiser.get(page_url(tournament))
    assert page.status_code == 200
    assert b'data-reload-seconds="60"' in page.content and b'id="draw-live"' not in page.content
    assert b'<ol class="draw-tables">' in page.content
    assert not file_of(tournament).exists()
    # Its file's address: nothing published, nothing served.
    assert Client().get(f"/live/{tournament.slug}/fr-draw-1.html").status_code == 404
    assert live_draw.publish_draw(tournament.pk, want="fr-draw-1") is None
    assert not file_of(tournament).exists()


def test_a_draft_tournaments_draw_is_never_published() -> None:
    club = ClubFactory()
    director = UserFactory()
    club.organisers.add(director)
    tournament = new_tournament(club, director)
    assert live_draw.publish_draw(tournament.pk, want="fr-draw-1") is None
    assert not file_of(tournament).parent.exists() or not any(file_of(tournament).parent.iterdir())


def test_a_round_the_venue_no_longer_has_loses_its_file(client: Client, committed) -> None:
    # The hosted copy of a venue's night (relay/): its draw item rewrites the rounds.
    with override_settings(**RELAY):
        venue = played_tournament(ClubFactory(slug="salle"), rounds=2, teams=4, donnes=2)
    hosted = ClubFactory(slug="bc-rodez")
    director = UserFactory()
    hosted.organisers.add(director)
    api = token_client(director)
    identity = str(uuid.uuid4())
    draw = next(item for item in _hosted_items(venue, hosted.slug, identity) if item["kind"] == Kind.DRAW)
    with committed():
        assert api.post("/api/v1/relay/", json.dumps(draw), content_type="application/json").status_code == 201
    copy = ArchiveIdentity.objects.get(archive_id=identity).tournament
    assert client.get(page_url(copy, 2)).status_code == 200
    client.get(page_url(copy, 1))
    kept = file_time(copy)
    assert file_of(copy, "fr-draw-2").exists()

    # The venue's round 2 is gone (its draw undone there): the next draw item has round 1 alone.
    again = {**draw, "key": draw["key"] + 1, "data": {**draw["data"], "rounds": draw["data"]["rounds"][:1]}}
    with committed():
        assert api.post("/api/v1/relay/", json.dumps(again), content_type="application/json").status_code == 201
    assert not Round.objects.filter(tournament=copy, number=2).exists()
    assert not file_of(copy, "fr-draw-2").exists() and not file_of(copy, "fr-draw-2").with_suffix(".html.gz").exists()
    assert client.get(f"/live/{copy.slug}/fr-draw-2.html").status_code == 404
    assert client.get(page_url(copy, 2)).status_code == 404
    # Round 1 did not move: its file kept its time.
    assert file_time(copy) == kept
    state = live_files.read_state(copy.slug, live_draw.STATE)
    assert state is not None and state.names == ("fr-draw-1",)


@pytest.mark.parametrize(
    "name",
    [
        "fr-draw.html",
        "fr-draw-0.html",
        "fr-draw-01.html",
        "fr-draw-7.html",
        "fr-draw-99999.html",
        "de-draw-1.html",
        "fr-draw-1.htm",
        "fr-draw-1.html.gz",
        "FR-draw-1.html",
        "fr-draw--1.html",
        "fr-draw-1-2.html",
        "fr-draws-1.html",
        "..%2Ffr-draw-1.html",
    ],
)
def test_odd_names_are_404_never_500(name: str) -> None:
    tournament, _director = concours(teams=4)
    answer = Client().get(f"/live/{tournament.slug}/{name}")
    assert answer.status_code == 404
    assert not file_of(tournament, "fr-draw-7").exists()
    assert Client().get("/live/no-such-tournament/fr-draw-1.html").status_code == 404


def test_a_file_never_asked_for_is_published_at_its_first_poll() -> None:
    tournament, _director = concours(teams=4)
    first = Client().get(f"/live/{tournament.slug}/en-draw-1.html")
    assert first.status_code == 200 and first.content == file_of(tournament, "en-draw-1").read_bytes()
    assert b"Table" in first.content
    state = live_files.read_state(tournament.slug, live_draw.STATE)
    assert state is not None and state.names == ("en-draw-1",)
    # The ranking's family is its own: its state names no draw.
    ranking = live_files.read_state(tournament.slug)
    assert ranking is None or not any("draw" in name for name in ranking.names)


def test_the_workers_sweep_shows_a_draw_whose_publication_was_lost(committed) -> None:
    tournament, _director = concours()
    address, since = polled(Client().get(page_url(tournament)).content)
    # Nothing moved: the sweep draws the file, finds it the same and leaves its time.
    assert live_draw.running_draws_publish(now=parse_http_date(since) + 30) == 0
    assert file_time(tournament) == since
    # A team renamed, and the publication's message lost (a bare update: no signal, no task).
    seated = Seat.objects.filter(round__tournament=tournament).select_related("competitor").first()
    assert seated is not None
    Competitor.objects.filter(pk=seated.competitor_id).update(name="Les Rescapés de la Nuit")
    assert live_draw.running_draws_publish(now=parse_http_date(since) + 60) == 1
    moved = Client().get(address, headers={**HTMX, "If-Modified-Since": since})
    assert moved.status_code == 200 and parse_http_date(moved["Last-Modified"]) > parse_http_date(since)
    assert "Les Rescapés de la Nuit" in moved.content.decode()
    # A finished tournament's draw is left to its last publication.
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    Competitor.objects.filter(pk=seated.competitor_id).update(name="Les Revenants")
    assert live_draw.running_draws_publish(now=parse_http_date(since) + 90) == 0
