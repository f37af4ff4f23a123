"""Rebuilding the ratings from the finished tournaments (ratings/services.py), the rebuild
queued when a tournament finishes, and `manage.py ratings_rebuild`."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from ratings.models import PlayerRating, RatedTournament
from ratings.services import ratings_owed_resend, ratings_rebuild
from tests.factories import ClubFactory, TournamentFactory, competitors_for
from tests.ratings.builders import director_of, new_players, played
from tournaments.models import Player, Tournament
from tournaments.services import tournament_set_status

pytestmark = pytest.mark.django_db


def ordinal(player: Player) -> float:
    return PlayerRating.objects.get(player=player).ordinal


def snapshot() -> list[tuple[int, float, float, float, int]]:
    return list(PlayerRating.objects.order_by("pk").values_list("pk", "mu", "sigma", "ordinal", "parties"))


def test_the_winning_team_goes_up_and_the_losers_down() -> None:
    club = ClubFactory()
    a, b, c, d = new_players(4, club)
    tournament = played([[102, 60]], players=[[a, b], [c, d]], club=club)
    summary = ratings_rebuild()
    assert (summary.tournaments, summary.parties, summary.players) == (1, 1, 4)
    assert ordinal(a) == ordinal(b) > 0 > ordinal(c) == ordinal(d)
    assert PlayerRating.objects.get(player=a).parties == 1
    assert list(RatedTournament.objects.values_list("tournament_id", "parties")) == [(tournament.pk, 1)]


def test_a_melee_side_is_its_two_partners_and_a_table_of_three_its_three_players() -> None:
    club = ClubFactory()
    north, east, south, west = new_players(4, club)
    # round_with_tables seats mêlée players N, E, S, W on sides 0, 1, 0, 1.
    played([[90, 72]], format="melee", players=[[north], [east], [south], [west]], club=club)
    first, second, third = new_players(3, club)
    played([[20, 80, 50]], game="belote_a_trois", format="individual", players=[[first], [second], [third]], club=club)
    ratings_rebuild()
    assert ordinal(north) == ordinal(south) > ordinal(east) == ordinal(west)
    assert ordinal(second) > ordinal(third) > ordinal(first)


def test_only_finished_tournaments_and_tables_with_a_donne_played_count() -> None:
    club = ClubFactory()
    a, b, c, d, e, f, g, h = new_players(8, club)
    played([[102, 60]], players=[[a, b], [c, d]], club=club, status="running")
    played([[0, 0]], players=[[e, f], [g, h]], club=club, donnes=0)
    summary = ratings_rebuild()
    assert (summary.parties, summary.players) == (0, 0)
    assert not PlayerRating.objects.exists()
    # The finished tournament is counted, with no partie.
    assert list(RatedTournament.objects.values_list("parties", flat=True)) == [0]


def test_tournaments_count_in_date_order_whatever_order_they_were_made_in() -> None:
    club = ClubFactory()
    a, b, c, d = new_players(4, club)
    played([[60, 102]], players=[[a, b], [c, d]], club=club, day=20)
    played([[102, 60]], players=[[a, b], [c, d]], club=club, day=2)
    ratings_rebuild()
    # One win each: the later one (c and d's, on the 20th) weighs more.
    assert ordinal(c) > ordinal(a)
    Tournament.objects.filter(date__day=20).update(date="2026-03-01")
    ratings_rebuild()
    assert ordinal(a) > ordinal(c)


def test_rebuilding_twice_changes_nothing() -> None:
    club = ClubFactory()
    players = new_players(8, club)
    played([[102, 60], [50, 112]], players=[players[i : i + 2] for i in range(0, 8, 2)], club=club)
    first = ratings_rebuild()
    before = snapshot()
    stamps = list(PlayerRating.objects.order_by("pk").values_list("updated_at", flat=True))
    again = ratings_rebuild()
    assert (first.changed, again.changed) == (8, 0)
    assert snapshot() == before
    assert list(PlayerRating.objects.order_by("pk").values_list("updated_at", flat=True)) == stamps
    assert RatedTournament.objects.count() == 1


def test_a_rebuild_drops_the_ratings_of_a_tournament_no_longer_finished() -> None:
    club = ClubFactory()
    a, b, c, d = new_players(4, club)
    tournament = played([[102, 60]], players=[[a, b], [c, d]], club=club)
    ratings_rebuild()
    Tournament.objects.filter(pk=tournament.pk).update(status="running")
    assert ratings_rebuild().changed == 4
    assert not PlayerRating.objects.exists() and not RatedTournament.objects.exists()


def test_finishing_a_tournament_rebuilds_the_ratings(django_capture_on_commit_callbacks) -> None:
    club = ClubFactory()
    a, b, c, d = new_players(4, club)
    tournament = played([[102, 60]], players=[[a, b], [c, d]], club=club, status="running")
    assert not PlayerRating.objects.exists()
    # Tasks run eagerly here (no broker): the rebuild runs once the finish commits.
    with django_capture_on_commit_callbacks(execute=True):
        tournament_set_status(by=director_of(club), tournament=tournament, status="finished")
    assert ordinal(a) > ordinal(c)
    assert RatedTournament.objects.filter(tournament=tournament).exists()


def test_no_rebuild_while_a_tournament_merely_starts(django_capture_on_commit_callbacks) -> None:
    club = ClubFactory()
    a, b, c, d = new_players(4, club)
    # A finished tournament the ratings have not counted yet.
    played([[102, 60]], players=[[a, b], [c, d]], club=club)
    tournament = TournamentFactory(club=club, status="registration")
    competitors_for(tournament, 2)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_set_status(by=director_of(club), tournament=tournament, status="running")
    assert not PlayerRating.objects.exists()


def test_the_command_rebuilds_and_says_what_it_counted() -> None:
    club = ClubFactory()
    a, b, c, d = new_players(4, club)
    played([[102, 60]], players=[[a, b], [c, d]], club=club)
    out = io.StringIO()
    call_command("ratings_rebuild", stdout=out)
    assert out.getvalue().strip() == "1 parties of 1 finished tournaments: 4 players rated, 4 ratings changed."
    assert PlayerRating.objects.count() == 4


def test_a_rebuild_that_fails_half_way_leaves_the_previous_ratings(monkeypatch: pytest.MonkeyPatch) -> None:
    club = ClubFactory()
    a, b, c, d = new_players(4, club)
    played([[102, 60]], players=[[a, b], [c, d]], club=club, day=1)
    ratings_rebuild()
    before = snapshot()
    played([[60, 102]], players=[[a, b], [c, d]], club=club, day=2)

    def killed(counted: dict[int, int]) -> None:
        raise RuntimeError("worker killed")

    # The ratings are written, then the list of tournaments fails: nothing of it stays.
    monkeypatch.setattr("ratings.services._write_counted", killed)
    with pytest.raises(RuntimeError):
        ratings_rebuild()
    assert snapshot() == before
    assert RatedTournament.objects.count() == 1


def test_the_sweep_sends_a_rebuild_while_a_finished_tournament_is_not_counted(
    django_capture_on_commit_callbacks,
) -> None:
    club = ClubFactory()
    a, b, c, d = new_players(4, club)
    # Finished, but the message asking for the rebuild was lost.
    played([[102, 60]], players=[[a, b], [c, d]], club=club)
    with django_capture_on_commit_callbacks(execute=True):
        assert ratings_owed_resend() is True
    assert ordinal(a) > ordinal(c)
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert ratings_owed_resend() is False
    assert sent == []
