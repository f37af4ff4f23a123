"""Seasons move to an app of their own (seasons/): their models leave scoring, their tables stay.

`Season`, `SeasonSnapshot` and the seasons' tournaments keep their tables
(`scoring_season`, `scoring_seasonsnapshot`, `scoring_season_tournaments`) and every row
in them: this only takes them out of scoring's state, and seasons' 0001 takes them into
its own under the same names. The season a season job rebuilds (`Job.season`) becomes a
`seasons.SeasonJob` row: seasons' 0001 copies the column before this drops it (it runs
first: its `run_before` names this migration, so that scoring names nothing above it).
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0009_standings_base'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='job',
            name='season',
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='SeasonSnapshot'),
                migrations.DeleteModel(name='Season'),
            ],
            database_operations=[],
        ),
    ]
