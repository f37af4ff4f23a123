"""Results files: a tournament's results as one documented file, and their import into a season.

A *results file* (format `atout-results`, version 1; docs/results-format.md, its JSON
Schema in `results/schema/`) carries one tournament: its game, rules and options, each
competitor with their players (and licences: the file is for the club and its league,
never public), rank and points, and every table with each donne's engine input and
score. A league or a federation imports files from several clubs into its season; the
file is refused, with the place of each problem (a JSON pointer), when it breaks the
schema or when the engine does not give its scores, totals, ranks and points.

- `building.results_file(tournament=...)` -> the file (a dict), `results_dumps` its text,
  `results_csv` the same as a spreadsheet, one row per side of every table;
- `checking.check_file(text)` -> the file read and checked, or `ResultsRefused` with
  every problem and its place;
- `importing.results_import(by=..., season=..., text=...)` -> the season's tournament.

An app above `archive` (a tournament's identity across Atouts, `ArchiveIdentity`, is
the file's `id`) and `seasons`, below `api`.
This package imports none of its modules: Django imports it before the models are ready.
"""
