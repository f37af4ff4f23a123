"""Reads shared by the referee's and the director's pages: who sits where, the table
sheet, and the engine's opinion of an entry before it is sent.

Terms (side, table sheet, pending): docs/glossary.md. `SideInfo.index` is the seat's
`side`, `code` the engine's name for it ("A"/"B" or 0/1/2), `label` what the page shows
(a team's name, or the players of a side in mêlée). The sheet shows the partie *as
entered*: hands waiting for confirmation are on it, flagged, although they do not count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Count, QuerySet
from django.utils import timezone

from engine.core import HandScore, Number, RuleError, Side
from engine.match import MatchResult
from scoring.hand_words import HandWords, sheet_marks
from scoring.labels import bid_and_contract, outcome_label
from scoring.models import Hand, TableResult
from scoring.partie import game_for_seats, hand_errors, partie_or_none, table_game
from tournaments.models import Competitor, Player, Round, Seat, Table, Tournament
from tournaments.selectors import POSITION_LABELS


@dataclass(frozen=True)
class SideInfo:
    index: int
    code: Side
    label: str
    names: tuple[str, ...]
    positions: str

    @property
    def detail(self) -> str:
        """The players' names when they say more than the label (a team's members)."""
        joined = " & ".join(self.names)
        return "" if joined == self.label else joined


def table_sides(table: Table) -> list[SideInfo]:
    """The sides of a table in the game's order, named from its seats (one query)."""
    # One query in plain SQL: this runs on every request of the referee's page, and the
    # ORM would spend longer composing it than the database running it. A competitor
    # with several players comes back once per player. Only the models' own table names
    # are put in the SQL.
    seat, competitor, player = Seat._meta.db_table, Competitor._meta.db_table, Player._meta.db_table
    members = Competitor.players.through._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT s.side, s.position, c.id, c.name, p.first_name, p.last_name
            FROM {seat} s
            JOIN {competitor} c ON c.id = s.competitor_id
            LEFT JOIN {members} m ON m.competitor_id = c.id
            LEFT JOIN {player} p ON p.id = m.player_id
            WHERE s.table_id = %s
            ORDER BY s.side, s.position, p.last_name, p.first_name
            """,
            [table.pk],
        )
        rows = cursor.fetchall()
    seats: list[tuple[int, str, int, str]] = []
    players: dict[int, list[str]] = {}
    for side, position, competitor_id, name, first, last in rows:
        if competitor_id not in players:
            players[competitor_id] = []
            seats.append((side, position, competitor_id, name))
        if first is not None or last is not None:
            players[competitor_id].append(f"{first or ''} {last or ''}".strip())
    # The game by the seats just read (as table_game counts them, without its query).
    game = game_for_seats(table.round.tournament, len(seats))
    sides: list[SideInfo] = []
    for index, code in enumerate(game.sides):
        own = [seat for seat in seats if seat[0] == index]
        names = tuple(name for seat in own for name in players.get(seat[2], [])) or tuple(seat[3] for seat in own)
        label = " & ".join(seat[3] for seat in own) if own else str(code)
        # Where the side sits, in the reader's words: "North–South", never the code "NS".
        positions = "–".join(str(POSITION_LABELS.get(seat[1], seat[1])) for seat in own)
        sides.append(SideInfo(index, code, label, names, positions))
    return sides


@dataclass(frozen=True)
class SheetRow:
    hand: Hand
    number: int
    scores: list[Number]
    # Every side's total after this donne (None once the stored hands stop scoring).
    running: list[Number] | None
    taker: str
    contract: str
    outcome: str
    pending: bool
    reserve_out: int
    # Tarot à 4 at a table of five: who sat this donne out ("" elsewhere).
    mort: str = ""
    # Tarot: the called partner or « seul », poignées, petit au bout, chelem, in words.
    marks: tuple[str, ...] = ()

    @property
    def cells(self) -> list[tuple[Number, Number | None]]:
        """(score, running total) per side."""
        running: list[Number | None] = list(self.running) if self.running is not None else [None] * len(self.scores)
        return list(zip(self.scores, running, strict=False))


@dataclass(frozen=True)
class TableSheet:
    table: Table
    tournament: Tournament
    sides: list[SideInfo]
    rows: list[SheetRow]
    totals: list[Number]
    reserve: int
    finished: bool
    winner: SideInfo | None
    donnes_played: int
    donnes_remaining: int | None
    points_to_target: list[Number] | None
    tie_break_donne: bool
    next_number: int
    problems: list[RuleError] = field(default_factory=list)

    @property
    def counted(self) -> TableResult | None:
        """What counts for the standings (the confirmed prefix when confirmation is asked)."""
        return TableResult.objects.filter(table=self.table).first()

    @property
    def last(self) -> SheetRow | None:
        return self.rows[-1] if self.rows else None

    @property
    def pending(self) -> list[SheetRow]:
        return [row for row in self.rows if row.pending]

    @property
    def held_keys(self) -> str:
        """The idempotency keys of the donnes on the sheet, space-separated: the referee's
        page compares them with its journal (static/js/referee.js)."""
        return " ".join(row.hand.idempotency_key for row in self.rows if row.hand.idempotency_key)

    @property
    def side_totals(self) -> list[tuple[SideInfo, Number]]:
        return list(zip(self.sides, self.totals, strict=True))

    @property
    def side_distances(self) -> list[tuple[SideInfo, Number]]:
        return list(zip(self.sides, self.points_to_target or [], strict=False))


def _taker_label(raw: Any, sides: list[SideInfo], field: str = "taker") -> str:
    """The name of the side a hand's `field` names (the taker, or the mort)."""
    if not isinstance(raw, dict):
        return ""
    taker = raw.get(field)
    for side in sides:
        if side.code == taker and type(side.code) is type(taker):
            return side.label
    return ""


def table_sheet(
    table: Table,
    sides: list[SideInfo] | None = None,
    hands: Sequence[Hand] | None = None,
    played: MatchResult | None = None,
) -> TableSheet:
    """The table sheet of `table`, as entered (see the module docstring).

    `sides` and `hands` (all of the table's, in donne order) save their queries when the
    caller holds them already, and `played` (the engine's partie of those hands) a play.
    """
    tournament = table.round.tournament
    sides = sides if sides is not None else table_sides(table)
    hands = list(hands) if hands is not None else list(Hand.objects.filter(table=table).order_by("number"))
    result = (
        played if played is not None else partie_or_none(tournament, [hand.raw for hand in hands], table_game(table))
    )
    words = HandWords(sides)
    rows: list[SheetRow] = []
    for i, hand in enumerate(hands):
        raw = hand.raw if isinstance(hand.raw, dict) else {}
        running = list(result.running[i]) if result is not None and i < len(result.running) else None
        rows.append(
            SheetRow(
                hand=hand,
                number=hand.number,
                scores=list(hand.scores),
                running=running,
                taker="" if raw.get("cancelled") else _taker_label(raw, sides),
                contract="" if raw.get("cancelled") else bid_and_contract(raw),
                outcome=outcome_label(hand.outcome),
                pending=hand.status == Hand.Status.PENDING,
                reserve_out=hand.reserve_out,
                mort=_taker_label(raw, sides, "mort"),
                marks=tuple(sheet_marks(raw, words)),
            )
        )
    zeros: list[Number] = [0] * len(sides)
    winner = None
    if result is not None and result.winner is not None:
        winner = next((side for side in sides if side.code == result.winner), None)
    return TableSheet(
        table=table,
        tournament=tournament,
        sides=sides,
        rows=rows,
        totals=list(result.totals) if result is not None else zeros,
        reserve=result.reserve if result is not None else 0,
        finished=bool(result and result.finished),
        winner=winner,
        donnes_played=result.donnes_played if result is not None else 0,
        donnes_remaining=result.donnes_remaining if result is not None else None,
        points_to_target=list(result.points_to_target or []) if result is not None and result.end else None,
        tie_break_donne=bool(result and result.tie_break_donne),
        next_number=hands[-1].number + 1 if hands else 1,
        problems=list(result.errors) if result is not None else [],
    )


@dataclass(frozen=True)
class HandCheck:
    """The engine's opinion of an entry: its errors (fields of the hand), or its score."""

    errors: list[RuleError]
    score: HandScore | None
    ends_partie: bool


def _check(table: Table, raws: list[Any], index: int) -> HandCheck:
    result = partie_or_none(table.round.tournament, raws, table_game(table))
    if result is None:
        # The services refuse the entry and say why; the check while typing stays quiet.
        return HandCheck([], None, False)
    errors = hand_errors(result, index)
    score = result.scores[index] if not errors and index < len(result.scores) else None
    return HandCheck(errors, score, result.is_finished_after(index))


def hand_check(table: Table, raw: Any, *, replace_last: bool = False) -> HandCheck:
    """Check `raw` as the table's next donne (or as its last one, corrected), storing nothing."""
    raws = list(Hand.objects.filter(table=table).order_by("number").values_list("raw", flat=True))
    if replace_last and raws:
        raws.pop()
    return _check(table, [*raws, raw], len(raws))


def hand_check_replacing(table: Table, hand: Hand, raw: Any) -> HandCheck:
    """Check `raw` in place of `hand` (the director's correction), storing nothing."""
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    index = next((i for i, stored in enumerate(hands) if stored.pk == hand.pk), len(hands))
    raws = [stored.raw for stored in hands]
    raws[index : index + 1] = [raw]
    return _check(table, raws, index)


@dataclass(frozen=True, slots=True)
class WaitingDonne:
    """A donne entered by one side that waits for another side's confirmation, since when."""

    table: int
    number: int
    since: datetime

    @property
    def minutes(self) -> int:
        """Whole minutes waited so far (0 in the first minute)."""
        return max(0, int((timezone.now() - self.since).total_seconds() // 60))


def _waiting_by_table(hands: QuerySet[Hand]) -> dict[int, list[WaitingDonne]]:
    waiting: dict[int, list[WaitingDonne]] = {}
    rows = hands.filter(status=Hand.Status.PENDING).values_list("table_id", "table__number", "number", "created_at")
    for table_id, table_number, number, since in rows.order_by("table_id", "number"):
        waiting.setdefault(table_id, []).append(WaitingDonne(table_number, number, since))
    return waiting


@dataclass(frozen=True)
class RoundTable:
    """A table of the director's list of hands: its result (what counts), how many donnes
    were entered, and those that wait for the other side's confirmation."""

    table: Table
    result: TableResult | None
    entered: int
    waiting: tuple[WaitingDonne, ...] = ()

    @property
    def pending(self) -> int:
        return len(self.waiting)


def round_tables_with_counts(tournament: Tournament, round_number: int) -> list[RoundTable]:
    """The tables of a round with their results and how many donnes each has."""
    tables = list(
        Table.objects.filter(round__tournament=tournament, round__number=round_number)
        .select_related("round", "result")
        .order_by("number")
    )
    hands = Hand.objects.filter(table__in=tables)
    counts = dict(hands.values("table_id").annotate(count=Count("pk")).values_list("table_id", "count"))
    waiting = _waiting_by_table(hands)
    return [
        RoundTable(table, getattr(table, "result", None), counts.get(table.pk, 0), tuple(waiting.get(table.pk, ())))
        for table in tables
    ]


# -- how far each table of a round went (the director's dashboard) ------------------------


@dataclass(frozen=True, slots=True)
class TableProgress:
    """A table's result as `tournaments.selectors.TableProgress` reads it, with the donnes
    waiting for the other side's confirmation (entered, not counted yet)."""

    finished: bool
    forced: bool
    donnes_played: int
    totals: list[int]
    # The donnes waiting for the other side's confirmation, in donne order.
    waiting: tuple[WaitingDonne, ...] = ()

    @property
    def pending(self) -> int:
        return len(self.waiting)


def recovered_count(round: Round) -> int:
    """How many donnes of the round the referees' phones sent again after the server lost
    them (a copy restored): scoring.services.hand_submit's `recovered`."""
    return Hand.objects.filter(table__round=round, recovered_from_phone=True).count()


def table_progress(round: Round) -> dict[int, TableProgress]:
    """How far each table of the round went, by table id, for every table with a donne
    counted or waiting (the director's dashboard and the close of a round read it)."""
    results = {r.table_id: r for r in TableResult.objects.filter(table__round=round)}
    waiting = _waiting_by_table(Hand.objects.filter(table__round=round))
    answer = {}
    for table_id in results.keys() | waiting.keys():
        result = results.get(table_id)
        answer[table_id] = TableProgress(
            finished=result is not None and result.finished,
            forced=result is not None and result.forced,
            donnes_played=result.donnes_played if result is not None else 0,
            totals=list(result.totals) if result is not None else [],
            waiting=tuple(waiting.get(table_id, ())),
        )
    return answer
