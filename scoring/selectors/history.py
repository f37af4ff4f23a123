"""A player's tournaments, as their stored rankings tell them: for the player's pages.

Ranks and points are read from each tournament's live snapshot (scoring/standings/
stores them; docs/glossary.md names them), never computed here. Three queries whatever
the number of tournaments: the player's competitors, the latest snapshot of each of
their tournaments, the other players of those competitors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import Exists, OuterRef, Subquery

from scoring.models import StandingsSnapshot
from tournaments.models import PUBLICLY_UNNAMED, UNNAMED_LABEL, Competitor, Player, Tournament


@dataclass(slots=True)
class PlayedTournament:
    """One tournament a player played: rank among `ranked`, final once it is finished."""

    tournament: Tournament
    competitor_name: str
    rank: int | None = None
    ranked: int = 0
    points: Any = None
    final: bool = False
    partners: list[str] = field(default_factory=list)

    @property
    def date(self) -> date:
        return self.tournament.date


def player_history(player: Player, *, public_only: bool = False) -> list[PlayedTournament]:
    """The tournaments `player` played, newest first, with rank, points and partners.

    `public_only`: as a public reader sees it: only the tournaments anyone may follow
    (public, past their draft), and no partner named who may not be followed publicly
    (`tournaments.models.PUBLICLY_UNNAMED`): such a partner is "Player not shown", and
    the team's name, which may name them, is told the same way.
    """
    competitors = Competitor.objects.filter(players=player).select_related("tournament", "tournament__club")
    if public_only:
        competitors = competitors.filter(tournament__is_public=True).exclude(tournament__status=Tournament.Status.DRAFT)
    found = list(competitors.order_by("-tournament__date", "tournament__name", "pk"))
    if not found:
        return []
    tournament_ids = {competitor.tournament_id for competitor in found}
    latest = StandingsSnapshot.objects.filter(tournament_id=OuterRef("tournament_id")).order_by("-version")
    snapshots = StandingsSnapshot.objects.filter(
        tournament_id__in=tournament_ids, version=Subquery(latest.values("version")[:1])
    ).only("tournament_id", "rows")
    rows_of = {snapshot.tournament_id: snapshot.rows for snapshot in snapshots}
    partners: dict[int, list[str]] = {}
    unnamed: set[int] = set()  # the competitors with a partner not named publicly
    through = Competitor.players.through.objects.filter(competitor_id__in=[c.pk for c in found])
    hidden = Exists(Player.objects.filter(PUBLICLY_UNNAMED, pk=OuterRef("player_id")))
    for competitor_id, first, last, unnamed_partner in (
        through.exclude(player_id=player.pk)
        .order_by("competitor_id", "player__last_name", "player__first_name")
        .values_list("competitor_id", "player__first_name", "player__last_name", hidden)
    ):
        if public_only and unnamed_partner:
            unnamed.add(competitor_id)
            partners.setdefault(competitor_id, []).append(str(UNNAMED_LABEL))
        else:
            partners.setdefault(competitor_id, []).append(f"{first} {last}".strip())
    played = []
    for competitor in found:
        rows = rows_of.get(competitor.tournament_id) or []
        row = next((r for r in rows if r.get("competitor") == competitor.pk), None)
        played.append(
            PlayedTournament(
                tournament=competitor.tournament,
                competitor_name=_team_told(player, partners[competitor.pk])
                if competitor.pk in unnamed
                else competitor.name,
                rank=row.get("rank") if row else None,
                ranked=len(rows),
                points=row.get("points") if row else None,
                final=competitor.tournament.status == Tournament.Status.FINISHED,
                partners=partners.get(competitor.pk, []),
            )
        )
    return played


def _team_told(player: Player, partners: list[str]) -> str:
    """A team's name on a public history when one of its players may not be named there:
    its players as the page shows them, since the team's own name may name the hidden one."""
    return " / ".join([player.full_name, *partners])
