"""The relay's outbox and cursor (the venue's side) and its receipts (the hosted side's)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    RANKING = "ranking", _("ranking version")
    DRAW = "draw", _("draw")
    RESULTS = "results", _("results file")


class Outgoing(models.Model):
    """One item to send to the hosted site: sent in `pk` order per tournament, once.

    `key` is the ranking's version, or a counter for the draw and the results file (their
    n-th change). `body` is the JSON text posted as it was when queued (a ranking version
    pruned here meanwhile is still sent).
    """

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    key = models.PositiveIntegerField()
    digest = models.CharField(max_length=80, blank=True)
    body = models.TextField()
    queued_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "kind", "key"], name="relay_outgoing_once"),
        ]
        indexes = [
            models.Index(
                fields=["tournament", "id"], condition=models.Q(sent_at__isnull=True), name="relay_outgoing_unsent"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.kind} {self.key}"


class RelayCursor(models.Model):
    """Where a tournament's relay stands on the venue: what was queued, the last attempt.

    `draw_digest` and `results_digest` are those of the last draw and results file queued
    (a new one is queued when they change); `open` is off once the results file of a
    finished tournament is queued, and on again with any new ranking version.
    """

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    open = models.BooleanField(default=True)
    draw_digest = models.CharField(max_length=80, blank=True)
    draw_key = models.PositiveIntegerField(default=0)
    results_digest = models.CharField(max_length=80, blank=True)
    results_key = models.PositiveIntegerField(default=0)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)

    def __str__(self) -> str:
        return f"relay of {self.tournament_id}"


class RelayReceipt(models.Model):
    """An item the hosted site took from its club's venue: never taken twice."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    key = models.PositiveIntegerField()
    digest = models.CharField(max_length=80, blank=True)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "kind", "key"], name="relay_receipt_once"),
        ]
        indexes = [models.Index(fields=["tournament", "-received_at"], name="relay_receipt_latest")]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.kind} {self.key}"
