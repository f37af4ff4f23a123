"""A destructive button asks first, saying what will happen; a mistap changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rounds.services import round_draw
from scoring.models import TableResult
from tournaments.models import Competitor, Round, Tournament

pytestmark = pytest.mark.django_db


def test_withdrawing_asks_first_and_says_the_results_stay(organiser_client, running) -> None:
    tournament, teams = running(3)
    url = reverse("manage:withdraw", args=[tournament.pk, teams[0].pk])
    asked = organiser_client.post(url)
    html = asked.content.decode()
    assert asked.status_code == 200 and f"Retirer {teams[0].name}" in html
    assert "restent au classement" in html and 'name="confirmed" value="1"' in html
    assert Competitor.objects.get(pk=teams[0].pk).status == "checked_in"
    organiser_client.post(url, {"confirmed": "1"})
    assert Competitor.objects.get(pk=teams[0].pk).status == "withdrawn"


def test_forcing_a_close_lists_each_unfinished_table_and_the_score_it_keeps(
    organiser_client, running, organiser
) -> None:
    tournament, _ = running(6)
    rnd = round_draw(by=organiser, tournament=tournament)
    TableResult.objects.create(table=rnd.tables.get(number=1), totals=[800, 600], donnes_played=12, finished=True)
    TableResult.objects.create(table=rnd.tables.get(number=2), totals=[312, 250], donnes_played=4)
    url = reverse("manage:round_close", args=[tournament.pk, 1])
    asked = organiser_client.post(url, {"force": "1"})
    html = asked.content.decode()
    assert "Table 2 : 4 donnes jouées, compte en l’état (312 – 250)" in html
    assert "Table 3 : pas commencée, compte 0 – 0 sans vainqueur" in html
    assert "Table 1 :" not in html
    assert Round.objects.get(pk=rnd.pk).status == "open"
    organiser_client.post(url, {"force": "1", "confirmed": "1"})
    assert Round.objects.get(pk=rnd.pk).status == "closed"


def test_finishing_the_tournament_asks_first(organiser_client, running, organiser) -> None:
    tournament, _ = running(4)
    url = reverse("manage:tournament_status", args=[tournament.pk])
    asked = organiser_client.post(url, {"status": "finished"})
    assert "classement devient définitif" in asked.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).status == "running"
    organiser_client.post(url, {"status": "finished", "confirmed": "1"})
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"


def test_opening_registration_needs_no_confirmation(organiser_client, club, organiser) -> None:
    from tests.tournaments.conftest import new_tournament

    tournament = new_tournament(club, organiser)
    organiser_client.post(reverse("manage:tournament_status", args=[tournament.pk]), {"status": "registration"})
    assert Tournament.objects.get(pk=tournament.pk).status == "registration"
