# Clubs and their people: a town and a logo per club; memberships with a role (club
# administrator or organiser) in place of the plain list of organisers, each organiser of
# before becoming an administrator of their club (they could do everything then);
# invitations by e-mail; the date a player was anonymised.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def organisers_become_administrators(apps, schema_editor):
    Club = apps.get_model("tournaments", "Club")
    Membership = apps.get_model("tournaments", "Membership")
    through = Club.organisers.through
    Membership.objects.bulk_create(
        [Membership(club_id=row.club_id, user_id=row.user_id, role="admin") for row in through.objects.all()]
    )


def memberships_become_organisers(apps, schema_editor):
    Club = apps.get_model("tournaments", "Club")
    Membership = apps.get_model("tournaments", "Membership")
    through = Club.organisers.through
    through.objects.bulk_create(
        [through(club_id=m.club_id, user_id=m.user_id) for m in Membership.objects.all()]
    )


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0007_tarot_seating'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='club',
            name='town',
            field=models.CharField(blank=True, max_length=120, verbose_name='town'),
        ),
        migrations.AddField(
            model_name='club',
            name='logo_version',
            field=models.CharField(blank=True, editable=False, max_length=16),
        ),
        migrations.CreateModel(
            name='ClubLogo',
            fields=[
                ('club', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='logo', serialize=False, to='tournaments.club')),
                ('data', models.BinaryField()),
                ('content_type', models.CharField(max_length=20)),
                ('width', models.PositiveIntegerField()),
                ('height', models.PositiveIntegerField()),
                ('updated_at', models.DateTimeField(auto_now=True)),
            ],
        ),
        migrations.CreateModel(
            name='Membership',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('admin', 'Club administrator'), ('organiser', 'Organiser')], default='organiser', max_length=16, verbose_name='role')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='tournaments.club')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'membership',
                'verbose_name_plural': 'memberships',
                'ordering': ['club', 'user__username'],
                'constraints': [models.UniqueConstraint(fields=('club', 'user'), name='membership_unique')],
            },
        ),
        migrations.RunPython(organisers_become_administrators, memberships_become_organisers),
        migrations.RemoveField(
            model_name='club',
            name='organisers',
        ),
        migrations.AddField(
            model_name='club',
            name='organisers',
            field=models.ManyToManyField(blank=True, related_name='clubs', through='tournaments.Membership', to=settings.AUTH_USER_MODEL, verbose_name='organisers'),
        ),
        migrations.CreateModel(
            name='Invitation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('email', models.EmailField(max_length=254, verbose_name='email')),
                ('role', models.CharField(choices=[('admin', 'Club administrator'), ('organiser', 'Organiser')], default='organiser', max_length=16, verbose_name='role')),
                ('token_hash', models.CharField(max_length=64, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('expires_at', models.DateTimeField()),
                ('accepted_at', models.DateTimeField(blank=True, null=True)),
                ('accepted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invitations', to='tournaments.club')),
                ('invited_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'invitation',
                'verbose_name_plural': 'invitations',
                'ordering': ['club', '-created_at'],
            },
        ),
        migrations.AddField(
            model_name='player',
            name='anonymised_at',
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
    ]
