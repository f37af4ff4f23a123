"""Snapshots: the stored rankings, one new version whenever what they count changed.

A snapshot row of StandingsSnapshot holds `rows` in ranking order (scoring/standings/
ranking.py), `criteria` (the columns), `after_round` (the last round it counts) and
`digest` (a hash of its input); a round's snapshot is rewritten when a correction changes
that round. A round's status (in play, closed) is part of its digest: closing a round
writes a new version, so that the pages saying which rounds the ranking counts follow.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import connection, transaction

from scoring.models import StandingsSnapshot
from scoring.standings.ranking import rank_rows, ranking_config
from scoring.standings.reading import Loaded, load
from scoring.standings.signals import snapshot_written
from tournaments.models import Tournament

# Versions kept per `after_round` (the live ranking's and each round's); older ones go,
# looked for every PRUNE_EVERY versions rather than on every hand.
KEEP_VERSIONS = 3
PRUNE_EVERY = 10


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, separators=(",", ":"), default=str).encode()).hexdigest()


def _prefix_digests(loaded: Loaded, config_digest: str) -> dict[int, str]:
    """A digest per round n of everything the ranking after round n depends on."""
    running = _digest([config_digest, [(c[0], c[1], c[2], c[3]) for c in loaded.competitors]])
    out = {}
    for number in loaded.rounds:
        running = _digest([running, number, loaded.round_digests[number]])
        out[number] = running
    return out


def rebuild_locked(tournament: Tournament, *, force: bool = False) -> StandingsSnapshot | None:
    """Write the snapshots whose input changed; the caller holds the tournament's lock.

    Each round's snapshot is rewritten when a result of rounds 1..n changed, lowest
    round first, so that the live snapshot (the last round's) is always the newest
    version. `force` writes the live snapshot even when its input did not change (a
    job marks the switch to new criteria with a new version). Returns the new live
    snapshot, or None when nothing changed.
    """
    loaded = load(tournament)
    criteria, match_points = ranking_config(tournament)
    policies = [tournament.bye_policy, tournament.bye_points, tournament.late_policy]
    config_digest = _digest([criteria, match_points, *policies, tournament.format])
    digests = _prefix_digests(loaded, config_digest)
    stored: dict[int | None, tuple[int, str]] = {}
    for after_round, version, digest in (
        StandingsSnapshot.objects.filter(tournament=tournament)
        .order_by("after_round", "-version")
        .distinct("after_round")
        .values_list("after_round", "version", "digest")
        if connection.vendor == "postgresql"
        else _latest_per_round_portable(tournament)
    ):
        stored[after_round] = (version, digest)
    newest = max((version for version, _digest_ in stored.values()), default=0)
    live_round = loaded.rounds[-1] if loaded.rounds else None
    wanted: list[tuple[int | None, str]] = [(number, digests[number]) for number in loaded.rounds]
    if live_round is None:
        wanted = [(None, config_digest)]
    writes = []
    for after_round, digest in wanted:
        is_live = after_round == live_round
        current = stored.get(after_round)
        up_to_date = current is not None and current[1] == digest
        if is_live:
            up_to_date = up_to_date and current is not None and current[0] == newest and not force
        if not up_to_date:
            writes.append((after_round, digest))
    if not writes:
        return None
    snapshots = []
    for offset, (after_round, digest) in enumerate(writes, start=1):
        rows = rank_rows(loaded, after_round, criteria, match_points)
        snapshots.append(
            StandingsSnapshot(
                tournament=tournament,
                version=newest + offset,
                after_round=after_round,
                rows=rows,
                criteria=criteria,
                digest=digest,
            )
        )
    for snapshot in snapshots:
        # One INSERT each, not bulk_create: on PostgreSQL that passes the rows as a text
        # array, whose elements psycopg escapes quote by quote in Python (~0.1 s a ranking).
        snapshot.save(force_insert=True)
    announce(tournament, snapshots[-1].version)
    if len(snapshots) > 1 or snapshots[-1].version % PRUNE_EVERY == 0:
        _prune(tournament)
    return snapshots[-1]


def announce(tournament: Tournament, version: int) -> None:
    """Tell the readers of this process, once committed, that a new live version exists."""
    tournament_id, slug = tournament.pk, tournament.slug

    def send() -> None:
        snapshot_written.send(sender=StandingsSnapshot, tournament_id=tournament_id, slug=slug, version=version)

    transaction.on_commit(send)


def _latest_per_round_portable(tournament: Tournament) -> Iterable[tuple[int | None, int, str]]:
    seen: set[int | None] = set()
    for after_round, version, digest in (
        StandingsSnapshot.objects.filter(tournament=tournament)
        .order_by("-version")
        .values_list("after_round", "version", "digest")
    ):
        if after_round not in seen:
            seen.add(after_round)
            yield after_round, version, digest


def _prune(tournament: Tournament) -> None:
    """Keep the newest KEEP_VERSIONS snapshots of each round (and the live one)."""
    keep: dict[int | None, int] = defaultdict(int)
    doomed = []
    for pk, after_round in (
        StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").values_list("pk", "after_round")
    ):
        keep[after_round] += 1
        if keep[after_round] > KEEP_VERSIONS:
            doomed.append(pk)
    if doomed:
        StandingsSnapshot.objects.filter(pk__in=doomed).delete()
