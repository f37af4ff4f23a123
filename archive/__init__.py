"""Tournament archives: one JSON file holding a whole tournament, to move it between Atouts.

A venue laptop exports the night's tournament; the league's hosted Atout imports it,
as many times as needed, with nothing lost and nothing doubled.

- `archive_export(tournament=...)` -> the archive (a dict; `archive_dumps` for the text);
- `archive_import(text=..., slug=None)` -> an `ImportReport`, or `ArchiveError`.

The layout is described in `exporting`, the checks in `reading`, the matching rules in
`importing`. `manage.py export_tournament` and `import_tournament` call these.
"""

from tournaments.archive.exporting import FORMAT, VERSION, archive_dumps, archive_export
from tournaments.archive.fields import ArchiveError
from tournaments.archive.importing import ImportReport, archive_import

__all__ = ["FORMAT", "VERSION", "ArchiveError", "ImportReport", "archive_dumps", "archive_export", "archive_import"]
