"""The club's log (`ClubLogEntry`): what the services write there, and how an erasure reaches it.

The log is written by the service doing the work, in its transaction (an entry never
tells of something undone). Its text is in the site's language, like the anonymous
name, and names players: anonymising one rewrites the entries about them.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import translation
from django.utils.translation import gettext as _

from tournaments.models import Club, ClubLogEntry, Player


def club_log_write(*, club: Club, by: User, action: str, player: Player | None, text: str) -> ClubLogEntry:
    """One entry of `club`'s log; the caller checked `by`'s right and holds the transaction."""
    return ClubLogEntry.objects.create(
        club=club, by=by if by.is_authenticated else None, action=action, player=player, text=text
    )


def club_log_forget(*, player: Player, name: str) -> int:
    """Rewrite the entries about `player` (being anonymised, now called `name`): they named
    them, and perhaps the records merged into theirs. Returns how many were rewritten."""
    with translation.override(settings.LANGUAGE_CODE):
        text = _("Two records of %(player)s were merged into one.") % {"player": name}
    return ClubLogEntry.objects.filter(player=player, action=ClubLogEntry.Action.PLAYERS_MERGED).update(text=text)
