"""Tournament archives: one JSON file holding a whole tournament, to move it between Atouts.

A venue laptop exports the night's tournament; the league's hosted Atout imports it,
as many times as needed, with nothing lost and nothing doubled.

- `exporting.archive_export(tournament=...)` -> the archive (a dict; `archive_dumps` for
  the text);
- `importing.archive_import(text=..., slug=None)` -> an `ImportReport`, or
  `fields.ArchiveError` (`slug`: import as a new tournament at that free address).

The layout is described in `exporting`, the checks in `reading`, the matching rules in
`importing`. `manage.py export_tournament` and `import_tournament` call these. An app of
its own, above `tournaments` and `scoring`, whose rows it reads and writes by nature; it
keeps the identity a tournament carries from one Atout to another (`ArchiveIdentity`).
This package imports none of its modules: Django imports it before the models are ready.
"""
