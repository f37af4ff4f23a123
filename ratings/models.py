"""A player's rating and the tournaments it was computed from (ratings/services.py)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player, Tournament


class PlayerRating(models.Model):
    """A player's openskill rating: `mu` (the estimated level), `sigma` (how unsure it is)
    and `ordinal` (mu - 3 sigma, the value shown and used for the draw)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, primary_key=True, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(_("Atout rating"), db_index=True)
    parties = models.PositiveIntegerField(_("parties counted"))
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-ordinal"]
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")

    def __str__(self) -> str:
        return f"{self.player}: {self.ordinal:.1f} ({self.parties})"


class RatedTournament(models.Model):
    """A finished tournament the ratings were last rebuilt from, with its parties counted.

    The rebuild rewrites these rows with the ratings, in one transaction: together they say
    what the ratings stand for, and a rebuild from the same tournaments changes nothing.
    """

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, primary_key=True, related_name="+")
    parties = models.PositiveIntegerField()
    counted_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.parties}"
