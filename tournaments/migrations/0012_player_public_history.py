from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_format_individual_label"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="public_history",
            field=models.BooleanField(default=True, verbose_name="show their results on a public page"),
        ),
    ]
