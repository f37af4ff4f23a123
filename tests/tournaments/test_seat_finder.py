"""Where do I sit: a player types their name on a phone and reads their table."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rounds.services import round_draw
from tournaments import services
from tournaments.models import Seat

pytestmark = pytest.mark.django_db


def seat_url(tournament) -> str:
    return reverse("draw:seat", kwargs={"slug": tournament.slug})


def test_a_name_typed_without_accents_finds_the_table_and_seat(client, running, organiser) -> None:
    tournament, teams = running(4)
    player = teams[2].players.first()
    player.first_name, player.last_name = "Hélène", "Bérard"
    player.save()
    rnd = round_draw(by=organiser, tournament=tournament)
    seat = Seat.objects.get(round=rnd, competitor=teams[2])

    response = client.get(seat_url(tournament), {"q": "helene berard"})
    html = response.content.decode()
    assert response.status_code == 200
    [found] = response.context["found"]
    assert found.table.number == seat.table.number
    assert f"Table {seat.table.number}" in html and "Hélène Bérard" in html


def test_the_latest_round_is_searched_and_an_exempt_competitor_is_told_so(client, running, organiser) -> None:
    tournament, _ = running(5)
    rnd = round_draw(by=organiser, tournament=tournament)
    bye = rnd.byes.get().competitor
    response = client.get(seat_url(tournament), {"q": bye.players.first().last_name})
    assert response.context["round"] == rnd
    assert "Exempt" in response.content.decode()


def test_an_unknown_name_says_so_and_no_round_says_to_wait(client, running, organiser) -> None:
    tournament, _ = running(4)
    waiting = client.get(seat_url(tournament), {"q": "x"}).content.decode()
    assert "Aucune ronde n’a encore été tirée" in waiting
    round_draw(by=organiser, tournament=tournament)
    html = client.get(seat_url(tournament), {"q": "Personne Inconnue"}).content.decode()
    assert "Personne Inconnue" in html and "Vérifiez l’orthographe" in html


def test_the_seat_finder_of_a_private_tournament_is_not_found(client, running, organiser) -> None:
    tournament, _ = running(4)
    services.tournament_update(by=organiser, tournament=tournament, is_public=False)
    assert client.get(seat_url(tournament)).status_code == 404


def test_the_poster_carries_the_ranking_and_the_seat_finder_codes(client, running, organiser) -> None:
    tournament, _ = running(4)
    html = client.get(reverse("public:poster", kwargs={"slug": tournament.slug})).content.decode()
    assert reverse("draw:seat_qr", kwargs={"slug": tournament.slug}) in html
    svg = client.get(reverse("draw:seat_qr", kwargs={"slug": tournament.slug}))
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"


def test_the_others_at_the_table_are_listed_without_a_trailing_comma(client, running, organiser) -> None:
    tournament, _teams = running(8, game="tarot_a_quatre", format="individual")
    rnd = round_draw(by=organiser, tournament=tournament)
    # The last seat of a table: its others are all before it, where the comma used to trail.
    last = Seat.objects.filter(round=rnd).order_by("table__number", "side", "position").last()
    response = client.get(seat_url(tournament), {"q": last.competitor.name})
    html = " ".join(response.content.decode().split())
    others = ", ".join(s.competitor.name for s in Seat.objects.filter(table=last.table).exclude(pk=last.pk))
    lines = [part.split("</p>", 1)[0].strip() for part in html.split("À la table :")[1:]]
    assert others in lines
    assert lines and not any(line.endswith(",") for line in lines)
