from django.apps import AppConfig


class AtoutConfig(AppConfig):
    name = "atout"
    verbose_name = "Atout"

    def ready(self) -> None:
        # Connects the Celery signals that write one log line per job (see atout.task_logs).
        from atout import task_logs  # noqa: F401
