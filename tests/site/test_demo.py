"""`manage.py demo`: a club night ready to look at, made once however often it runs."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

from tournaments.models import Bye, Club, Competitor, Round, Seat, Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_club_has_its_concours_and_tarot_evenings_and_runs_twice() -> None:
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115

    club = Club.objects.get()
    # As the login page does it: with the request (the login throttle reads its address).
    user = authenticate(RequestFactory().post("/login/"), username="demo", password="demo-atout")
    assert user is not None and club.organisers.filter(pk=user.pk).exists()

    concours = Tournament.objects.get(club=club, game="belote_classique")
    assert (concours.status, concours.format) == ("running", "teams")
    assert concours.competitors.filter(status=Competitor.Status.CHECKED_IN).count() == 24
    round_1 = Round.objects.get(tournament=concours)
    assert (round_1.number, round_1.status, round_1.tables.count()) == (1, "open", 12)
    assert Seat.objects.filter(round=round_1).count() == 24 and not Bye.objects.exists()
    assert round_1.conflicts == []  # visiting clubs kept apart in round 1

    tarot = Tournament.objects.get(club=club, game="tarot_a_trois")
    assert (tarot.status, tarot.format, tarot.competitors.count()) == ("registration", "individual", 10)
    contree = Tournament.objects.get(club=club, game="belote_contree")
    assert (contree.status, contree.format, contree.competitors.count()) == ("running", "teams", 16)
    assert Round.objects.get(tournament=contree).tables.count() == 8

    tarot_a_quatre = Tournament.objects.get(club=club, game="tarot_a_quatre")
    assert (tarot_a_quatre.status, tarot_a_quatre.format) == ("running", "individual")
    evening = Round.objects.get(tournament=tarot_a_quatre)
    sizes = [table.seats.count() for table in evening.tables.order_by("number")]
    assert sizes == [4, 4, 4, 5, 5] and not Bye.objects.filter(round=evening).exists()
    assert Tournament.objects.count() == 4 and club.players.count() == 58
