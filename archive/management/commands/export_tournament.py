"""`manage.py export_tournament SLUG [-o FILE]`: a tournament's archive, as one JSON file.

The archive holds players' e-mails and phones and the tables' live referee links, so the
file is written readable by its owner only (mode 600), whatever the umask; a file that
exists already is made so before a byte is written to it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.exporting import archive_dumps, archive_export
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Write a tournament's archive (club, players with their contact data, settings, rounds, "
        "tables, every hand with its revisions) as JSON, for import_tournament in another Atout. "
        "The file is readable by its owner only (mode 600): it holds e-mails, phones and table links."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's public address (/t/<slug>/)")
        parser.add_argument("-o", "--output", type=Path, help="the file to write, mode 600 (default: standard output)")

    def handle(self, *args: Any, slug: str, output: Path | None, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament with the address {slug!r}")
        text = archive_dumps(archive_export(tournament=tournament))
        if output is None:
            self.stdout.write(text, ending="")
            return
        try:
            write_private(output, text)
        except OSError as exc:
            raise CommandError(f"cannot write {output}: {exc.strerror}") from None
        self.stderr.write(
            f"Wrote {output} ({len(text.encode()) // 1024 + 1} KB, readable by you only). "
            "It holds players' contact data and the tables' links: keep it private."
        )


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path` with mode 600: created so, or narrowed before it is written."""
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="utf-8") as handle:
        # An existing file keeps its mode through open(): narrow it before writing.
        os.fchmod(handle.fileno(), 0o600)
        handle.write(text)
