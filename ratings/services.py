"""Rebuilding every player's rating from all finished tournaments (docs/rules.md).

`ratings_rebuild` reads the finished tournaments in date order (then by id), their
rounds by number and the tables by number, makes one openskill match of each table that
played at least one donne (ratings/compute.py), and writes the ratings and the list of
tournaments counted in one transaction. It starts from nothing every time, so running it
twice gives the same ratings, and a run killed half-way leaves the previous ones. Two runs
at once queue on a lock; the second reads what the first wrote and changes nothing.

The rebuild is owed work: a finished tournament missing from `RatedTournament` says a
rebuild is due, so a message lost on the way (a broker away or restarted empty) is sent
again by the workers' sweep (`ratings_owed_resend`, called from atout.celery).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from ratings.compute import Partie, Rated, rate, side_ranks
from ratings.enqueue import enqueue_rebuild
from ratings.models import PlayerRating, RatedTournament
from scoring.models import TableResult
from tournaments.models import Competitor, Seat, Tournament

# The key of the PostgreSQL advisory lock that lets one rebuild run at a time.
LOCK_KEY = 0x41544F5554  # "ATOUT"


@dataclass(frozen=True, slots=True)
class RebuildSummary:
    tournaments: int
    parties: int
    players: int
    changed: int


def finished_parties() -> tuple[list[Partie], dict[int, int]]:
    """Every partie of the finished tournaments in the order played, and the number of
    parties counted per tournament (every finished tournament, 0 when none counted)."""
    finished = Tournament.objects.filter(status=Tournament.Status.FINISHED)
    tournaments = list(finished.order_by("date", "pk").values_list("pk", flat=True))
    place = {pk: index for index, pk in enumerate(tournaments)}
    # Four queries, whatever the number of tournaments (the finished ones as a subquery).
    results = list(
        TableResult.objects.filter(table__round__tournament__in=finished.values("pk"), donnes_played__gt=0)
        .values_list(
            "table_id", "totals", "winner_side", "table__number", "table__round__number", "table__round__tournament_id"
        )
        .iterator(chunk_size=2000)
    )
    # A tournament finished since the first query is left to the rebuild its finish queued.
    results = [row for row in results if row[5] in place]
    tables = {row[0] for row in results}
    sides: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    seats = Seat.objects.filter(round__tournament__in=finished.values("pk")).values_list(
        "table_id", "side", "competitor_id"
    )
    for table_id, side, competitor_id in seats.iterator(chunk_size=5000):
        if table_id in tables:
            sides[table_id][side].append(competitor_id)
    players: dict[int, list[int]] = defaultdict(list)
    members = Competitor.players.through.objects.filter(competitor__tournament__in=finished.values("pk"))
    for competitor_id, player_id in members.values_list("competitor_id", "player_id").iterator(chunk_size=5000):
        players[competitor_id].append(player_id)
    counted = dict.fromkeys(tournaments, 0)
    parties: list[Partie] = []
    results.sort(key=lambda row: (place[row[5]], row[4], row[3]))
    for table_id, totals, winner_side, _table, _round, tournament_id in results:
        partie = _partie(sides[table_id], players, totals, winner_side)
        if partie is not None:
            parties.append(partie)
            counted[tournament_id] += 1
    return parties, counted


def _partie(
    seated: dict[int, list[int]], players: dict[int, list[int]], totals: object, winner_side: int | None
) -> Partie | None:
    """One table as an openskill match, or None when it cannot be one: fewer than two
    sides, a side with no known player, a player on two sides, totals that do not match."""
    if not isinstance(totals, list) or len(seated) < 2 or sorted(seated) != list(range(len(totals))):
        return None
    if not all(isinstance(total, int | float) and not isinstance(total, bool) for total in totals):
        return None
    sides = tuple(tuple(sorted(p for c in seated[side] for p in players[c])) for side in sorted(seated))
    everyone = [p for side in sides for p in side]
    if any(not side for side in sides) or len(everyone) != len(set(everyone)):
        return None
    return Partie(sides=sides, ranks=side_ranks(totals, winner_side))


def ratings_owed_resend() -> bool:
    """Queue a rebuild if a finished tournament is not counted yet; whether one was sent."""
    counted = RatedTournament.objects.values("tournament_id")
    if not Tournament.objects.filter(status=Tournament.Status.FINISHED).exclude(pk__in=counted).exists():
        return False
    enqueue_rebuild()
    return True


def _lock() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])


@transaction.atomic
def ratings_rebuild() -> RebuildSummary:
    """Rebuild every rating from all finished tournaments; write only what changed."""
    _lock()
    parties, counted = finished_parties()
    ratings = rate(parties)
    changed = _write_ratings(ratings)
    _write_counted(counted)
    return RebuildSummary(tournaments=len(counted), parties=len(parties), players=len(ratings), changed=changed)


def _write_ratings(ratings: dict[int, Rated]) -> int:
    now = timezone.now()
    stored = {r.player_id: r for r in PlayerRating.objects.all()}
    gone = [pk for pk in stored if pk not in ratings]
    PlayerRating.objects.filter(pk__in=gone).delete()
    new: list[PlayerRating] = []
    moved: list[PlayerRating] = []
    for player_id, rated in ratings.items():
        row = stored.get(player_id)
        values = {"mu": rated.mu, "sigma": rated.sigma, "ordinal": rated.ordinal, "parties": rated.parties}
        if row is None:
            new.append(PlayerRating(player_id=player_id, updated_at=now, **values))
        elif any(getattr(row, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(row, name, value)
            row.updated_at = now
            moved.append(row)
    PlayerRating.objects.bulk_create(new, batch_size=1000)
    PlayerRating.objects.bulk_update(moved, ["mu", "sigma", "ordinal", "parties", "updated_at"], batch_size=1000)
    return len(gone) + len(new) + len(moved)


def _write_counted(counted: dict[int, int]) -> None:
    stored = dict(RatedTournament.objects.values_list("tournament_id", "parties"))
    RatedTournament.objects.exclude(tournament_id__in=counted).delete()
    RatedTournament.objects.bulk_create(
        [RatedTournament(tournament_id=pk, parties=n) for pk, n in counted.items() if pk not in stored]
    )
    for pk, n in counted.items():
        if pk in stored and stored[pk] != n:
            RatedTournament.objects.filter(pk=pk).update(parties=n, counted_at=timezone.now())
