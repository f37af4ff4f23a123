# The tokens made before, one per user in Django REST framework's authtoken table (made in
# the admin), keep working: each becomes a named token with the same key. The old table,
# if there is one, is only read; the app that made it is no longer installed.

import hashlib

from django.db import migrations

OLD_TABLE = "authtoken_token"
NAME = "Jeton repris de l’administration"


def copy_tokens_of_before(apps, schema_editor):
    connection = schema_editor.connection
    if OLD_TABLE not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("accounts", "ApiToken")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {connection.ops.quote_name('key')}, user_id FROM {OLD_TABLE}")
        rows = cursor.fetchall()
    ApiToken.objects.bulk_create(
        [
            ApiToken(user_id=user_id, name=NAME, key_hash=hashlib.sha256(key.encode()).hexdigest(), prefix=key[:6])
            for key, user_id in rows
        ],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_initial'),
    ]

    operations = [
        migrations.RunPython(copy_tokens_of_before, migrations.RunPython.noop),
    ]
