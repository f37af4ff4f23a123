"""« Appeler l'arbitre » (issue 28, item 4): a table calls the referee from its page, the
director's dashboard shows the call until it is handled, and the table's history keeps it.

Personas: the *referee* holds the table's link (no account); the *director* organises
the tournament's club.
"""

from __future__ import annotations

import datetime
import html
import re
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import RefereeCall
from scoring.services import referee_call, referee_call_handle, table_token_revoke
from tests.scoring.tables import director_of, make_table, outsider
from tournaments.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def words(response) -> str:
    """The page's words, tags and runs of spaces out."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))


def call(client: Client, table: Table, reason: str = "", **extra: str):
    return client.post(reverse("referee:call", args=[table.token]), {"reason": reason}, **extra)


def calls_panel(client: Client, table: Table, **extra: str):
    return client.get(reverse("hands:calls", args=[table.round.tournament.slug]), **extra)


def test_the_referee_page_offers_to_call_the_referee_with_a_reason(client: Client) -> None:
    table = make_table()
    page = words(client.get(reverse("referee:table", args=[table.token])))
    assert "Appeler l’arbitre" in page or "Appeler l'arbitre" in page
    assert "Litige" in page and "Carte tombée" in page and "Question" in page


def test_a_call_with_a_reason_shows_on_the_directors_dashboard_with_its_table(client: Client) -> None:
    table = make_table(tables=2)
    response = call(client, table, "dispute", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "L’arbitre est appelé" in words(response) or "L'arbitre est appelé" in words(response)
    director = director_of(table.round.tournament)
    client.force_login(director)
    dashboard = words(client.get(reverse("manage:dashboard", args=[table.round.tournament.pk])))
    assert "Appels à l’arbitre" in dashboard or "Appels à l'arbitre" in dashboard
    panel = words(calls_panel(client, table))
    assert "Table 1 · Litige" in panel
    assert "à l’instant" in panel
    RefereeCall.objects.filter(table=table).update(opened_at=timezone.now() - datetime.timedelta(minutes=3))
    assert "Table 1 · Litige · il y a 3 minutes" in words(calls_panel(client, table))


def test_calling_again_updates_the_open_call_instead_of_adding_one(client: Client) -> None:
    table = make_table()
    call(client, table, "question")
    call(client, table, "card")
    assert RefereeCall.objects.filter(table=table).count() == 1
    only = RefereeCall.objects.get(table=table)
    assert only.reason == "card" and only.repeats == 1 and only.handled_at is None
    client.force_login(director_of(table.round.tournament))
    assert "Table 1 · Carte tombée" in words(calls_panel(client, table))
    assert "appelé 2 fois" in words(calls_panel(client, table))


def test_a_repeat_without_a_reason_keeps_the_reason_given(client: Client) -> None:
    table = make_table()
    referee_call(table=table, reason="dispute")
    assert referee_call(table=table, reason="").reason == "dispute"
    assert referee_call(table=table, reason="not a reason").reason == "dispute"


def test_a_handled_call_leaves_the_dashboard_and_a_new_call_opens_another(client: Client) -> None:
    table = make_table()
    call(client, table, "dispute")
    director = director_of(table.round.tournament)
    client.force_login(director)
    opened = RefereeCall.objects.get(table=table)
    response = client.post(
        reverse("hands:call_handled", args=[table.round.tournament.slug, opened.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "Aucune table n’appelle" in words(response) or "Aucune table n'appelle" in words(response)
    opened.refresh_from_db()
    assert opened.handled_at is not None and opened.handled_by == director
    call(Client(), table, "question")
    assert RefereeCall.objects.filter(table=table).count() == 2
    assert "Table 1 · Question" in words(calls_panel(client, table))


def test_the_calls_panel_answers_304_while_no_call_moved(client: Client) -> None:
    table = make_table()
    client.force_login(director_of(table.round.tournament))
    first = calls_panel(client, table, HTTP_HX_REQUEST="true")
    etag = first["ETag"]
    assert calls_panel(client, table, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
    referee_call(table=table, reason="dispute")
    moved = calls_panel(client, table, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and "Litige" in words(moved)


def test_calls_are_listed_in_the_tables_history_with_their_handling(client: Client) -> None:
    table = make_table()
    director = director_of(table.round.tournament)
    handled = referee_call(table=table, reason="dispute")
    referee_call_handle(call=handled, by=director)
    referee_call(table=table, reason="question")
    client.force_login(director)
    history = words(client.get(reverse("hands:history", args=[table.round.tournament.slug, table.pk])))
    assert "Appels à l’arbitre" in history or "Appels à l'arbitre" in history
    assert "Litige" in history and "Traité le" in history and director.get_username() in history
    assert "Question" in history and "Pas encore traité" in history


def test_a_revoked_table_link_cannot_call(client: Client) -> None:
    table = make_table()
    table_token_revoke(table=table)
    assert call(client, table, "dispute").status_code == 403
    assert not RefereeCall.objects.exists()


def test_only_the_tournaments_organisers_see_or_handle_its_calls(client: Client) -> None:
    table = make_table()
    opened = referee_call(table=table, reason="dispute")
    client.force_login(outsider())
    assert calls_panel(client, table).status_code == 403
    handled = client.post(reverse("hands:call_handled", args=[table.round.tournament.slug, opened.pk]))
    assert handled.status_code == 403
    opened.refresh_from_db()
    assert opened.handled_at is None


def test_a_call_the_director_handled_leaves_the_tables_phones_at_their_next_poll(client: Client) -> None:
    table = make_table()
    made = referee_call(table=table, reason="question")
    sheet = reverse("referee:sheet", args=[table.token])
    polled = client.get(sheet, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="call-status" hx-swap-oob="true"' in polled and "Appelé à" in html.unescape(polled)
    referee_call_handle(by=director_of(table.round.tournament), call=made)
    polled = client.get(sheet, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="call-status" hx-swap-oob="true"' in polled and "Appelé à" not in html.unescape(polled)
