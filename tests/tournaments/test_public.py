"""What anyone sees without logging in: the draw on the projector, public tournaments at home."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rounds.services import round_draw
from tests.tournaments.conftest import new_tournament
from tournaments import services
from tournaments.models import Seat

pytestmark = pytest.mark.django_db


def draw_url(tournament, number: int = 1) -> str:
    return reverse("draw:round", kwargs={"slug": tournament.slug, "number": number})


def test_the_draw_shows_every_table_seat_and_name_in_big_type(client, running, organiser) -> None:
    tournament, _ = running(5)
    rnd = round_draw(by=organiser, tournament=tournament)
    response = client.get(draw_url(tournament))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Tirage de la ronde 1" in html and 'class="projector"' in html
    assert [t.number for t in response.context["tables"]] == [1, 2]
    for seat in Seat.objects.filter(round=rnd).select_related("competitor"):
        assert seat.competitor.name in html
    assert "Nord–Sud" in html and "Est–Ouest" in html
    bye = rnd.byes.get().competitor
    assert "Exempt" in html and bye.name in html


def test_the_draw_never_shows_a_players_contact_data(client, running, organiser) -> None:
    tournament, teams = running(2)
    player = teams[0].players.first()
    round_draw(by=organiser, tournament=tournament)
    html = client.get(draw_url(tournament)).content.decode()
    assert player.last_name in html
    assert player.email not in html and player.phone not in html


def test_the_draw_of_a_tables_of_three_game_numbers_the_seats(client, running, organiser) -> None:
    tournament, _ = running(3, game="tarot_a_trois")
    round_draw(by=organiser, tournament=tournament)
    html = client.get(draw_url(tournament)).content.decode()
    assert all(f"Place {n}" in html for n in (1, 2, 3))


def test_a_private_or_draft_tournament_and_an_undrawn_round_are_not_found(client, running, organiser, club) -> None:
    tournament, _ = running(2)
    round_draw(by=organiser, tournament=tournament)
    assert client.get(draw_url(tournament, 2)).status_code == 404
    assert client.get(reverse("draw:round", kwargs={"slug": "nope", "number": 1})).status_code == 404
    services.tournament_update(by=organiser, tournament=tournament, is_public=False)
    assert client.get(draw_url(tournament)).status_code == 404
    client.force_login(organiser)
    assert client.get(draw_url(tournament)).status_code == 200  # the director checks the projector first


def test_the_home_page_lists_public_tournaments_past_their_draft(client, running, organiser, club) -> None:
    shown, _ = running(2)
    hidden = new_tournament(club, organiser, name="Brouillon secret")
    private, _ = running(2, name="Concours privé")
    services.tournament_update(by=organiser, tournament=private, is_public=False)
    html = client.get(reverse("home")).content.decode()
    assert shown.name in html and shown.get_absolute_url() in html
    assert hidden.name not in html and private.name not in html
