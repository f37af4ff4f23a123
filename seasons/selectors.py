"""Reads the season's pages, exports and the API share (terms: docs/glossary.md).

`season_seen` is the one rule of what a reader sees of a season: the page, the CSV, the
PDF and the API each ask it and show what it answers, nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.http import Http404

from scoring.models import Job
from seasons.models import Season, SeasonSnapshot
from seasons.rows import SeasonRow
from tournaments.access import Visitor, is_organiser
from tournaments.models import PUBLICLY_UNNAMED, UNNAMED_LABEL, Player, Tournament


@dataclass(frozen=True, slots=True)
class SeasonSeen:
    """A season as one reader may see it (`season_seen`)."""

    season: Season
    snapshot: SeasonSnapshot | None  # the latest ranking; None before the first
    organiser: bool  # one of the club's organisers: they see everything
    rows: list[SeasonRow]  # the ranking, each row as this reader may see it
    tournaments: list[Tournament]  # the season's tournaments this reader may see, by date


def season_seen(slug: str, user: Visitor | None) -> SeasonSeen:
    """The season at `slug` as `user` may see it (None: the public); 404 when there is none.

    The club's organisers see it whole. Anyone else:
    - sees the season's tournaments that anyone may follow (public and past their draft),
      and of each player's tournaments only those: a private tournament's name, address,
      and anyone's rank and points in it are never shown, though its points count in the
      season's totals (points, tournaments played, best rank), as the ranking does;
    - sees a player who keeps their results off public pages, or whose data was erased,
      with their rank and totals but nothing that leads to them: no name, no id, no
      tournament (and the exports, no club).
    """
    season = Season.objects.filter(slug=slug).select_related("club").first()
    if season is None:
        raise Http404("no such season")
    snapshot = SeasonSnapshot.objects.filter(season=season).order_by("-version").first()
    rows: list[SeasonRow] = list(snapshot.rows) if snapshot is not None else []
    tournaments = season.tournaments.order_by("date", "pk")
    if is_organiser(user, season.club):
        return SeasonSeen(season, snapshot, True, rows, list(tournaments))
    followed = list(tournaments.filter(is_public=True).exclude(status=Tournament.Status.DRAFT))
    return SeasonSeen(season, snapshot, False, _rows_for_the_public(rows, {t.slug for t in followed}), followed)


def _rows_for_the_public(rows: list[SeasonRow], followed: set[str]) -> list[SeasonRow]:
    ids = [player for row in rows if isinstance(player := row.get("player"), int)]
    hidden = set(Player.objects.filter(pk__in=ids).filter(PUBLICLY_UNNAMED).values_list("pk", flat=True))
    unnamed = str(UNNAMED_LABEL)
    shown: list[SeasonRow] = []
    for row in rows:
        if row.get("player") in hidden:
            shown.append(
                SeasonRow(rank=row.get("rank", 0), name=unnamed, points=row.get("points", 0),
                          played=row.get("played", 0), best=row.get("best", 0), results=[])
            )  # fmt: skip
        else:
            results = [result for result in row.get("results") or [] if result.get("tournament") in followed]
            shown.append({**row, "results": results})
    return shown


def season_jobs(season: Season) -> QuerySet[Job]:
    """The season's rebuilds (`Job` of kind season), newest first."""
    return Job.objects.filter(season_link__season=season).order_by("-pk")
