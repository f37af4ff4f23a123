"""Site-wide models that belong to no game: the Celery workers' heartbeats, and the identity a
tournament keeps across Atouts through its archives."""

from __future__ import annotations

import uuid

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


class ArchiveIdentity(models.Model):
    """The identity a tournament keeps from one Atout to another, through its archives.

    An export gives the tournament an archive id (a UUID) and writes it in the archive;
    an import records the same id beside the tournament it creates. Importing the same
    tournament again, from any later export, finds it by this id and updates it instead
    of making a second copy (see tournaments/archive/).
    """

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="archive_identity"
    )
    archive_id = models.UUIDField(unique=True, default=uuid.uuid4, editable=False)
    last_exported_at = models.DateTimeField(null=True, blank=True)
    last_imported_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("archive identity")
        verbose_name_plural = _("archive identities")

    def __str__(self) -> str:
        return f"{self.tournament_id} = {self.archive_id}"
