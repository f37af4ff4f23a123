"""Who may open what, for templates: a link is shown only where it would be let in.

The decision stays in `tournaments.access`; these filters only ask it.
"""

from __future__ import annotations

from django import template

from tournaments import access
from tournaments.models import Club

register = template.Library()


@register.filter
def organises(user: access.User | None, club: Club) -> bool:
    """`{% if request.user|organises:club %}`: the user may open the club's page."""
    return access.is_organiser(user, club)
