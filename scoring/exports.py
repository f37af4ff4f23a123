"""The ranking as a file: CSV for a spreadsheet (French Excel first).

The file's cells are written as every CSV of Atout's (kit/sheets.py): a BOM, `;` between
columns, decimal commas, and names that a spreadsheet would take for a formula quoted
with a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from kit.sheets import BOM, sheet_amount, sheet_number, sheet_text
from scoring.models import StandingsSnapshot
from scoring.rows import SnapshotRow
from scoring.standings import columns_for
from tournaments.models import Competitor, Tournament
from tournaments.palmares import Palmares, lots_text


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
    prizes: Palmares | None = None,
    players: Mapping[int, Sequence[TeamPlayer]] | None = None,
    licences: bool = False,
) -> str:
    """The snapshot's ranking, one competitor a line, the ranking criteria as columns; with
    `prizes` (the *palmarès*), the last columns hold each rank's prize money ("Prize money
    (€)", when there is money) and lots ("Lot", when there are lots in kind).

    With `players` (`team_players`), columns after the name list each competitor's players
    and their clubs, joined with " / " in the same order; with `licences` too (organisers
    only: a licence is not public), their licence numbers."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    columns = columns_for(snapshot.criteria if snapshot is not None else [])
    palmares = prizes or Palmares()
    awards = palmares.awards(row.get("rank") for row in (snapshot.rows if snapshot is not None else []))
    money, lots = palmares.has_money, bool(palmares.lots)
    prize_columns = [*([_("Prize money (€)")] if money else []), *([_("Lot")] if lots else [])]
    team = [] if players is None else [_("Players"), _("Clubs"), *([_("Licences")] if licences else [])]
    writer.writerow(
        [_("Rank"), _("No."), _("Name"), *team, *[str(c["label"]) for c in columns], _("Played"), *prize_columns]
    )
    ranked: list[SnapshotRow] = snapshot.rows if snapshot is not None else []
    for row in ranked:
        award = awards.get(row.get("rank"))
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
                *([sheet_amount(award.money) if award else ""] if money else []),
                *([sheet_text(lots_text(award) if award and award.lots else "")] if lots else []),
            ]
        )
    return out.getvalue()
