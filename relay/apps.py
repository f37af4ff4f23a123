from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RelayConfig(AppConfig):
    name = "relay"
    verbose_name = _("Relay to the hosted site")

    def ready(self) -> None:
        from relay import outbox
        from scoring.signals import snapshots_written

        snapshots_written.connect(outbox.snapshots_queued, dispatch_uid="relay-snapshots-queued")
