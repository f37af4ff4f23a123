from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        # `tasks` is imported for its registration: the rebuild is queued by name
        # (ratings/enqueue.py), and this process must find it to run it at once when
        # there is no broker.
        from ratings import receivers, tasks  # noqa: F401
        from tournaments.signals import players_merged, tournament_finished

        tournament_finished.connect(receivers.tournament_finished, dispatch_uid="ratings.tournament_finished")
        players_merged.connect(receivers.players_merged, dispatch_uid="ratings.players_merged")
