"""The ranking as a file: CSV for a spreadsheet (French Excel first).

Excel opens a CSV in the machine's code page unless the file starts with a UTF-8 byte
order mark, and a French Excel splits columns on `;` and reads `12,5` as a number; so the
file has a BOM, `;` between columns, and decimal commas. Names that a spreadsheet would
take for a formula are quoted with a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from scoring.models import StandingsSnapshot
from scoring.rows import SnapshotRow
from scoring.standings import columns_for
from tournaments.models import Competitor, Prize, Tournament
from tournaments.selectors import prize_for_rank

BOM = "\ufeff"
# A cell starting with one of these is a formula to a spreadsheet: a team named
# "=HYPERLINK(...)" must stay a name.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def sheet_number(value: Any) -> str:
    """A number as French Excel reads it: 12,5."""
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return text.replace(".", ",")
    return "" if value is None else str(value)


def sheet_text(value: Any) -> str:
    """Text a spreadsheet keeps as text: the formula-injection guard of every file Atout writes."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


@dataclass(frozen=True, slots=True)
class TeamPlayer:
    """One player of a competitor, as the league's files list them."""

    name: str
    club: str
    licence: str


def team_players(tournament: Tournament) -> dict[int, list[TeamPlayer]]:
    """Each competitor's players (by competitor id), with their club and licence: one query."""
    through = Competitor.players.through.objects.filter(competitor__tournament=tournament)
    found: dict[int, list[TeamPlayer]] = {}
    for competitor_id, first, last, affiliation, club, licence in through.order_by(
        "competitor_id", "player__last_name", "player__first_name", "player_id"
    ).values_list(
        "competitor_id",
        "player__first_name",
        "player__last_name",
        "player__affiliation",
        "player__club__name",
        "player__licence",
    ):
        found.setdefault(competitor_id, []).append(TeamPlayer(f"{first} {last}".strip(), affiliation or club, licence))
    return found


def ranking_csv(
    snapshot: StandingsSnapshot | None,
    prizes: Sequence[Prize] = (),
    players: Mapping[int, Sequence[TeamPlayer]] | None = None,
    licences: bool = False,
) -> str:
    """The snapshot's ranking, one competitor a line, the ranking criteria as columns; with
    `prizes`, a last column "Lot" holds the lot each rank wins (*palmarès*).

    With `players` (`team_players`), columns after the name list each competitor's players
    and their clubs, joined with " / " in the same order; with `licences` too (organisers
    only: a licence is not public), their licence numbers."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    columns = columns_for(snapshot.criteria if snapshot is not None else [])
    lots = [_("Lot")] if prizes else []
    team = [] if players is None else [_("Players"), _("Clubs"), *([_("Licences")] if licences else [])]
    writer.writerow([_("Rank"), _("No."), _("Name"), *team, *[str(c["label"]) for c in columns], _("Played"), *lots])
    ranked: list[SnapshotRow] = snapshot.rows if snapshot is not None else []
    for row in ranked:
        prize = prize_for_rank(prizes, row.get("rank")) if prizes else None
        members = (players or {}).get(row.get("competitor") or 0, [])
        team = (
            []
            if players is None
            else [
                sheet_text(" / ".join(p.name for p in members)),
                sheet_text(" / ".join(p.club for p in members)),
                *([sheet_text(" / ".join(p.licence for p in members))] if licences else []),
            ]
        )
        writer.writerow(
            [
                row.get("rank"),
                row.get("number"),
                # Marked as the page and the PDF mark it: a withdrawn team's rank is not a result.
                sheet_text(str(row.get("name", "")) + (f" ({_('withdrawn')})" if row.get("withdrawn") else "")),
                *team,
                *map(sheet_number, row.get("values") or []),
                row.get("played"),
                *([sheet_text(prize.text if prize else "")] if prizes else []),
            ]
        )
    return out.getvalue()
