from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = _("Seasons")

    def ready(self) -> None:
        # `tasks` is imported for its registration: the season job and its aggregation are
        # queued by name (seasons/ranking.py), and this process must find them to run them
        # at once when there is no broker.
        from scoring.signals import job_finished
        from seasons import receivers, tasks  # noqa: F401
        from tournaments.signals import names_erased, players_merged

        job_finished.connect(receivers.job_finished, dispatch_uid="seasons.job_finished")
        names_erased.connect(receivers.names_erased, dispatch_uid="seasons.names_erased")
        players_merged.connect(receivers.players_merged, dispatch_uid="seasons.players_merged")
