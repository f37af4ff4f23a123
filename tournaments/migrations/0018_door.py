"""Self check-in at the door (« Pointage »): the tournament's setting and team rule, its door link, each player's arrival, and the desk's mark of a competitor checked in at the door."""

import django.db.models.deletion
import tournaments.models
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0017_screen_message'),
    ]

    operations = [
        migrations.CreateModel(
            name='Door',
            fields=[
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='door', serialize=False, to='tournaments.tournament')),
                ('token', models.CharField(default=tournaments.models.new_table_token, max_length=64, unique=True)),
                ('revoked', models.BooleanField(default=False)),
            ],
        ),
        migrations.AddField(
            model_name='competitor',
            name='self_checked_in',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='tournament',
            name='door_rule',
            field=models.CharField(choices=[('each', 'Each of its players checks in'), ('one', 'One player may say both are here')], default='each', max_length=8, verbose_name='a team is checked in at the door when'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='self_check_in',
            field=models.BooleanField(default=False, verbose_name='self check-in at the door'),
        ),
        migrations.CreateModel(
            name='Arrival',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('at', models.DateTimeField(auto_now_add=True)),
                ('competitor', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='arrivals', to='tournaments.competitor')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.player')),
            ],
            options={
                'ordering': ['at', 'pk'],
                'constraints': [models.UniqueConstraint(fields=('competitor', 'player'), name='arrival_once')],
            },
        ),
    ]
