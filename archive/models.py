"""The identity a tournament keeps across Atouts through its archives."""

from __future__ import annotations

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _


class ArchiveIdentity(models.Model):
    """The identity a tournament keeps from one Atout to another, through its archives.

    An export gives the tournament an archive id (a UUID) and writes it in the archive;
    an import records the same id beside the tournament it creates. Importing the same
    tournament again, from any later export, finds it by this id and updates it instead
    of making a second copy (archive/exporting.py, archive/importing.py).
    """

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="archive_identity"
    )
    archive_id = models.UUIDField(unique=True, default=uuid.uuid4, editable=False)
    last_exported_at = models.DateTimeField(null=True, blank=True)
    last_imported_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # The table atout's migrations made, when the model lived there: kept, rows and all.
        db_table = "atout_archiveidentity"
        verbose_name = _("archive identity")
        verbose_name_plural = _("archive identities")

    def __str__(self) -> str:
        return f"{self.tournament_id} = {self.archive_id}"


class SeenVersion(models.Model):
    """One version of one part of a tournament that this Atout has exported or imported.

    The parts are its settings, each competitor, forbidden pair and lot, each round with
    its seating, and each table's donnes with its result; `digest` is a SHA-256 of a
    part's key and data (times aside), or of its key alone. An import tells this Atout's
    own changes from an archive's news by them (archive/ledger.py).
    """

    identity = models.ForeignKey(ArchiveIdentity, on_delete=models.CASCADE, related_name="seen")
    digest = models.CharField(max_length=32)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["identity", "digest"], name="archive_seen_version_unique")]
        verbose_name = _("version seen in an archive")
        verbose_name_plural = _("versions seen in archives")

    def __str__(self) -> str:
        return f"{self.identity_id}: {self.digest}"
