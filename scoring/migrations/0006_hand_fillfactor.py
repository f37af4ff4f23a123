"""Room on every page of the hands table for a re-scored copy of its rows (PostgreSQL).

A re-scoring job rewrites the score columns of every hand of a tournament; none of them
is indexed, so with free space on the page PostgreSQL updates the row in place (a HOT
update) instead of writing a new entry in each of the table's five indexes. Applies to
pages written from now on; existing ones keep their layout until rewritten.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

FILLFACTOR = 60


def set_fillfactor(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE scoring_hand SET (fillfactor = {FILLFACTOR})")


def reset_fillfactor(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE scoring_hand RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [("scoring", "0005_snapshot_rows_as_json_text")]

    operations = [migrations.RunPython(set_fillfactor, reset_fillfactor, elidable=False)]
