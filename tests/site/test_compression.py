"""Gzip on the public reads only (atout.middleware.PublicGZipMiddleware).

The ranking's partial and the projector go compressed to a phone that accepts gzip, and
their ETag still answers 304. An anonymous visitor's full public pages hold no CSRF
token (the language switch is a plain link) and go compressed too. Nothing that carries
a CSRF token or a secret is ever compressed (BREACH): the referee's page (the table's
secret in its address, its forms), the director's pages and forms, and a signed-in
user's copy of a public page (its logout form and htmx's headers hold a token).

Personas: a *visitor* follows a public tournament without an account; the *referee*
holds a table's link; the *director* organises the tournament's club.
"""

from __future__ import annotations

import gzip

import pytest
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.test import Client
from django.urls import resolve, reverse

from atout.middleware import PublicGZipMiddleware
from rounds.services import round_close
from scoring import live_ranking
from scoring.services import hand_submit
from tests.scoring.tables import director_of, make_table
from tournaments.models import Table

pytestmark = pytest.mark.django_db

GZIP = {"Accept-Encoding": "gzip, deflate, br"}
HTMX = {"HX-Request": "true"}
WIN_A = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}


@pytest.fixture
def running(django_capture_on_commit_callbacks) -> Table:
    table = make_table(tables=2)
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=table, raw=WIN_A)
    return table


def public(table: Table, name: str = "ranking") -> str:
    return reverse(f"public:{name}", kwargs={"slug": table.round.tournament.slug})


def compressed(response) -> bool:
    return response.get("Content-Encoding") == "gzip"


def test_the_ranking_partial_goes_compressed_and_reads_the_same(running: Table, client: Client) -> None:
    plain = client.get(public(running), headers=HTMX)
    packed = client.get(public(running), headers={**HTMX, **GZIP})
    assert not compressed(plain) and compressed(packed)
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content)
    assert "Accept-Encoding" in packed["Vary"] and "Accept-Encoding" in plain["Vary"]


def test_the_ranking_partial_is_compressed_once_per_version_for_every_phone(running: Table, monkeypatch) -> None:
    cache.clear()
    packed: list[int] = []
    real = live_ranking.compress_string
    monkeypatch.setattr(live_ranking, "compress_string", lambda data: packed.append(1) or real(data))
    first, second = (Client().get(public(running), headers={**HTMX, **GZIP}) for _ in range(2))
    assert compressed(first) and compressed(second) and first.content == second.content
    assert len(packed) == 1
    assert "Accept-Encoding" in first["Vary"]
    # A phone that does not accept gzip gets the same fragment plain.
    plain = Client().get(public(running), headers=HTMX)
    assert not compressed(plain) and gzip.decompress(first.content) == plain.content


def test_a_poll_after_a_compressed_answer_still_gets_its_304(running: Table, client: Client) -> None:
    first = client.get(public(running), headers={**HTMX, **GZIP})
    assert compressed(first)
    # Gzip makes the tag weak; If-None-Match compares weakly, whichever form comes back:
    # the browser's W/"..." or the strong one htmx sends from the fragment.
    assert first["ETag"].startswith('W/"')
    strong = first["ETag"].removeprefix("W/")
    assert strong.strip('"') in gzip.decompress(first.content).decode()
    for tag in (first["ETag"], strong):
        again = client.get(public(running), headers={**HTMX, **GZIP, "If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"" and not compressed(again)


def test_the_projector_goes_compressed(running: Table, client: Client) -> None:
    page = client.get(public(running, "projector"), headers=GZIP)
    assert page.status_code == 200 and compressed(page)
    assert b"projector-ranking" in gzip.decompress(page.content)
    assert compressed(client.get(public(running, "projector"), headers={**HTMX, **GZIP}))


def test_the_other_live_partials_go_compressed(running: Table, client: Client) -> None:
    slug = running.round.tournament.slug
    for url in (
        reverse("public:round", kwargs={"slug": slug, "number": 1}),
        reverse("public:table", kwargs={"slug": slug, "number": 1, "table": running.number}),
    ):
        response = client.get(url, headers={**HTMX, **GZIP})
        assert response.status_code == 200 and compressed(response), url


def full_pages(table: Table) -> list[str]:
    """The full public pages of the table's tournament built on base.html (the projector,
    a page of its own with no header nor token, is checked above); round 1 closed, so that
    its own ranking is one of them."""
    tournament = table.round.tournament
    round_close(by=director_of(tournament), round=table.round, force=True)
    slug = tournament.slug
    competitor = tournament.competitors.order_by("number").first()
    assert competitor is not None
    return [
        public(table),
        reverse("public:ranking_after", kwargs={"slug": slug, "number": 1}),
        reverse("public:ranking_print", kwargs={"slug": slug}),
        reverse("public:round", kwargs={"slug": slug, "number": 1}),
        reverse("public:table", kwargs={"slug": slug, "number": 1, "table": table.number}),
        reverse("public:competitor", kwargs={"slug": slug, "number": competitor.number}),
    ]


def test_an_anonymous_visitors_full_public_pages_go_compressed(running: Table, client: Client) -> None:
    for url in full_pages(running):
        page = client.get(url, headers=GZIP)
        assert page.status_code == 200 and compressed(page), url
        body = gzip.decompress(page.content)
        # The whole page, with its header and language switch, and no token anywhere.
        assert b'class="site-header"' in body and b'class="lang-switch"' in body, url
        assert b"csrfmiddlewaretoken" not in body and b"X-CSRFToken" not in body, url
        assert "csrftoken" not in page.cookies, url
    # Compressed or not, the same page.
    plain = client.get(public(running))
    packed = client.get(public(running), headers=GZIP)
    assert not compressed(plain) and gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) // 2


def test_a_signed_in_users_public_page_stays_plain(running: Table, client: Client) -> None:
    client.force_login(director_of(running.round.tournament))
    for url in full_pages(running):
        page = client.get(url, headers=GZIP)
        assert page.status_code == 200 and not compressed(page), url
        # The logout form and htmx's headers carry the token.
        assert b"csrfmiddlewaretoken" in page.content and b"X-CSRFToken" in page.content, url
    # Its polls hold no token: compressed.
    assert compressed(client.get(public(running), headers={**HTMX, **GZIP}))


def test_a_public_page_whose_rendering_asks_for_a_token_stays_plain(rf) -> None:
    # Whatever puts a token in a public page one day, the middleware sees it and keeps it plain.
    body = b"<p>ranking</p>" * 100

    def ranking_page(request: HttpRequest) -> HttpResponse:
        return HttpResponse(body)

    def answer(*, token: bool) -> HttpResponse:
        request = rf.get("/t/concours/", headers=GZIP)
        request.resolver_match = resolve(reverse("public:ranking", kwargs={"slug": "concours"}))
        if token:
            get_token(request)
        return PublicGZipMiddleware(ranking_page)(request)

    assert compressed(answer(token=False))
    plain = answer(token=True)
    assert not compressed(plain) and plain.content == body


def test_the_referees_page_is_never_compressed(running: Table, client: Client) -> None:
    page = client.get(reverse("referee:table", args=[running.token]), headers=GZIP)
    assert page.status_code == 200 and not compressed(page)
    assert b"csrfmiddlewaretoken" in page.content
    # Its htmx answers neither.
    checked = client.post(reverse("referee:validate", args=[running.token]), {"taker": "A"}, headers={**HTMX, **GZIP})
    assert checked.status_code == 200 and not compressed(checked)


def test_the_directors_pages_and_forms_are_never_compressed(running: Table, client: Client) -> None:
    tournament = running.round.tournament
    client.force_login(director_of(tournament))
    for url in (
        reverse("manage:dashboard", args=[tournament.pk]),
        reverse("manage:tournament_edit", args=[tournament.pk]),
        reverse("manage:round_print", args=[tournament.pk, 1]),
    ):
        response = client.get(url, headers=GZIP)
        assert response.status_code == 200 and len(response.content) > 200, url
        assert not compressed(response), url
    # The director polling the public partial holds no secret in it: compressed.
    assert compressed(client.get(public(running), headers={**HTMX, **GZIP}))
