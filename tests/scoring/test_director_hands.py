"""The director's hand pages: only the club's organisers; corrections and deletions with a
reason; the history of every change; the printable table sheets with their QR codes."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Hand, HandRevision, TableResult
from scoring.services import hand_confirm, hand_submit
from tests.scoring.tables import LITIGE, SOUND_HANDS, director_of, make_table, numbers, outsider

pytestmark = pytest.mark.django_db

HAND = SOUND_HANDS["belote_classique"][0]


def body(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def table():
    return make_table()


@pytest.fixture
def director(client: Client, table):
    user = director_of(table.round.tournament)
    client.force_login(user)
    return user


def test_the_hand_pages_need_a_login_and_the_clubs_organiser(client: Client, table) -> None:
    url = reverse("hands:index", args=[table.round.tournament.slug])
    assert client.get(url).status_code == 302
    client.force_login(outsider())
    assert client.get(url).status_code == 403
    hand = hand_submit(table=table, raw=HAND).hand
    edit = reverse("hands:edit", args=[table.round.tournament.slug, hand.pk])
    assert client.post(edit, {"taker": "B", "reason": "x"}).status_code == 403
    assert Hand.objects.get(pk=hand.pk).raw == HAND


def test_the_director_sees_every_table_of_the_round(client: Client, table, director) -> None:
    hand_submit(table=table, raw=HAND)
    response = client.get(reverse("hands:index", args=[table.round.tournament.slug]))
    assert response.status_code == 200
    assert "102 – 60" in body(response)


def test_the_director_corrects_a_donne_with_a_reason_and_the_history_shows_it(client: Client, table, director) -> None:
    slug = table.round.tournament.slug
    hand = hand_submit(table=table, raw=HAND, author_label="C1").hand
    edit = reverse("hands:edit", args=[slug, hand.pk])
    form = body(client.get(edit))
    assert 'value="102"' in form
    missing = client.post(edit, {"taker": "A", "contract": "hearts", "points_taker": "81"})
    assert "Indiquez le motif" in body(missing)
    assert Hand.objects.get(pk=hand.pk).raw == HAND
    done = client.post(
        edit, {"taker": "A", "contract": "hearts", "points_taker": "81", "reason": "Points mal lus"}, follow=True
    )
    assert "La donne 1 est corrigée." in body(done)
    assert Hand.objects.get(pk=hand.pk).raw == LITIGE
    assert TableResult.objects.get(table=table).reserve == 81
    history = body(client.get(reverse("hands:history", args=[slug, table.pk])))
    assert "Points mal lus" in history and director.get_username() in history
    assert "Avant" in history and "Après" in history and "102 – 60" in history and "0 – 81" in history


def test_a_wrong_correction_is_refused_beside_its_field(client: Client, table, director) -> None:
    hand = hand_submit(table=table, raw=HAND).hand
    edit = reverse("hands:edit", args=[table.round.tournament.slug, hand.pk])
    response = client.post(edit, {"taker": "A", "contract": "hearts", "points_taker": "161", "reason": "typo"})
    assert "161" in body(response) and "Aucun ensemble de plis" in body(response)
    assert Hand.objects.get(pk=hand.pk).raw == HAND


def test_the_director_deletes_a_donne_with_a_reason(client: Client, table, director) -> None:
    slug = table.round.tournament.slug
    first = hand_submit(table=table, raw=HAND).hand
    hand_submit(table=table, raw=LITIGE)
    delete = reverse("hands:delete", args=[slug, first.pk])
    assert client.post(delete, {"reason": ""}).status_code == 200
    assert numbers(table) == [1, 2]
    client.post(delete, {"reason": "Saisie en double"})
    assert numbers(table) == [1] and Hand.objects.get(table=table).raw == LITIGE
    revision = HandRevision.objects.get(table=table, action="delete")
    assert revision.author == director and revision.reason == "Saisie en double"


def test_the_director_changes_a_donne_even_after_the_partie_and_the_round_are_over(client: Client, director) -> None:
    table = make_table(end_value=1)
    director.clubs.add(table.round.tournament.club)
    client.force_login(director)
    hand = hand_submit(table=table, raw=HAND).hand
    table.round.status = "closed"
    table.round.save()
    edit = reverse("hands:edit", args=[table.round.tournament.slug, hand.pk])
    client.post(edit, {"taker": "B", "contract": "hearts", "points_taker": "100", "reason": "Preneur inversé"})
    result = TableResult.objects.get(table=table)
    assert result.finished and result.winner_side == 1 and result.totals == [62, 100]


def test_the_printable_sheets_carry_each_tables_qr_code_and_link(client: Client, director) -> None:
    table = make_table(tables=2)
    director.clubs.add(table.round.tournament.club)
    response = client.get(reverse("hands:sheets", args=[table.round.tournament.slug]))
    page = body(response)
    assert page.count("<svg") == 2
    for sheet_table in table.round.tables.all():
        assert f"/r/{sheet_table.token}/" in page


def test_the_director_withdraws_and_renews_a_tables_link(client: Client, table, director) -> None:
    slug = table.round.tournament.slug
    link = reverse("hands:link", args=[slug, table.pk])
    old = table.token
    client.post(link, {"action": "revoke"})
    assert client.get(f"/r/{old}/").status_code == 403
    client.post(link, {"action": "renew"})
    table.refresh_from_db()
    assert table.token != old and client.get(f"/r/{table.token}/").status_code == 200
    assert client.post(link, {"action": "other"}).status_code == 404


def test_the_history_reads_each_revision_as_a_donne_in_words_not_code(client: Client, table, director) -> None:
    slug = table.round.tournament.slug
    hand = hand_submit(table=table, raw=HAND, author_label="C1").hand
    entry = {"taker": "B", "contract": "spades", "points_taker": "90", "belote": "B", "reason": "Mauvais preneur"}
    client.post(reverse("hands:edit", args=[slug, hand.pk]), entry)
    history = body(client.get(reverse("hands:history", args=[slug, table.pk])))
    assert "{'" not in history and "(made)" not in history and "'taker'" not in history
    assert "Preneur" in history and "♥ cœur" in history and "♠ pique" in history
    assert "C1 102 · C2 60" in history and "C1 72 · C2 90" in history
    assert "Belote-rebelote" in history and "fait" in history
    client.cookies.load({"django_language": "en"})
    english = body(client.get(reverse("hands:history", args=[slug, table.pk]), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Taker" in english and "♠ spades" in english and "made" in english


def test_the_history_names_the_side_that_confirmed_a_donne_and_puts_a_space_before_the_colon(client: Client) -> None:
    table = make_table(confirmation=True)
    client.force_login(director_of(table.round.tournament))
    hand = hand_submit(table=table, raw=HAND, entered_side=0).hand
    hand_confirm(hand=hand, side=1)
    history = body(client.get(reverse("hands:history", args=[table.round.tournament.slug, table.pk])))
    # Side 1 of a belote table is its second team (its code is "B", not 1).
    assert "<dt>Confirmée par</dt><dd>C2</dd>" in history
    assert "Donne 1 : Confirmée" in history and "Donne 1 : Saisie" in history


def test_a_confirmation_in_the_history_is_one_short_block_not_the_donne_again(client: Client) -> None:
    table = make_table(confirmation=True)
    client.force_login(director_of(table.round.tournament))
    hand = hand_submit(table=table, raw=HAND, entered_side=0).hand
    hand_confirm(hand=hand, side=1)
    history = body(client.get(reverse("hands:history", args=[table.round.tournament.slug, table.pk])))
    confirmation = history[history.index("Donne 1 : Confirmée") : history.index("Donne 1 : Saisie")]
    # The score and who confirmed it; the entry's details and its before / after are the entry's.
    assert "<dt>Confirmée par</dt><dd>C2</dd>" in confirmation
    assert "Avant" not in confirmation and "Après" not in confirmation
    assert confirmation.count("<dt>") == 2
