"""« Ma soirée »'s polls that change nothing, answered 304 before the middleware chain
(scoring.middleware.LivePollMiddleware, scoring.views.soiree_poll).

The answer must be the chain's: the same 304, ETag and headers, by the personal link and
by the public address; anything else (a first poll, a page that moved, a withdrawn link,
a private tournament's public address, a signed-in organiser) goes down the chain to the
view, which answers as before.

Personas: the *player* polls their page by its personal link; a *visitor* follows it from
the seat finder; the *director* organises the tournament's club.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.services import hand_submit
from tests.scoring.tables import director_of
from tournaments import services
from tournaments.models import Competitor, ScreenMessage, Table, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
WIN_A = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}
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
    assert french.status_code == 200 and short_cut == [by_link(running)]


def test_a_moved_page_a_withdrawn_link_and_a_private_tournament_go_down_the_chain(
    running: Table, short_cut: list[str], django_capture_on_commit_callbacks
) -> None:
    path = by_link(running)
    first = Client().get(path, headers=HTMX)
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=running, raw=WIN_A)
    moved = Client().get(path, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert moved.status_code == 200 and "2 donnes jouées" in moved.content.decode()

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
