"""One reading of a partie: how a table's stored hands make its result, and its one writer.

Terms (docs/glossary.md has the others):

- *partie*: the donnes played at one table in one round, ended by the tournament's end
  rule (`end_rule`/`end_value`: a number of donnes, or a target score).
- *side*: a seat's `side` is an index into the game's `sides` (0 -> "A", 1 -> "B" for
  belote at four; 0, 1, 2 for the games for three). `Hand.scores`, `TableResult.totals`
  and `TableResult.winner_side` all use that index order.
- *counted hands*: the hands that count for the standings. Without confirmation every
  stored hand counts; when the tournament asks the other side to confirm each hand, only
  the *confirmed prefix* does: the hands in donne order up to the first one still
  waiting, so a partie's result never skips a donne whose score is not yet agreed.

Each rule has one home here, and every other module reads it from here:

- the game a table plays: `table_game` (`game_for_seats` from its seat count, by
  tournaments.games.table_game_code): tarot is played at three, four and five, and a
  tarot tournament's table plays the tarot of its seat count, a table of five at tarot à
  4 playing tarot à 4 with a mort when the tournament's `table_de_cinq` is `mort`; every
  other table plays the tournament's game;
- the engine's partie with the tournament's end and options: `tournament_end`,
  `table_end` (longer at a table with a mort), `tournament_options`, `partie_play`
  (`partie_or_none` for the pages);
- which hands count: `counted_count`;
- how a hand's score is stored: `score_fields`, `scored_fields` (`SCORE_FIELDS`);
- the winner as a side index: `winner_index`, and `forced_winner` at a forced close;
- the table result of a partie: `result_fields` (`RESULT_FIELDS`), of the counted hands:
  `counted_result`.

This module is also the only one that writes a TableResult: `table_result_write` from a
table's hands (every service that changes them calls it inside its transaction),
`table_result_force` when a round is closed with the table still playing,
`table_result_restore` from an archive, and `table_results_write` for a re-scoring job.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, TypedDict

from django.db import connection, transaction
from django.utils import timezone

import engine
from engine import match
from engine.core import Game, HandScore, Number, OptionError, RuleError, Side
from engine.match import End, MatchResult, end_at_table
from kit import fastjson
from scoring.models import Hand, TableResult
from scoring.pg import server_bound_cursor
from scoring.standings.base import base_forget
from tournaments import games
from tournaments.models import Competitor, Round, Table, Tournament


class ScoreFields(TypedDict):
    """A hand's score as the Hand columns store it (`score_fields`)."""

    scores: list[Number]  # by side index
    outcome: str
    reserve_in: int
    reserve_out: int
    extra: dict[str, Any]  # what the game adds (engine.core.HandScore.extra), tuples as lists


class ResultFields(TypedDict):
    """A partie as the TableResult columns store it (`result_fields`)."""

    totals: list[Number]  # by side index
    donnes_played: int
    reserve: int
    finished: bool
    winner_side: int | None


ScoreField = Literal["scores", "outcome", "reserve_in", "reserve_out", "extra"]
SCORE_FIELDS: tuple[ScoreField, ...] = ("scores", "outcome", "reserve_in", "reserve_out", "extra")
RESULT_FIELDS = ("totals", "donnes_played", "reserve", "finished", "winner_side")

# -- the engine's partie, with the tournament's rules ---------------------------------


def tournament_game(tournament: Tournament) -> Game:
    return engine.get_game(tournament.game)


def game_for_seats(tournament: Tournament, seats: int) -> Game:
    """The engine game of a table of `seats` competitors in `tournament`
    (tournaments.games.table_game_code: the tarot of the seat count, a table of five at
    tarot à 4 playing with a mort when the tournament says so)."""
    return engine.get_game(games.table_game_code(tournament.game, seats, tournament.table_de_cinq))


def table_game(table: Table) -> Game:
    """The engine game `table` plays (its seats are counted for tarot, prefetched or not)."""
    tournament = table.round.tournament
    if tournament.game not in games.TAROT_BY_SEATS.values():
        return tournament_game(tournament)
    return game_for_seats(tournament, len(table.seats.all()))


def table_end(tournament: Tournament, game: Game) -> End:
    """The End of a partie at a table of `game`: the tournament's, longer where a mort sits
    out each donne (engine.match.end_at_table)."""
    return end_at_table(game, tournament_end(tournament))


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


def partie_play(tournament: Tournament, raws: Sequence[Any], game: Game | None = None) -> MatchResult:
    """The engine's partie over `raws` (hands as entered, in donne order) of `game`, the
    table's (`table_game`; the tournament's when not given)."""
    game = game or tournament_game(tournament)
    end, options = table_end(tournament, game), tournament_options(tournament)
    return match.play(game, list(raws), end, options)


def partie_or_none(tournament: Tournament, raws: Sequence[Any], game: Game | None = None) -> MatchResult | None:
    """`partie_play` for the pages: None when the tournament's options are wrong (see above)."""
    try:
        return partie_play(tournament, raws, game)
    except OptionError:
        return None


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


# -- which hands count ------------------------------------------------------------------


def counted_count(confirmation_required: bool, statuses: Iterable[str]) -> int:
    """How many of a table's hands count, given their statuses in donne order.

    All of them; or, when the tournament asks for confirmation, the confirmed prefix.
    """
    count = 0
    for status in statuses:
        if confirmation_required and status != Hand.Status.CONFIRMED:
            break
        count += 1
    return count


def counted_result(played: MatchResult, confirmation_required: bool, statuses: Iterable[str]) -> MatchResult:
    """The partie of the counted hands, from `played`: the partie of all of them, in order."""
    return played.prefix(counted_count(confirmation_required, statuses))


# -- how a hand's score is stored -------------------------------------------------------


def score_fields(score: HandScore, reserve_in: int) -> ScoreFields:
    """A HandScore as the Hand columns that store it (JSON-ready: tuples become lists)."""
    return {
        "scores": list(score.scores),
        "outcome": score.outcome,
        "reserve_in": reserve_in,
        "reserve_out": score.reserve_out,
        "extra": {key: list(value) if isinstance(value, tuple) else value for key, value in score.extra.items()},
    }


def scored_fields(result: MatchResult) -> list[ScoreFields]:
    """The stored fields of every hand the partie scored, in order (each takes the reserve
    the one before left)."""
    fields: list[ScoreFields] = []
    reserve = 0
    for score in result.scores:
        fields.append(score_fields(score, reserve))
        reserve = score.reserve_out
    return fields


# -- the winner and the table result ----------------------------------------------------


def winner_index(game: Game, winner: Side | None) -> int | None:
    """The winner as a side index (None: no winner)."""
    return None if winner is None else game.sides.index(winner)


def forced_winner(totals: Sequence[Number], forfeits: Iterable[int], sides: int) -> int | None:
    """The winner of a partie ended as it stands: the sides still there decide.

    A side with a withdrawn competitor loses by forfeit (*forfait*). A side left alone by
    forfeits wins whatever the points; otherwise the most points win among the sides
    still there, and a tie has no winner.
    """
    totals = (list(totals) + [0] * sides)[:sides]
    out = set(forfeits)
    standing = [side for side in range(sides) if side not in out]
    if len(standing) <= 1:
        return standing[0] if standing else None
    best = max(totals[side] for side in standing)
    leaders = [side for side in standing if totals[side] == best]
    return leaders[0] if len(leaders) == 1 else None


def result_fields(game: Game, result: MatchResult) -> ResultFields:
    """A partie as the TableResult columns that store it."""
    return {
        "totals": list(result.totals),
        "donnes_played": result.donnes_played,
        "reserve": result.reserve,
        "finished": result.finished,
        "winner_side": winner_index(game, result.winner),
    }


# -- the writers of TableResult ---------------------------------------------------------


@transaction.atomic(savepoint=False)
def table_result_refresh(table: Table, hands: Iterable[Hand] | None = None) -> TableResult:
    """Rewrite the table's TableResult from its counted hands and return it.

    `hands`, when given, are all the table's hands as stored now (a caller that holds
    them saves a query). A result the director forced (`forced`) is left as it is: the
    director's decision outranks the hands until they lift it.
    """
    return table_result_write(table, hands)[0]


@transaction.atomic(savepoint=False)
def table_result_write(
    table: Table, hands: Iterable[Hand] | None = None, played: MatchResult | None = None
) -> tuple[TableResult, bool]:
    """`table_result_refresh`, also saying whether the result changed (the standings care).

    `played`, when given, is the engine's partie of all those hands, in donne order (a
    service that just played it saves a second play). The services call this inside
    their transaction, after they locked the table row, so two writers never interleave.
    """
    tournament = table.round.tournament
    game = table_game(table)
    ordered = sorted(Hand.objects.filter(table=table) if hands is None else hands, key=lambda hand: hand.number)
    if played is None:
        played = partie_play(tournament, [hand.raw for hand in ordered], game)
    counted = counted_result(played, tournament.confirmation_required, (hand.status for hand in ordered))
    fields = result_fields(game, counted)
    stored, created = TableResult.objects.get_or_create(table=table, defaults=fields)
    if created:
        _closed_round_changed(table)
        return stored, True
    if stored.forced or all(getattr(stored, name) == value for name, value in fields.items()):
        return stored, False
    for name, value in fields.items():
        setattr(stored, name, value)
    stored.save()
    _closed_round_changed(table)
    return stored, True


def _closed_round_changed(table: Table) -> None:
    """A result of a round no longer in play changed: the ranking's stored totals of the
    closed rounds (scoring/standings/base.py) no longer hold."""
    if table.round.status != Round.Status.OPEN:
        base_forget(tournament_id=table.round.tournament_id)


@transaction.atomic(savepoint=False)
def table_result_force(*, table: Table, stored: TableResult | None = None) -> TableResult:
    """End the table's partie as it stands: a round closed with the table still playing.

    The totals stay, the winner is `forced_winner`'s (the seats and their competitors
    are read from `table`, prefetched by a caller that closes many). The result is
    `forced`: the hands no longer change it.
    """
    sides = len(table_game(table).sides)
    result = stored if stored is not None else TableResult(table=table, totals=[0] * sides)
    forfeits = {seat.side for seat in table.seats.all() if seat.competitor.status == Competitor.Status.WITHDRAWN}
    result.winner_side = forced_winner(result.totals or [], forfeits, sides)
    result.finished = result.forced = True
    result.save()
    _closed_round_changed(table)
    return result


@transaction.atomic(savepoint=False)
def table_result_restore(*, table: Table, fields: Mapping[str, Any]) -> bool:
    """Store a table's result as an archive holds it, its time of change included.

    Returns whether the result was created (the table had none).
    """
    values = {name: value for name, value in fields.items() if name != "updated_at"}
    base_forget(tournament_id=table.round.tournament_id)
    _stored, created = TableResult.objects.update_or_create(table=table, defaults=values)
    if "updated_at" in fields:
        # An update, not a save: the archive's time stays (auto_now does not run).
        TableResult.objects.filter(table=table).update(updated_at=fields["updated_at"])
    return created


PG_WRITE_RESULTS = """
    UPDATE {result} AS r
       SET totals = v.totals, donnes_played = v.donnes_played, reserve = v.reserve,
           finished = v.finished, winner_side = v.winner_side, updated_at = %s
      FROM jsonb_to_recordset(%s::jsonb)
           AS v(table_id bigint, totals jsonb, donnes_played int, reserve int, finished bool, winner_side int)
     WHERE r.table_id = v.table_id AND NOT r.forced
       AND (r.totals IS DISTINCT FROM v.totals OR r.donnes_played <> v.donnes_played
            OR r.reserve <> v.reserve OR r.finished <> v.finished
            OR r.winner_side IS DISTINCT FROM v.winner_side)
"""


def table_results_write(by_table: Mapping[int, ResultFields]) -> None:
    """Rewrite many tables' results at once (`result_fields` by table id): a re-scoring.

    Results are created where missing; of the others, those that changed are rewritten,
    except those the director forced. On PostgreSQL one statement compares and writes.
    """
    if not by_table:
        return
    # Results of closed rounds change: the ranking's stored totals no longer hold.
    for tournament_id in set(
        Table.objects.filter(pk__in=list(by_table)).values_list("round__tournament_id", flat=True).distinct()
    ):
        base_forget(tournament_id=tournament_id)
    existing = set(TableResult.objects.filter(table_id__in=list(by_table)).values_list("table_id", flat=True))
    missing = [table_id for table_id in by_table if table_id not in existing]
    if missing:
        TableResult.objects.bulk_create([TableResult(table_id=t, **by_table[t]) for t in missing])
    update = [table_id for table_id in by_table if table_id in existing]
    now = timezone.now()
    if connection.vendor == "postgresql":
        with server_bound_cursor() as cursor:
            rows = fastjson.dumps([{"table_id": table_id, **by_table[table_id]} for table_id in update])
            cursor.execute(PG_WRITE_RESULTS.format(result=TableResult._meta.db_table), [now, rows])
        return
    forced = set(TableResult.objects.filter(table_id__in=update, forced=True).values_list("table_id", flat=True))
    TableResult.objects.bulk_update(
        [TableResult(table_id=t, updated_at=now, **by_table[t]) for t in update if t not in forced],
        [*RESULT_FIELDS, "updated_at"],
        batch_size=500,
    )
