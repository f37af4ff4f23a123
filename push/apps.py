from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PushConfig(AppConfig):
    name = "push"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        # `tasks` is imported for its registration: the messages are queued by name
        # (push/enqueue.py), and this process must find them to run them with no broker.
        from push import receivers, tasks  # noqa: F401
        from rounds.signals import round_clock_changed
        from tournaments.signals import round_drawn, tournament_finished

        round_drawn.connect(receivers.round_drawn, dispatch_uid="push.round_drawn")
        round_clock_changed.connect(receivers.round_clock_changed, dispatch_uid="push.round_clock_changed")
        tournament_finished.connect(receivers.tournament_finished, dispatch_uid="push.tournament_finished")
