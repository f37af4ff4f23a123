"""What an import did: counts kind by kind, and what it left out of the archive and why.

The command prints `ImportReport.lines()`: a headline, one line per kind ("hands: 2
created, 1 updated, 40 unchanged, 1 left out"), then each thing of the archive the import
did not bring in, with its place in the file and the reason: a player erased here, a
donne deleted or corrected here since the archive was made, a referee link renewed or
revoked here (archive/importing.py says when each happens).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tournaments.models import Tournament

# The report's lines, kind by kind: the kind, its outcomes (every one shown, a 0 included),
# then extras shown only when they happened. The first kinds are in every archive and
# always listed; the others only when the archive holds some.
_REPORT_KINDS: tuple[tuple[str, tuple[str, ...], tuple[str, ...], bool], ...] = (
    ("competitors", ("created", "updated", "unchanged"), ("kept as here", "left out"), True),
    ("rounds", ("created", "updated", "unchanged"), ("seated", "kept as here", "left out"), True),
    ("tables", ("created", "updated", "unchanged"), ("tokens replaced", "links kept as here", "left out"), True),
    ("hands", ("created", "updated", "unchanged"), ("deleted as in the archive", "kept as here", "left out"), True),
    ("revisions", ("created", "unchanged"), (), True),
    ("clubs", ("created", "unchanged"), (), False),
    ("players", ("created", "completed", "unchanged"), ("kept erased",), False),
    ("forbidden pairs", ("created", "updated", "unchanged"), ("kept as here", "left out"), False),
    ("prizes", ("created", "updated", "unchanged"), ("kept as here", "left out"), False),
    ("table results", ("created",), (), False),
)
# Counted under another name than "<kind> <outcome>" (kept: callers read them).
_COUNT_NAMES = {("tables", "tokens replaced"): "table tokens replaced"}
# Outcomes that count what the import read and did not write.
_NOT_WRITTEN = ("kept as here", "left out", "kept erased")
# Beyond this many, the left-out list ends with how many more there are.
LEFT_OUT_SHOWN = 100


@dataclass(frozen=True)
class LeftOut:
    """One thing of the archive the import did not bring in."""

    place: str  # where it is in the file: "rounds[0].tables[2].hands", "players[4]"
    what: str  # what it is, for the reader: "round 1, table 3, donnes 2, 3"
    why: str

    def line(self) -> str:
        return f"{self.place} ({self.what}): {self.why}" if self.what else f"{self.place}: {self.why}"


@dataclass
class Tally:
    """What an import counts and leaves out as it goes; the report is made of it at the end."""

    counts: Counter[str] = field(default_factory=Counter)
    unchanged: Counter[str] = field(default_factory=Counter)
    left_out: list[LeftOut] = field(default_factory=list)

    def leave(self, place: str, what: str, why: str) -> None:
        self.left_out.append(LeftOut(place, what, why))


@dataclass
class ImportReport:
    """What an import did, for the command's output and the tests."""

    tournament: Tournament
    created: bool
    # What was written, as "<kind> <outcome>": "hands created", "rounds seated"...
    counts: Counter[str] = field(default_factory=Counter)
    # What the archive holds that was already here as it has it, by kind: read, not written.
    unchanged: Counter[str] = field(default_factory=Counter)
    # The tournament already here that the archive came from, when `slug` made a new copy of it.
    copy_of: Tournament | None = None
    # What the archive holds that the import did not bring in, in the file's order.
    left_out: list[LeftOut] = field(default_factory=list)

    def count(self, kind: str, outcome: str) -> int:
        if outcome == "unchanged":
            return self.unchanged[kind]
        return self.counts[_COUNT_NAMES.get((kind, outcome), f"{kind} {outcome}")]

    @property
    def wrote(self) -> bool:
        """Was anything created or changed (the import's own time and table results aside)?"""
        return self.created or any(count for name, count in self.counts.items() if not name.endswith(_NOT_WRITTEN))

    def headline(self) -> str:
        slug = self.tournament.slug
        if self.copy_of is not None:
            return (
                f"Tournament {slug} created, a new copy: {self.copy_of.slug}, the tournament "
                "this archive came from, is left as it was."
            )
        if self.created:
            return f"Tournament {slug} created."
        if self.counts["tournament settings updated"]:
            return f"Tournament {slug} updated, its settings included."
        if self.wrote:
            return f"Tournament {slug} updated, its settings unchanged."
        if self.left_out:
            return f"Tournament {slug} unchanged: nothing written; what the archive holds otherwise was left out."
        return f"Tournament {slug} unchanged: nothing written, the archive holds nothing new."

    def kind_lines(self) -> list[str]:
        """One line per kind: "hands: 2 created, 1 updated, 40 unchanged"."""
        lines = []
        for kind, outcomes, extras, always in _REPORT_KINDS:
            figures = {outcome: self.count(kind, outcome) for outcome in (*outcomes, *extras)}
            if not always and not any(figures.values()):
                continue
            shown = [f"{count} {outcome}" for outcome, count in figures.items() if outcome in outcomes or count]
            lines.append(f"{kind}: {', '.join(shown)}")
        return lines

    def left_out_lines(self) -> list[str]:
        """What was not brought in and why, one line each (the first LEFT_OUT_SHOWN of them)."""
        if not self.left_out:
            return []
        lines = [f"Left out ({len(self.left_out)}): this Atout's own data wins over the archive's."]
        lines += [f"  {entry.line()}" for entry in self.left_out[:LEFT_OUT_SHOWN]]
        if len(self.left_out) > LEFT_OUT_SHOWN:
            lines.append(f"  ... and {len(self.left_out) - LEFT_OUT_SHOWN} more.")
        return lines

    def lines(self) -> list[str]:
        """The command's output: the headline, the figures kind by kind, then what was left out."""
        return [self.headline(), *self.kind_lines(), *self.left_out_lines()]
