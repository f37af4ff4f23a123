"""Issue 26, item 8: no log line holds a working secret whole (kit.logs.redact).

A table's referee link, an invitation, a password reset link, a token in a header or a
query string: whoever reads the logs must not be able to use what they read. Every line
keeps at most the first characters of a secret. These tests read the lines the site's
own logging configuration writes; tests/production/test_processes.py reads a real
gunicorn's and a real Celery worker's.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from kit.logs import redact
from tests.factories import ClubFactory, UserFactory
from tests.scoring.tables import make_table
from tests.site_log import site_log
from tournaments import services

# A URL keyword argument that is a secret, by its name (an int is an id, never a secret).
SECRET_KWARG = re.compile(r"token|secret|key|passw|signature", re.IGNORECASE)


def _routes(
    patterns: list[Any], namespace: str = "", converters: dict[str, Any] | None = None
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every named route of the URLconf: its name for reverse() and its converters."""
    for entry in patterns:
        found = {**(converters or {}), **getattr(entry.pattern, "converters", {})}
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _routes(entry.url_patterns, inner, found)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}{entry.name}", found


def secret_routes() -> list[tuple[str, dict[str, Any]]]:
    return [
        (name, converters)
        for name, converters in _routes(get_resolver().url_patterns)
        if any(SECRET_KWARG.search(kwarg) and not isinstance(c, IntConverter) for kwarg, c in converters.items())
    ]


def test_the_url_conf_has_the_secret_routes_this_test_walks() -> None:
    names = {name for name, _ in secret_routes()}
    assert {"referee:table", "referee:submit", "invitation", "password_reset_confirm"} <= names


@pytest.mark.parametrize("name", sorted({name for name, _ in secret_routes()}))
def test_every_route_that_takes_a_secret_is_logged_without_it(name: str) -> None:
    """A new route taking a secret fails here until kit.logs.SECRET_ROUTES lists it."""
    converters = dict(secret_routes())[name]
    secret = secrets.token_urlsafe(24)
    kwargs = {
        kwarg: 7 if isinstance(c, IntConverter) else secret if SECRET_KWARG.search(kwarg) else "abc"
        for kwarg, c in converters.items()
    }
    path = reverse(name, kwargs=kwargs)
    for line in (
        f"request method=GET path={path} status=200",
        f"Forbidden (CSRF cookie not set.): {path}",
        f"Invalid HTTP request line: 'GET {path}?x=1 HTTP/1.1 x'",
        # A path inside a query string, %-encoded: the language switch's `next`.
        f"GET /language/?language=en&next={quote(path, safe='')}",
    ):
        cut = redact(line)
        assert secret not in cut and secret[:4] + "…" in cut, cut
        assert redact(cut) == cut


@pytest.mark.parametrize(
    "line",
    [
        "Authorization: Token {secret}",
        "{{'HTTP_AUTHORIZATION': 'Token {secret}', 'HTTP_X_TABLE_TOKEN': '{secret}'}}",
        "X-Table-Token: {secret}",
        "GET /t/x/ranking.csv?token={secret}&q=Dupont",
        "GET /api/v1/tournaments/?api_key={secret}",
        "csrfmiddlewaretoken={secret}&taker=A",
        "Cookie: sessionid={secret}; csrftoken={secret}",
        '{{"password": "{secret}", "username": "directrice"}}',
        "DETAIL:  Key (token)=({secret}) already exists.",
    ],
)
def test_a_secret_named_in_a_header_a_query_string_or_a_body_is_cut(line: str) -> None:
    secret = secrets.token_urlsafe(24)
    cut = redact(line.format(secret=secret))
    assert secret not in cut and secret[:4] + "…" in cut, cut
    assert "Dupont" in cut or "Dupont" not in line


def test_a_line_without_a_secret_is_written_as_it_was() -> None:
    line = "request method=GET path=/t/concours-de-noel/round/2/ status=200 duration_ms=3.1 tournament=concours-de-noel"
    assert redact(line) == line


@pytest.mark.django_db
def test_the_site_writes_no_working_secret_whole_in_any_line() -> None:
    """The referee's page answered 200 and the request line held the whole link; so did
    Django's own lines (a CSRF failure, a 404), whatever the secret."""
    table = make_table()
    user = UserFactory(email="directrice@example.org")
    club = ClubFactory()
    club.organisers.add(user, through_defaults={"role": "admin"})
    invitations: list[str] = []
    services.invitation_create(
        by=user, club=club, email="arbitre@example.org", role="organiser",
        link_for=lambda token: invitations.append(token) or f"/invitation/{token}/",
    )  # fmt: skip
    (invitation,) = invitations
    uid, reset = urlsafe_base64_encode(force_bytes(user.pk)), default_token_generator.make_token(user)
    wrong = secrets.token_urlsafe(24)
    with site_log() as log:
        assert Client().get(f"/r/{table.token}/").status_code == 200
        refused = Client(enforce_csrf_checks=True).post(f"/r/{table.token}/hands/", {"taker": "A"})
        assert refused.status_code == 403
        assert Client().get(f"/r/{wrong}/").status_code == 404
        assert Client().get(f"/invitation/{invitation}/").status_code == 200
        assert Client().get(f"/login/reset/{uid}/{reset}/").status_code == 302
        assert Client().get(f"/language/?language=en&next={quote(f'/r/{table.token}/', safe='')}").status_code == 302
    written = log.text
    for secret in (table.token, invitation, reset, wrong):
        assert secret not in written, secret
    assert any(f"path=/r/{table.token[:4]}…/ status=200" in line for line in log.lines("atout.request"))
    assert log.lines(f"path=/r/{table.token[:4]}…/hands/ status=403 duration_ms=")[0].count("CSRF cookie not set") == 1
    assert log.lines(f"path=/invitation/{invitation[:4]}…/ status=200")
    assert log.lines(f"path=/login/reset/{uid}/{reset[:4]}…/ status=302")
