"""Site-wide models that belong to no game: the Celery workers' heartbeats."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

# Until the export and import code moves from tournaments/archive/ to archive/, beside
# the model, it finds the model here.
from archive.models import ArchiveIdentity  # noqa: F401


class WorkerHeartbeat(models.Model):
    """The last time a Celery worker ran the heartbeat task: tells the director a worker is up."""

    hostname = models.CharField(_("worker"), max_length=200, unique=True)
    seen_at = models.DateTimeField(_("last seen"))
    runs = models.PositiveIntegerField(_("runs"), default=0)

    class Meta:
        verbose_name = _("worker heartbeat")
        verbose_name_plural = _("worker heartbeats")

    def __str__(self) -> str:
        return f"{self.hostname} @ {self.seen_at:%Y-%m-%d %H:%M:%S}"
