"""Reads the results pages and the API share."""

from __future__ import annotations

from django.db.models import QuerySet

from results.models import ResultsImport
from seasons.models import Season


def season_imports(season: Season) -> QuerySet[ResultsImport]:
    """The season's tournaments that came from results files, the latest import first."""
    return (
        ResultsImport.objects.filter(club=season.club, tournament__in=season.tournaments.all())
        .select_related("tournament")
        .order_by("-imported_at")
    )
