"""`manage.py demo`: the demo organiser account (and, once built, the demo club).

Idempotent: running it again finds what it made and adds nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-atout"


class Command(BaseCommand):
    help = "Create the demo organiser (demo / demo-atout). Safe to run again."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True, "first_name": "Demo"}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
            self.stdout.write(f"created the demo organiser {DEMO_USERNAME}")
        else:
            self.stdout.write(f"the demo organiser {DEMO_USERNAME} already exists")
