"""A donne waiting for the other side's confirmation is seen: on the director's dashboard
(table by table and counted at the top), in the list of hands, and on the referee's page
right under the donne just sent, with its "Confirmer pour …" buttons.

With confirmation required, a donne sent from the referee's page is *pending*: it is on
the sheet but does not count until a player of another side confirms it (docs/glossary.md).
"""

from __future__ import annotations

import html
import re
import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Hand
from scoring.selectors.tables import table_progress
from scoring.services import hand_confirm, hand_submit
from tests.scoring.tables import SOUND_HANDS, director_of, make_table
from tournaments import selectors

pytestmark = pytest.mark.django_db

HAND = SOUND_HANDS["belote_classique"][0]


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def waiting():
    """Two tables of a tournament that asks for confirmation; table 1's one donne waits."""
    table = make_table(confirmation=True, tables=2)
    hand_submit(table=table, raw=HAND, entered_side=0)
    assert Hand.objects.get(table=table).status == Hand.Status.PENDING
    return table


@pytest.fixture
def director(client: Client, waiting):
    client.force_login(director_of(waiting.round.tournament))


def row_of(page: str, cell: str) -> str:
    """The table row whose first cell reads `cell`."""
    for row in re.findall(r"<tr[^>]*>.*?</tr>", page, re.S):
        first = re.search(r"<td[^>]*>(.*?)</td>", row, re.S)
        if first and re.sub(r"<[^>]+>", "", first.group(1)).strip() == cell:
            return row
    raise AssertionError(f"no row for {cell}")


def test_the_drawn_tables_count_the_donnes_waiting(waiting) -> None:
    tables = selectors.drawn_tables(waiting.round, progress=table_progress(waiting.round))
    assert [(t.number, t.pending, t.donnes_played, t.finished) for t in tables] == [(1, 1, 0, False), (2, 0, 0, False)]
    hand_confirm(hand=Hand.objects.get(table=waiting), side=1)
    first = selectors.drawn_tables(waiting.round, progress=table_progress(waiting.round))[0]
    assert (first.number, first.pending, first.donnes_played) == (1, 0, 1)


def test_the_dashboard_shows_the_donne_to_confirm_at_its_table_and_counts_it_at_the_top(
    client: Client, waiting, director
) -> None:
    page = text(client.get(reverse("manage:dashboard", args=[waiting.round.tournament.pk])))
    first, second = row_of(page, "1"), row_of(page, "2")
    assert "1 donne à confirmer" in first and "pas commencée" not in first and 'class="pending"' in first
    assert "pas commencée" in second and "à confirmer" not in second
    top = re.search(r'<p class="pending-count".*?</p>', page, re.S)
    assert top and "1 donne à confirmer" in top.group(0) and "table 1" in top.group(0)
    # The round's part the dashboard polls says the same.
    part = text(client.get(reverse("manage:dashboard_round", args=[waiting.round.tournament.pk])))
    assert "1 donne à confirmer" in row_of(part, "1")


def test_a_dashboard_with_nothing_waiting_says_nothing_of_confirmations(client: Client, waiting, director) -> None:
    hand_confirm(hand=Hand.objects.get(table=waiting), side=1)
    page = text(client.get(reverse("manage:dashboard", args=[waiting.round.tournament.pk])))
    assert "à confirmer" not in page and "1 donne jouée" in row_of(page, "1")


def test_the_list_of_hands_marks_the_table_whose_donne_waits(client: Client, waiting, director) -> None:
    page = text(client.get(reverse("hands:index", args=[waiting.round.tournament.slug])))
    first = row_of(page, "1")
    assert 'class="pending"' in first and "1 donne à confirmer" in first
    assert "0 – 0" not in first and "en cours" not in first
    hand_confirm(hand=Hand.objects.get(table=waiting), side=1)
    first = row_of(text(client.get(reverse("hands:index", args=[waiting.round.tournament.slug]))), "1")
    assert "102 – 60" in first and "en cours" in first and "à confirmer" not in first


def test_a_forced_close_says_the_donne_waiting_will_not_count(client: Client, waiting, director) -> None:
    tournament = waiting.round.tournament
    page = text(client.post(reverse("manage:round_close", args=[tournament.pk, 1]), {"force": "1"}))
    assert "Table 1 : 1 donne attend la confirmation de l’autre camp et ne comptera pas." in page


def test_the_referee_finds_the_confirm_buttons_right_under_the_donne_just_sent(client: Client) -> None:
    table = make_table(confirmation=True)
    body = {
        "mode": "new",
        "expected_number": "1",
        "idempotency_key": uuid.uuid4().hex,
        "taker": "A",
        "contract": "hearts",
        "points_taker": "102",
        "entered_side": "0",
    }
    answer = text(client.post(reverse("referee:submit", args=[table.token]), body, HTTP_HX_REQUEST="true"))
    notice = answer.index("La donne 1 est enregistrée.")
    pending = answer.index('id="pending"')
    button = answer.index("Confirmer pour C2")
    next_form = answer.index('id="hand-form"')
    assert notice < pending < button < next_form
    assert "Confirmer pour C1" not in answer
    # The sheet keeps the donne flagged, without a second set of buttons.
    sheet = answer[answer.index('id="sheet"') :]
    assert "à confirmer" in sheet and "Confirmer pour" not in sheet

    confirmed = text(
        client.post(reverse("referee:confirm", args=[table.token, 1]), {"side": "1"}, HTTP_HX_REQUEST="true")
    )
    block = confirmed[confirmed.index('id="pending"') :]
    assert re.search(r'<div id="pending" class="pending-confirm" hx-swap-oob="true">', confirmed)
    assert "La donne 1 est confirmée." in block and "Confirmer pour" not in confirmed
    assert Hand.objects.get(table=table).status == Hand.Status.CONFIRMED


def test_a_refused_confirmation_is_said_where_the_button_was(client: Client) -> None:
    table = make_table(confirmation=True)
    hand_submit(table=table, raw=HAND, entered_side=0)
    refused = text(
        client.post(reverse("referee:confirm", args=[table.token, 1]), {"side": "0"}, HTTP_HX_REQUEST="true")
    )
    block = refused[refused.index('id="pending"') :]
    assert "pas le camp qui l’a saisie" in block and "Confirmer pour C2" in block


def test_the_page_opened_again_shows_the_waiting_donne_s_buttons_above_the_next_entry(client: Client) -> None:
    table = make_table(confirmation=True)
    hand_submit(table=table, raw=HAND, entered_side=0)
    page = text(client.get(reverse("referee:table", args=[table.token])))
    assert page.index("Confirmer pour C2") < page.index('id="hand-form"') < page.index('id="sheet"')


def _entered_minutes_ago(table, minutes: int) -> None:
    Hand.objects.filter(table=table).update(created_at=timezone.now() - timedelta(minutes=minutes, seconds=20))


def test_the_dashboard_says_how_long_each_donne_has_waited_the_longest_first(client: Client, waiting, director) -> None:
    other = waiting.round.tables.get(number=2)
    hand_submit(table=other, raw=HAND, entered_side=0)
    _entered_minutes_ago(waiting, 6)
    _entered_minutes_ago(other, 11)
    for name in ("manage:dashboard", "manage:dashboard_round"):
        page = text(client.get(reverse(name, args=[waiting.round.tournament.pk])))
        listed = re.search(r'<ul class="waiting-donnes">(.*?)</ul>', page, re.S)
        assert listed is not None
        lines = [re.sub(r"\s+", " ", item).strip() for item in re.findall(r"<li>(.*?)</li>", listed.group(1), re.S)]
        assert lines == ["table 2 : donne 1 attend depuis 11 min", "table 1 : donne 1 attend depuis 6 min"]


def test_a_donne_just_sent_has_waited_less_than_a_minute_in_english_too(client: Client, waiting, director) -> None:
    page = text(client.get(reverse("manage:dashboard", args=[waiting.round.tournament.pk]), HTTP_ACCEPT_LANGUAGE="en"))
    assert "table 1: donne 1 has waited less than a minute" in re.sub(r"\s+", " ", page)


def test_the_list_of_hands_says_how_long_the_donne_has_waited(client: Client, waiting, director) -> None:
    _entered_minutes_ago(waiting, 4)
    first = row_of(text(client.get(reverse("hands:index", args=[waiting.round.tournament.slug]))), "1")
    assert "donne 1 attend depuis 4 min" in re.sub(r"\s+", " ", first)
    hand_confirm(hand=Hand.objects.get(table=waiting), side=1)
    first = row_of(text(client.get(reverse("hands:index", args=[waiting.round.tournament.slug]))), "1")
    assert "attend depuis" not in first
