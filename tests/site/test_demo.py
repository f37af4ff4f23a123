"""`manage.py demo`: a club night ready to look at, made once however often it runs."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

from ratings.models import PlayerRating
from scoring.models import TableResult
from tournaments.demo import CONCOURS_NAME, FINISHED_NAME
from tournaments.models import Bye, Club, Competitor, Player, Round, Seat, Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_the_demo_club_has_its_concours_and_tarot_evenings_and_runs_twice(django_capture_on_commit_callbacks) -> None:
    # As at the end of the command's transaction: the ratings' rebuild it queued runs.
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115

    club = Club.objects.get()
    # As the login page does it: with the request (the login throttle reads its address).
    user = authenticate(RequestFactory().post("/login/"), username="demo", password="demo-atout")
    assert user is not None and club.organisers.filter(pk=user.pk).exists()

    concours = Tournament.objects.get(club=club, name=CONCOURS_NAME)
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
    assert Tournament.objects.count() == 5 and club.players.count() == 58

    # Last month's concours, played out through the referee's service and finished: the
    # Saint-Nicolas players have their Atout rating from it.
    finished = Tournament.objects.get(club=club, name=FINISHED_NAME)
    assert (finished.status, finished.game, finished.competitors.count()) == ("finished", "belote_classique", 12)
    assert list(finished.rounds.values_list("number", "status")) == [(1, "closed"), (2, "closed"), (3, "closed")]
    # Every partie played to its 12 donnes (a redealt donne is one more hand, not a donne played).
    results = TableResult.objects.filter(table__round__tournament=finished)
    assert results.count() == 3 * 6 and not results.exclude(finished=True, donnes_played=12).exists()
    rated = PlayerRating.objects.filter(player__in=Player.objects.filter(competitors__tournament=concours))
    assert rated.count() == 24 and rated.filter(parties=3).count() == 24
