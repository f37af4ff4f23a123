"""A player's tournaments: rank among the ranked, points and partners read from each
tournament's latest ranking, on the organisers' page and, for public tournaments of a
player who did not opt out, on a public page."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import StandingsSnapshot
from scoring.selectors.history import player_history
from scoring.services import hand_submit
from scoring.standings import standings_rebuild
from tests.factories import ClubFactory, CompetitorFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.scoring.tables import make_table
from tournaments.models import Club, Competitor, Player, Tournament

pytestmark = pytest.mark.django_db


def ranked(tournament: Tournament, *rows: tuple[int, int, float], version: int = 1) -> None:
    """A stored ranking of `tournament`: (competitor id, rank, points) a row."""
    StandingsSnapshot.objects.create(
        tournament=tournament,
        version=version,
        rows=[
            {"competitor": pk, "number": i + 1, "rank": rank, "points": points}
            for i, (pk, rank, points) in enumerate(rows)
        ],
    )


@pytest.fixture
def club() -> Club:
    return ClubFactory(name="Belote Club d’Angers")


@pytest.fixture
def player(club: Club) -> Player:
    return PlayerFactory(club=club, first_name="Jeanne", last_name="Bérard")


def played_in(player: Player, club: Club, name: str, day: int, **fields: object) -> Tournament:
    """A tournament of `club` where `player` and a partner are competitor 1 of three, ranked twice."""
    tournament = TournamentFactory(club=club, name=name, date=datetime.date(2026, 3, day), **fields)
    partner = PlayerFactory(club=club, first_name="Paul", last_name=f"Durand{day}")
    mine = CompetitorFactory(tournament=tournament, players=[player, partner])
    others = [CompetitorFactory(tournament=tournament) for _ in range(2)]
    ranked(tournament, (others[0].pk, 1, 300), (mine.pk, 2, 250.5), (others[1].pk, 3, 100), version=1)
    ranked(tournament, (mine.pk, 1, 420), (others[0].pk, 2, 300), (others[1].pk, 3, 100), version=2)
    return tournament


def test_each_tournament_shows_the_latest_rank_points_and_partners(player: Player, club: Club) -> None:
    first = played_in(player, club, "Concours de printemps", 1, status="finished")
    second = played_in(player, club, "Concours d’été", 20, status="running")
    history = player_history(player)
    assert [p.tournament for p in history] == [second, first]
    assert [(p.rank, p.ranked, p.points, p.final) for p in history] == [(1, 3, 420, False), (1, 3, 420, True)]
    assert [p.partners for p in history] == [["Paul Durand20"], ["Paul Durand1"]]


def test_a_tournament_not_yet_ranked_has_no_rank(player: Player, club: Club) -> None:
    tournament = TournamentFactory(club=club)
    CompetitorFactory(tournament=tournament, players=[player])
    [played] = player_history(player)
    assert (played.rank, played.ranked, played.points, played.partners) == (None, 0, None, [])


def test_the_history_takes_three_queries_however_many_tournaments(
    player: Player, club: Club, django_assert_max_num_queries
) -> None:
    for day in range(1, 9):
        played_in(player, club, f"Concours {day}", day)
    with django_assert_max_num_queries(3):
        history = player_history(player)
    assert len(history) == 8


def test_the_public_history_leaves_out_private_and_draft_tournaments(player: Player, club: Club) -> None:
    shown = played_in(player, club, "Ouvert", 1, status="finished")
    played_in(player, club, "Privé", 2, status="finished", is_public=False)
    played_in(player, club, "Brouillon", 3, status="draft")
    assert [p.tournament for p in player_history(player, public_only=True)] == [shown]


def organiser_of(club: Club) -> object:
    user = UserFactory()
    club.organisers.add(user, through_defaults={"role": "organiser"})
    return user


def test_the_organisers_page_lists_private_tournaments_too(player: Player, club: Club, client: Client) -> None:
    played_in(player, club, "Concours privé", 2, status="finished", is_public=False)
    client.force_login(organiser_of(club))
    body = client.get(reverse("player_history", args=[club.pk, player.pk])).content.decode()
    assert "Concours privé" in body and "Paul Durand2" in body


def test_an_organiser_of_another_club_is_refused_the_page(player: Player, club: Club, client: Client) -> None:
    client.force_login(organiser_of(ClubFactory()))
    assert client.get(reverse("player_history", args=[club.pk, player.pk])).status_code == 403


def test_the_player_page_links_to_the_history(player: Player, club: Club, client: Client) -> None:
    client.force_login(organiser_of(club))
    body = client.get(reverse("manage:player_edit", args=[club.pk, player.pk])).content.decode()
    assert reverse("player_history", args=[club.pk, player.pk]) in body


def test_the_public_page_shows_name_club_and_public_tournaments_only(
    player: Player, club: Club, client: Client
) -> None:
    played_in(player, club, "Concours ouvert", 1, status="finished")
    played_in(player, club, "Concours privé", 2, status="finished", is_public=False)
    body = client.get(reverse("player_public", args=[player.pk])).content.decode()
    assert "Jeanne Bérard" in body and "Belote Club d’Angers" in body
    assert "Concours ouvert" in body and "Concours privé" not in body
    assert player.licence not in body and player.email not in body


def test_a_player_who_opted_out_has_no_public_page(player: Player, club: Club, client: Client) -> None:
    played_in(player, club, "Concours ouvert", 1, status="finished")
    player.public_history = False
    player.save()
    assert client.get(reverse("player_public", args=[player.pk])).status_code == 404


def test_an_anonymised_player_has_no_public_page(player: Player, club: Club, client: Client) -> None:
    played_in(player, club, "Concours ouvert", 1, status="finished")
    player.anonymised_at = timezone.now()
    player.save()
    assert client.get(reverse("player_public", args=[player.pk])).status_code == 404


def test_the_player_form_sets_the_opt_out(player: Player, club: Club, client: Client) -> None:
    client.force_login(organiser_of(club))
    form = {"last_name": "Bérard", "first_name": "Jeanne", "licence": "", "affiliation": "", "email": "", "phone": ""}
    client.post(reverse("manage:player_edit", args=[club.pk, player.pk]), form)
    player.refresh_from_db()
    assert player.public_history is False
    # Turning it on again: the director says the player agreed (tournaments.forms).
    client.post(
        reverse("manage:player_edit", args=[club.pk, player.pk]), {**form, "public_history": "on", "consent": "on"}
    )
    player.refresh_from_db()
    assert player.public_history is True


def test_a_played_donne_shows_the_rank_the_stored_ranking_gives(django_capture_on_commit_callbacks) -> None:
    table = make_table(tables=2)
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=table, raw={"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}})
    snapshot = standings_rebuild(tournament_id=table.round.tournament_id)
    leader = next(row for row in snapshot.rows if row["rank"] == 1)
    first, second = Competitor.objects.get(pk=leader["competitor"]).players.order_by("pk")
    [played] = player_history(first)
    assert (played.rank, played.ranked, played.points) == (1, len(snapshot.rows), leader["points"])
    assert played.partners == [second.full_name]


@pytest.mark.parametrize("how", ["opted out", "anonymised"])
def test_a_partner_not_followed_publicly_is_not_named_on_the_public_page(
    player: Player, club: Club, client: Client, how: str
) -> None:
    """Issue 26, item 7: Jeanne's public page named her partner who had opted out, and the
    team's own name ("Bérard – Durand1") named him too. The organisers still read him."""
    tournament = played_in(player, club, "Concours ouvert", 1, status="finished")
    team = Competitor.objects.get(tournament=tournament, players=player)
    partner = team.players.exclude(pk=player.pk).get()
    team.name = "Bérard – Durand1"
    team.save()
    if how == "opted out":
        partner.public_history = False
    else:
        # As the anonymisation leaves them, a number in place of the name: not named either.
        partner.anonymised_at = timezone.now()
    partner.save()
    body = client.get(reverse("player_public", args=[player.pk])).content.decode()
    assert "Concours ouvert" in body and "Jeanne Bérard" in body
    assert "Durand" not in body and "Joueur non affiché" in body
    [played] = player_history(player, public_only=True)
    assert played.partners == ["Joueur non affiché"]
    assert played.competitor_name == "Jeanne Bérard / Joueur non affiché"
    [organisers] = player_history(player)
    assert organisers.partners == ["Paul Durand1"] and organisers.competitor_name == "Bérard – Durand1"


def test_a_partner_who_shows_their_history_is_still_named(player: Player, club: Club, client: Client) -> None:
    played_in(player, club, "Concours ouvert", 1, status="finished")
    body = client.get(reverse("player_public", args=[player.pk])).content.decode()
    assert "Paul Durand1" in body and "Joueur non affiché" not in body
