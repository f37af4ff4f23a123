# The late policy beside the bye policy: what a late arrival scores for the rounds it missed.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0005_new_games'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='late_policy',
            field=models.CharField(choices=[('absent', 'Nothing: a lost partie with 0 points'), ('bye', 'What a bye scores')], default='absent', max_length=16, verbose_name='late arrival'),
        ),
    ]
