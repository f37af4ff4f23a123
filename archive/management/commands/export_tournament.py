"""`manage.py export_tournament SLUG [-o FILE]`: a tournament's archive, as one JSON file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.exporting import archive_dumps, archive_export
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Write a tournament's archive (club, players with their contact data, settings, rounds, "
        "tables, every hand with its revisions) as JSON, for import_tournament in another Atout."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's public address (/t/<slug>/)")
        parser.add_argument("-o", "--output", type=Path, help="the file to write (default: standard output)")

    def handle(self, *args: Any, slug: str, output: Path | None, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament with the address {slug!r}")
        text = archive_dumps(archive_export(tournament=tournament))
        if output is None:
            self.stdout.write(text, ending="")
            return
        output.write_text(text, encoding="utf-8")
        self.stderr.write(
            f"Wrote {output} ({len(text.encode()) // 1024 + 1} KB). It holds players' contact data: keep it private."
        )
