"""The ranking as a file: CSV for a spreadsheet (French Excel first).

Excel opens a CSV in the machine's code page unless the file starts with a UTF-8 byte
order mark, and a French Excel splits columns on `;` and reads `12,5` as a number; so the
file has a BOM, `;` between columns, and decimal commas. Names that a spreadsheet would
take for a formula are quoted with a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from scoring.models import StandingsSnapshot
from scoring.standings import columns_for
from tournaments.models import Prize
from tournaments.selectors import prize_for_rank

BOM = "\ufeff"
# A cell starting with one of these is a formula to a spreadsheet: a team named
# "=HYPERLINK(...)" must stay a name.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> str:
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return text.replace(".", ",")
    return "" if value is None else str(value)


def _text(value: Any) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def ranking_csv(snapshot: StandingsSnapshot | None, prizes: Sequence[Prize] = ()) -> str:
    """The snapshot's ranking, one competitor a line, the ranking criteria as columns; with
    `prizes`, a last column "Lot" holds the lot each rank wins (*palmarès*)."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    columns = columns_for(snapshot.criteria if snapshot is not None else [])
    lots = [_("Lot")] if prizes else []
    writer.writerow([_("Rank"), _("No."), _("Name"), *[str(c["label"]) for c in columns], _("Played"), *lots])
    for row in snapshot.rows if snapshot is not None else []:
        prize = prize_for_rank(prizes, row.get("rank")) if prizes else None
        writer.writerow(
            [
                row.get("rank"),
                row.get("number"),
                _text(row.get("name")),
                *map(_cell, row.get("values") or []),
                row.get("played"),
                *([_text(prize.text if prize else "")] if prizes else []),
            ]
        )
    return out.getvalue()
