"""What the services share: how they refuse, and small reads about a tournament's state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import Max

from tournaments import games
from tournaments.models import Tournament
from tournaments.signals import standings_refresh_requested

Status = Tournament.Status
Errors = dict[str, list[str]]
# Messages of which some carry a code and params (a ValidationError), by field.
Refusals = dict[str, list[str | ValidationError]]
# Competitors per table, by tournament format (a team is one competitor), for the games
# played at one table size.
TABLE_SIZES = {"teams": 2, "melee": 4, "individual": 3}


def raise_errors(errors: Mapping[str, Sequence[str | ValidationError]]) -> None:
    if errors:
        raise ValidationError(dict(errors))


def refusal(message: str, field: str = NON_FIELD_ERRORS) -> ValidationError:
    return ValidationError({field: [message]})


def refresh_standings_after_commit(tournament: Tournament) -> None:
    """Byes, forfeits and withdrawals change the ranking: ask for it once this commits."""
    tournament_id = tournament.pk
    transaction.on_commit(lambda: standings_refresh_requested.send(sender=Tournament, tournament_id=tournament_id))


def table_sizes(tournament: Tournament) -> tuple[int, ...]:
    """The table sizes the draw may seat, the first preferred first; empty for a game at
    one table size. Tarot à 4 and à 5: tables of 4 then 5, or 5 then 4, as the
    tournament's seating says, and 3 last when it allows tables of 3."""
    return games.table_sizes(tournament.game, tournament.table_preference, tournament.allow_tables_of_three)


def table_size(tournament: Tournament) -> int:
    """The fewest competitors that fill one table of the tournament."""
    return min(table_sizes(tournament) or (TABLE_SIZES[tournament.format],))


def status_label(status: str) -> str:
    try:
        return str(Status(status).label)
    except ValueError:
        return status


def last_round_number(tournament: Tournament) -> int:
    return tournament.rounds.aggregate(n=Max("number"))["n"] or 0
