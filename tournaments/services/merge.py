"""Two records of one person merged into one (*fusion de fiches*).

A club ends up with two records for one player: typed by hand one night, imported from
the federation's list the next (« Jean Dupond » and « Jean DUPONT L0042 »). Merging keeps
one (*kept*) and moves everything of the other (*merged*) to it: their registrations (the
teams they played in), so their results, history and seasons; their arrivals at the
door; the licence, e-mail and phone the kept record lacks. The merged record is deleted.
Ratings are computed from results (ratings/): they are rebuilt once the merge commits.

Refused when the two played in one tournament (one person never sits twice in a
tournament: they are two people), when they belong to different clubs, when one was
anonymised (an erased identity is never joined to a named one), or when they are one
record. The preview (`players_merge_preview`) tells what would move; the merge writes it
in one transaction, with an entry in the club's log.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.access import require_organiser
from tournaments.models import Arrival, ClubLogEntry, Competitor, Player, Seat, Tournament
from tournaments.services.club_log import club_log_write
from tournaments.services.registration import competitor_default_name
from tournaments.signals import players_merged


@dataclass(frozen=True, slots=True)
class MovedRegistration:
    """A registration of the merged player that becomes the kept one's."""

    tournament: str
    date: datetime.date
    competitor: str
    number: int


@dataclass(slots=True)
class MergePreview:
    """What merging `merged` into `kept` moves (nothing is written to build it)."""

    kept: Player
    merged: Player
    registrations: list[MovedRegistration] = field(default_factory=list)
    # Parties the merged player's competitors sat at: the results that move with them.
    parties: int = 0
    arrivals: int = 0
    # Tournaments of a season among the registrations: its ranking is counted again.
    seasons: int = 0
    # The merged player's rating (parties counted), None when unrated.
    rated_parties: int | None = None
    # (what, value): details of the merged record the kept one takes, having none.
    details: list[tuple[str, str]] = field(default_factory=list)
    # Whether the kept player's results stay on a public page: only if both agreed.
    public_history: bool = True


# The details the kept record takes from the merged one when it has none.
TAKEN_OVER = ("licence", "email", "phone", "affiliation")


def _detail_label(name: str) -> str:
    field = Player._meta.get_field(name)
    return str(getattr(field, "verbose_name", name))


def _refuse(kept: Player, merged: Player) -> None:
    """Raise the reason these two cannot be merged, if there is one."""
    if kept.pk == merged.pk:
        raise ValidationError({"merged": [_("Choose two different players.")]})
    if kept.club_id != merged.club_id:
        raise ValidationError({"merged": [_("The two players belong to different clubs.")]})
    for player in (kept, merged):
        if player.anonymised_at is not None:
            raise ValidationError(
                {
                    "kept" if player is kept else "merged": [
                        _("%(player)s was anonymised: an erased record is never merged.") % {"player": player.full_name}
                    ]
                }
            )
    shared = (
        Tournament.objects.filter(competitors__players=kept)
        .filter(pk__in=Tournament.objects.filter(competitors__players=merged).values("pk"))
        .order_by("-date", "name")
        .first()
    )
    if shared is not None:
        raise ValidationError(
            {
                "merged": [
                    _(
                        "%(kept)s and %(merged)s both played in “%(tournament)s”: one person never sits twice "
                        "in a tournament, so they are two people."
                    )
                    % {"kept": kept.full_name, "merged": merged.full_name, "tournament": shared.name}
                ]
            }
        )


def _preview(kept: Player, merged: Player) -> MergePreview:
    preview = MergePreview(kept=kept, merged=merged, public_history=kept.public_history and merged.public_history)
    competitors = Competitor.objects.filter(players=merged).select_related("tournament")
    preview.registrations = [
        MovedRegistration(c.tournament.name, c.tournament.date, c.name, c.number)
        for c in competitors.order_by("-tournament__date", "tournament__name")
    ]
    preview.parties = Seat.objects.filter(competitor__players=merged).count()
    preview.arrivals = Arrival.objects.filter(player=merged).count()
    preview.seasons = (
        Tournament.objects.filter(competitors__players=merged, seasons__isnull=False)
        .values("seasons")
        .distinct()
        .count()
    )
    rating = getattr(merged, "rating", None)
    preview.rated_parties = rating.parties if rating is not None else None
    for name in TAKEN_OVER:
        if not getattr(kept, name) and getattr(merged, name):
            preview.details.append((_detail_label(name), getattr(merged, name)))
    return preview


def players_merge_preview(*, by: User, kept: Player, merged: Player) -> MergePreview:
    """What merging `merged` into `kept` would move; a refusal raises ValidationError
    (keyed `kept` or `merged`), as the merge itself would."""
    require_organiser(by, kept.club)
    require_organiser(by, merged.club)
    _refuse(kept, merged)
    return _preview(kept, merged)


def _renamed(competitors: list[Competitor], merged: Player, kept: Player) -> dict[int, str]:
    """The competitors named after their players by default, under their new players' names.

    A name the director gave (a team called « Les As ») stays; one Atout made from the
    merged record's name (« Jean Dupond », « Dupond – Martin ») follows the kept record.
    """
    renamed: dict[int, str] = {}
    for competitor in competitors:
        players = list(competitor.players.all())
        if competitor.name != competitor_default_name(players)[:200]:
            continue
        new = competitor_default_name([kept if p.pk == merged.pk else p for p in players])[:200]
        if new != competitor.name:
            renamed[competitor.pk] = new
    return renamed


def _log_text(preview: MergePreview) -> str:
    kept, merged = preview.kept, preview.merged
    with translation.override(settings.LANGUAGE_CODE):
        moved = ngettext("%(count)s registration", "%(count)s registrations", len(preview.registrations)) % {
            "count": len(preview.registrations)
        }
        parties = ngettext("%(count)s partie", "%(count)s parties", preview.parties) % {"count": preview.parties}
        return _(
            "%(merged)s (record %(merged_id)s) merged into %(kept)s (record %(kept_id)s): %(moved)s, %(parties)s."
        ) % {
            "merged": merged.full_name + (f" ({merged.licence})" if merged.licence else ""),
            "merged_id": merged.pk,
            "kept": kept.full_name + (f" ({kept.licence})" if kept.licence else ""),
            "kept_id": kept.pk,
            "moved": moved,
            "parties": parties,
        }


@transaction.atomic
def players_merge(*, by: User, kept: Player, merged: Player) -> MergePreview:
    """Merge `merged` into `kept`: everything moves, `merged` is deleted, the club's log says so.

    Returns the preview of what moved (as it stood when the merge began).
    """
    require_organiser(by, kept.club)
    require_organiser(by, merged.club)
    # Both rows locked in one order, so that two merges of the same pair queue.
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[kept.pk, merged.pk]).order_by("pk")}
    kept = Player.objects.select_related("club").get(pk=kept.pk)
    merged = locked.get(merged.pk) or Player.objects.get(pk=merged.pk)
    _refuse(kept, merged)
    preview = _preview(kept, merged)
    competitors = list(Competitor.objects.filter(players=merged).prefetch_related("players"))
    renamed = _renamed(competitors, merged, kept)
    Competitor.players.through.objects.filter(player=merged).update(player=kept)
    Arrival.objects.filter(player=merged).update(player=kept)
    for competitor_id, name in renamed.items():
        Competitor.objects.filter(pk=competitor_id).update(name=name)
    for name in TAKEN_OVER:
        if not getattr(kept, name) and getattr(merged, name):
            setattr(kept, name, getattr(merged, name))
    kept.public_history = preview.public_history
    kept.save(update_fields=[*TAKEN_OVER, "public_history"])
    merged_id, text = merged.pk, _log_text(preview)
    # Its rating goes with it (ratings/, on delete cascade); the rebuild counts its parties
    # for the kept record once this commits.
    merged.delete()
    tournament_ids = sorted({c.tournament_id for c in competitors})
    # Pages and files drawn from a tournament are cached by its `updated_at`: draw them again.
    Tournament.objects.filter(pk__in=tournament_ids).update(updated_at=timezone.now())
    club_log_write(club=kept.club, by=by, action=ClubLogEntry.Action.PLAYERS_MERGED, player=kept, text=text)
    players_merged.send(
        sender=Player,
        kept_id=kept.pk,
        merged_id=merged_id,
        tournament_ids=tournament_ids,
        competitor_names=renamed,
    )
    preview.kept = kept
    return preview
