"""The ranking as a PDF (reportlab): A4, the club's logo (if it has one) and the
tournament's name on top, the table's header repeated on every page, the page number at
the foot.

The PDF's standard fonts cover the Western European letters French names use (the
Windows-1252 set, curly apostrophes and dashes included); a character beyond it (a
Polish ł, a Czech ř) is printed without its accent rather than as an empty box, so no
font file has to ship with the site.
"""

from __future__ import annotations

import datetime
import io
import unicodedata
from collections.abc import Sequence
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Image, LongTable, Paragraph, SimpleDocTemplate, Spacer, TableStyle

from scoring.models import StandingsSnapshot
from scoring.rows import SnapshotRow
from scoring.standings import columns_for
from tournaments.models import ClubLogo, Tournament
from tournaments.palmares import Award, Palmares, euros, lots_text

MARGIN = 15 * mm
LOGO_HEIGHT = 16 * mm
ZEBRA = colors.HexColor("#f1f3f5")
RULE = colors.HexColor("#495057")
# Letters whose mark is part of the letter (no decomposition to strip it from).
STROKED = {"Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "Ŧ": "T", "ŧ": "t", "ı": "i"}


def printable(text: str) -> str:
    """`text` in the standard fonts' character set: accents beyond it are dropped, not boxed."""
    try:
        text.encode("cp1252")
        return text
    except UnicodeEncodeError:
        kept = []
        for char in text:
            try:
                char.encode("cp1252")
                kept.append(char)
            except UnicodeEncodeError:
                base = STROKED.get(char, char)
                plain = unicodedata.normalize("NFKD", base).encode("ascii", "ignore").decode()
                kept.append(plain or "?")
        return "".join(kept)


def _number(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return formats.number_format(round(value, 2), use_l10n=True).rstrip("0").rstrip(",.")
    return str(value)


def _prize_lines(award: Award | None) -> str:
    """What the rank wins (*palmarès*) as more lines of the name cell, "" when nothing."""
    if award is None:
        return ""
    lines = ""
    if award.money is not None:
        lines += "\n" + _("Prize money: %(amount)s") % {"amount": euros(award.money)}
    if award.lots:
        lines += "\n" + _("Lot: %(lot)s") % {"lot": lots_text(award)}
    return lines


def ranking_rows(
    snapshot: StandingsSnapshot | None, prizes: Palmares | None = None
) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of the ranking table, as text in the reader's language; the
    name cell carries what the rank wins on more lines when `prizes` (the palmarès) are given."""
    criteria = snapshot.criteria if snapshot is not None else []
    header = [_("Rank"), _("No."), _("Name"), *[str(c["label"]) for c in columns_for(criteria)], _("Played")]
    ranked: list[SnapshotRow] = snapshot.rows if snapshot is not None else []
    awards = prizes.awards(row.get("rank") for row in ranked) if prizes else {}
    rows = [
        [
            str(row.get("rank", "")),
            str(row.get("number", "")),
            str(row.get("name", ""))
            + (f" ({_('withdrawn')})" if row.get("withdrawn") else "")
            + _prize_lines(awards.get(row.get("rank"))),
            *[_number(value) for value in row.get("values") or []],
            str(row.get("played", "")),
        ]
        for row in ranked
    ]
    return header, rows


def _subtitle(tournament: Tournament, snapshot: StandingsSnapshot | None) -> str:
    parts = [tournament.club.name, formats.date_format(tournament.date, "DATE_FORMAT")]
    if snapshot is None:
        parts.append(_("No ranking yet: it appears with the first results."))
    else:
        if tournament.status == Tournament.Status.FINISHED:
            # The tournament is over: this is the ranking players keep, not a round's.
            parts.append(_("Final ranking"))
        elif snapshot.after_round:
            parts.append(_("Round %(number)s") % {"number": snapshot.after_round})
        built = timezone.localtime(snapshot.built_at) if isinstance(snapshot.built_at, datetime.datetime) else None
        if built is not None:
            parts.append(_("updated at %(time)s") % {"time": formats.time_format(built, "H:i")})
    return " · ".join(parts)


def ranking_pdf(
    tournament: Tournament,
    snapshot: StandingsSnapshot | None,
    *,
    compress: bool = True,
    prizes: Palmares | None = None,
) -> bytes:
    """The ranking of `snapshot` as a PDF document (A4 portrait, as many pages as it takes),
    what each rank wins under the name when `prizes` (the palmarès) are given."""
    styles = getSampleStyleSheet()
    title = ParagraphStyle("title", parent=styles["Title"], fontSize=16, spaceAfter=2 * mm)
    subtitle = ParagraphStyle("subtitle", parent=styles["Normal"], fontSize=9, textColor=RULE)
    header, rows = ranking_rows(snapshot, prizes)
    header, rows = [printable(cell) for cell in header], [[printable(cell) for cell in row] for row in rows]
    story: list[Any] = [
        *_logo(tournament),
        Paragraph(_escape(printable(tournament.name)), title),
        Paragraph(_escape(printable(_subtitle(tournament, snapshot))), subtitle),
        Spacer(1, 5 * mm),
    ]
    if rows:
        story.append(_table(header, rows))
    return build_ranking_document(story, tournament.name, compress=compress)


def build_ranking_document(story: list[Any], name: str, *, compress: bool) -> bytes:
    """An A4 ranking of `story` titled `name`, each page footed "name · ranking · page n"
    (a tournament's ranking, a season's)."""
    buffer = io.BytesIO()

    def draw_footer(canvas: Canvas, document: Any) -> None:
        footer = _("%(tournament)s · ranking · page %(page)s") % {"tournament": name, "page": document.page}
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.setFillColor(RULE)
        canvas.drawCentredString(A4[0] / 2, MARGIN / 2, printable(footer))
        canvas.restoreState()

    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=printable(name),
        author="Atout",
        pageCompression=1 if compress else 0,
        invariant=1,
    )
    document.build(story, onFirstPage=draw_footer, onLaterPages=draw_footer)
    return buffer.getvalue()


def _logo(tournament: Tournament) -> list[Any]:
    """The club's logo above the title, 16 mm high (a PNG or JPEG Atout re-encoded itself)."""
    if not tournament.club.logo_version:
        return []
    logo = ClubLogo.objects.filter(club_id=tournament.club_id).only("data", "width", "height").first()
    if logo is None or not logo.height:
        return []
    # 16 mm high, or narrower than the page for a very wide logo; never stretched.
    scale = min(LOGO_HEIGHT / logo.height, (A4[0] - 2 * MARGIN) / logo.width)
    image = Image(io.BytesIO(bytes(logo.data)), width=logo.width * scale, height=logo.height * scale)
    image.hAlign = "CENTER"
    return [image, Spacer(1, 2 * mm)]


def _escape(text: str) -> str:
    # Paragraph reads a little markup: the names are text.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> LongTable:
    width = A4[0] - 2 * MARGIN
    numbers = len(header) - 3
    # Rank and number are short; the criteria get room for their labels; the name takes
    # what is left, and wraps when it is longer.
    narrow = 12 * mm
    column = min(20 * mm, (width - 2 * narrow - 50 * mm) / max(numbers, 1))
    name_width = width - 2 * narrow - column * numbers
    name_style = ParagraphStyle("name", fontName="Helvetica", fontSize=9, leading=11)
    head_style = ParagraphStyle("head", fontName="Helvetica-Bold", fontSize=8, leading=9)
    head_number = ParagraphStyle("head_number", parent=head_style, alignment=2)
    head = [Paragraph(_escape(cell), head_style if i == 2 else head_number) for i, cell in enumerate(header)]
    # A lot goes on a second line of the name cell (see `ranking_rows`).
    body = [[*row[:2], Paragraph(_escape(row[2]).replace("\n", "<br/>"), name_style), *row[3:]] for row in rows]
    table = LongTable(
        [head, *body],
        colWidths=[narrow, narrow, name_width, *[column] * numbers],
        repeatRows=1,
    )
    # ReportLab's commands: a name, two cells, then the command's own values.
    style: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 9),
        ("FONT", (0, 1), (-1, -1), "Helvetica", 9),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, RULE),
        ("ALIGN", (0, 0), (1, -1), "RIGHT"),
        ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    style += [("BACKGROUND", (0, i), (-1, i), ZEBRA) for i in range(2, len(rows) + 1, 2)]
    table.setStyle(TableStyle(style))
    return table
