"""Tournament archives: one JSON file holding a whole tournament, to move it between Atouts.

A venue laptop exports the night's tournament; the league's hosted Atout imports it,
as many times as needed, with nothing lost and nothing doubled.

- `exporting.archive_export(tournament=...)` -> the archive (a dict; `archive_dumps` for
  the text);
- `importing.archive_import(text=..., slug=None)` -> an `ImportReport`, or
  `fields.ArchiveError` (`slug`: import as a new tournament at that free address).

The layout is described in `exporting`; the checks in `parsing` (the file), `fields` and
`identifiers` (each value, as the site's forms check it) and `reading` (references, and
every hand through the engine); the matching rules in `players` and `importing`, which
never undo what this Atout did since the archive was made (`ledger`: the versions seen);
what an import did and left out in `report`. `manage.py export_tournament` and
`import_tournament` call these. An app of its own, above `tournaments` and `scoring`,
whose rows it reads and writes by nature; it keeps the identity a tournament carries
from one Atout to another (`ArchiveIdentity`) and the versions of it exchanged
(`SeenVersion`).
This package imports none of its modules: Django imports it before the models are ready.
"""
