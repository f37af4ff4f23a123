"""The players' data rights: a club administrator anonymises a player on request.

The player's name becomes "Joueur anonymisé <n>" (in the site's language, LANGUAGE_CODE,
whatever the administrator's: it is data every reader shares) and
their licence, e-mail and phone are erased; the club they played for stays, and so do
their results: every competitor they played in keeps its id, its hands and its places,
under a name rebuilt from its players' names (a team's own name may have named them).
The rankings' snapshots keep a copy of each name: `names_erased` asks whoever keeps them
(scoring) to rewrite it, in the same transaction. What Atout keeps, and why, is said on
the privacy page (templates/privacy.html).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.access import require_club_admin
from tournaments.models import Competitor, Player, Tournament
from tournaments.services.registration import competitor_default_name
from tournaments.signals import names_erased


def anonymous_name(player: Player) -> str:
    """The name an anonymised player gets, in the site's language."""
    with translation.override(settings.LANGUAGE_CODE):
        return _("Anonymised player %(number)s") % {"number": player.pk}


@transaction.atomic
def player_anonymise(*, by: User, player: Player) -> Player:
    """Erase `player`'s name and contact details everywhere, keeping their results."""
    require_club_admin(by, player.club)
    player = Player.objects.select_for_update().select_related("club").get(pk=player.pk)
    if player.anonymised_at is not None:
        return player
    now = timezone.now()
    player.last_name = anonymous_name(player)
    player.first_name = ""
    player.licence = player.email = player.phone = ""
    player.anonymised_at = now
    player.save(update_fields=["last_name", "first_name", "licence", "email", "phone", "anonymised_at"])
    renamed: dict[int, str] = {}
    tournament_ids: set[int] = set()
    for competitor in Competitor.objects.filter(players=player).prefetch_related("players"):
        competitor.name = competitor_default_name(list(competitor.players.all()))[:200]
        competitor.save(update_fields=["name"])
        renamed[competitor.pk] = competitor.name
        tournament_ids.add(competitor.tournament_id)
    # Pages and files drawn from a tournament are cached by its `updated_at`: draw them again.
    Tournament.objects.filter(pk__in=tournament_ids).update(updated_at=now)
    names_erased.send(
        sender=Player,
        tournament_ids=sorted(tournament_ids),
        competitor_names=renamed,
        player_names={player.pk: player.full_name},
    )
    return player
