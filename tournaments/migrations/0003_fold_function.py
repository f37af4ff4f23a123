"""atout_fold(text) on PostgreSQL, for searching and sorting names the French way."""

from django.db import migrations

from tournaments.text import postgres_fold_function_sql


def create_fold(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(postgres_fold_function_sql())


def drop_fold(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS atout_fold(text)")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_affiliations_and_conflicts")]

    operations = [migrations.RunPython(create_fold, drop_fold, elidable=False)]
