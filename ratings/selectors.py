"""Reading the ratings: a player's, and the competitors' for a draw by rating."""

from __future__ import annotations

from collections.abc import Iterable

from ratings.compute import DEFAULT_ORDINAL
from ratings.models import PlayerRating
from tournaments.models import Competitor, Player


def player_rating(player: Player) -> PlayerRating | None:
    """The player's rating, or None while no partie of theirs is counted."""
    return PlayerRating.objects.filter(player=player, parties__gt=0).first()


def competitor_ratings(competitors: Iterable[Competitor]) -> dict[int, float]:
    """Each competitor's rating: the mean of its players' (a player never rated counts
    as a newcomer, DEFAULT_ORDINAL; a competitor without players too). Two queries."""
    ids = [c.pk for c in competitors]
    members: dict[int, list[int]] = {pk: [] for pk in ids}
    for competitor_id, player_id in Competitor.players.through.objects.filter(competitor_id__in=ids).values_list(
        "competitor_id", "player_id"
    ):
        members[competitor_id].append(player_id)
    wanted = {p for players in members.values() for p in players}
    ordinals = dict(PlayerRating.objects.filter(player_id__in=wanted).values_list("player_id", "ordinal"))
    return {
        pk: (sum(ordinals.get(p, DEFAULT_ORDINAL) for p in players) / len(players) if players else DEFAULT_ORDINAL)
        for pk, players in members.items()
    }
