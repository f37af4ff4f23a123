# ArchiveIdentity now belongs to the archive app (archive/migrations/0001_initial.py),
# which keeps its table: atout forgets the model without touching the database.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('atout', '0002_archive_identity'),
        ('archive', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='ArchiveIdentity')],
            database_operations=[],
        ),
    ]
