"""Reads the season's pages, exports and the API share: a season, its latest ranking, who
is shown in it and which of its tournaments a reader may see (terms: docs/glossary.md)."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from scoring.models import Job
from seasons.models import Season, SeasonSnapshot
from seasons.rows import SeasonRow
from tournaments.models import Player, Tournament


def public_season(slug: str) -> tuple[Season, SeasonSnapshot | None]:
    season = Season.objects.filter(slug=slug).select_related("club").first()
    if season is None:
        raise Http404("no such season")
    return season, SeasonSnapshot.objects.filter(season=season).order_by("-version").first()


def season_rows_shown(rows: list[SeasonRow], *, organiser: bool) -> list[SeasonRow]:
    """A season's rows as the reader may see them.

    A player who chose not to show their results on a public page, or whose data was
    erased, keeps their rank and figures but not their name, nor anything that leads to
    them (their id, their tournaments); the club's organisers see everyone.
    """
    if organiser:
        return rows
    ids = [player for row in rows if isinstance(player := row.get("player"), int)]
    hidden = set(
        Player.objects.filter(pk__in=ids)
        .filter(Q(public_history=False) | Q(anonymised_at__isnull=False))
        .values_list("pk", flat=True)
    )
    if not hidden:
        return rows
    name = _("Player not shown")
    return [
        SeasonRow(rank=row.get("rank", 0), name=name, points=row.get("points", 0), played=row.get("played", 0),
                  best=row.get("best", 0))
        if row.get("player") in hidden
        else row
        for row in rows
    ]  # fmt: skip


def season_tournaments(season: Season, *, organiser: bool) -> QuerySet[Tournament]:
    """The season's tournaments by date: the public ones, and the private ones for its organisers."""
    tournaments = season.tournaments.order_by("date")
    return tournaments if organiser else tournaments.filter(is_public=True)


def season_jobs(season: Season) -> QuerySet[Job]:
    """The season's rebuilds (`Job` of kind season), newest first."""
    return Job.objects.filter(season_link__season=season).order_by("-pk")
