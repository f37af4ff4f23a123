"""Gzip on the API's public reads (atout.middleware.PublicGZipMiddleware), never on its
organisers' answers: a round's table secrets stay plain whatever the client accepts.

Personas (tests/api/conftest.py): the *organiser* calls with a token; *anonymous* has none.
"""

from __future__ import annotations

import gzip
import json

import pytest

from tests.api.conftest import API, play_table

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip"}


def test_the_standings_go_compressed_and_a_poll_with_their_tag_gets_304(
    played, anonymous, django_capture_on_commit_callbacks
) -> None:
    tournament, rnd = played(8)
    with django_capture_on_commit_callbacks(execute=True):
        play_table(rnd.tables.order_by("number").first(), 2)
    url = f"{API}/tournaments/{tournament.slug}/standings/"
    plain = anonymous.get(url)
    packed = anonymous.get(url, **GZIP)
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(packed.content)) == plain.json()
    assert packed["ETag"] == "W/" + plain["ETag"]
    for tag in (packed["ETag"], plain["ETag"]):
        again = anonymous.get(url, HTTP_IF_NONE_MATCH=tag, **GZIP)
        assert again.status_code == 304 and again.content == b""


def test_the_public_reads_go_compressed(played, anonymous) -> None:
    tournament, _rnd = played(8)
    # (The list of rounds is too short to be worth it: Django sends under 200 bytes plain.)
    for path in ("", "competitors/", "rounds/1/", "rounds/1/tables/1/"):
        response = anonymous.get(f"{API}/tournaments/{tournament.slug}/{path}", **GZIP)
        assert response.status_code == 200 and response["Content-Encoding"] == "gzip", path


def test_a_rounds_table_secrets_are_never_compressed(played, api) -> None:
    tournament, rnd = played(8)
    secrets = api.get(f"{API}/tournaments/{tournament.slug}/rounds/1/secrets/", **GZIP)
    assert secrets.status_code == 200 and "Content-Encoding" not in secrets
    assert len(secrets.content) > 200
    assert rnd.tables.first().token in secrets.content.decode()
