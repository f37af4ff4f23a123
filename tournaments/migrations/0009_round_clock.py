from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0008_club_people'),
    ]

    operations = [
        migrations.AddField(
            model_name='round',
            name='clock_started_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='clock started at'),
        ),
        migrations.AddField(
            model_name='round',
            name='clock_minutes',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='round duration (minutes)'),
        ),
    ]
