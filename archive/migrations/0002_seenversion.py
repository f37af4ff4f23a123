import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("archive", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="SeenVersion",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("digest", models.CharField(max_length=32)),
                (
                    "identity",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="seen", to="archive.archiveidentity"
                    ),
                ),
            ],
            options={
                "verbose_name": "version seen in an archive",
                "verbose_name_plural": "versions seen in archives",
                "constraints": [
                    models.UniqueConstraint(fields=("identity", "digest"), name="archive_seen_version_unique")
                ],
            },
        ),
    ]
