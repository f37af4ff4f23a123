"""Reading a club's player list from a spreadsheet export (CSV), without touching the database.

Terms (line, error, flag of an import): docs/glossary.md. A flag is a row with the same
licence as a player of the club, or the same name without licence numbers telling them
apart.

Club spreadsheets come from Excel in French locales (`;`, Windows-1252) as often as from
LibreOffice or Google Sheets (`,`, UTF-8 with or without a byte-order mark): all are read.
`services.players_import` writes what `parse_players` found valid, all in one transaction.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

MAX_BYTES = 2_000_000
MAX_ROWS = 5_000
# Column names as clubs write them, after `_key` (lower case, no accents, single spaces).
COLUMN_ALIASES: dict[str, tuple[str, ...]] = {
    "last_name": ("nom", "nom de famille", "last name", "last_name", "surname"),
    "first_name": ("prenom", "first name", "first_name"),
    "club": ("club", "club de licence"),
    "licence": ("licence", "license", "n licence", "no licence", "numero de licence", "n de licence", "licence ffb"),
}
REQUIRED = ("last_name", "first_name")
MAX_LENGTHS = {"last_name": 100, "first_name": 100, "club": 200, "licence": 30}


class ImportFileError(ValueError):
    """The file as a whole cannot be read (encoding, size, header)."""


@dataclass(frozen=True, slots=True)
class KnownPlayer:
    """A player already in the club, as far as duplicate detection needs it."""

    last_name: str
    first_name: str
    licence: str
    club_label: str
    label: str


@dataclass(slots=True)
class ImportRow:
    line: int
    last_name: str
    first_name: str
    club: str
    licence: str
    errors: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)

    @property
    def importable(self) -> bool:
        return not self.errors and not self.flags


@dataclass(slots=True)
class ImportPreview:
    rows: list[ImportRow]
    file_errors: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.file_errors and not any(row.errors for row in self.rows)

    @property
    def to_import(self) -> list[ImportRow]:
        return [row for row in self.rows if row.importable]

    @property
    def flagged(self) -> list[ImportRow]:
        return [row for row in self.rows if row.flags and not row.errors]

    @property
    def bad_rows(self) -> list[ImportRow]:
        return [row for row in self.rows if row.errors]


def _key(text: str) -> str:
    """Lower case, accents and punctuation dropped, spaces collapsed: 'N° Licence' -> 'n licence'."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", plain).split())


def licence_key(licence: str) -> str:
    return re.sub(r"\s+", "", licence).casefold()


def person_words(last_name: str, first_name: str) -> tuple[str, ...]:
    """The words of a full name in one order, accents, case and punctuation aside: « Lefèvre
    Hélène », « Hélène LEFEVRE » and « Helene / Lefevre » typed in swapped fields are one name."""
    return tuple(sorted(_key(f"{last_name} {first_name}").split()))


def name_key(last_name: str, first_name: str, club_label: str) -> tuple[tuple[str, ...], str]:
    return (person_words(last_name, first_name), _key(club_label))


def same_person(licence_a: str, licence_b: str) -> bool:
    """Two records of the same name are one person unless two different licences say otherwise."""
    return not (licence_a and licence_b and licence_key(licence_a) != licence_key(licence_b))


def decode(raw: bytes) -> str:
    """The file's text: UTF-8 (byte-order mark or not), else Windows-1252, else an error."""
    if len(raw) > MAX_BYTES:
        raise ImportFileError(_("The file is too large (more than 2 MB)."))
    if b"\x00" in raw:
        raise ImportFileError(_("This is not a text file: save the spreadsheet as CSV."))
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ImportFileError(_("The file's encoding is not readable: save it as CSV in UTF-8."))


def _delimiter(header_line: str) -> str:
    counts = {delimiter: header_line.count(delimiter) for delimiter in (";", ",", "\t")}
    return max(counts, key=lambda d: counts[d]) if any(counts.values()) else ";"


def _columns(header: Sequence[str]) -> dict[str, int]:
    """Where each known column is; raises ImportFileError when a required one is missing."""
    found: dict[str, int] = {}
    for index, title in enumerate(header):
        for name, aliases in COLUMN_ALIASES.items():
            if _key(title) in aliases and name not in found:
                found[name] = index
    missing = [name for name in REQUIRED if name not in found]
    if missing:
        titles = {"last_name": "nom", "first_name": "prénom"}
        raise ImportFileError(
            _("Missing column: %(columns)s (the first line must name the columns: nom, prénom, club, licence).")
            % {"columns": ", ".join(titles[name] for name in missing)}
        )
    return found


def _records(text: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header and each non-blank record with the line it starts on."""
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    if not first:
        raise ImportFileError(_("The file is empty."))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first))
    header: list[str] | None = None
    records: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for values in reader:
            if any(value.strip() for value in values):
                if header is None:
                    header = values
                else:
                    records.append((start, values))
            start = reader.line_num + 1
    except csv.Error as error:
        raise ImportFileError(_("Line %(line)s cannot be read: %(error)s") % {"line": start, "error": error}) from None
    if header is None:
        raise ImportFileError(_("The file is empty."))
    return header, records


def _row_from(line: int, values: list[str], columns: dict[str, int], width: int) -> ImportRow:
    def value(name: str) -> str:
        index = columns.get(name)
        return values[index].strip() if index is not None and index < len(values) else ""

    row = ImportRow(line, value("last_name"), value("first_name"), value("club"), value("licence"))
    # Trailing empty cells are what spreadsheets export; filled extra cells mean a wrong delimiter.
    if any(v.strip() for v in values[width:]):
        row.errors.append(
            _("This line has %(count)s cells but the header names %(width)s columns.")
            % {"count": len(values), "width": width}
        )
    if not row.last_name:
        row.errors.append(_("The last name (nom) is empty."))
    if not row.first_name:
        row.errors.append(_("The first name (prénom) is empty."))
    labels = {"last_name": "nom", "first_name": "prénom", "club": "club", "licence": "licence"}
    for name, limit in MAX_LENGTHS.items():
        if len(value(name)) > limit:
            row.errors.append(
                _("The %(column)s is longer than %(limit)s characters.") % {"column": labels[name], "limit": limit}
            )
    return row


def affiliation_for(club_cell: str, club_name: str, club_slug: str) -> str:
    """The `Player.affiliation` a row's club cell means: empty when it names the importing club."""
    if not club_cell or _key(club_cell) in {_key(club_name), _key(club_slug)}:
        return ""
    return club_cell


def parse_players(text: str, *, club_name: str, club_slug: str, known: Iterable[KnownPlayer]) -> ImportPreview:
    """Every row of the file checked, with the line it is on; file-level problems in `file_errors`."""
    try:
        header, records = _records(text)
        columns = _columns(header)
    except ImportFileError as error:
        return ImportPreview(rows=[], file_errors=[str(error)])
    if not records:
        return ImportPreview(rows=[], file_errors=[_("The file has a header but no player.")])
    if len(records) > MAX_ROWS:
        return ImportPreview(rows=[], file_errors=[_("More than %(max)s players in one file.") % {"max": MAX_ROWS}])

    known = list(known)
    known_licences = {licence_key(p.licence): p for p in known if p.licence}
    known_names: dict[tuple[tuple[str, ...], str], list[KnownPlayer]] = {}
    for player in known:
        known_names.setdefault(name_key(player.last_name, player.first_name, player.club_label), []).append(player)

    rows: list[ImportRow] = []
    seen_licences: dict[str, ImportRow] = {}
    seen_names: dict[tuple[tuple[str, ...], str], list[ImportRow]] = {}
    for line, values in records:
        row = _row_from(line, values, columns, len(header))
        rows.append(row)
        if row.errors:
            continue
        club_label = affiliation_for(row.club, club_name, club_slug) or club_name
        if row.licence:
            earlier = seen_licences.get(licence_key(row.licence))
            if earlier is not None:
                row.errors.append(
                    _("Licence %(licence)s is already on line %(line)s.")
                    % {"licence": row.licence, "line": earlier.line}
                )
                continue
            seen_licences[licence_key(row.licence)] = row
        key = name_key(row.last_name, row.first_name, club_label)
        twin = next((r for r in seen_names.get(key, []) if same_person(r.licence, row.licence)), None)
        if twin is not None:
            row.errors.append(_("Same player as line %(line)s.") % {"line": twin.line})
            continue
        seen_names.setdefault(key, []).append(row)
        _flag_known(row, key, known_licences, known_names)
    return ImportPreview(rows=rows)


def _flag_known(
    row: ImportRow,
    key: tuple[tuple[str, ...], str],
    known_licences: dict[str, KnownPlayer],
    known_names: dict[tuple[tuple[str, ...], str], list[KnownPlayer]],
) -> None:
    if row.licence and licence_key(row.licence) in known_licences:
        player = known_licences[licence_key(row.licence)]
        row.flags.append(_("Already in the club (same licence): %(player)s. Skipped.") % {"player": player.label})
        return
    for player in known_names.get(key, []):
        if same_person(player.licence, row.licence):
            row.flags.append(_("Already in the club (same name): %(player)s. Skipped.") % {"player": player.label})
            return
