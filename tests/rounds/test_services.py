"""The round services: when a round may be drawn, drawn again and closed, and what closing writes."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from rounds.services import round_close, round_draw, round_redraw
from scoring.models import Hand, TableResult
from tests.tournaments.conftest import new_tournament, register_many
from tournaments import services
from tournaments.models import Bye, Round

pytestmark = pytest.mark.django_db


def test_no_round_is_drawn_before_the_tournament_runs(club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    register_many(tournament, organiser, 4)
    with pytest.raises(ValidationError):
        round_draw(by=organiser, tournament=tournament)
    assert not Round.objects.filter(tournament=tournament).exists()


def test_round_2_waits_for_round_1_to_close(running, organiser) -> None:
    tournament, _ = running(4)
    round_draw(by=organiser, tournament=tournament)
    with pytest.raises(ValidationError) as error:
        round_draw(by=organiser, tournament=tournament)
    assert "1" in " ".join(error.value.messages)
    assert tournament.rounds.count() == 1


def test_no_more_rounds_than_planned(running, organiser) -> None:
    tournament, _ = running(4, rounds_planned=1)
    round_close(by=organiser, round=round_draw(by=organiser, tournament=tournament), force=True)
    with pytest.raises(ValidationError):
        round_draw(by=organiser, tournament=tournament)


def test_round_1_is_random_and_later_rounds_follow_the_tournament_method(running, organiser) -> None:
    tournament, _ = running(6, pairing_method="swiss")
    first = round_draw(by=organiser, tournament=tournament)
    round_close(by=organiser, round=first, force=True)
    second = round_draw(by=organiser, tournament=tournament)
    assert (first.method, second.method) == ("random", "swiss")


def test_a_round_is_drawn_again_only_before_its_first_hand(running, organiser) -> None:
    tournament, _ = running(8)
    rnd = round_draw(by=organiser, tournament=tournament, seed=1)
    old_tokens = set(rnd.tables.values_list("token", flat=True))
    again = round_redraw(by=organiser, round=rnd, seed=2)
    assert again.seed == 2 and again.tables.count() == 4
    assert old_tokens.isdisjoint(again.tables.values_list("token", flat=True))
    Hand.objects.create(table=again.tables.first(), number=1, raw={})
    with pytest.raises(ValidationError):
        round_redraw(by=organiser, round=again)
    assert Round.objects.get(pk=rnd.pk).seed == 2


def test_a_redraw_keeps_the_late_arrivals_byes(running, organiser) -> None:
    tournament, _ = running(4)
    rnd = round_draw(by=organiser, tournament=tournament)
    late = register_many(tournament, organiser, 1)[0]
    round_redraw(by=organiser, round=rnd)
    assert Bye.objects.filter(round=rnd, competitor=late, reason="late").exists()


def test_a_round_closes_only_when_every_partie_is_finished(running, organiser) -> None:
    tournament, _ = running(4)
    rnd = round_draw(by=organiser, tournament=tournament)
    first, second = rnd.tables.order_by("number")
    TableResult.objects.create(table=first, totals=[700, 450], donnes_played=12, finished=True, winner_side=0)
    with pytest.raises(ValidationError) as error:
        round_close(by=organiser, round=rnd)
    assert "2" in " ".join(error.value.messages)
    TableResult.objects.create(table=second, totals=[300, 800], donnes_played=12, finished=True, winner_side=1)
    closed = round_close(by=organiser, round=rnd)
    assert closed.status == "closed" and not closed.forced


def test_a_forced_close_keeps_the_totals_as_they_stand(running, organiser) -> None:
    tournament, _ = running(6)
    rnd = round_draw(by=organiser, tournament=tournament)
    playing, untouched, done = rnd.tables.order_by("number")
    TableResult.objects.create(table=playing, totals=[320, 410], donnes_played=7)
    TableResult.objects.create(table=done, totals=[900, 500], donnes_played=12, finished=True, winner_side=0)
    closed = round_close(by=organiser, round=rnd, force=True)
    assert closed.forced and closed.status == "closed"
    forced = TableResult.objects.get(table=playing)
    assert (forced.totals, forced.finished, forced.forced, forced.winner_side) == ([320, 410], True, True, 1)
    empty = TableResult.objects.get(table=untouched)
    assert (empty.totals, empty.forced, empty.winner_side) == ([0, 0], True, None)
    assert TableResult.objects.get(table=done).forced is False


def test_a_withdrawn_team_loses_its_unfinished_table_by_forfeit(running, organiser) -> None:
    tournament, _ = running(2)
    rnd = round_draw(by=organiser, tournament=tournament)
    table = rnd.tables.get()
    leader = table.seats.get(side=0).competitor
    TableResult.objects.create(table=table, totals=[500, 200], donnes_played=6)
    services.competitor_withdraw(by=organiser, competitor=leader)
    round_close(by=organiser, round=rnd, force=True)
    assert TableResult.objects.get(table=table).winner_side == 1


def test_a_closed_round_is_not_closed_twice_nor_drawn_again(running, organiser) -> None:
    tournament, _ = running(2)
    rnd = round_close(by=organiser, round=round_draw(by=organiser, tournament=tournament), force=True)
    with pytest.raises(ValidationError):
        round_close(by=organiser, round=rnd, force=True)
    with pytest.raises(ValidationError):
        round_redraw(by=organiser, round=rnd)


def test_too_few_present_competitors_get_a_clear_refusal(club, organiser) -> None:
    tournament = new_tournament(club, organiser, format="melee")
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    competitors = register_many(tournament, organiser, 4)
    services.tournament_set_status(by=organiser, tournament=tournament, status="running")
    services.competitor_withdraw(by=organiser, competitor=competitors[0])
    with pytest.raises(ValidationError) as error:
        round_draw(by=organiser, tournament=tournament)
    assert "3" in " ".join(error.value.messages)
