from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_entry_fees_prizes"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="public_history",
            field=models.BooleanField(default=True, verbose_name="show their results on a public page"),
        ),
    ]
