"""Tarot à 4 and à 5: the draw seats tables of 4 and 5 as the tournament's seating says.

The seating is "tables of 4 first" (tarot à 4's own) or "tables of 5 first" (tarot à
5's own), and a table of 3 only when the director allows it, as the last resort;
otherwise the players who fit no table of 4 or 5 sit out with fair byes.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.core.exceptions import ValidationError

from rounds import pairing
from rounds.services import round_close, round_draw
from scoring.models import TableResult
from tests.rounds.test_pairing_bridge import tables_of
from tests.tournaments.conftest import new_tournament, register_many
from tournaments import services
from tournaments.models import Bye, Round, Seat

pytestmark = pytest.mark.django_db

FOUR_FIRST, FIVE_FIRST = "four_first", "five_first"


def sizes(rnd: Round) -> list[int]:
    """The round's table sizes, largest first (tables are numbered in the draw's order)."""
    return sorted((len(table) for table in tables_of(rnd)), reverse=True)


def first_round(running, organiser, count: int, **seating) -> Round:
    tournament, _ = running(count, game=seating.pop("game", "tarot_a_quatre"), **seating)
    return round_draw(by=organiser, tournament=tournament, seed=11)


@pytest.mark.parametrize(
    ("count", "four_first", "five_first"),
    [
        # 21 to 23 players split only one way into tables of 4 and 5: both seatings agree.
        (21, [5, 4, 4, 4, 4], [5, 4, 4, 4, 4]),
        (22, [5, 5, 4, 4, 4], [5, 5, 4, 4, 4]),
        (23, [5, 5, 5, 4, 4], [5, 5, 5, 4, 4]),
        # Where there is a choice, the seating decides.
        (20, [4, 4, 4, 4, 4], [5, 5, 5, 5]),
        (24, [4, 4, 4, 4, 4, 4], [5, 5, 5, 5, 4]),
    ],
)
@pytest.mark.parametrize("game", ["tarot_a_quatre", "tarot_a_cinq"])
def test_every_player_is_seated_at_tables_of_4_and_5_by_the_seating_chosen(
    running, organiser, game, count, four_first, five_first
) -> None:
    for preference, expected in ((FOUR_FIRST, four_first), (FIVE_FIRST, five_first)):
        rnd = first_round(running, organiser, count, game=game, table_preference=preference)
        assert sizes(rnd) == expected, preference
        assert not rnd.byes.exists()
        assert Seat.objects.filter(round=rnd).count() == count


def test_each_game_takes_its_own_seating_unless_the_director_chooses(running, organiser) -> None:
    quatre = first_round(running, organiser, 20, game="tarot_a_quatre")
    cinq = first_round(running, organiser, 20, game="tarot_a_cinq")
    assert quatre.tournament.table_preference == FOUR_FIRST and sizes(quatre) == [4] * 5
    assert cinq.tournament.table_preference == FIVE_FIRST and sizes(cinq) == [5] * 4


@pytest.mark.parametrize(
    ("count", "preference", "without_three", "with_three"),
    [
        # Without tables of 3, the fewest sit out: 7 players fill one table of 5, two sit out.
        (7, FOUR_FIRST, ([5], 2), ([4, 3], 0)),
        (7, FIVE_FIRST, ([5], 2), ([4, 3], 0)),
        (11, FOUR_FIRST, ([5, 5], 1), ([4, 4, 3], 0)),
        # A table of 3 is the last resort: two tables of 4 rather than one of 5 and two of 3.
        (11, FIVE_FIRST, ([5, 5], 1), ([4, 4, 3], 0)),
        # A count that fills tables of 4 and 5 never gets a table of 3.
        (22, FOUR_FIRST, ([5, 5, 4, 4, 4], 0), ([5, 5, 4, 4, 4], 0)),
    ],
)
def test_a_table_of_3_is_drawn_only_when_allowed_and_as_the_last_resort(
    running, organiser, count, preference, without_three, with_three
) -> None:
    for allowed, (expected, byes) in ((False, without_three), (True, with_three)):
        rnd = first_round(running, organiser, count, table_preference=preference, allow_tables_of_three=allowed)
        assert (sizes(rnd), rnd.byes.count()) == (expected, byes), allowed
        assert all(bye.reason == "draw" for bye in rnd.byes.all())


def test_players_who_fit_no_table_sit_out_in_turn(running, organiser) -> None:
    tournament, _ = running(7, game="tarot_a_quatre", rounds_planned=3)
    sat_out: Counter[int] = Counter()
    for _ in range(3):
        rnd = round_draw(by=organiser, tournament=tournament)
        assert sizes(rnd) == [5]
        sat_out.update(Bye.objects.filter(round=rnd).values_list("competitor_id", flat=True))
        round_close(by=organiser, round=rnd, force=True)
    # Six byes among seven players: nobody sits out twice.
    assert sum(sat_out.values()) == 6 and set(sat_out.values()) == {1}


def test_the_engine_is_asked_for_the_tournaments_sizes_in_order(running) -> None:
    cases = [
        ({"game": "tarot_a_quatre"}, (4, 5)),
        ({"game": "tarot_a_cinq"}, (5, 4)),
        ({"game": "tarot_a_quatre", "table_preference": FIVE_FIRST}, (5, 4)),
        ({"game": "tarot_a_cinq", "allow_tables_of_three": True}, (5, 4, 3)),
        ({"game": "tarot_a_quatre", "allow_tables_of_three": True}, (4, 5, 3)),
        ({"game": "tarot_a_trois"}, ()),
        ({"game": "belote_classique"}, ()),
    ]
    for values, expected in cases:
        tournament, _ = running(5, **values)
        assert pairing.build_request(tournament, 1, seed=1, method="random").table_sizes == expected, values


def test_three_players_start_a_tarot_a_quatre_evening_only_when_tables_of_3_are_allowed(club, organiser) -> None:
    for allowed in (False, True):
        tournament = new_tournament(club, organiser, game="tarot_a_quatre", allow_tables_of_three=allowed)
        services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
        register_many(tournament, organiser, 3)
        if not allowed:
            with pytest.raises(ValidationError, match="au moins 4 concurrents"):
                services.tournament_set_status(by=organiser, tournament=tournament, status="running")
            continue
        services.tournament_set_status(by=organiser, tournament=tournament, status="running")
        rnd = round_draw(by=organiser, tournament=tournament)
        assert sizes(rnd) == [3]
        # The table of 3 plays tarot à 3: one total a seat.
        round_close(by=organiser, round=rnd, force=True)
        assert len(TableResult.objects.get(table__round=rnd).totals) == 3
