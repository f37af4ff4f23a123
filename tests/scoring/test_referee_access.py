"""Who reaches a table: its secret link, while its round is open and the link not
withdrawn; guessing links is cut short."""

from __future__ import annotations

import html
from collections.abc import Iterator
from ipaddress import ip_network

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring.models import Hand
from scoring.services import hand_submit, table_token_revoke
from tests.scoring.tables import SOUND_HANDS, make_table, numbers
from tournaments.models import Round, Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    # The wrong-link counts live in the cache: each test starts from none.
    cache.clear()
    yield
    cache.clear()


def page(client: Client, token: str, **extra: str):
    return client.get(f"/r/{token}/", **extra)


def test_the_tables_link_opens_its_table_and_names_who_sits_there(client: Client) -> None:
    table = make_table()
    response = page(client, table.token)
    assert response.status_code == 200
    body = html.unescape(response.content.decode())
    assert "Table 1 · ronde 1" in body and "C1" in body and "C2" in body


def test_an_unknown_link_is_a_404_in_french(client: Client) -> None:
    make_table()
    response = page(client, "x" * 32)
    assert response.status_code == 404
    assert "Lien de table inconnu" in response.content.decode()


def test_a_withdrawn_link_is_a_403_that_says_so(client: Client) -> None:
    table = make_table()
    table_token_revoke(table=table)
    response = page(client, table.token)
    assert response.status_code == 403
    assert "Ce lien a été retiré" in response.content.decode()
    posted = client.post(reverse("referee:submit", args=[table.token]), {"taker": "A"})
    assert posted.status_code == 403 and not Hand.objects.exists()


def test_a_closed_round_is_a_403_that_says_so(client: Client) -> None:
    table = make_table()
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    response = page(client, table.token)
    assert response.status_code == 403
    assert "La ronde 1 est close" in html.unescape(response.content.decode())


def test_a_link_enters_hands_for_its_own_table_and_no_other(client: Client) -> None:
    first = make_table(tables=2)
    second = Table.objects.get(round=first.round, number=2)
    hand_submit(table=second, raw=SOUND_HANDS["belote_classique"][0])
    # Donne 1 of table 2 exists; confirming "donne 1" through table 1's link cannot reach it.
    client.post(reverse("referee:confirm", args=[first.token, 1]), {"side": "1"})
    client.post(reverse("referee:undo", args=[first.token]), {"number": "1"})
    assert numbers(second) == [1]
    client.post(
        reverse("referee:submit", args=[first.token]),
        {"mode": "new", "expected_number": "1", "taker": "A", "contract": "hearts", "points_taker": "90"},
    )
    assert numbers(first) == [1] and numbers(second) == [1]
    assert Hand.objects.get(table=second).raw == SOUND_HANDS["belote_classique"][0]


def test_guessing_links_is_cut_short_for_that_connection_only(client: Client, settings) -> None:
    settings.REFEREE_TOKEN_MISSES = 3
    make_table()
    for attempt in range(3):
        assert page(client, f"guess{attempt:027d}").status_code == 404
    blocked = page(client, f"guess{99:027d}")
    assert blocked.status_code == 429
    assert "Trop de liens erronés" in html.unescape(blocked.content.decode())
    assert page(client, f"guess{99:027d}", REMOTE_ADDR="10.0.0.2").status_code == 404


def test_a_right_link_opens_its_table_whatever_its_connection_guessed(client: Client, settings) -> None:
    # On one Wi-Fi (or behind a proxy), a guesser and every referee share an address.
    settings.REFEREE_TOKEN_MISSES = 3
    table = make_table()
    for attempt in range(5):
        page(client, f"guess{attempt:027d}")
    assert page(client, f"guess{99:027d}").status_code == 429
    assert page(client, table.token).status_code == 200
    entry = {"mode": "new", "expected_number": "1", "idempotency_key": "k-right-link"}
    entry.update(taker="A", contract="hearts", points_taker="102")
    client.post(reverse("referee:submit", args=[table.token]), entry)
    assert numbers(table) == [1]


def test_behind_a_trusted_proxy_each_phone_is_counted_for_itself(client: Client, settings) -> None:
    settings.REFEREE_TOKEN_MISSES = 2
    settings.TRUSTED_PROXIES = [ip_network("127.0.0.0/8")]
    make_table()
    proxy = {"REMOTE_ADDR": "127.0.0.1"}
    for attempt in range(2):
        assert page(client, f"guess{attempt:027d}", HTTP_X_FORWARDED_FOR="203.0.113.7", **proxy).status_code == 404
    assert page(client, f"guess{9:027d}", HTTP_X_FORWARDED_FOR="203.0.113.7", **proxy).status_code == 429
    # Another phone behind the same proxy is not that phone.
    assert page(client, f"guess{9:027d}", HTTP_X_FORWARDED_FOR="203.0.113.8", **proxy).status_code == 404


def test_a_client_cannot_dodge_the_count_by_writing_x_forwarded_for_itself(client: Client, settings) -> None:
    settings.REFEREE_TOKEN_MISSES = 2
    settings.TRUSTED_PROXIES = [ip_network("127.0.0.1")]
    make_table()
    # Not from the trusted proxy: the header is the client's own words, and ignored.
    for attempt in range(2):
        page(client, f"guess{attempt:027d}", REMOTE_ADDR="198.51.100.4", HTTP_X_FORWARDED_FOR=f"10.9.9.{attempt}")
    assert (
        page(client, f"guess{9:027d}", REMOTE_ADDR="198.51.100.4", HTTP_X_FORWARDED_FOR="10.9.9.9").status_code == 429
    )
    # Through the proxy, what the client put first in the header is skipped too.
    for attempt in range(2):
        page(
            client,
            f"guess{attempt:027d}",
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=f"10.8.8.{attempt}, 198.51.100.5",
        )
    forged = page(client, f"guess{9:027d}", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="10.8.8.9, 198.51.100.5")
    assert forged.status_code == 429


def test_a_malformed_link_counts_as_a_wrong_one_without_a_query(client: Client, settings) -> None:
    settings.REFEREE_TOKEN_MISSES = 2
    make_table()
    assert page(client, "short").status_code == 404
    assert page(client, "a" * 65).status_code == 404
    assert page(client, "b" * 40).status_code == 429
