"""Cells of a CSV file for a spreadsheet (French Excel first), shared by every file Atout writes.

Excel opens a CSV in the machine's code page unless the file starts with a UTF-8 byte
order mark, and a French Excel splits columns on `;` and reads `12,5` as a number; so the
files have a BOM, `;` between columns, and decimal commas. Text that a spreadsheet would
take for a formula is quoted with a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

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


def sheet_amount(value: Decimal | None) -> str:
    """An amount in euros as French Excel reads it: 27,50 ("" for none)."""
    return "" if value is None else f"{value:.2f}".replace(".", ",")


def sheet_text(value: Any) -> str:
    """Text a spreadsheet keeps as text: the formula-injection guard of every file Atout writes."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def sheet_writer() -> tuple[io.StringIO, Any]:
    """A file started with its BOM, and the `;`-separated writer of its lines."""
    out = io.StringIO()
    out.write(BOM)
    return out, csv.writer(out, delimiter=";", lineterminator="\r\n")
