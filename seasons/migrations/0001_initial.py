"""The seasons' models, moved from scoring/ onto the tables scoring made, row for row.

`Season` and `SeasonSnapshot` are created in this app's state only: their tables
(`scoring_season`, `scoring_seasonsnapshot`, `scoring_season_tournaments`) exist and keep
their rows and names (`db_table`). `SeasonJob` is new: it takes over `scoring_job.season_id`
(each season job's season), copied here before scoring's 0010 drops that column, hence
`run_before`. Backwards, the column is filled again from these rows before they go.
"""

import django.db.models.deletion
import scoring.models
from django.db import migrations, models


def season_jobs_linked(apps, schema_editor):
    Job = apps.get_model('scoring', 'Job')
    SeasonJob = apps.get_model('seasons', 'SeasonJob')
    linked = Job.objects.filter(season__isnull=False).values_list('pk', 'season_id')
    SeasonJob.objects.bulk_create(SeasonJob(job_id=job, season_id=season) for job, season in linked.iterator())


def season_jobs_unlinked(apps, schema_editor):
    Job = apps.get_model('scoring', 'Job')
    SeasonJob = apps.get_model('seasons', 'SeasonJob')
    for job, season in SeasonJob.objects.values_list('job_id', 'season_id').iterator():
        Job.objects.filter(pk=job).update(season_id=season)


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('scoring', '0009_standings_base'),
        ('tournaments', '0013_first_round_order'),
    ]

    run_before = [
        ('scoring', '0010_seasons_moved_out'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Season',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=200, verbose_name='name')),
                        ('slug', models.SlugField(max_length=80, unique=True, verbose_name='public address')),
                        ('scheme', models.CharField(choices=[('placing', 'Points by placing'), ('points', 'Total points')], default='placing', max_length=8, verbose_name='scheme')),
                        ('placing_points', models.JSONField(blank=True, default=list, verbose_name='points by placing')),
                        ('starts', models.DateField(blank=True, null=True, verbose_name='starts')),
                        ('ends', models.DateField(blank=True, null=True, verbose_name='ends')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='tournaments.club')),
                        ('tournaments', models.ManyToManyField(blank=True, db_table='scoring_season_tournaments', related_name='seasons', to='tournaments.tournament')),
                    ],
                    options={
                        'db_table': 'scoring_season',
                        'ordering': ['-created_at'],
                    },
                ),
                migrations.CreateModel(
                    name='SeasonSnapshot',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('version', models.PositiveIntegerField()),
                        ('rows', scoring.models.JsonTextField(default=list)),
                        ('built_at', models.DateTimeField(auto_now_add=True)),
                        ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='snapshots', to='seasons.season')),
                    ],
                    options={
                        'db_table': 'scoring_seasonsnapshot',
                        'ordering': ['season', '-version'],
                        'constraints': [models.UniqueConstraint(fields=('season', 'version'), name='season_version_unique')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.CreateModel(
            name='SeasonJob',
            fields=[
                ('job', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='season_link', serialize=False, to='scoring.job')),
                ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='job_links', to='seasons.season')),
            ],
        ),
        migrations.RunPython(season_jobs_linked, season_jobs_unlinked),
    ]
