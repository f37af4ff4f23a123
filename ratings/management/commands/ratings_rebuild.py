"""`manage.py ratings_rebuild`: rebuild every player's rating now, in this process."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from ratings.services import ratings_rebuild


class Command(BaseCommand):
    help = "Rebuild every player's Atout rating from all finished tournaments (the worker does it after each one)."

    def handle(self, *args: Any, **options: Any) -> None:
        summary = ratings_rebuild()
        self.stdout.write(
            f"{summary.parties} parties of {summary.tournaments} finished tournaments: "
            f"{summary.players} players rated, {summary.changed} ratings changed."
        )
