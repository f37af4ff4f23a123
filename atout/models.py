"""Site-wide models that belong to no game: the Celery workers' heartbeats."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


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
