"""A season, the versions of its ranking, and the season each season job rebuilds.

Terms (season, season job): docs/glossary.md. The seasons' tables were made when their
models lived in scoring/: they keep their names (`db_table`), and the move changed no
row (seasons/migrations/0001_initial.py).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models import Job, JsonTextField
from tournaments.models import Club, Tournament


class Season(models.Model):
    """A ranking over several tournaments of a club or a league."""

    class Scheme(models.TextChoices):
        PLACING = "placing", _("Points by placing")
        POINTS = "points", _("Total points")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("public address"), max_length=80, unique=True)
    scheme = models.CharField(_("scheme"), max_length=8, choices=Scheme.choices, default="placing")
    placing_points = models.JSONField(_("points by placing"), default=list, blank=True)
    starts = models.DateField(_("starts"), null=True, blank=True)
    ends = models.DateField(_("ends"), null=True, blank=True)
    tournaments = models.ManyToManyField(
        Tournament, related_name="seasons", blank=True, db_table="scoring_season_tournaments"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "scoring_season"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class SeasonSnapshot(models.Model):
    """A season's ranking, version n (seasons/ranking.py); `rows` are `seasons.rows.SeasonRow`."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    rows = JsonTextField(default=list)
    built_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "scoring_seasonsnapshot"
        ordering = ["season", "-version"]
        constraints = [models.UniqueConstraint(fields=["season", "version"], name="season_version_unique")]

    def __str__(self) -> str:
        return f"{self.season} v{self.version}"


class SeasonJob(models.Model):
    """The season a season job (`scoring.Job` of kind `season`) rebuilds.

    Jobs are scoring's, below this app: the link lives here, so a Job knows nothing of
    seasons. (It was the column `scoring_job.season_id` before seasons had an app.) A
    season deleted takes its links along and leaves its jobs as they were: one still
    queued then fails, saying the season is gone.
    """

    job = models.OneToOneField(Job, on_delete=models.CASCADE, primary_key=True, related_name="season_link")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="job_links")

    def __str__(self) -> str:
        return f"{self.season}: job {self.job_id}"
