"""What a process keeps of a tournament from one live refresh to the next: the one home
of the live refresh's memos (docs/live-refresh.md).

After a hand, the live refresh (`snapshots.live_update`) adds the round in play to the
stored totals of the closed rounds (scoring/standings/base.py) and ranks every
competitor again. Of a concours of 3,000 teams one hand changes one table, so each
process keeps, per tournament, in one `KeptTournament`:

- `stored`: the stored totals, decoded once per token (`StoredTotals`);
- `tables`: the round in play's tables as last built (`reading.TablesBuilt`), so that a
  hand builds one table again, not 1,500;
- `head`: the digest of the ranking's configuration and the competitors as last read
  (`HeadSeen`), so that it is not hashed again while they are equal;
- `records`: each competitor's record as last summed, with what it was summed from
  (`SummedRecord`), so that a hand sums two records again, not 3,000;
- `rows`: each competitor's snapshot row as last written, with its JSON text and what it
  was built from (`BuiltRow`), so that a hand builds and encodes a few rows, not 3,000;
- `order`: the last ranking's order, where the next ranking's sort starts.

Every memo here is keyed by values, never by an object's identity alone (identity is
only a quicker way to find two values equal): a table by its row and seats as read, the
stored totals by their token, a record by its parties, a row by everything it shows, the
digest by the competitors as read. The rule each reuse rests on is written where it is
reused (`reading.build_round`, `stored_totals`, `summed_records`, `BuiltRow.serves`,
`head_digest`). What a memo hands out is only read by its readers (the engine's ranking,
the rows, the snapshot's INSERT); what changes is built again as a new object.

A `KeptTournament` is valid for one token of the stored totals (`StandingsBase.token`, a
new random value each time they are stored, emptied when they are dropped): whatever
drops them (a draw, a close, a correction in a closed round) starts the tournament's
keeping afresh. The refresh holds the tournament's lock (scoring/standings/locking.py),
so one refresh at a time uses a tournament's entry, in any process; another process's
refresh in between changes nothing here: what it wrote is read from the database, and
this process's memos are keyed by what is read.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine.standings as engine_standings
from scoring.standings.reading import TablesBuilt

# Tournaments kept per process (a worker serves a handful of live tournaments at once).
KEPT_TOURNAMENTS = 16


@dataclass(frozen=True, slots=True)
class StoredTotals:
    """The stored totals of one token, decoded: every competitor's record through the
    base's round. The same token means the same totals (a token is never reused), so they
    are decoded once per token; summing copies them, never changes them."""

    token: str
    records: Mapping[str, engine_standings.Record]


@dataclass(frozen=True, slots=True)
class HeadSeen:
    """The digest of the ranking's configuration and the competitors, as last made."""

    config_digest: str
    competitors: Sequence[tuple[Any, ...]]  # as read: (id, number, name, status, joined, withdrawn after)
    digest: str


@dataclass(frozen=True, slots=True)
class SummedRecord:
    """One competitor's record: its stored record (of the token kept) with `parties`, its
    parties of the rounds after the stored ones, added in round order."""

    parties: tuple[engine_standings.PartieResult, ...]
    record: engine_standings.Record


@dataclass(frozen=True, slots=True)
class BuiltRow:
    """One competitor's snapshot row as last written, its JSON text, and what it shows:
    the record's totals, the criteria values, the competitor as read, its partie's state."""

    totals: tuple[engine_standings.Number, ...]  # `row_totals` of its record
    values: tuple[engine_standings.Number, ...]
    who: tuple[Any, ...]
    state: dict[str, Any] | None
    row: dict[str, Any]
    text: str

    def serves(
        self,
        totals: tuple[engine_standings.Number, ...],
        values: tuple[engine_standings.Number, ...],
        who: tuple[Any, ...],
        state: dict[str, Any] | None,
    ) -> bool:
        """Whether this row shows what a row built from these would show (its rank apart):
        every input compared by value, so the row is right whoever built the inputs."""
        return (
            self.totals == totals
            and self.values == values
            and self.who == who
            and (self.state is state or self.state == state)
        )


def row_totals(record: engine_standings.Record) -> tuple[engine_standings.Number, ...]:
    """What a snapshot row shows of a record besides the criteria values."""
    return (
        record.wins, record.draws, record.losses, record.byes, record.absences, record.played,
        record.points_for, record.points_against,
    )  # fmt: skip


@dataclass(slots=True)
class KeptTournament:
    """One tournament's keeping in this process, valid for one token of its stored totals."""

    token: str
    stored: StoredTotals | None = None
    tables: TablesBuilt | None = None
    head: HeadSeen | None = None
    records: dict[str, SummedRecord] = field(default_factory=dict)
    # The rows as last written (by competitor), valid for the criteria and match points
    # of `rows_config`, and the JSON text of the last ranking's rows.
    rows: dict[str, BuiltRow] = field(default_factory=dict)
    rows_config: tuple[Any, ...] | None = None
    text: str = "[]"
    # The competitors' ids in the last ranking's order: the next sort starts from it
    # (any order gives the same ranking; a nearly sorted one sorts in about one pass).
    order: list[str] = field(default_factory=list)


_kept: OrderedDict[int, KeptTournament] = OrderedDict()
_lock = threading.Lock()


def kept_for(tournament_id: int, token: str) -> KeptTournament:
    """The tournament's keeping for this token of its stored totals (a new one when it moved)."""
    with _lock:
        kept = _kept.get(tournament_id)
        if kept is None or kept.token != token:
            kept = _kept[tournament_id] = KeptTournament(token)
        _kept.move_to_end(tournament_id)
        while len(_kept) > KEPT_TOURNAMENTS:
            _kept.popitem(last=False)
        return kept


def forget_kept() -> None:
    """Drop everything kept (a worker that has just started; tests comparing with a rebuild)."""
    with _lock:
        _kept.clear()


def stored_totals(
    kept: KeptTournament, decode: Callable[[], Mapping[str, engine_standings.Record]]
) -> Mapping[str, engine_standings.Record]:
    """The stored totals of the kept token: `decode()` once per token (3,000 records cost
    ~100 ms to decode; a worker decodes them once per closed round, not once per hand)."""
    if kept.stored is None:
        kept.stored = StoredTotals(kept.token, decode())
    return kept.stored.records


def head_digest(
    kept: KeptTournament, config_digest: str, competitors: Sequence[tuple[Any, ...]], make: Callable[[], str]
) -> str:
    """The digest of the configuration and the competitors: `make()`, unless they equal
    those of the last refresh (compared by value: comparing 3,000 tuples costs a tenth of
    hashing them)."""
    head = kept.head
    if head is not None and head.config_digest == config_digest and head.competitors == competitors:
        return head.digest
    digest = make()
    kept.head = HeadSeen(config_digest, competitors, digest)
    return digest


def summed_records(
    kept: KeptTournament,
    stored: Mapping[str, engine_standings.Record],
    competitors: Sequence[str],
    added: Mapping[str, tuple[engine_standings.PartieResult, ...]],
) -> dict[str, engine_standings.Record]:
    """Every competitor's record: its stored one (or an empty one) with `added`, its parties
    of the rounds after the stored ones, in round order; everyone of `competitors`, of the
    stored records and of `added` is ranked.

    The same records as copying every stored record and adding every partie to it. A
    competitor whose parties equal those it was last summed from keeps the record summed
    then: equal parties (frozen `PartieResult`s, compared by value) added to the same
    stored record (the kept token's: `stored` must be `stored_totals(kept, ...)`) give
    equal totals, and a record handed out is only read (by the engine's ranking and the
    rows), never modified. Only the competitors of a table whose result moved are summed
    again.
    """
    last = kept.records
    now: dict[str, SummedRecord] = {}
    records: dict[str, engine_standings.Record] = {}
    everyone = dict.fromkeys(competitors)
    everyone.update(dict.fromkeys(stored))
    everyone.update(dict.fromkeys(added))
    for competitor in everyone:
        parties = added.get(competitor, ())
        summed = last.get(competitor)
        if summed is None or summed.parties != parties:
            summed = SummedRecord(parties, _summed(competitor, stored.get(competitor), parties))
        now[competitor] = summed
        records[competitor] = summed.record
    kept.records = now
    return records


def _summed(
    competitor: str, base: engine_standings.Record | None, parties: Sequence[engine_standings.PartieResult]
) -> engine_standings.Record:
    """A competitor's stored record (a copy: the stored one is never touched) with `parties` added."""
    record = engine_standings.copy_record(base) if base is not None else engine_standings.Record(competitor)
    for partie in parties:
        engine_standings.add_result(record, partie)
    return record
