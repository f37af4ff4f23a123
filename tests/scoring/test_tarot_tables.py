"""Tarot at four and five: each table plays the tarot of its seat count (scoring.partie)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring import rescoring
from scoring.models import Hand, TableResult
from scoring.partie import table_game, tournament_options
from scoring.selectors.tables import table_sheet, table_sides
from scoring.services import hand_submit
from tests.factories import CompetitorFactory, TournamentFactory
from tests.scoring.test_referee_pages import beside, post, text
from tournaments.models import Round, Seat, Table

pytestmark = pytest.mark.django_db


def tarot_evening(
    game: str = "tarot_a_quatre", sizes: tuple[int, ...] = (4, 5), table_de_cinq: str = "tarot_a_cinq"
) -> list[Table]:
    """Round 1 of a tarot evening drawn into tables of `sizes`, seated in order; a table of
    five plays tarot à 5 unless `table_de_cinq` is `mort` (tests/scoring/test_mort_tables.py)."""
    tournament = TournamentFactory(
        game=game,
        format="individual",
        end_rule="donnes",
        end_value=5,
        status="running",
        table_de_cinq=table_de_cinq,
    )
    rnd = Round.objects.create(tournament=tournament, number=1, method="random", seed=1)
    tables, number = [], 0
    for index, size in enumerate(sizes):
        table = Table.objects.create(round=rnd, number=index + 1)
        for seat in range(size):
            number += 1
            competitor = CompetitorFactory(tournament=tournament, number=number, name=f"C{number}")
            Seat.objects.create(round=rnd, table=table, competitor=competitor, side=seat, position=str(seat + 1))
        tables.append(Table.objects.select_related("round__tournament").get(pk=table.pk))
    return tables


def test_a_table_plays_the_tarot_of_its_seat_count() -> None:
    four, five = tarot_evening()
    assert (table_game(four).code, table_game(five).code) == ("tarot_a_quatre", "tarot_a_cinq")
    assert [len(table_sides(t)) for t in (four, five)] == [4, 5]
    (alone,) = tarot_evening("tarot_a_cinq", (5,))
    assert table_game(alone).code == "tarot_a_cinq"


def test_a_donne_at_four_and_one_at_five_with_a_partner_score_as_the_engine_says() -> None:
    four, five = tarot_evening()
    garde = {"contract": "garde", "oudlers": 2, "points": 46}
    hand_submit(table=four, raw={"taker": 1, **garde})
    hand_submit(table=five, raw={"taker": 2, "partner": 4, **garde})
    assert TableResult.objects.get(table=four).totals == [-60, 180, -60, -60]
    assert TableResult.objects.get(table=five).totals == [-60, -60, 120, -60, 60]
    assert table_sheet(five).totals == [-60, -60, 120, -60, 60]
    # Scored again, each table keeps its own game.
    scorer = rescoring.TableScorer.of(four.round.tournament, tournament_options(four.round.tournament))
    outcomes = {o.work.table_id: o for o in map(scorer.score, rescoring.load_tables(four.round.tournament_id))}
    assert outcomes[five.pk].errors == []
    assert outcomes[five.pk].result["totals"] == [-60, -60, 120, -60, 60]
    assert outcomes[four.pk].result["totals"] == [-60, 180, -60, -60]


def test_the_referee_enters_a_donne_at_five_called_alone_and_with_a_partner(client) -> None:
    _four, five = tarot_evening()
    page = text(client.get(reverse("referee:table", args=[five.token])))
    assert "Partenaire (roi appelé)" in page and "appelé lui-même (joue seul)" in page
    assert "simple (8 atouts)" in page and "simple (13 atouts)" not in page
    garde = {"contract": "garde", "oudlers": "2", "points": "45,5"}
    alone = post(client, five, {"taker": "1", "partner": "alone", **garde}, number=1)
    assert alone.status_code == 302
    assert Hand.objects.get(table=five, number=1).raw["partner"] == 1
    assert Hand.objects.get(table=five, number=1).scores == [-60, 240, -60, -60, -60]
    refused = text(
        post(client, five, {"taker": "1", "partner": "3", **garde, "oudlers": "0", "points": "95"}, number=2)
    )
    assert beside(refused, "points")
    post(client, five, {"taker": "0", "partner": "3", **garde}, number=2)
    assert TableResult.objects.get(table=five).totals == [60, 180, -120, 0, -120]


def test_the_referee_at_four_has_no_partner_and_the_poignees_of_four() -> None:
    four, _five = tarot_evening()
    page = text(Client().get(reverse("referee:table", args=[four.token])))
    assert "simple (10 atouts)" in page and "Partenaire (roi appelé)" not in page
