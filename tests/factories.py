"""factory_boy factories and small builders shared by the Django tests."""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth import get_user_model

from tournaments.models import Club, Competitor, Player, Round, Seat, Table, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    # Hashed before the user is saved: a post-generation set_password would stay unsaved
    # (skip_postgeneration_save), and a session opened for that user would not survive.
    password = factory.django.Password("secret-pass-123")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    last_name = factory.Sequence(lambda n: f"Nom{n}")
    first_name = factory.Sequence(lambda n: f"Prénom{n}")
    licence = factory.Sequence(lambda n: f"L{n:06d}")
    email = factory.LazyAttribute(lambda p: f"{p.first_name}.{p.last_name}@example.org".lower())
    phone = "06 12 34 56 78"


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Concours {n}")
    slug = factory.Sequence(lambda n: f"concours-{n}")
    date = factory.LazyFunction(lambda: datetime.date(2026, 12, 5))
    game = "belote_classique"
    format = "teams"
    rounds_planned = 4
    end_rule = "donnes"
    end_value = 12
    status = "registration"


class CompetitorFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Competitor
        skip_postgeneration_save = True

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)
    name = factory.Sequence(lambda n: f"Équipe {n + 1}")
    status = "checked_in"

    @factory.post_generation
    def players(self, create: bool, extracted: list[Player] | None, **kwargs: object) -> None:
        if not create:
            return
        if extracted is None:
            size = 2 if self.tournament.format == "teams" else 1
            extracted = PlayerFactory.create_batch(size, club=self.tournament.club)
        self.players.set(extracted)


def competitors_for(tournament: Tournament, count: int) -> list[Competitor]:
    return [CompetitorFactory(tournament=tournament, number=i + 1, name=f"C{i + 1}") for i in range(count)]


def round_with_tables(tournament: Tournament, competitors: list[Competitor], number: int = 1) -> Round:
    """A drawn round seating `competitors` in order, table after table (no pairing logic)."""
    rnd = Round.objects.create(tournament=tournament, number=number, method="random", seed=number)
    per_table = tournament.seats_per_table if tournament.format != "teams" else 2
    sides = tournament.sides_per_table
    positions = {"teams": ["N", "E"], "melee": ["N", "E", "S", "W"], "individual": ["1", "2", "3"]}[tournament.format]
    for index in range(len(competitors) // per_table):
        table = Table.objects.create(round=rnd, number=index + 1)
        group = competitors[index * per_table : (index + 1) * per_table]
        for seat_index, competitor in enumerate(group):
            Seat.objects.create(
                round=rnd, table=table, competitor=competitor, side=seat_index % sides, position=positions[seat_index]
            )
    return rnd
