"""Builders for the scoring tests: a drawn table of each game, and sound hands to enter.

Personas: the *referee* holds a table's link (no account); the *director* organises the
tournament's club; an *outsider* is logged in but organises another club.
"""

from __future__ import annotations

from typing import Any

from scoring.models import Hand
from tests.factories import ClubFactory, TournamentFactory, UserFactory, competitors_for, round_with_tables
from tournaments.models import Table, Tournament

FORMATS = {
    "belote_classique": ("teams", 2),
    "belote_moderne": ("teams", 2),
    "belote_contree": ("teams", 2),
    "belote_a_trois": ("individual", 3),
    "tarot_a_trois": ("individual", 3),
}

# One sound hand per game, with its score, for the tests that need "a hand".
SOUND_HANDS: dict[str, tuple[dict[str, Any], list[int]]] = {
    "belote_classique": ({"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}, [102, 60]),
    "belote_moderne": ({"taker": "A", "contract": "sans_atout", "points": {"A": 80, "B": 50}}, [160, 100]),
    "belote_contree": (
        {"taker": "A", "bid": 110, "contract": "hearts", "coinche": 0, "points": {"A": 113, "B": 49}},
        [220, 50],
    ),
    "belote_a_trois": ({"taker": 0, "contract": "spades", "points": [80, 50, 20]}, [80, 50, 20]),
    "tarot_a_trois": ({"taker": 0, "contract": "garde", "oudlers": 2, "points": 45.5}, [120, -60, -60]),
}

LITIGE = {"taker": "A", "contract": "hearts", "points": {"A": 81, "B": 81}}


def make_table(
    game: str = "belote_classique",
    *,
    end_rule: str = "donnes",
    end_value: int = 12,
    confirmation: bool = False,
    rule_options: dict[str, Any] | None = None,
    tables: int = 1,
) -> Table:
    """The first table of round 1 of a new tournament of `game` (`tables` tables drawn)."""
    format_, per_table = FORMATS[game]
    tournament = TournamentFactory(
        game=game,
        format=format_,
        end_rule=end_rule,
        end_value=end_value,
        confirmation_required=confirmation,
        rule_options=rule_options or {},
        status="running",
    )
    rnd = round_with_tables(tournament, competitors_for(tournament, per_table * tables))
    return Table.objects.select_related("round__tournament").get(round=rnd, number=1)


def director_of(tournament: Tournament) -> Any:
    user = UserFactory()
    tournament.club.organisers.add(user)
    return user


def outsider() -> Any:
    user = UserFactory()
    ClubFactory().organisers.add(user)
    return user


def numbers(table: Table) -> list[int]:
    return list(Hand.objects.filter(table=table).order_by("number").values_list("number", flat=True))
