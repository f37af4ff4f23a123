"""The results files a club's season took in, each kept with the tournament it became."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ResultsImport(models.Model):
    """A results file imported by a club (a league, a federation): the tournament it became.

    `source_id` is the file's `id`, the tournament's identity across Atouts: the same
    tournament imported again by the same club finds its copy here and rewrites it
    (or leaves it as it is when the file did not change, `digest`), never a second copy.
    """

    club = models.ForeignKey("tournaments.Club", on_delete=models.CASCADE, related_name="+")
    source_id = models.UUIDField()
    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, related_name="results_import")
    source_club = models.CharField(_("club of origin"), max_length=200)
    digest = models.CharField(max_length=80)
    imported_at = models.DateTimeField(auto_now=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "source_id"], name="results_import_once_per_club")]
        verbose_name = _("imported results file")
        verbose_name_plural = _("imported results files")

    def __str__(self) -> str:
        return f"{self.club_id}: {self.source_id}"
