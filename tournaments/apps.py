from typing import Any

from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _


def _register_sqlite_fold(sender: Any, connection: Any, **kwargs: Any) -> None:
    """SQLite has no accent folding: give each new connection Atout's own (tournaments.text)."""
    if connection.vendor == "sqlite":
        from tournaments.text import sqlite_fold

        connection.connection.create_function("atout_fold", 1, sqlite_fold, deterministic=True)


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        connection_created.connect(_register_sqlite_fold, dispatch_uid="atout-sqlite-fold")
