"""Hands as entered, their scores, table results, standings snapshots and background jobs.

Terms (hand, hand revision, table result, snapshot): docs/glossary.md. A rebuild writes
a new StandingsSnapshot version in one transaction, so a crash leaves the previous one.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from kit import fastjson
from tournaments.models import Competitor, Table, Tournament


class Hand(models.Model):
    class Status(models.TextChoices):
        CONFIRMED = "confirmed", _("Counted")
        PENDING = "pending", _("Waiting for the other side's confirmation")

    class Via(models.TextChoices):
        REFEREE = "referee", _("Referee")
        DIRECTOR = "director", _("Director")
        API = "api", _("API")
        SIMULATION = "simulation", _("Simulation")
        IMPORT = "import", _("Import")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("donne"))
    raw = models.JSONField(_("entry as given"))
    options = models.JSONField(_("rule options"), default=dict)
    scores = models.JSONField(_("scores"), default=list)
    outcome = models.CharField(_("outcome"), max_length=16, blank=True)
    reserve_in = models.IntegerField(default=0)
    reserve_out = models.IntegerField(default=0)
    extra = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default="confirmed")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_via = models.CharField(max_length=16, choices=Via.choices, default="referee")
    # Which side of the table (index into the game's sides) typed the hand, when the page
    # knows it: with confirmation required, only a player of another side may confirm.
    entered_side = models.PositiveSmallIntegerField(null=True, blank=True)
    # NULL, not "", for "no key": the unique constraint below must ignore hands without one.
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    # Stored again from a referee's phone, which kept it as acknowledged when the server
    # no longer had it (a copy of the database restored): the director's dashboard counts them.
    recovered_from_phone = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            # Never doubled: one hand per donne number per table, one per idempotency key.
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique"),
            models.UniqueConstraint(
                fields=["table", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="hand_idempotency_key_unique",
            ),
        ]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")

    def __str__(self) -> str:
        return f"{self.table} · donne {self.number}"


class HandRevision(models.Model):
    class Action(models.TextChoices):
        CREATE = "create", _("Entered")
        UPDATE = "update", _("Corrected")
        DELETE = "delete", _("Deleted")
        CONFIRM = "confirm", _("Confirmed")
        RESCORE = "rescore", _("Re-scored")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hand_revisions")
    hand = models.ForeignKey(Hand, on_delete=models.SET_NULL, null=True, blank=True, related_name="revisions")
    number = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=8, choices=Action.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    author_label = models.CharField(max_length=120, blank=True)
    # On a deletion (the referee's undo, the director's delete): the idempotency key the
    # hand was entered with, so that no later resend of that entry brings it back (an
    # offline queue, a phone's journal after a restore: scoring.services.hand_submit).
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.table} · {f'donne {self.number}' if self.number else 'table'} · {self.action}"


class TableResult(models.Model):
    table = models.OneToOneField(Table, on_delete=models.CASCADE, primary_key=True, related_name="result")
    totals = models.JSONField(default=list)
    donnes_played = models.PositiveSmallIntegerField(default=0)
    reserve = models.IntegerField(default=0)
    finished = models.BooleanField(default=False)
    winner_side = models.SmallIntegerField(null=True, blank=True)
    forced = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.table}: {self.totals}"


class JsonTextField(models.JSONField):
    """A JSONField kept as plain text on PostgreSQL (lz4-compressed where the server can).

    For documents written whole and read whole, never queried inside: a ranking of 300
    teams is ~300 KB of JSON, written after every stored hand. jsonb costs PostgreSQL
    30-70 ms to turn back into text on every read; `json` still parses every write and
    compresses it with pglz (~4 ms); text with lz4 takes ~1.7 ms. Encoded and decoded with
    orjson here. Elsewhere (SQLite) it is a JSONField as usual.
    """

    def db_type(self, connection: Any) -> str | None:
        return "text" if connection.vendor == "postgresql" else super().db_type(connection)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if value is None or connection.vendor != "postgresql":
            return super().get_db_prep_value(value, connection, prepared)
        return fastjson.dumps(value) if self.encoder is None else json.dumps(value, cls=self.encoder)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is None or connection.vendor != "postgresql":
            return super().from_db_value(value, expression, connection)
        return fastjson.loads(value) if isinstance(value, str) else value


class StandingsSnapshot(models.Model):
    """A tournament's ranking, version n. `rows` is the list of ranked competitors."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    version = models.PositiveIntegerField()
    after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    rows = JsonTextField(default=list)
    # The criteria the ranking was built with, in order: the columns a page shows.
    criteria = models.JSONField(default=list, blank=True)
    # A hash of the results the ranking was built from: an unchanged input is not
    # written again as a new version (scoring/standings/).
    digest = models.CharField(max_length=64, blank=True)
    built_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "version"], name="standings_version_unique"),
        ]
        indexes = [models.Index(fields=["tournament", "after_round", "-version"])]

    def __str__(self) -> str:
        return f"{self.tournament} v{self.version}"


class Job(models.Model):
    """A background job (re-scoring, rebuilding standings, a season) and its progress.

    A season job's work, its task and the season it rebuilds belong to seasons/, the app
    above this one (its `SeasonJob` links the two); that app's task claims and runs the
    job through scoring/jobs.py, used as a library.
    """

    class Kind(models.TextChoices):
        RESCORE = "rescore", _("Re-score every hand")
        REBUILD = "rebuild", _("Rebuild the standings")
        SEASON = "season", _("Rebuild the season ranking")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    kind = models.CharField(max_length=8, choices=Kind.choices)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="jobs")
    status = models.CharField(max_length=8, choices=Status.choices, default="queued")
    params = models.JSONField(default=dict, blank=True)
    progress = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    # What the job is doing now ("score": scoring hands, "swap": writing everything in
    # one transaction), for the director's progress bar (scoring/jobs.py).
    phase = models.CharField(max_length=16, blank=True)
    # Touched with every progress step: a running job whose heartbeat stopped lost its
    # worker (killed, crashed) and may be taken over by a retry.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["tournament", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"


class StandingsRefresh(models.Model):
    """Coalesces the refreshes of one tournament's standings (scoring/standings/).

    Every stored hand takes a ticket (`requested` + 1) and asks for a refresh; a refresh
    reads the current ticket before it reads the results, and records it in `built`
    once its snapshot is written. A refresh whose ticket is already built has nothing
    to do, so a burst of hands costs a few rebuilds, not one per hand.
    """

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="standings_refresh"
    )
    requested = models.BigIntegerField(default=0)
    built = models.BigIntegerField(default=0)
    built_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.tournament}: {self.built}/{self.requested}"


class StandingsBase(models.Model):
    """What the ranking keeps of the rounds already closed (scoring/standings/base.py).

    Every competitor's totals through `through_round` (the last of the leading closed
    rounds) are its `StandingsTotal` rows; the live refresh adds the rounds in play to
    them instead of reading every round again. `head` is the digest of the ranking's
    configuration and the competitors, `prefix` the digest of everything through
    `through_round` (the snapshots' digest chain), `token` names this build for the
    processes that keep it decoded; an empty token means the totals no longer hold (a
    closed round's results changed) until the next full rebuild stores them again.
    `generation` moves each time they are dropped: a rebuild that read the results
    before then stores nothing.
    """

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="standings_base"
    )
    through_round = models.PositiveSmallIntegerField(default=0)
    head = models.CharField(max_length=64, blank=True)
    prefix = models.CharField(max_length=64, blank=True)
    token = models.CharField(max_length=32, blank=True)
    generation = models.BigIntegerField(default=0)
    built_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.tournament} through round {self.through_round}"


class StandingsTotal(models.Model):
    """One competitor's totals through its tournament's `StandingsBase.through_round`.

    `record` holds the engine's record (`engine.standings.Record`) as JSON: `played`,
    `wins`, `draws`, `losses`, `byes`, `absences`, `for`, `against`, and `results`, its
    partie results as `[round, opponents, points_for, points_against, outcome, finished]`
    (the opponents Buchholz and head-to-head read).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    competitor = models.ForeignKey(Competitor, on_delete=models.CASCADE, related_name="+")
    record = JsonTextField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "competitor"], name="standings_total_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.competitor_id}"


class RefereeCall(models.Model):
    """A table calling the referee (the director) from its referee page, until handled.

    A table has at most one open call: pressing again updates its reason. Calls stay
    after they are handled: the table's history lists them (scoring/views/manage.py).
    """

    class Reason(models.TextChoices):
        NONE = "", _("No reason given")
        DISPUTE = "dispute", _("Dispute")
        CARD = "card", _("Card dropped")
        QUESTION = "question", _("Question")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="referee_calls")
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices, blank=True)
    opened_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    repeats = models.PositiveSmallIntegerField(default=0)
    handled_at = models.DateTimeField(null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ("opened_at", "pk")
        constraints = (
            models.UniqueConstraint(fields=("table",), condition=Q(handled_at=None), name="one_open_call_per_table"),
        )

    def __str__(self) -> str:
        return f"{self.table}: {self.reason or '-'}"
