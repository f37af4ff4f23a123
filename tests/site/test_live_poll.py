"""The live ranking's polls by visitors without a session, answered before the middleware
chain (scoring.middleware.LivePollMiddleware, scoring.views.public.anonymous_poll).

The answer must be the one the chain gives: the same fragment, ETag, gzip, 304, language
and headers; a tournament the visitor may not follow still gets the chain's 404, and a
signed-in organiser's poll still goes through the chain.

Personas: a *visitor* follows a public tournament without an account; the *director*
organises the tournament's club.
"""

from __future__ import annotations

import gzip

import pytest
from django.test import Client
from django.urls import reverse

from tests.scoring.tables import director_of
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def url(tournament: Tournament, name: str = "ranking") -> str:
    return reverse(f"public:{name}", kwargs={"slug": tournament.slug})


def body(response) -> bytes:
    content = response.content
    return gzip.decompress(content) if response.get("Content-Encoding") == "gzip" else content


def test_a_visitors_poll_is_answered_ahead_of_the_chain_with_the_chains_answer(
    running: Table, short_cut: list[str]
) -> None:
    tournament = running.round.tournament
    visitor = Client().get(url(tournament), headers={**HTMX, **GZIP})
    assert short_cut == [url(tournament)]
    # The director's poll goes down the whole chain (a session): the same answer.
    director = Client()
    director.force_login(director_of(tournament))
    chained = director.get(url(tournament), headers={**HTMX, **GZIP})
    assert short_cut == [url(tournament)]
    assert visitor.status_code == chained.status_code == 200
    assert visitor["ETag"] == chained["ETag"] and visitor["Content-Encoding"] == "gzip"
    assert body(visitor) == body(chained) and b'id="ranking"' in body(visitor)
    for header in ("Vary", "Cache-Control", "Content-Language", "X-Frame-Options", "X-Content-Type-Options"):
        assert visitor[header] == chained[header], header
    # A fragment is swapped into a page that has its policy: the short cut sends none.
    assert "Content-Security-Policy" not in visitor


def test_a_visitors_poll_gets_its_304_and_its_language(running: Table, short_cut: list[str]) -> None:
    tournament = running.round.tournament
    first = Client().get(url(tournament), headers={**HTMX, **GZIP})
    again = Client().get(url(tournament), headers={**HTMX, **GZIP, "If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again.content == b""
    english = Client(headers={"Accept-Language": "en"}).get(url(tournament), headers=HTMX)
    assert english["Content-Language"] == "en" and b">Rank<" in english.content
    assert english["ETag"] != first["ETag"].removeprefix("W/")
    cookie = Client()
    cookie.cookies["django_language"] = "en"
    by_cookie = cookie.get(url(tournament), headers={**HTMX, "Accept-Language": "fr"})
    assert by_cookie["Content-Language"] == "en" and b">Rank<" in by_cookie.content
    french = Client(headers={"Accept-Language": "fr"}).get(url(tournament), headers=HTMX)
    assert french["Content-Language"] == "fr" and b">Rang<" in french.content
    assert len(short_cut) == 5


def test_the_projector_is_polled_the_same_way(running: Table, short_cut: list[str]) -> None:
    tournament = running.round.tournament
    answer = Client().get(url(tournament, "projector"), headers={**HTMX, **GZIP})
    assert answer.status_code == 200 and b"projector-ranking" in body(answer)
    assert short_cut == [url(tournament, "projector")]


def test_a_private_tournament_is_left_to_the_chain(running: Table, short_cut: list[str]) -> None:
    tournament = running.round.tournament
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    assert Client().get(url(tournament), headers=HTMX).status_code == 404
    director = Client()
    director.force_login(director_of(tournament))
    assert director.get(url(tournament), headers=HTMX).status_code == 200
    assert short_cut == []


@pytest.mark.parametrize(
    "path, headers",
    [
        ("/t/no-such-concours/", HTMX),
        ("/t/no-such-concours/projector/", HTMX),
        ("/t/%C3%A9t%C3%A9/", HTMX),
        ("/t/a/b/", HTMX),
    ],
)
def test_odd_addresses_get_the_chains_answer_never_a_500(path: str, headers: dict[str, str]) -> None:
    assert Client().get(path, headers=headers).status_code == 404


def test_the_page_itself_and_other_methods_go_down_the_chain(running: Table, short_cut: list[str]) -> None:
    tournament = running.round.tournament
    page = Client().get(url(tournament))
    assert page.status_code == 200 and "Content-Security-Policy" in page
    assert Client().post(url(tournament), headers=HTMX).status_code in (403, 405)
    assert short_cut == []
