from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_tournament_table_de_cinq"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="erased_identity",
            field=models.JSONField(blank=True, default=dict, editable=False),
        ),
    ]
