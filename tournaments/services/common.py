"""What the services share: how they refuse, and small reads about a tournament's state."""

from __future__ import annotations

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import Max

from tournaments.models import Tournament
from tournaments.signals import standings_refresh_requested

Status = Tournament.Status
Errors = dict[str, list[str]]
# Competitors per table, by tournament format (a team is one competitor).
TABLE_SIZES = {"teams": 2, "melee": 4, "individual": 3}
# The games played at tables of several sizes, the sizes in order of preference: a tarot
# à 4 evening seats tables of 4, and of 5 where the count does not divide by 4.
GAME_TABLE_SIZES = {"tarot_a_quatre": (4, 5), "tarot_a_cinq": (5, 4)}


def raise_errors(errors: Errors) -> None:
    if errors:
        raise ValidationError(errors)


def refusal(message: str, field: str = NON_FIELD_ERRORS) -> ValidationError:
    return ValidationError({field: [message]})


def refresh_standings_after_commit(tournament: Tournament) -> None:
    """Byes, forfeits and withdrawals change the ranking: ask for it once this commits."""
    tournament_id = tournament.pk
    transaction.on_commit(lambda: standings_refresh_requested.send(sender=Tournament, tournament_id=tournament_id))


def table_size(tournament: Tournament) -> int:
    """The fewest competitors that fill one table of the tournament."""
    return min(GAME_TABLE_SIZES.get(tournament.game, (TABLE_SIZES[tournament.format],)))


def status_label(status: str) -> str:
    try:
        return str(Status(status).label)
    except ValueError:
        return status


def last_round_number(tournament: Tournament) -> int:
    return tournament.rounds.aggregate(n=Max("number"))["n"] or 0
