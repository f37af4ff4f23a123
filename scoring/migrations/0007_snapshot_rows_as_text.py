"""Snapshot rows as plain text, compressed with lz4 (PostgreSQL; see JsonTextField).

`json` made PostgreSQL parse every ranking written and compress it with pglz; the rows
are only ever written and read whole. lz4 is used where the server was built with it
(PostgreSQL 14 and later as packaged by Debian and the official images); elsewhere the
column keeps the default compression.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, transaction

TABLES = ("scoring_standingssnapshot", "scoring_seasonsnapshot")


def rows_as_text(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN rows TYPE text USING rows::text")
        try:
            with transaction.atomic(using=schema_editor.connection.alias):
                schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN rows SET COMPRESSION lz4")
        except Exception:  # a server without lz4 says so; pglz stays
            continue


def rows_as_json(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN rows SET COMPRESSION default")
        schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN rows TYPE json USING rows::json")


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_hand_fillfactor")]

    operations = [migrations.RunPython(rows_as_text, rows_as_json, elidable=False)]
