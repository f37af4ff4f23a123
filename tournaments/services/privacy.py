"""The players' data rights: a club administrator anonymises a player on request.

The player's name becomes "Joueur anonymisé <n>" (in the site's language, LANGUAGE_CODE,
whatever the administrator's: it is data every reader shares) and
their licence, e-mail and phone are erased; the club they played for stays, and so do
their results: every competitor they played in keeps its id, its hands and its places,
under a name rebuilt from its players' names (a team's own name may have named them).
The rankings' snapshots keep a copy of each name: `names_erased` asks whoever keeps them
(scoring) to rewrite it, in the same transaction. What Atout keeps, and why, is said on
the privacy page (templates/privacy.html).

Erasure is for good, even against copies made before it: an archive exported earlier
still names the player. So the player keeps `erased_identity`, keyed digests (HMAC-SHA256
under the site's SECRET_KEY) of their name, licence and e-mail as they were, normalised
(accents, case and spaces aside); never the data itself, and nothing anyone without the
key can test a guess against. `ErasedPlayers` recognises them by these digests in data
that names them (the archive import, archive/importing.py), which then imports them
erased. A key rotated through SECRET_KEY_FALLBACKS still recognises them; a SECRET_KEY
replaced without keeping the old one there no longer does.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from tournaments.access import require_club_admin
from tournaments.csv_import import licence_key
from tournaments.models import Club, Competitor, OnlineEntry, Player, Tournament
from tournaments.services.club_log import club_log_forget
from tournaments.services.registration import competitor_default_name
from tournaments.signals import names_erased
from tournaments.text import fold

# Salts the HMAC of an erased identity: these digests are of no use to any other part of
# the site that signs with SECRET_KEY, nor theirs to this one.
ERASED_IDENTITY_SALT = "atout.privacy.erased-identity"


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
    # Taken before the data goes: what recognises the player in an archive made before today.
    player.erased_identity = identity_digests(
        last_name=player.last_name,
        first_name=player.first_name,
        licence=player.licence,
        email=player.email,
        secret=settings.SECRET_KEY,
    )
    player.last_name = anonymous_name(player)
    player.first_name = ""
    player.licence = player.email = player.phone = ""
    player.anonymised_at = now
    player.save(
        update_fields=["last_name", "first_name", "licence", "email", "phone", "anonymised_at", "erased_identity"]
    )
    # The club's log named them too (two of their records merged): an erased name stays erased.
    club_log_forget(player=player, name=player.full_name)
    renamed: dict[int, str] = {}
    tournament_ids: set[int] = set()
    for competitor in Competitor.objects.filter(players=player).prefetch_related("players"):
        competitor.name = competitor_default_name(list(competitor.players.all()))[:200]
        competitor.save(update_fields=["name"])
        renamed[competitor.pk] = competitor.name
        tournament_ids.add(competitor.tournament_id)
    # The entries sent online that registered them keep their names and contact no more
    # (tournaments/services/online.py): the competitor's name stands for them.
    OnlineEntry.objects.filter(Q(competitor__players=player) | Q(paired_into__competitor__players=player)).update(
        players=[], name="", affiliation="", email="", phone=""
    )
    # Pages and files drawn from a tournament are cached by its `updated_at`: draw them again.
    Tournament.objects.filter(pk__in=tournament_ids).update(updated_at=now)
    names_erased.send(
        sender=Player,
        tournament_ids=sorted(tournament_ids),
        competitor_names=renamed,
        player_names={player.pk: player.full_name},
    )
    return player


# -- recognising an erased player --------------------------------------------------------


def _digest(secret: str, kind: str, value: str) -> str:
    return salted_hmac(ERASED_IDENTITY_SALT, f"{kind}:{value}", secret=secret, algorithm="sha256").hexdigest()


def identity_digests(*, last_name: str, first_name: str, licence: str, email: str, secret: str) -> dict[str, str]:
    """Keyed digests of a person's identity, by kind ("name", "licence", "email"), each
    of a normalised form: a name without accents or case (Bérard = BERARD), a licence
    without spaces or case, an e-mail address without case. Empty parts give no digest."""
    digests: dict[str, str] = {}
    name = f"{fold(last_name)}\x1f{fold(first_name)}"
    if name.strip("\x1f"):
        digests["name"] = _digest(secret, "name", name)
    if licence_key(licence):
        digests["licence"] = _digest(secret, "licence", licence_key(licence))
    if email.strip():
        digests["email"] = _digest(secret, "email", email.strip().casefold())
    return digests


def _secrets() -> list[str]:
    """The site's key, then the keys it still accepts (SECRET_KEY_FALLBACKS), in that order."""
    return [str(settings.SECRET_KEY), *(str(key) for key in getattr(settings, "SECRET_KEY_FALLBACKS", []))]


class ErasedPlayers:
    """A club's anonymised players, to recognise one in data that still names them.

    A person is recognised by the same rules the archive import matches players with,
    leaning towards erasure: the same licence, or the same e-mail address, or the same
    name unless both have licence numbers (then they differ, since the licence did not
    match: two namesakes).
    """

    def __init__(self, club: Club) -> None:
        self._by_digest: dict[tuple[str, str], Player] = {}
        self._licensed: set[int] = set()
        erased = Player.objects.filter(club=club, anonymised_at__isnull=False).order_by("-pk")
        # Lowest id last, so it wins when two records share a digest.
        for player in erased:
            identity = player.erased_identity if isinstance(player.erased_identity, dict) else {}
            for kind, digest in identity.items():
                self._by_digest[(kind, str(digest))] = player
            if "licence" in identity:
                self._licensed.add(player.pk)

    def __bool__(self) -> bool:
        return bool(self._by_digest)

    def find(self, *, last_name: str, first_name: str, licence: str, email: str) -> Player | None:
        """The player erased here that these details name, or None."""
        if not self._by_digest:
            return None
        candidates = [
            identity_digests(last_name=last_name, first_name=first_name, licence=licence, email=email, secret=secret)
            for secret in _secrets()
        ]
        for kind in ("licence", "email"):
            for digests in candidates:
                found = self._by_digest.get((kind, digests.get(kind, "")))
                if found is not None:
                    return found
        for digests in candidates:
            found = self._by_digest.get(("name", digests.get("name", "")))
            if found is not None and not ("licence" in digests and found.pk in self._licensed):
                return found
        return None
