"""Compile the translation catalogues (.po -> .mo) without GNU gettext.

Django's own `compilemessages` needs `msgfmt`, which a bare machine may lack; polib (a
pure-Python dependency) writes the same .mo files, so `./run` works with nothing else
installed. A catalogue is rebuilt only when its .po is newer than its .mo.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile every locale/*/LC_MESSAGES/*.po into its .mo (pure Python)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--force", action="store_true", help="rebuild even when the .mo is up to date")

    def handle(self, *args: Any, force: bool = False, **options: Any) -> None:
        for locale_dir in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
                mo_path = po_path.with_suffix(".mo")
                if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
                    continue
                catalogue = polib.pofile(str(po_path))
                catalogue.save_as_mofile(str(mo_path))
                done = catalogue.percent_translated()
                self.stdout.write(f"compiled {po_path.relative_to(settings.BASE_DIR)} ({done}% translated)")
