"""`manage.py import_tournament FILE [--slug NEW]`: bring in a tournament's archive.

Safe to run again with the same or a later archive of the same tournament: it is
updated, never doubled, and keeps its address here. `--slug NEW` makes a new tournament
at the address NEW (a copy, when the archive's tournament is already here), and is
refused when NEW is taken. A damaged archive, or one holding a hand the engine refuses
or scores otherwise, is refused before anything is written, naming the place in the
file. The output says whether the tournament was created or updated, then kind by kind
what was created, updated, and found already here unchanged.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.fields import ArchiveError
from archive.importing import archive_import


class Command(BaseCommand):
    help = "Import a tournament archive written by export_tournament (again: it updates, never doubles)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the archive (.json); - for standard input")
        parser.add_argument(
            "--slug",
            help="import as a new tournament at this address (a free one); a tournament already here is never renamed",
        )

    def handle(self, *args: Any, file: Path, slug: str | None, **options: Any) -> None:
        try:
            text = self.stdin_bytes() if str(file) == "-" else file.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from None
        try:
            report = archive_import(text=text, slug=slug)
        except ArchiveError as exc:
            raise CommandError(f"{file}: not imported, nothing was written. {exc}") from None
        for line in report.lines():
            self.stdout.write(line)

    @staticmethod
    def stdin_bytes() -> bytes:
        return sys.stdin.buffer.read()
