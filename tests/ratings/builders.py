"""Builders for the ratings tests: a tournament whose round 1 tables have known results."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from scoring.models import TableResult
from tests.factories import (
    ClubFactory,
    CompetitorFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    round_with_tables,
)
from tournaments.models import Club, Competitor, Player, Round, Tournament

FORMAT_SIZE = {"teams": 2, "melee": 4, "individual": 3}


def played(
    results: Sequence[Sequence[int]],
    *,
    game: str = "belote_classique",
    format: str = "teams",
    status: str = "finished",
    day: int = 1,
    players: Sequence[Sequence[Player]] | None = None,
    club: Club | None = None,
    donnes: int = 12,
) -> Tournament:
    """A tournament with one closed round: table n's sides scored `results[n]` (no winner
    stored: the most points wins). `players`: each competitor's players, in seat order."""
    club = club or ClubFactory()
    tournament = TournamentFactory(club=club, game=game, format=format, status=status, date=datetime.date(2026, 3, day))
    size = FORMAT_SIZE[format]
    count = size * len(results)
    competitors = [
        CompetitorFactory(
            tournament=tournament,
            number=i + 1,
            name=f"C{i + 1}",
            **({"players": list(players[i])} if players is not None else {}),
        )
        for i in range(count)
    ]
    rnd = round_with_tables(tournament, competitors)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    for table, totals in zip(rnd.tables.order_by("number"), results, strict=True):
        TableResult.objects.create(table=table, totals=list(totals), donnes_played=donnes, finished=donnes > 0)
    return tournament


def team_players(competitors: Sequence[Competitor]) -> list[list[Player]]:
    return [list(c.players.order_by("pk")) for c in competitors]


def new_players(count: int, club: Club) -> list[Player]:
    return [PlayerFactory(club=club, first_name=f"J{i}", last_name=f"Joueur{i}") for i in range(count)]


def director_of(club: Club) -> object:
    user = UserFactory()
    club.organisers.add(user, through_defaults={"role": "organiser"})
    return user
