"""Messages on the screens (issue 28, item 5): the director writes a short message on the
dashboard; it shows on the projectors (ranking and draw) and on every « Ma soirée » page
until withdrawn or past its time, each screen's strip polling for it.

Personas: the *director* organises the tournament's club; a *player* holds their
« Ma soirée » link; the *room* looks at the projectors (no account).
"""

from __future__ import annotations

import datetime
import html
import re
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.scoring.tables import director_of, make_table, outsider
from tournaments import services
from tournaments.models import Competitor, ScreenMessage, Table, Tournament

pytestmark = pytest.mark.django_db

ROUND_SOON = "Ronde 3 dans 5 minutes"


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def table() -> Table:
    return make_table(tables=2)


def words(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))


def strip(response) -> str:
    """The screen messages' strip of a page, as text."""
    found = re.search(r'<div id="screen-messages".*?</div>', response.content.decode(), re.S)
    assert found, "the page has no strip for the director's messages"
    return words_of(found.group(0))


def words_of(markup: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup))).strip()


def tournament_of(table: Table) -> Tournament:
    return table.round.tournament


def screens(client: Client, table: Table) -> dict[str, str]:
    """What each screen's strip shows now: the projector, the draw, « Ma soirée » by its
    personal link and by the public address, and their polls."""
    tournament = tournament_of(table)
    competitor = Competitor.objects.get(tournament=tournament, number=1)
    slug = tournament.slug
    return {
        "projector": strip(client.get(reverse("public:projector", kwargs={"slug": slug}))),
        "draw": strip(client.get(reverse("draw:round", args=[slug, 1]))),
        "soiree": strip(client.get(reverse("soiree:page", args=[competitor.link_token]))),
        "soiree_public": strip(client.get(reverse("public:soiree", args=[slug, 1]))),
        "poll": strip(client.get(reverse("draw:screen", kwargs={"slug": slug}), HTTP_HX_REQUEST="true")),
        "soiree_poll": strip(
            client.get(reverse("soiree:screen", args=[competitor.link_token]), HTTP_HX_REQUEST="true")
        ),
    }


def post(client: Client, table: Table, text: str, minutes: str = "", **extra: str):
    url = reverse("manage:screen_message", args=[tournament_of(table).pk])
    return client.post(url, {"screen-text": text, "screen-minutes": minutes}, **extra)


def test_a_message_posted_on_the_dashboard_shows_on_every_screen(client: Client, table: Table) -> None:
    client.force_login(director_of(tournament_of(table)))
    dashboard = words(client.get(reverse("manage:dashboard", args=[tournament_of(table).pk])))
    assert "Messages sur les écrans" in dashboard
    response = post(client, table, ROUND_SOON, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Le message est sur les écrans." in words(response) and ROUND_SOON in words(response)
    room = Client()
    assert set(screens(room, table).values()) == {ROUND_SOON}


def test_a_withdrawn_message_leaves_the_screens(client: Client, table: Table) -> None:
    director = director_of(tournament_of(table))
    message = services.screen_message_post(by=director, tournament=tournament_of(table), text=ROUND_SOON)
    client.force_login(director)
    url = reverse("manage:screen_message_withdraw", args=[tournament_of(table).pk, message.pk])
    response = client.post(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Aucun message sur les écrans." in words(response)
    assert set(screens(Client(), table).values()) == {""}


def test_a_message_past_its_time_leaves_the_screens_on_the_next_poll(client: Client, table: Table) -> None:
    director = director_of(tournament_of(table))
    message = services.screen_message_post(
        by=director, tournament=tournament_of(table), text="La buvette ferme à minuit", minutes=30
    )
    assert message.expires_at is not None
    poll_url = reverse("draw:screen", kwargs={"slug": tournament_of(table).slug})
    shown = client.get(poll_url, HTTP_HX_REQUEST="true")
    assert strip(shown) == "La buvette ferme à minuit"
    assert client.get(poll_url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=shown["ETag"]).status_code == 304
    # Thirty minutes later (the message's end moved back rather than the clock forward).
    ScreenMessage.objects.filter(pk=message.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    after = client.get(poll_url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=shown["ETag"])
    assert after.status_code == 200 and strip(after) == ""
    assert set(screens(client, table).values()) == {""}


def test_an_empty_or_too_long_message_is_refused_beside_its_field(client: Client, table: Table) -> None:
    client.force_login(director_of(tournament_of(table)))
    empty = post(client, table, "   ", HTTP_HX_REQUEST="true")
    field = re.search(r'<div class="field has-error" id="field-screen-text">.*?</div>', empty.content.decode(), re.S)
    assert field and "Écrivez le message à afficher." in words_of(field.group(0))
    long = post(client, table, "x" * 141, HTTP_HX_REQUEST="true")
    field = re.search(r'<div class="field has-error" id="field-screen-text">.*?</div>', long.content.decode(), re.S)
    assert field and "Un message compte au plus 140 caractères (celui-ci en a 141)." in words_of(field.group(0))
    minutes = post(client, table, ROUND_SOON, "0", HTTP_HX_REQUEST="true")
    field = re.search(
        r'<div class="field has-error" id="field-screen-minutes">.*?</div>', minutes.content.decode(), re.S
    )
    assert field and "Entre 1 et 1440 minutes" in words_of(field.group(0))
    without_htmx = post(client, table, "x" * 141)
    assert without_htmx.status_code == 200 and "Un message compte au plus 140 caractères" in words(without_htmx)
    assert not ScreenMessage.objects.exists()


def test_a_message_of_exactly_140_characters_is_taken(table: Table) -> None:
    director = director_of(tournament_of(table))
    text = "y" * 140
    assert services.screen_message_post(by=director, tournament=tournament_of(table), text=text).text == text


def test_only_the_clubs_organisers_post_or_withdraw_messages(client: Client, table: Table) -> None:
    with pytest.raises(ValidationError):
        services.screen_message_post(by=director_of(tournament_of(table)), tournament=tournament_of(table), text="")
    client.force_login(outsider())
    assert post(client, table, ROUND_SOON).status_code in (403, 404)
    assert not ScreenMessage.objects.exists()
