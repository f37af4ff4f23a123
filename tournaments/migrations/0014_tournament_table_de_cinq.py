"""Tarot à 4's table of five: `mort` (the dealer sits each donne out) for new tournaments;
the tournaments made before keep what they did, tarot à 5 (`tarot_a_cinq`)."""

from django.db import migrations, models

CHOICES = [
    ("mort", "Tarot for four, the dealer sitting each donne out (the mort)"),
    ("tarot_a_cinq", "Tarot for five, with a called king"),
]


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0013_first_round_order"),
    ]

    operations = [
        # Every existing row takes the column's default of this step: today's behaviour.
        migrations.AddField(
            model_name="tournament",
            name="table_de_cinq",
            field=models.CharField(
                choices=CHOICES, default="tarot_a_cinq", max_length=16, verbose_name="a table of five plays"
            ),
        ),
        # New tournaments: the federation's way.
        migrations.AlterField(
            model_name="tournament",
            name="table_de_cinq",
            field=models.CharField(choices=CHOICES, default="mort", max_length=16, verbose_name="a table of five plays"),
        ),
    ]
