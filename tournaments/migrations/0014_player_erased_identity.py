from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_first_round_order"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="erased_identity",
            field=models.JSONField(blank=True, default=dict, editable=False),
        ),
    ]
