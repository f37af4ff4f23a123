"""Each competitor's personal link to « Ma soirée »: a token like a table's, and whether the
director withdrew it. Existing competitors get one each (a callable default on an added
field is called once for every row, which a unique column refuses)."""

from django.db import migrations, models

import tournaments.models


def give_tokens(apps, schema_editor):
    Competitor = apps.get_model("tournaments", "Competitor")
    for competitor in Competitor.objects.filter(link_token__isnull=True).only("pk").iterator():
        Competitor.objects.filter(pk=competitor.pk).update(link_token=tournaments.models.new_table_token())


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0015_player_erased_identity")]

    operations = [
        migrations.AddField(
            model_name="competitor",
            name="link_token",
            field=models.CharField(max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="competitor",
            name="link_revoked",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(give_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="competitor",
            name="link_token",
            field=models.CharField(default=tournaments.models.new_table_token, max_length=64, unique=True),
        ),
    ]
