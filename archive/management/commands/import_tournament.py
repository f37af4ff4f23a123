"""`manage.py import_tournament FILE [--slug NEW]`: bring in a tournament's archive.

Safe to run again with the same or a later archive of the same tournament: it is
updated, never doubled, and keeps its address here. `--slug NEW` makes a new tournament
at the address NEW (a copy, when the archive's tournament is already here), and is
refused when NEW is taken. A file that is no archive (not JSON, too large, nested too
deep), a damaged archive, one whose values the site's forms would refuse (an address
that is not a slug, a number out of range), or one holding a hand the engine refuses or
scores otherwise, is refused in one line before anything is written, naming the place in
the file. An import never undoes what this Atout did since the archive was made (a
player erased, a referee link renewed or revoked, a donne deleted or corrected). The
output says whether the tournament was created or updated, then kind by kind what was
created, updated, and found already here unchanged, then what was left out and why.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.fields import ArchiveError
from archive.importing import archive_import
from archive.parsing import MAX_BYTES


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
            text = self.stdin_bytes() if str(file) == "-" else self.file_bytes(file)
            report = archive_import(text=text, slug=slug)
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from None
        except ArchiveError as exc:
            raise CommandError(f"{file}: not imported, nothing was written. {exc}") from None
        for line in report.lines():
            self.stdout.write(line)

    @staticmethod
    def file_bytes(file: Path) -> bytes:
        """The file's bytes; a file larger than an archive may be is refused unread."""
        size = file.stat().st_size
        if size > MAX_BYTES:
            raise ArchiveError(
                f"the file is {size / 2**20:.0f} MB, more than the {MAX_BYTES // 2**20} MB an archive may be: "
                "not an Atout archive"
            )
        return file.read_bytes()

    @staticmethod
    def stdin_bytes() -> bytes:
        # One byte more than an archive may hold is enough to refuse it.
        return sys.stdin.buffer.read(MAX_BYTES + 1)
