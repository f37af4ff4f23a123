"""One competitor's round history read for that competitor alone (`competitor_history`,
what « Ma soirée » and a competitor's page show) is its item of every competitor's
(`round_histories`): over closed rounds and the round in play, byes (their points are
the round winners' average), a late arrival's missed round, a withdrawal, partners."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rounds.services import round_close, round_draw
from scoring.models import TableResult
from scoring.standings import competitor_history, round_histories
from tests.factories import ClubFactory, PlayerFactory
from tests.scoring.tables import director_of
from tests.tournaments.conftest import new_tournament, register_many
from tournaments import services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def play(rnd: Round, rng: random.Random, *, unfinished: int = 0) -> None:
    """Give every table of `rnd` a result; the first `unfinished` tables are still in play."""
    for index, table in enumerate(rnd.tables.order_by("number").prefetch_related("seats")):
        sides = sorted({seat.side for seat in table.seats.all()})
        totals = [rng.randrange(0, 1200, 10) for _side in sides]
        finished = index >= unfinished
        winner = totals.index(max(totals)) if finished and totals.count(max(totals)) == 1 else None
        TableResult.objects.update_or_create(
            table=table,
            defaults={"totals": totals, "finished": finished, "winner_side": winner, "donnes_played": 5 + 7 * finished},
        )


def night(format_: str, count: int) -> Tournament:
    """Round 1 played and closed, a late arrival, a withdrawal, round 2 half played."""
    rng = random.Random(count)
    club = ClubFactory()
    director = director_of(Tournament(club=club))
    tournament = new_tournament(club, director, format=format_, bye_policy="average_win")
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    competitors = register_many(tournament, director, count)
    services.tournament_set_status(by=director, tournament=tournament, status="running")
    tournament.refresh_from_db()
    first = round_draw(by=director, tournament=tournament, seed=1)
    play(first, rng)
    round_close(by=director, round=first)
    size = 2 if format_ == Tournament.Format.TEAMS else 1
    services.competitor_register(
        by=director, tournament=tournament, players=PlayerFactory.create_batch(size, club=club)
    )
    services.competitor_withdraw(by=director, competitor=competitors[0])
    second = round_draw(by=director, tournament=tournament, seed=2)
    play(second, rng, unfinished=1)
    tournament.refresh_from_db()
    return tournament


@pytest.mark.parametrize(("format_", "count"), [("teams", 7), ("melee", 10)])
def test_a_competitors_history_is_its_item_of_every_competitors(format_: str, count: int) -> None:
    tournament = night(format_, count)
    seen = {"bye": 0, "absent": 0, "pending": 0, "partners": 0}
    for after_round in (None, 1, 2):
        everyone = round_histories(tournament, after_round=after_round)
        for competitor in tournament.competitors.all():
            own = competitor_history(tournament, competitor.pk, after_round=after_round)
            assert own == everyone.get(competitor.pk, []), (competitor.number, after_round)
            for item in own:
                seen["bye"] += item["result"] == "bye"
                seen["absent"] += bool(item.get("late"))
                seen["pending"] += item["result"] == "pending"
                seen["partners"] += bool(item["partners"])
    # The night had what the comparison is about.
    assert seen["bye"] and seen["absent"] and seen["pending"]
    assert bool(seen["partners"]) == (format_ == "melee")


def test_it_reads_a_few_rows_not_the_tournament() -> None:
    tournament = night("teams", 7)
    seated = tournament.competitors.filter(seats__round__number=2).filter(seats__round__number=1)
    played = seated.first()
    assert played is not None
    with CaptureQueriesContext(connection) as queries:
        history = competitor_history(tournament, played.pk)
    assert [item["round"] for item in history] == [1, 2]
    assert len(queries) <= 3
