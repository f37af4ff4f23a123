"""What a process's live refreshes of a tournament keep from one hand to the next.

After a hand, the live refresh (scoring/standings/snapshots.py, `live_update`) adds the
rounds in play to the stored totals of the closed ones and ranks every competitor again.
Of a concours of 3,000 teams one hand changes one table: two records of 3,000. So each
process keeps, per tournament:

- each competitor's record as last summed, with the stored record and the parties it was
  summed from: a record whose inputs are the same objects (the table memo of
  scoring/standings/reading.py hands back the same parties for a table whose rows did not
  change) is taken again, not copied and summed;
- the digest of the competitors as last read;
- each competitor's snapshot row as last written, with what it was built from (its
  summed record, its criteria values, the competitor as read, its partie's state): a row
  whose inputs are those of the last refresh is written again as it was, with its new
  rank when only that moved (scoring/standings/ranking.py, `ranked_rows`). Its values are
  compared, not only its record: a Buchholz moves with the opponents' records;
- the last ranking (engine.standings.rank_order_kept): a hand moves few competitors, so
  only those whose record moved are placed again in the sorted rows kept (with every
  criterion reading the competitor's own record), or the sort starts from the last
  order (with a Buchholz or head to head: sorting a list nearly in order costs little
  more than reading it);
- the competitors' ids and a map of them, while the competitors read are those of the
  last refresh, and each row's JSON text, written again for the rows kept;
- the last ranking position by position (`RankedLine`): the next one looks one by one
  only at the positions whose engine tuple or partie state is not the same object as
  then, the others keeping their row and text.

Nothing kept is ever modified: a record or a row that changes is a new one. Keyed by the
stored totals' token, so that whatever drops them (a draw, a close, a correction in a
closed round: scoring/standings/base.py) starts the tournament's keeping afresh; the
refresh holds the tournament's lock, so one refresh at a time uses a tournament's entry.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import engine.standings as engine_standings

# Tournaments kept per process (a worker serves a handful of live tournaments at once).
KEPT_TOURNAMENTS = 16


# A competitor's record as summed: (its stored record, the parties added, the sum).
Summed = tuple[engine_standings.Record | None, tuple[engine_standings.PartieResult, ...], engine_standings.Record]
# A competitor's snapshot row as built: (its summed record, its criteria values, the
# competitor as read, its partie's state, the row, the row's JSON text).
BuiltRow = tuple[
    engine_standings.Record,
    tuple[engine_standings.Number, ...],
    tuple[Any, ...],
    dict[str, Any] | None,
    dict[str, Any],
    str | None,
]


class RankedLine(NamedTuple):
    """A ranking position by position, before the ties are listed by number: what the
    next ranking compares with its own, position against position."""

    competitors: Sequence[tuple[Any, ...]]  # the competitors read (that list)
    order: list[tuple[str, int, tuple[engine_standings.Number, ...]]]  # the engine's tuples
    pks: list[int]
    states: list[dict[str, Any] | None]
    rows: list[dict[str, Any]]
    texts: list[str | None]


@dataclass(slots=True)
class Kept:
    """One tournament's keeping in this process, valid for one token of its stored totals."""

    token: str
    # competitor -> (stored record, parties added, the record summed from them)
    records: dict[str, Summed] = field(default_factory=dict)
    # what they were summed for: the stored records (that object), the competitors, and
    # everyone ranked whatever their parties (the competitors and the stored records' owners)
    summed_from: tuple[Mapping[str, engine_standings.Record], list[str], frozenset[str]] | None = None
    # (configuration digest, competitors as read) -> their digest
    head: tuple[str, Sequence[tuple[Any, ...]], str] | None = None
    # competitor -> its row as last written and what it was built from, valid for `rows_config`
    rows: dict[str, BuiltRow] = field(default_factory=dict)
    # the criteria and match points the rows were built with
    rows_config: tuple[Any, ...] | None = None
    # the last ranking, where the next one starts (engine.standings.rank_order_kept)
    ranking: engine_standings.KeptOrder | None = None
    # the competitors as read (that list), their ids as the ranking's keys, and each
    # one's (pk, competitor as read) by key
    known: tuple[Sequence[tuple[Any, ...]], list[str], dict[str, tuple[int, tuple[Any, ...]]]] | None = None
    # the JSON text of the rows last ranked (each row's text is kept with it in `rows`)
    text: str = "[]"
    # the last ranking position by position, valid for `rows_config`
    line: RankedLine | None = None


_kept: OrderedDict[int, Kept] = OrderedDict()
_lock = threading.Lock()


def kept_for(tournament_id: int, token: str) -> Kept:
    """The tournament's keeping for this token of its stored totals (a new one when it moved)."""
    with _lock:
        kept = _kept.get(tournament_id)
        if kept is None or kept.token != token:
            kept = _kept[tournament_id] = Kept(token)
        _kept.move_to_end(tournament_id)
        while len(_kept) > KEPT_TOURNAMENTS:
            _kept.popitem(last=False)
        return kept


def forget_kept() -> None:
    """Drop everything kept (tests that compare a refresh with a rebuild from nothing)."""
    with _lock:
        _kept.clear()


def head_digest(
    kept: Kept, config_digest: str, competitors: Sequence[tuple[Any, ...]], make: Callable[[], str]
) -> tuple[str, Sequence[tuple[Any, ...]]]:
    """The digest of the configuration and the competitors: `make()`, unless they are those
    of the last refresh (comparing 3,000 tuples costs a tenth of hashing them); and the
    competitors to rank with: the list of the last refresh when equal to `competitors`,
    so that what was kept for it (`competitors_known`, the rows) is found by identity."""
    if kept.head is not None and kept.head[0] == config_digest and kept.head[1] == competitors:
        return kept.head[2], kept.head[1]
    digest = make()
    kept.head = (config_digest, competitors, digest)
    return digest, competitors


def competitors_known(
    kept: Kept | None, competitors: Sequence[tuple[Any, ...]]
) -> tuple[list[str], dict[str, tuple[int, tuple[Any, ...]]]]:
    """The competitors' ids as the ranking's keys (strings), and each one's (pk, competitor
    as read) by key: kept while the competitors are the same list object."""
    if kept is not None and kept.known is not None and kept.known[0] is competitors:
        return kept.known[1], kept.known[2]
    ids = [str(competitor[0]) for competitor in competitors]
    known = {key: (competitor[0], competitor) for key, competitor in zip(ids, competitors, strict=True)}
    if kept is not None:
        kept.known = (competitors, ids, known)
    return ids, known


def summed_records(
    kept: Kept,
    stored: Mapping[str, engine_standings.Record],
    competitors: Sequence[str],
    added: Mapping[str, Sequence[engine_standings.PartieResult]],
) -> dict[str, engine_standings.Record]:
    """Every competitor's record: its stored one (or an empty one) with `added`, its parties
    of the rounds after the stored ones, in round order.

    The same records as copying every stored record and adding every party to it, but a
    competitor whose stored record and parties are those of the last refresh keeps the
    record summed then. When the stored records (the same object) and the competitors
    are those of the last refresh, only the competitors whose parties changed are looked
    at: the others' records are taken all at once.
    """
    parties_now = {c: parties if type(parties) is tuple else tuple(parties) for c, parties in added.items()}
    if kept.summed_from is not None and kept.summed_from[0] is stored and kept.summed_from[1] == competitors:
        last = kept.records
        records = {c: summed[2] for c, summed in last.items()}
        now = dict(last)
        ranked = kept.summed_from[2]
        moved = [c for c, parties in parties_now.items() if (summed := last.get(c)) is None or summed[1] != parties]
        moved.extend(c for c, summed in last.items() if summed[1] and c not in parties_now)
        for competitor in moved:
            base = stored.get(competitor)
            parties = parties_now.get(competitor, ())
            if not parties and base is None and competitor not in ranked:
                # Only its parties made it a competitor of the ranking: gone with them.
                del records[competitor], now[competitor]
                continue
            record = _summed(competitor, base, parties)
            records[competitor] = record
            now[competitor] = (base, parties, record)
        kept.records = now
        return records
    records = {}
    previous = kept.records
    now = {}
    everyone = dict.fromkeys(competitors)
    for competitor in (*stored, *parties_now):
        everyone.setdefault(competitor)
    for competitor in everyone:
        base = stored.get(competitor)
        parties = parties_now.get(competitor, ())
        summed = previous.get(competitor)
        if summed is not None and summed[0] is base and summed[1] == parties:
            record = summed[2]
        else:
            record = _summed(competitor, base, parties)
        records[competitor] = record
        now[competitor] = (base, parties, record)
    kept.records = now
    kept.summed_from = (stored, list(competitors), frozenset(competitors) | frozenset(stored))
    return records


def _summed(
    competitor: str, base: engine_standings.Record | None, parties: Sequence[engine_standings.PartieResult]
) -> engine_standings.Record:
    """A competitor's stored record (a copy: the stored one is never touched) with `parties` added."""
    record = engine_standings.copy_record(base) if base is not None else engine_standings.Record(competitor)
    for partie in parties:
        engine_standings.add_result(record, partie)
    return record
