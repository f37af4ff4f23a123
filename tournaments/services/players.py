"""Players of a club: one by one, or a whole list from a spreadsheet (CSV).

A *duplicate* is the same licence, or the same name (in the same club played for) unless
two different licences tell the players apart; `tournaments.csv_import` uses the same rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import csv_import
from tournaments.access import require_organiser
from tournaments.models import Club, Player
from tournaments.services.common import (
    Refusals,
    raise_errors,
)


@dataclass(frozen=True, slots=True)
class NewPlayer:
    """A player created on the spot while registering (not yet in the club's list)."""

    last_name: str
    first_name: str
    licence: str = ""
    affiliation: str = ""
    # Off for a player created from a pasted list, as for an imported one: their results
    # go on a public page once they (or the director, saying they agreed) turn it on.
    public_history: bool = True


# The code of a refusal that names a player the club already has: a form offers that
# player instead, the API gives their id (`params["player_id"]`).
SAME_PERSON = "same_person"


def club_twin(
    club: Club, last_name: str, first_name: str, licence: str, affiliation: str, exclude_pk: int | None
) -> tuple[str, Player] | None:
    """The club's player these details are, by the import's rule (tournaments/csv_import.py),
    and what gave them away ("licence" or "name"); None for somebody new.

    The names are compared folded, in any word order (« Lefevre Helene » is Hélène Lefèvre),
    which a database lookup cannot do: the club's list is read whole, a few thousand short
    rows at most, once per player typed by hand.
    """
    others = Player.objects.filter(club=club).order_by()
    if exclude_pk is not None:
        others = others.exclude(pk=exclude_pk)
    wanted_licence = csv_import.licence_key(licence)
    key = csv_import.name_key(last_name, first_name, affiliation.strip() or club.name)
    by_name: int | None = None
    rows = others.values_list("pk", "last_name", "first_name", "licence", "affiliation")
    for pk, other_last, other_first, other_licence, other_affiliation in rows:
        if wanted_licence and csv_import.licence_key(other_licence) == wanted_licence:
            return "licence", Player.objects.select_related("club").get(pk=pk)
        same_name = csv_import.name_key(other_last, other_first, other_affiliation or club.name) == key
        if by_name is None and same_name and csv_import.same_person(other_licence, licence.strip()):
            by_name = pk
    if by_name is None:
        return None
    return "name", Player.objects.select_related("club").get(pk=by_name)


def player_label(player: Player) -> str:
    """A player as a director tells them apart: name, then licence or club played for."""
    detail = player.licence or player.affiliation
    return f"{player.full_name} ({detail})" if detail else player.full_name


def player_errors(
    club: Club, last_name: str, first_name: str, licence: str, affiliation: str, exclude_pk: int | None
) -> Refusals:
    """Empty names, and duplicates by the import's rule: same licence, or same name unless licences differ.

    A duplicate's refusal has the code `SAME_PERSON` and the player's id in its params.
    """
    errors: Refusals = {}
    if not last_name.strip():
        errors["last_name"] = [_("Give the last name.")]
    if not first_name.strip():
        errors["first_name"] = [_("Give the first name.")]
    if errors:
        return errors
    twin = club_twin(club, last_name, first_name, licence, affiliation, exclude_pk)
    if twin is None:
        return errors
    found, player = twin
    params = {"player": player_label(player), "player_id": player.pk}
    if found == "licence":
        message = _("Licence already given to %(player)s.")
        params["player"] = player.full_name
        errors["licence"] = [ValidationError(message, code=SAME_PERSON, params=params)]
    else:
        message = _("%(player)s is already in the club: give a licence number to tell them apart.")
        errors["last_name"] = [ValidationError(message, code=SAME_PERSON, params=params)]
    return errors


@transaction.atomic
def player_create(
    *,
    by: User,
    club: Club,
    last_name: str,
    first_name: str,
    licence: str = "",
    affiliation: str = "",
    email: str = "",
    phone: str = "",
    public_history: bool = True,
) -> Player:
    require_organiser(by, club)
    raise_errors(player_errors(club, last_name, first_name, licence, affiliation, None))
    return Player.objects.create(
        club=club,
        last_name=last_name.strip(),
        first_name=first_name.strip(),
        licence=licence.strip(),
        affiliation=csv_import.affiliation_for(affiliation.strip(), club.name, club.slug),
        email=email.strip(),
        phone=phone.strip(),
        public_history=public_history,
    )


@transaction.atomic
def player_update(
    *,
    by: User,
    player: Player,
    last_name: str,
    first_name: str,
    licence: str = "",
    affiliation: str = "",
    email: str = "",
    phone: str = "",
    public_history: bool | None = None,
) -> Player:
    require_organiser(by, player.club)
    if player.anonymised_at is not None:
        raise ValidationError({NON_FIELD_ERRORS: [_("This player was anonymised: their details stay erased.")]})
    raise_errors(player_errors(player.club, last_name, first_name, licence, affiliation, player.pk))
    player.last_name, player.first_name = last_name.strip(), first_name.strip()
    player.licence = licence.strip()
    player.affiliation = csv_import.affiliation_for(affiliation.strip(), player.club.name, player.club.slug)
    player.email, player.phone = email.strip(), phone.strip()
    if public_history is not None:  # None: as it was
        player.public_history = public_history
    player.save()
    return player


def players_import_preview(*, by: User, club: Club, text: str) -> csv_import.ImportPreview:
    """What importing `text` would do: every row checked against the file and the club's players."""
    require_organiser(by, club)
    known = [
        csv_import.KnownPlayer(p.last_name, p.first_name, p.licence, p.club_label, f"{p.full_name} ({p.licence})")
        if p.licence
        else csv_import.KnownPlayer(p.last_name, p.first_name, p.licence, p.club_label, p.full_name)
        for p in Player.objects.filter(club=club).select_related("club")
    ]
    return csv_import.parse_players(text, club_name=club.name, club_slug=club.slug, known=known)


@transaction.atomic
def players_import(*, by: User, club: Club, text: str) -> list[Player]:
    """Create the new players of a valid file; one bad row and nothing is written."""
    # Serialise imports into one club, so two uploads of the same file cannot both pass
    # the duplicate check before either has written.
    Club.objects.select_for_update().get(pk=club.pk)
    preview = players_import_preview(by=by, club=club, text=text)
    if not preview.valid:
        messages = list(preview.file_errors) + [
            _("Line %(line)s: %(error)s") % {"line": row.line, "error": error}
            for row in preview.bad_rows
            for error in row.errors
        ]
        raise ValidationError({NON_FIELD_ERRORS: messages})
    players = [
        Player(
            club=club,
            last_name=row.last_name,
            first_name=row.first_name,
            licence=row.licence,
            affiliation=csv_import.affiliation_for(row.club, club.name, club.slug),
            # Nobody asked the players on a club's list: their public page waits for their word.
            public_history=False,
        )
        for row in preview.to_import
    ]
    return Player.objects.bulk_create(players)
