"""The bridge between a table's stored hands and the engine's partie (engine.match).

Terms (partie, side, counted hands, confirmed prefix): docs/glossary.md. The tournament's
end rule is `end_rule`/`end_value`. A seat's `side` is an index into the game's `sides`;
`Hand.scores`, `TableResult.totals` and `TableResult.winner_side` all use that order.

`table_result_refresh` is the one place that writes a TableResult from hands; every
service that changes a table's hands calls it inside its transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction

import engine
from engine.core import Game, HandScore, OptionError, RuleError
from engine.match import End, MatchResult, play
from scoring.models import Hand, TableResult
from tournaments.models import Table, Tournament


def tournament_game(tournament: Tournament) -> Game:
    return engine.get_game(tournament.game)


def tournament_end(tournament: Tournament) -> End:
    """The End of every partie of the tournament, from its end rule and value."""
    if tournament.end_rule == Tournament.EndRule.TARGET:
        return End(target=tournament.end_value)
    return End(donnes=tournament.end_value)


def tournament_options(tournament: Tournament) -> dict[str, Any]:
    """The tournament's rule options, every one resolved (raises engine OptionError)."""
    return tournament_game(tournament).resolve_options(tournament.rule_options or {})


def tournament_options_or_defaults(tournament: Tournament) -> dict[str, Any]:
    """The options for showing a form: the tournament's, or the defaults when they are wrong.

    Wrong stored options are the director's to fix; pages still show, and the services
    refuse to score with them and say so.
    """
    try:
        return tournament_options(tournament)
    except OptionError:
        return tournament_game(tournament).resolve_options({})


def partie_play(tournament: Tournament, raws: Sequence[Any]) -> MatchResult:
    """The engine's partie over `raws` (hands as entered, in donne order)."""
    return play(tournament_game(tournament), list(raws), tournament_end(tournament), tournament_options(tournament))


def hand_errors(result: MatchResult, index: int) -> list[RuleError]:
    """The errors of hand `index` of a partie, their fields relative to that hand."""
    prefix = f"hands.{index}"
    own: list[RuleError] = []
    for error in result.errors:
        if error.field == prefix:
            own.append(RuleError("", error.code, error.template, error.params))
        elif error.field.startswith(prefix + "."):
            own.append(RuleError(error.field[len(prefix) + 1 :], error.code, error.template, error.params))
    return own


def counted_hands(tournament: Tournament, hands: Iterable[Hand]) -> list[Hand]:
    """The hands that count for the standings (all, or the confirmed prefix)."""
    ordered = sorted(hands, key=lambda hand: hand.number)
    if not tournament.confirmation_required:
        return ordered
    counted: list[Hand] = []
    for hand in ordered:
        if hand.status != Hand.Status.CONFIRMED:
            break
        counted.append(hand)
    return counted


def score_fields(score: HandScore, reserve_in: int) -> dict[str, Any]:
    """A HandScore as the Hand columns that store it (JSON-ready: tuples become lists)."""
    return {
        "scores": list(score.scores),
        "outcome": score.outcome,
        "reserve_in": reserve_in,
        "reserve_out": score.reserve_out,
        "extra": {key: list(value) if isinstance(value, tuple) else value for key, value in score.extra.items()},
    }


def winner_index(game: Game, winner: object) -> int | None:
    return None if winner is None else game.sides.index(winner)  # type: ignore[arg-type]


def _result_values(result: TableResult) -> tuple[Any, ...]:
    return (result.totals, result.donnes_played, result.reserve, result.finished, result.winner_side)


@transaction.atomic(savepoint=False)
def table_result_refresh(table: Table, hands: Iterable[Hand] | None = None) -> TableResult:
    """Rewrite the table's TableResult from its counted hands and return it.

    `hands`, when given, are all the table's hands as stored now (a caller that holds
    them saves a query). A result the director forced (`forced`) is left as it is: the
    director's decision outranks the hands until they lift it.
    """
    return table_result_write(table, hands)[0]


def table_result_write(table: Table, hands: Iterable[Hand] | None = None) -> tuple[TableResult, bool]:
    """`table_result_refresh`, also saying whether the result changed (the standings care).

    The services call it inside their transaction, after they locked the table row, so
    two writers never interleave here.
    """
    tournament = table.round.tournament
    game = tournament_game(tournament)
    hands = counted_hands(tournament, Hand.objects.filter(table=table) if hands is None else hands)
    result = partie_play(tournament, [hand.raw for hand in hands])
    stored, created = TableResult.objects.get_or_create(table=table, defaults={"totals": [0] * len(game.sides)})
    if stored.forced:
        return stored, False
    before = None if created else _result_values(stored)
    stored.totals = list(result.totals)
    stored.donnes_played = result.donnes_played
    stored.reserve = result.reserve
    stored.finished = result.finished
    stored.winner_side = winner_index(game, result.winner)
    changed = created or before != _result_values(stored)
    if changed:
        stored.save()
    return stored, changed
