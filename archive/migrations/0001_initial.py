# ArchiveIdentity moves from the atout app to this one. Its table (atout_archiveidentity,
# made by atout's 0002) stays as it is, rows and all: only Django's record of which app
# holds the model changes, here and in atout's 0003, which runs after this one.

import uuid

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('atout', '0002_archive_identity'),
        ('tournaments', '0002_affiliations_and_conflicts'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ArchiveIdentity',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('archive_id', models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                        ('last_exported_at', models.DateTimeField(blank=True, null=True)),
                        ('last_imported_at', models.DateTimeField(blank=True, null=True)),
                        ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='archive_identity', to='tournaments.tournament')),
                    ],
                    options={
                        'verbose_name': 'archive identity',
                        'verbose_name_plural': 'archive identities',
                        'db_table': 'atout_archiveidentity',
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
