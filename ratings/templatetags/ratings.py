"""`{% player_rating player %}`: the player's Atout rating, or nothing while unrated.

A tag rather than a view's context: the player's pages belong to scoring/, a floor below
this app, and may not import it; a template may.
"""

from __future__ import annotations

from typing import Any

from django import template

from ratings.selectors import player_rating as rating_of
from tournaments.models import Player

register = template.Library()


@register.inclusion_tag("ratings/player_rating.html")
def player_rating(player: Player) -> dict[str, Any]:
    return {"rating": rating_of(player)}
