"""A season's ranking as a file: CSV (French Excel first, as scoring/exports.py) and PDF.

One line a player: rank, name, the club they play for (their affiliation, else the
club that holds them, as the tournament ranking's CSV names each player's club), their
licence number for the club's organisers only, season points, tournaments played. Both
files show the season as their reader may see it (`seasons.selectors.season_seen`, as
the page and the API do). The PDF reuses the tournament ranking PDF's page
(scoring/pdf.py): A4, the header repeated, the page number at the foot.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, Paragraph, Spacer, TableStyle

from kit.sheets import BOM, sheet_number, sheet_text
from scoring.pdf import MARGIN, RULE, ZEBRA, build_ranking_document, printable
from seasons.rows import SeasonRow
from seasons.selectors import SeasonSeen
from tournaments.models import Player


@dataclass(frozen=True, slots=True)
class SeasonPlayer:
    """What the league's files say of a season's player besides the ranking: club, licence."""

    club: str
    licence: str


def season_players(rows: list[SeasonRow]) -> dict[int, SeasonPlayer]:
    """Each ranked player's club (as the tournament CSV names it: their affiliation, else the
    club that holds them) and licence, by player id: one query."""
    wanted = [row.get("player") for row in rows if isinstance(row.get("player"), int)]
    found = Player.objects.filter(pk__in=wanted).values_list("pk", "affiliation", "club__name", "licence")
    return {pk: SeasonPlayer(affiliation or club, licence) for pk, affiliation, club, licence in found}


def season_lines(seen: SeasonSeen, *, licences: bool = False) -> tuple[list[str], list[list[str]]]:
    """The header and the lines of the season's ranking as its reader sees it: rank,
    player, club, (licence,) points, tournaments played. `licences` only when the reader
    is one of the club's organisers: a licence number is not public. A player shown
    unnamed has no club either: it could name them."""
    licences = licences and seen.organiser
    rows = seen.rows
    players = season_players(rows)
    header = [_("Rank"), _("Player"), _("Club"), *([_("Licence")] if licences else []), _("Points")]
    header.append(_("Tournaments played"))
    lines = []
    for row in rows:
        player = players.get(row.get("player") or 0, SeasonPlayer("", ""))
        lines.append(
            [
                str(row.get("rank", "")),
                str(row.get("name", "")),
                player.club,
                *([player.licence] if licences else []),
                sheet_number(row.get("points")),
                str(row.get("played", "")),
            ]
        )
    return header, lines


def season_csv(seen: SeasonSeen) -> str:
    """The season's ranking for a spreadsheet, its text cells through the tournament CSV's
    formula guard (scoring/exports.py); licence numbers and every name for the club's
    organisers only."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    header, lines = season_lines(seen, licences=True)
    writer.writerow(header)
    for rank, name, *texts, points, played in lines:
        writer.writerow([rank, sheet_text(name), *map(sheet_text, texts), points, played])
    return out.getvalue()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def season_pdf(seen: SeasonSeen, *, compress: bool = True) -> bytes:
    """The season's ranking on A4 pages, as its reader sees it (never a licence number)."""
    season, snapshot = seen.season, seen.snapshot
    styles = getSampleStyleSheet()
    title = ParagraphStyle("title", parent=styles["Title"], fontSize=16, spaceAfter=2 * mm)
    subtitle = ParagraphStyle("subtitle", parent=styles["Normal"], fontSize=9, textColor=RULE)
    cell = ParagraphStyle("cell", fontName="Helvetica", fontSize=9, leading=11)
    header, lines = season_lines(seen)
    parts = [season.club.name, str(season.get_scheme_display())]
    if snapshot is not None:
        built = timezone.localtime(snapshot.built_at)
        parts.append(_("updated at %(time)s") % {"time": formats.date_format(built, "SHORT_DATETIME_FORMAT")})
    story: list[Any] = [
        Paragraph(_escape(printable(season.name)), title),
        Paragraph(_escape(printable(" · ".join(parts))), subtitle),
        Spacer(1, 5 * mm),
    ]
    if lines:
        width = A4[0] - 2 * MARGIN
        narrow = 16 * mm
        wide = (width - 3 * narrow) / 2
        body = [
            [rank, Paragraph(_escape(printable(name)), cell), Paragraph(_escape(printable(club)), cell), points, played]
            for rank, name, club, points, played in lines
        ]
        table = LongTable(
            [[printable(text) for text in header], *body],
            colWidths=[narrow, wide, wide, narrow, narrow],
            repeatRows=1,
        )
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
                    ("FONT", (0, 1), (-1, -1), "Helvetica", 9),
                    ("LINEBELOW", (0, 0), (-1, 0), 0.8, RULE),
                    ("ALIGN", (0, 0), (0, -1), "RIGHT"),
                    ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    *[("BACKGROUND", (0, i), (-1, i), ZEBRA) for i in range(2, len(lines) + 1, 2)],
                ]
            )
        )
        story.append(table)
    return build_ranking_document(story, season.name, compress=compress)
