"""The address phones open: every QR code and printed link carries ATOUT_PUBLIC_URL when it
is set; without it, pages asked for at 127.0.0.1 say their codes open on no phone.

The director's browser names the host it used (the `Host` header): 127.0.0.1 with `./run`,
the room's address when opened from the Wi-Fi.
"""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from tests.scoring.tables import director_of, make_table
from tournaments.qr import qr_svg_response

pytestmark = pytest.mark.django_db

ROOM = "http://192.168.1.20:8000"
WARNING = "Ces QR codes et ces liens pointent vers cet ordinateur"
LOOPBACKS = ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "127.0.0.1"]


@pytest.fixture
def table():
    return make_table(tables=2)


@pytest.fixture
def director(client: Client, table):
    user = director_of(table.round.tournament)
    client.force_login(user)
    return user


@pytest.fixture(autouse=True)
def room_hosts(settings) -> None:
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]", "testserver", "192.168.1.20", "atout.example.org"]
    settings.ATOUT_PUBLIC_URL = ""


def page(client: Client, path: str, host: str) -> str:
    response = client.get(path, HTTP_HOST=host)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def sheets(table) -> str:
    return reverse("hands:sheets", args=[table.round.tournament.slug])


def poster(table) -> str:
    return reverse("public:poster", kwargs={"slug": table.round.tournament.slug})


def test_with_the_setting_the_sheets_and_their_codes_carry_the_public_address(
    client: Client, table, director, settings
) -> None:
    settings.ATOUT_PUBLIC_URL = ROOM
    body = page(client, sheets(table), "127.0.0.1:8000")
    assert WARNING not in body and body.count("<svg") == 2
    for sheet_table in table.round.tables.all():
        assert f"{ROOM}/r/{sheet_table.token}/" in body
    assert "127.0.0.1" not in body.split("<main", 1)[1]
    link = page(client, reverse("hands:table", args=[table.round.tournament.slug, table.pk]), "localhost:8000")
    assert f"{ROOM}/r/{table.token}/" in link and WARNING not in link


def test_with_the_setting_the_poster_and_its_codes_carry_the_public_address(client: Client, table, settings) -> None:
    settings.ATOUT_PUBLIC_URL = ROOM
    slug = table.round.tournament.slug
    body = page(client, poster(table), "127.0.0.1:8000")
    assert f"{ROOM}/t/{slug}/" in body and f"{ROOM}/t/{slug}/seat/" in body and WARNING not in body
    ranking_code = client.get(reverse("public:qr", kwargs={"slug": slug}), HTTP_HOST="127.0.0.1:8000")
    assert ranking_code.content == qr_svg_response(f"{ROOM}/t/{slug}/").content
    seat_code = client.get(reverse("draw:seat_qr", kwargs={"slug": slug}), HTTP_HOST="localhost")
    assert seat_code.content == qr_svg_response(f"{ROOM}/t/{slug}/seat/").content


@pytest.mark.parametrize("host", LOOPBACKS)
def test_without_the_setting_a_loopback_page_warns_instead_of_printing_codes(
    client: Client, table, director, host
) -> None:
    body = page(client, sheets(table), host)
    assert WARNING in body and "définissez ATOUT_PUBLIC_URL" in body
    assert "<svg" not in body and "/r/" not in body
    assert 'class="only-this-computer"' in body and "style=" not in body
    public = page(client, poster(table), host)
    assert WARNING in public and 'class="poster-qr"' not in public
    link = page(client, reverse("hands:table", args=[table.round.tournament.slug, table.pk]), host)
    assert WARNING in link


@pytest.mark.parametrize("host", ["192.168.1.20:8000", "atout.example.org"])
def test_without_the_setting_a_page_opened_at_the_room_s_address_carries_it(
    client: Client, table, director, host
) -> None:
    body = page(client, sheets(table), host)
    assert WARNING not in body and body.count("<svg") == 2
    assert f"http://{host}/r/{table.token}/" in body
    public = page(client, poster(table), host)
    assert WARNING not in public and public.count('class="poster-qr"') == 2
    assert f"http://{host}/t/{table.round.tournament.slug}/" in public
