"""`manage.py demo`: the demo organiser, the demo club, and the tournaments to look at.

- the organiser demo / demo-atout, organiser of the club "Belote Club de Démo";
- the club's players (some from two visiting clubs, as on a real concours night);
- a belote concours of 24 teams, all checked in, running, with round 1 drawn;
- a tarot à 3 evening with its players registered, not started;
- a belote contrée concours of 16 teams, running, with round 1 drawn;
- a tarot à 4 evening of 22 players, running, with round 1 drawn at tables of 4 and 5;
- last month's belote concours of 12 teams, its 3 rounds played and closed, finished: the
  players' Atout ratings come from it, so the Saint-Nicolas can draw round 1 by rating.

Everything goes through the services a director uses. Idempotent: running it again finds
what it made and adds nothing (the club and each tournament are looked up by name).
"""

from __future__ import annotations

import datetime
import io
import itertools
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from rounds.services import round_close, round_draw
from tournaments import services
from tournaments.demo import (
    CLUB_NAME,
    CLUB_SLUG,
    CONCOURS_NAME,
    CONTREE_NAME,
    DEMO_PASSWORD,
    DEMO_USERNAME,
    FINISHED_NAME,
    TAROT_A_QUATRE_NAME,
    TAROT_NAME,
)
from tournaments.models import Club, Membership, Player, Tournament

CONCOURS_TEAMS = 24
FINISHED_TEAMS = 12
FINISHED_ROUNDS = 3
CONTREE_TEAMS = 16
TAROT_PLAYERS = 10
TAROT_A_QUATRE_PLAYERS = 22
# A fixed seed: the demo's round 1 is the same draw on every machine.
CONCOURS_SEED = 2026

LAST_NAMES = [
    "Martin",
    "Bernard",
    "Dubois",
    "Thomas",
    "Robert",
    "Richard",
    "Petit",
    "Durand",
    "Leroy",
    "Moreau",
    "Simon",
    "Laurent",
    "Lefebvre",
    "Michel",
    "Garcia",
    "David",
    "Bertrand",
    "Roux",
    "Vincent",
    "Fournier",
    "Morel",
    "Girard",
    "André",
    "Lefèvre",
    "Mercier",
    "Dupont",
    "Lambert",
    "Bonnet",
    "François",
    "Martinez",
    "Legrand",
    "Garnier",
    "Faure",
    "Rousseau",
    "Blanc",
    "Guérin",
    "Muller",
    "Henry",
    "Roussel",
    "Nicolas",
    "Perrin",
    "Morin",
    "Mathieu",
    "Clément",
    "Gauthier",
    "Dumont",
    "Lopez",
    "Fontaine",
    "Chevalier",
    "Robin",
    "Masson",
    "Sanchez",
    "Gérard",
    "Nguyen",
    "Boyer",
    "Denis",
    "Lemaire",
    "Duval",
    "Joly",
    "Gautier",
    "Roger",
    "Roche",
]
FIRST_NAMES = [
    "Jean",
    "Marie",
    "Pierre",
    "Monique",
    "Michel",
    "Nicole",
    "Daniel",
    "Françoise",
    "Alain",
    "Christiane",
    "Bernard",
    "Josette",
    "Gérard",
    "Colette",
    "Claude",
    "Simone",
    "Jacques",
    "Odette",
    "René",
    "Yvette",
    "André",
    "Paulette",
    "Henri",
    "Ginette",
    "Robert",
    "Jeannine",
]
# Two teams in three come from visiting clubs, eight teams a club: round 1 can keep every
# club apart, as the concours asks (separate_clubs_rounds=1).
VISITING = ("", "Amicale belote de Millau", "ABC Albi")


def other_partners(players: list[Player]) -> list[tuple[Player, Player]]:
    """Teams other than the Saint-Nicolas ones: each player with the one two places on."""
    return list(zip(players[0::4] + players[1::4], players[2::4] + players[3::4], strict=True))


class Command(BaseCommand):
    help = "Create the demo organiser, club, players and tournaments. Safe to run again."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user = self._organiser()
        club, created = Club.objects.get_or_create(slug=CLUB_SLUG, defaults={"name": CLUB_NAME})
        club.organisers.add(user, through_defaults={"role": Membership.Role.ADMIN})
        if created:
            self.stdout.write(f"created the demo club {CLUB_NAME}")
        players = self._players(club, user)
        self._finished(club, user, players[: FINISHED_TEAMS * 2])
        self._concours(club, user, players[: CONCOURS_TEAMS * 2])
        self._tarot(club, user, players[CONCOURS_TEAMS * 2 : CONCOURS_TEAMS * 2 + TAROT_PLAYERS])
        self._contree(club, user, players[: CONTREE_TEAMS * 2])
        self._tarot_a_quatre(club, user, players[:TAROT_A_QUATRE_PLAYERS])

    def _organiser(self) -> User:
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True, "first_name": "Demo"}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
            self.stdout.write(f"created the demo organiser {DEMO_USERNAME}")
        else:
            self.stdout.write(f"the demo organiser {DEMO_USERNAME} already exists")
        return user

    def _players(self, club: Club, user: User) -> list[Player]:
        wanted = CONCOURS_TEAMS * 2 + TAROT_PLAYERS
        existing = list(club.players.order_by("pk"))
        if len(existing) >= wanted:
            return existing[:wanted]
        names = itertools.islice(zip(itertools.cycle(FIRST_NAMES), LAST_NAMES, strict=False), wanted)
        for index, (first, last) in enumerate(names):
            if index < len(existing):
                continue
            # Both players of a team share the visiting club, if any.
            affiliation = VISITING[(index // 2) % len(VISITING)] if index < CONCOURS_TEAMS * 2 else ""
            services.player_create(
                by=user,
                club=club,
                last_name=last,
                first_name=first,
                licence=f"{2_400_000 + index:07d}",
                affiliation=affiliation,
            )
        self.stdout.write(f"created {wanted - len(existing)} demo players")
        return list(club.players.order_by("pk"))[:wanted]

    def _finished(self, club: Club, user: User, players: list[Player]) -> None:
        """Last month's concours, each donne entered through the referee's service
        (`simulate_round`), its rounds closed and the tournament finished."""
        if Tournament.objects.filter(club=club, name=FINISHED_NAME).exists():
            self.stdout.write(f"the finished demo concours {FINISHED_NAME!r} already exists")
            return
        finished = services.tournament_create(
            by=user,
            club=club,
            name=FINISHED_NAME,
            date=timezone.localdate() - datetime.timedelta(days=8),
            game="belote_classique",
            format="teams",
            rounds_planned=FINISHED_ROUNDS,
            pairing_method="swiss",
        )
        services.tournament_set_status(by=user, tournament=finished, status="registration")
        for first, second in other_partners(players):
            services.competitor_register(by=user, tournament=finished, players=[first, second], checked_in=True)
        services.tournament_set_status(by=user, tournament=finished, status="running")
        for number in range(1, FINISHED_ROUNDS + 1):
            rnd = round_draw(by=user, tournament=finished, seed=CONCOURS_SEED + number)
            call_command("simulate_round", finished.slug, "--round", str(number), stdout=io.StringIO())
            round_close(by=user, round=rnd)
        services.tournament_set_status(by=user, tournament=finished, status="finished")
        self.stdout.write(f"created the finished demo concours {FINISHED_NAME!r}: {FINISHED_TEAMS} teams, 3 rounds")

    def _concours(self, club: Club, user: User, players: list[Player]) -> None:
        if Tournament.objects.filter(club=club, name=CONCOURS_NAME).exists():
            self.stdout.write(f"the demo concours {CONCOURS_NAME!r} already exists")
            return
        concours = services.tournament_create(
            by=user,
            club=club,
            name=CONCOURS_NAME,
            date=timezone.localdate(),
            game="belote_classique",
            format="teams",
            rounds_planned=4,
            pairing_method="swiss",
            separate_clubs_rounds=1,
        )
        services.tournament_set_status(by=user, tournament=concours, status="registration")
        for first, second in zip(players[0::2], players[1::2], strict=True):
            services.competitor_register(by=user, tournament=concours, players=[first, second], checked_in=True)
        services.tournament_set_status(by=user, tournament=concours, status="running")
        round_draw(by=user, tournament=concours, seed=CONCOURS_SEED)
        self.stdout.write(f"created the demo concours {CONCOURS_NAME!r}: {CONCOURS_TEAMS} teams, round 1 drawn")

    def _contree(self, club: Club, user: User, players: list[Player]) -> None:
        """A belote contrée concours of 16 teams a week later, running with round 1 drawn
        (the club's regulars: the same players as the Saint-Nicolas, other teams)."""
        if Tournament.objects.filter(club=club, name=CONTREE_NAME).exists():
            self.stdout.write(f"the demo contrée concours {CONTREE_NAME!r} already exists")
            return
        contree = services.tournament_create(
            by=user,
            club=club,
            name=CONTREE_NAME,
            date=timezone.localdate() + datetime.timedelta(days=14),
            game="belote_contree",
            format="teams",
            rounds_planned=4,
            pairing_method="swiss",
        )
        services.tournament_set_status(by=user, tournament=contree, status="registration")
        for first, second in other_partners(players):
            services.competitor_register(by=user, tournament=contree, players=[first, second], checked_in=True)
        services.tournament_set_status(by=user, tournament=contree, status="running")
        round_draw(by=user, tournament=contree, seed=CONCOURS_SEED)
        self.stdout.write(f"created the demo contrée concours {CONTREE_NAME!r}: {CONTREE_TEAMS} teams, round 1 drawn")

    def _tarot(self, club: Club, user: User, players: list[Player]) -> None:
        if Tournament.objects.filter(club=club, name=TAROT_NAME).exists():
            self.stdout.write(f"the demo tarot evening {TAROT_NAME!r} already exists")
            return
        tarot = services.tournament_create(
            by=user,
            club=club,
            name=TAROT_NAME,
            date=timezone.localdate() + datetime.timedelta(days=7),
            game="tarot_a_trois",
            rounds_planned=3,
        )
        services.tournament_set_status(by=user, tournament=tarot, status="registration")
        for player in players:
            services.competitor_register(by=user, tournament=tarot, players=[player])
        self.stdout.write(f"created the demo tarot evening {TAROT_NAME!r}: {len(players)} players registered")

    def _tarot_a_quatre(self, club: Club, user: User, players: list[Player]) -> None:
        """The club's tarot evening at four, 22 players: round 1 seats three tables of 4
        and two of 5 (the regulars of the Saint-Nicolas, each on their own)."""
        if Tournament.objects.filter(club=club, name=TAROT_A_QUATRE_NAME).exists():
            self.stdout.write(f"the demo tarot evening {TAROT_A_QUATRE_NAME!r} already exists")
            return
        tarot = services.tournament_create(
            by=user,
            club=club,
            name=TAROT_A_QUATRE_NAME,
            date=timezone.localdate() + datetime.timedelta(days=3),
            game="tarot_a_quatre",
            rounds_planned=3,
        )
        services.tournament_set_status(by=user, tournament=tarot, status="registration")
        for player in players:
            services.competitor_register(by=user, tournament=tarot, players=[player], checked_in=True)
        services.tournament_set_status(by=user, tournament=tarot, status="running")
        round_draw(by=user, tournament=tarot, seed=CONCOURS_SEED)
        self.stdout.write(
            f"created the demo tarot evening {TAROT_A_QUATRE_NAME!r}: {len(players)} players, round 1 drawn"
        )
