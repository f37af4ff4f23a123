"""The phone's journal, the server's side: what the referee's page learns of each donne,
and what becomes of a donne it sends again after the server lost it.

The page (static/js/referee.js) keeps every donne the server acknowledged for its round.
A copy of the database restored loses the donnes entered after it: here that server is
one whose table holds only the donnes the copy had, and the phone sends the others again
(`/r/<token>/journal/`) as it kept them: the form's fields, the key, the donne number it
was stored as, and the round and tournament it was kept for.
"""

from __future__ import annotations

import html
import re
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rounds.services import round_close
from scoring.models import Hand, HandRevision
from scoring.services import hand_delete, hand_submit, hand_undo_last
from tests.scoring.tables import director_of, make_table, numbers
from tournaments.models import Table

pytestmark = pytest.mark.django_db

# Donne n as the belote form sends it, and as the engine stores it.
FORM = {"taker": "A", "contract": "hearts"}


def typed(number: int) -> dict[str, str]:
    return {**FORM, "points_taker": str(90 + number)}


def raw(number: int) -> dict[str, Any]:
    return {"taker": "A", "contract": "hearts", "points": {"A": 90 + number, "B": 72 - number}}


def text(response) -> str:
    return html.unescape(response.content.decode())


def resend(client: Client, table: Table, number: int, key: str, **extra: str):
    """The phone sends donne `number` of its journal again."""
    body = {
        "mode": "new",
        "idempotency_key": key,
        "expected_number": str(number),
        "journal_round": str(table.round.number),
        "journal_tournament": table.round.tournament.slug,
        **typed(number),
        **extra,
    }
    return client.post(reverse("referee:journal", args=[table.token]), body)


def answer(response) -> tuple[int, str, int | None]:
    body = response.json()
    return response.status_code, body["outcome"], body["number"]


@pytest.fixture
def restored() -> Table:
    """A table whose donnes 1 and 2 the restored copy holds; the phone had 3 and 4 acknowledged too."""
    table = make_table(end_value=20)
    for number in (1, 2):
        hand_submit(table=table, raw=raw(number), idempotency_key=f"k{number}", expected_number=number)
    return table


def test_donnes_the_server_lost_are_stored_again_in_their_place_marked_as_recovered(
    client: Client, restored: Table
) -> None:
    assert answer(resend(client, restored, 3, "k3")) == (201, "stored", 3)
    assert answer(resend(client, restored, 4, "k4")) == (201, "stored", 4)
    hands = list(Hand.objects.filter(table=restored))
    assert [(h.number, h.raw, h.idempotency_key, h.recovered_from_phone) for h in hands] == [
        (1, raw(1), "k1", False),
        (2, raw(2), "k2", False),
        (3, raw(3), "k3", True),
        (4, raw(4), "k4", True),
    ]
    # The hand's history says where it came from.
    reason = HandRevision.objects.get(hand=hands[2], action="create").reason
    assert reason == "Sent again from the referee's phone: the server had lost it (a copy restored)."


def test_a_donne_the_server_still_holds_is_not_stored_twice_nor_counted(client: Client, restored: Table) -> None:
    assert answer(resend(client, restored, 2, "k2")) == (200, "held", 2)
    assert numbers(restored) == [1, 2]
    assert not Hand.objects.filter(recovered_from_phone=True).exists()


def test_a_donne_whose_predecessor_is_still_missing_waits_for_it(client: Client, restored: Table) -> None:
    # Donne 3 came from the table's other phone, which has not sent it again yet.
    assert answer(resend(client, restored, 4, "k4")) == (409, "waiting", 4)
    assert numbers(restored) == [1, 2]
    assert answer(resend(client, restored, 3, "k3")) == (201, "stored", 3)
    assert answer(resend(client, restored, 4, "k4")) == (201, "stored", 4)


def test_a_donne_deleted_by_the_director_is_not_brought_back(client: Client, restored: Table) -> None:
    hand_delete(
        hand=Hand.objects.get(table=restored, number=2), reason="Doubled", by=director_of(restored.round.tournament)
    )
    response = resend(client, restored, 2, "k2")
    assert answer(response) == (409, "removed", 2)
    assert "puis supprimée de la feuille" in response.json()["message"]
    assert numbers(restored) == [1]


def test_a_donne_whose_place_another_donne_took_stays_out_and_the_phone_is_told(
    client: Client, restored: Table
) -> None:
    # After the restore, the referee typed donne 3 again by hand, under a new key.
    hand_submit(table=restored, raw=raw(3), idempotency_key="typed-again", expected_number=3)
    response = resend(client, restored, 3, "k3")
    assert answer(response) == (409, "taken", 3)
    assert "La donne 3 gardée sur ce téléphone n’a pas été renvoyée" in response.json()["message"]
    assert [h.idempotency_key for h in Hand.objects.filter(table=restored)] == ["k1", "k2", "typed-again"]


def test_a_donne_kept_for_another_round_is_never_stored_here(client: Client, restored: Table) -> None:
    assert answer(resend(client, restored, 3, "k3", journal_round="2")) == (409, "elsewhere", None)
    other = make_table()
    assert answer(resend(client, restored, 3, "k3", journal_tournament=other.round.tournament.slug))[1] == "elsewhere"
    assert numbers(restored) == [1, 2]


def test_a_closed_round_and_an_unknown_table_say_so_for_the_phone_to_read(client: Client, restored: Table) -> None:
    unknown = client.post(reverse("referee:journal", args=["NoSuchTableLinkAtAll1234"]), {})
    assert unknown.status_code == 404 and unknown["Atout-Table-Link"] == "unknown"
    round_close(by=director_of(restored.round.tournament), round=restored.round, force=True)
    closed = resend(client, restored, 3, "k3")
    assert closed.status_code == 403 and closed["Atout-Table-Link"] == "closed"
    assert client.get(reverse("referee:sheet", args=[restored.token]))["Atout-Table-Link"] == "closed"
    assert numbers(restored) == [1, 2]


def test_the_page_tells_the_journal_what_was_stored_corrected_and_taken_back(client: Client) -> None:
    table = make_table()
    url = reverse("referee:submit", args=[table.token])
    body = {"mode": "new", "idempotency_key": "k-page", "expected_number": "1", **typed(1)}
    stored = text(client.post(url, body, HTTP_HX_REQUEST="true"))
    notice = re.search(r'<div class="notice notice-ok"[^>]*>', stored)
    assert notice and 'data-journal-action="stored"' in notice.group(0)
    assert 'data-journal-key="k-page"' in notice.group(0) and 'data-journal-number="1"' in notice.group(0)
    # The sheet sent with it lists the keys the server holds, and where to send a donne again.
    sheet = re.search(r'<section id="sheet"[^>]*>', stored)
    assert sheet and 'data-held="k-page"' in sheet.group(0)
    assert f'data-journal="/r/{table.token}/journal/"' in sheet.group(0) and 'data-round="1"' in sheet.group(0)

    corrected = text(
        client.post(
            reverse("referee:correct_last", args=[table.token]),
            {"mode": "correct", "expected_number": "1", **typed(5)},
            HTTP_HX_REQUEST="true",
        )
    )
    assert 'data-journal-action="corrected" data-journal-key="k-page"' in corrected
    undone = text(client.post(reverse("referee:undo", args=[table.token]), {"number": "1"}, HTTP_HX_REQUEST="true"))
    assert 'data-journal-action="removed" data-journal-key="k-page" data-journal-number="1"' in undone


def test_the_dashboard_counts_the_donnes_recovered_from_the_phones(client: Client, restored: Table) -> None:
    director = director_of(restored.round.tournament)
    client.force_login(director)
    dashboard = reverse("manage:dashboard", args=[restored.round.tournament.pk])
    assert "reprise" not in text(client.get(dashboard))
    referee = Client()
    resend(referee, restored, 3, "k3")
    assert "1 donne reprise des téléphones" in text(client.get(dashboard))
    resend(referee, restored, 4, "k4")
    part = text(client.get(reverse("manage:dashboard_round", args=[restored.round.tournament.pk])))
    assert "2 donnes reprises des téléphones" in part
    assert "2 donnes recovered from the phones" in text(client.get(dashboard, HTTP_ACCEPT_LANGUAGE="en"))


def test_undoing_a_recovered_donne_leaves_its_tombstone_like_any_other(client: Client, restored: Table) -> None:
    resend(client, restored, 3, f"k3-{uuid.uuid4().hex[:6]}")
    removed = hand_undo_last(table=restored, expected_number=3)
    assert removed.recovered_from_phone
    assert HandRevision.objects.filter(
        table=restored, action="delete", idempotency_key=removed.idempotency_key
    ).exists()
