# Accounts made at /signup/ (their e-mail confirmed by a link), and the row that closes the
# first-run setup: a database that already has accounts gets it at once, so /setup/ never
# opens there.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def close_setup_where_accounts_exist(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    if User.objects.exists():
        apps.get_model("accounts", "SiteSetup").objects.get_or_create(id=1)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0002_tokens_of_before'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='SignUp',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('nonce', models.CharField(max_length=32)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('confirmed_at', models.DateTimeField(blank=True, null=True)),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='signup', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'sign-up',
                'verbose_name_plural': 'sign-ups',
            },
        ),
        migrations.CreateModel(
            name='SiteSetup',
            fields=[
                ('id', models.PositiveSmallIntegerField(default=1, primary_key=True, serialize=False)),
                ('done_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'verbose_name': 'site setup',
                'constraints': [models.CheckConstraint(condition=models.Q(('id', 1)), name='site_setup_singleton')],
            },
        ),
        migrations.RunPython(close_setup_where_accounts_exist, migrations.RunPython.noop),
    ]
