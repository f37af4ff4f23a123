"""The ratings rebuilt by a real Celery worker on Redis when a tournament finishes."""

from __future__ import annotations

import pytest

from ratings.models import PlayerRating, RatedTournament
from tests.factories import ClubFactory
from tests.ratings.builders import director_of, new_players, played
from tests.scoring.test_jobs_worker import wait_for
from tournaments.services import tournament_set_status

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def test_the_worker_rates_the_players_once_the_tournament_is_finished(celery_worker) -> None:
    club = ClubFactory()
    a, b, c, d = new_players(4, club)
    tournament = played([[102, 60]], players=[[a, b], [c, d]], club=club, status="running")
    tournament_set_status(by=director_of(club), tournament=tournament, status="finished")
    wait_for(lambda: RatedTournament.objects.filter(tournament=tournament).exists(), what="the ratings")
    ratings = dict(PlayerRating.objects.values_list("player_id", "ordinal"))
    assert ratings[a.pk] == ratings[b.pk] > 0 > ratings[c.pk] == ratings[d.pk]
