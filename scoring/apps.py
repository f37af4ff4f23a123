from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        from kit.fastjson import use_for_psycopg

        use_for_psycopg()
        # The services queue the tasks by name (scoring/enqueue.py): register them here,
        # so that this process finds each one, and runs it at once when there is no broker.
        from scoring import tasks  # noqa: F401
