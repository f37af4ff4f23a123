import os

from django.apps import AppConfig


class AtoutConfig(AppConfig):
    name = "atout"
    verbose_name = "Atout"

    def ready(self) -> None:
        # Connects the Celery signals that write one log line per job (see atout.task_logs).
        from atout import task_logs  # noqa: F401
        from serving.backups import BACKUP_DIR_ENV, after_round_closed, after_round_drawn

        if os.environ.get(BACKUP_DIR_ENV):
            # Venue mode: a copy of the database each time a round is drawn or closes
            # (serving.backups).
            from tournaments.signals import round_closed, round_drawn

            round_closed.connect(after_round_closed, dispatch_uid="serving.backups.after_round_closed")
            round_drawn.connect(after_round_drawn, dispatch_uid="serving.backups.after_round_drawn")
