"""`manage.py import_tournament FILE [--slug NEW]`: bring in a tournament's archive.

Safe to run again with the same or a later archive of the same tournament: it is
updated, never doubled. A damaged archive, or one holding a hand the engine refuses
or scores otherwise, is refused before anything is written, naming the place in the
file. The output says what was written, and what was found already here unchanged.
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
        parser.add_argument("--slug", help="the address to give the tournament here, if its own is taken")

    def handle(self, *args: Any, file: Path, slug: str | None, **options: Any) -> None:
        try:
            text = self.stdin_bytes() if str(file) == "-" else file.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from None
        try:
            report = archive_import(text=text, slug=slug)
        except ArchiveError as exc:
            raise CommandError(f"{file}: not imported, nothing was written. {exc}") from None
        self.stdout.write(report.summary())
        if report.unchanged_summary():
            self.stdout.write(report.unchanged_summary())

    @staticmethod
    def stdin_bytes() -> bytes:
        return sys.stdin.buffer.read()
