"""Round 1 drawn by the players' Atout ratings, the strongest apart (Tournament.first_round_order)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from ratings.models import PlayerRating
from rounds.services import round_close, round_draw, round_redraw
from tests.rounds.test_pairing_bridge import tables_of
from tests.tournaments.conftest import new_tournament
from tournaments import services
from tournaments.models import Competitor

pytestmark = pytest.mark.django_db


def rate(competitor: Competitor, *ordinals: float) -> None:
    for player, ordinal in zip(competitor.players.order_by("pk"), ordinals, strict=False):
        PlayerRating.objects.create(player=player, mu=ordinal + 15, sigma=5, ordinal=ordinal, parties=10)


def test_round_1_by_rating_seats_the_best_against_the_weakest(running, organiser) -> None:
    tournament, competitors = running(8, first_round_order="rating")
    # Registered weakest first: the draw follows the ratings, not the numbers.
    for index, competitor in enumerate(competitors):
        rate(competitor, 2.0 * index, 2.0 * index)
    c = competitors
    rnd = round_draw(by=organiser, tournament=tournament)
    assert rnd.method == "seeded"
    assert tables_of(rnd) == [[[c[7 - k].pk], [c[k].pk]] for k in range(4)]
    # Drawn again (before any hand), by rating again.
    again = round_redraw(by=organiser, round=rnd, seed=5)
    assert again.method == "seeded"
    assert tables_of(again) == tables_of(rnd)


def test_a_team_is_rated_by_the_mean_of_its_players_and_a_newcomer_counts_as_zero(running, organiser) -> None:
    tournament, (strong, half, weak, nobody) = running(4, first_round_order="rating")
    rate(strong, 20, 20)
    rate(half, 30)  # its other player is unrated: (30 + 0) / 2 = 15
    rate(weak, 10, 10)
    rnd = round_draw(by=organiser, tournament=tournament)
    # 20, 15, 10, 0: the best meets the weakest, the second the third.
    assert tables_of(rnd) == [[[strong.pk], [nobody.pk]], [[half.pk], [weak.pk]]]


def test_the_lowest_rated_sits_out_when_the_teams_are_odd(running, organiser) -> None:
    tournament, competitors = running(5, first_round_order="rating")
    for index, competitor in enumerate(competitors):
        rate(competitor, 10.0 - index, 10.0 - index)
    rnd = round_draw(by=organiser, tournament=tournament)
    assert list(rnd.byes.values_list("competitor_id", flat=True)) == [competitors[4].pk]


def test_round_1_stays_at_random_by_default_and_round_2_follows_the_method(running, organiser) -> None:
    tournament, _ = running(4, pairing_method="swiss")
    assert tournament.first_round_order == "random"
    first = round_draw(by=organiser, tournament=tournament)
    round_close(by=organiser, round=first, force=True)
    second = round_draw(by=organiser, tournament=tournament)
    assert (first.method, second.method) == ("random", "swiss")


def test_later_rounds_of_a_tournament_seeded_by_rating_follow_its_method(running, organiser) -> None:
    tournament, _ = running(4, first_round_order="rating", pairing_method="swiss")
    round_close(by=organiser, round=round_draw(by=organiser, tournament=tournament), force=True)
    assert round_draw(by=organiser, tournament=tournament).method == "swiss"


def test_the_order_of_round_1_is_fixed_once_round_1_is_drawn(running, organiser) -> None:
    tournament, _ = running(4)
    services.tournament_update(by=organiser, tournament=tournament, first_round_order="rating")
    tournament.refresh_from_db()
    assert tournament.first_round_order == "rating"
    round_draw(by=organiser, tournament=tournament)
    with pytest.raises(ValidationError) as refused:
        services.tournament_update(by=organiser, tournament=tournament, first_round_order="random")
    assert "first_round_order" in refused.value.message_dict


def test_an_unknown_order_is_refused_beside_the_field(club, organiser) -> None:
    with pytest.raises(ValidationError) as refused:
        new_tournament(club, organiser, first_round_order="strongest")
    assert "first_round_order" in refused.value.message_dict
