"""What this Atout has already exchanged of a tournament: its own changes against an archive's news.

An archive is a copy of the past. Imported again after this Atout changed the tournament
(a competitor renamed, a lot removed, a round drawn again), it must not undo those
changes; a later archive must still bring what changed on the other side. The archive
alone cannot tell the two apart, so each tournament keeps the versions it has seen.

A tournament is cut into *parts*, each with a key:
- `("tournament",)`: its settings (not its address, which an import never changes);
- `("competitor", number)`: a competitor's own fields (its players aside);
- `("forbidden pair", low, high)` and `("prize", rank_from)`;
- `("round", number)`: a round's fields, byes and seating (not the tables' links);
- `("partie", round, table)`: a table's donnes and its result.

Every export and every import records, beside the tournament's archive id, a digest of
each part of the archive: of its key, and of its key with its data (times aside, as the
import compares them). An import then weighs each part of the archive against the part
here and these versions seen (`Ledger.decide`):
- the same data: nothing to do;
- a version already seen (exported or imported before): the archive brings nothing new,
  and the part here, if it differs, was changed here (or by a later archive) since: kept
  as it is here; missing here, it was deleted here: left out;
- a version never seen: news from the other Atout. Taken when the part here is a
  version already seen (unchanged here since); when the part here was changed here too,
  or deleted here, this Atout's own change wins and the archive's is left out.

A tournament exchanged before the ledger existed has none: its first import takes the
archive's parts as imports always did, and records them. A table's donnes are first
weighed by their revisions (archive/importing.py), which order them exactly; the ledger
only settles changes made without a revision.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from enum import Enum
from functools import cache
from typing import Any

from django.db import models

from archive.fields import data_fields, to_json
from archive.models import ArchiveIdentity, SeenVersion
from scoring.models import Hand, TableResult
from tournaments.models import Competitor, ForbiddenPair, Prize, Round, Tournament

Part = tuple[Any, ...]
# Times are not data: a row rewritten as it was, at another time, is the same version.
TIMES = frozenset({"created_at", "updated_at", "drawn_at", "at"})
# Fields of a part that are references, not data, or not the part's: the tournament's
# address stays here; a competitor's players are matched by their own rules.
_NOT_DATA = {
    Tournament: frozenset({"slug"}),
    # The personal link stays on its site (archive.exporting.COMPETITOR_LINK_FIELDS).
    Competitor: frozenset({"link_token", "link_revoked"}),
    ForbiddenPair: frozenset(),
    Prize: frozenset(),
    Round: frozenset({"repeats", "conflicts"}),
    Hand: frozenset(),
    TableResult: frozenset(),
}

WHY_CHANGED_HERE = "changed here since this archive was made: kept as it is here"
WHY_LATER_HERE = "this Atout already holds a later version of it: kept as it is here"
WHY_DELETED_HERE = "deleted here since this archive was made: not brought back"
WHY_CHANGED_BOTH = "changed both here and in the other Atout since they last exchanged it: this Atout's own change wins"
WHY_DELETED_CHANGED = "deleted here, and changed in the other Atout since they last exchanged it: not brought back"


class Verdict(Enum):
    SAME = "same"  # the part here already is the archive's
    CREATE = "create"  # not here, and never deleted here: add it
    TAKE = "take"  # the archive's is news and the part here unchanged since: take it
    KEEP = "keep"  # the part here wins; the archive's differs and is left out
    LEAVE_OUT = "leave out"  # deleted here: the archive's is not brought back


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    why: str = ""


def _digest(value: Any) -> str:
    canonical = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]


def key_digest(part: Part) -> str:
    return _digest(["key", list(part)])


def data_digest(part: Part, data: Any) -> str:
    return _digest(["data", list(part), data])


@cache
def _compared(model: type[models.Model]) -> tuple[tuple[str, models.Field[Any, Any]], ...]:
    """The fields of `model` a part compares (looked up once: a night holds thousands of hands)."""
    skipped = TIMES | _NOT_DATA[model]
    return tuple((name, field) for name, field in data_fields(model).items() if name not in skipped)


def _value(field: models.Field[Any, Any], value: Any) -> Any:
    """A value as the database gives it back: an amount with its field's decimal places
    (0 and 0.00 are one amount, whichever a row held in memory when it was exported), a
    time in UTC."""
    if isinstance(field, models.DecimalField) and value is not None:
        return to_json(Decimal(str(value)).quantize(Decimal(1).scaleb(-(field.decimal_places or 0))))
    if isinstance(value, datetime):
        # Stored and read back in UTC, whatever offset the file wrote it with.
        return to_json(value.astimezone(UTC))
    return to_json(value)


def _normal(model: type[models.Model], values: Mapping[str, Any]) -> dict[str, Any]:
    """A row's data as an export writes it: every field the archive carries, a field an
    older archive lacks at its default, times and references aside."""
    return {
        name: _value(field, values[name] if name in values else field.get_default()) for name, field in _compared(model)
    }


def _pairs(pairs: Iterable[Iterable[int]]) -> list[list[int]]:
    return sorted(sorted(pair) for pair in pairs)


@dataclass
class RoundParts:
    fields: Mapping[str, Any]
    pairs: Mapping[str, Iterable[Iterable[int]]]
    byes: Iterable[tuple[int, str]]
    tables: Iterable[tuple[int, Iterable[tuple[int, int, str]], Iterable[Mapping[str, Any]], Mapping[str, Any] | None]]


def parts_of(
    tournament: Mapping[str, Any],
    tournament_club: str,
    competitors: Iterable[tuple[Mapping[str, Any], str | None]],
    pairs: Iterable[tuple[int, int, Mapping[str, Any]]],
    prizes: Iterable[Mapping[str, Any]],
    rounds: Iterable[RoundParts],
) -> dict[Part, Any]:
    parts: dict[Part, Any] = {("tournament",): {**_normal(Tournament, tournament), "club": tournament_club}}
    for fields, club in competitors:
        parts[("competitor", fields["number"])] = {**_normal(Competitor, fields), "club": club}
    for first, second, fields in pairs:
        parts[("forbidden pair", *sorted((first, second)))] = _normal(ForbiddenPair, fields)
    for fields in prizes:
        parts[("prize", fields["rank_from"])] = _normal(Prize, fields)
    for rnd in rounds:
        number = rnd.fields["number"]
        seating = []
        for table_number, seats, hands, result in rnd.tables:
            seating += [[table_number, competitor, side, position] for competitor, side, position in seats]
            parts[("partie", number, table_number)] = {
                "hands": sorted((_normal(Hand, hand) for hand in hands), key=lambda hand: hand["number"]),
                "result": None if result is None else _normal(TableResult, result),
            }
        parts[("round", number)] = {
            **_normal(Round, rnd.fields),
            **{name: _pairs(pairs) for name, pairs in rnd.pairs.items()},
            "byes": sorted([competitor, reason] for competitor, reason in rnd.byes),
            "seating": sorted(seating),
        }
    return parts


def content_parts(content: Mapping[str, Any]) -> dict[Part, Any]:
    """The parts of an archive's content as an export writes it (archive_content)."""
    return parts_of(
        content["tournament"],
        content["tournament"]["club"],
        ((competitor, competitor["club"]) for competitor in content["competitors"]),
        ((pair["first"], pair["second"], pair) for pair in content["forbidden_pairs"]),
        content["prizes"],
        (
            RoundParts(
                rnd,
                {name: rnd[name] for name in ("repeats", "conflicts")},
                ((bye["competitor"], bye["reason"]) for bye in rnd["byes"]),
                (
                    (
                        table["number"],
                        ((seat["competitor"], seat["side"], seat["position"]) for seat in table["seats"]),
                        table["hands"],
                        table["result"],
                    )
                    for table in rnd["tables"]
                ),
            )
            for rnd in content["rounds"]
        ),
    )


def _digests(parts: Mapping[Part, Any]) -> Iterator[str]:
    for part, data in parts.items():
        yield key_digest(part)
        yield data_digest(part, data)


def record(identity: ArchiveIdentity, parts: Mapping[Part, Any]) -> None:
    """Remember every part of `parts` as seen with this tournament (an export, an import)."""
    SeenVersion.objects.bulk_create(
        (SeenVersion(identity=identity, digest=digest) for digest in set(_digests(parts))),
        batch_size=1000,
        ignore_conflicts=True,
    )


class Ledger:
    """An import's view of each part: the archive's, this Atout's now, and the versions seen."""

    def __init__(self, *, seen: set[str], archive: Mapping[Part, Any], here: Mapping[Part, Any]) -> None:
        self.seen = seen
        # A tournament exchanged before the ledger existed has none: imports take the archive's.
        self.active = bool(seen)
        self.archive = archive
        self.here = here

    @classmethod
    def of(cls, identity: ArchiveIdentity | None, archive: Mapping[Part, Any], here: Mapping[Part, Any]) -> Ledger:
        seen = set() if identity is None else set(identity.seen.values_list("digest", flat=True))
        return cls(seen=seen, archive=archive, here=here)

    def decide(self, part: Part) -> Decision:
        """What the import does with the archive's `part` (see the module's docstring)."""
        theirs = data_digest(part, self.archive[part])
        if part not in self.here:
            if not self.active:
                return Decision(Verdict.CREATE)
            if theirs in self.seen:
                return Decision(Verdict.LEAVE_OUT, WHY_DELETED_HERE)
            if key_digest(part) in self.seen:
                return Decision(Verdict.LEAVE_OUT, WHY_DELETED_CHANGED)
            return Decision(Verdict.CREATE)
        ours = data_digest(part, self.here[part])
        if ours == theirs:
            return Decision(Verdict.SAME)
        if not self.active:
            return Decision(Verdict.TAKE)
        if theirs in self.seen:
            return Decision(Verdict.KEEP, WHY_LATER_HERE if ours in self.seen else WHY_CHANGED_HERE)
        if ours in self.seen:
            return Decision(Verdict.TAKE)
        return Decision(Verdict.KEEP, WHY_CHANGED_BOTH)
