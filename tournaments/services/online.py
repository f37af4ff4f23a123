"""Registration online (« S'inscrire »): a public tournament's form, its waiting list, the
players looking for a partner, and the director's accepting or refusing each entry.

An *entry* (`OnlineEntry`) is what the public form sent: the names as typed, a contact
e-mail. It is no competitor until accepted, so that no draw, check-in or ranking ever sees
a pending or waiting one. Accepting it registers a competitor as the director's form does
(`register_locked`): each player is first found among the club's players by the CSV
import's rule (the same licence, or the same name, accents, case and word order aside,
unless two licences differ: `club_twin`), so that one person is never created twice, and
never sits twice in a tournament.

- *pending*: awaits the director (the tournament accepts by hand);
- *waiting*: the tournament is full (its `cap` of competitors not withdrawn, whoever
  registered them); the first waiting entry takes a place freed by a withdrawal, in the
  withdrawal's transaction, the tournament row locked (`waiting_list_move_up`);
- *seeking* (« cherche partenaire »): a single player of a team tournament; the director
  pairs two of them into one entry (the other becomes *paired*), which is then admitted;
- *accepted* (a competitor), *refused*.

Every change of an entry's state that its registrant should hear of sends them an e-mail
once the transaction commits (a mail server away loses the e-mail, never the entry:
it is logged, and the director sees every entry on their page).
"""

from __future__ import annotations

import datetime
import logging
import smtplib
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournaments import csv_import
from tournaments.access import require_organiser
from tournaments.models import Club, Competitor, OnlineEntry, OnlineRegistration, Player, Tournament
from tournaments.services import registration
from tournaments.services.common import Refusals, Status, raise_errors, refusal
from tournaments.services.money import competitor_owes
from tournaments.services.players import NewPlayer, club_twin
from tournaments.services.registration import _already_seated, _one_person, _seated, register_locked

logger = logging.getLogger(__name__)

Entry = OnlineEntry.Status
# The entries still in play, besides the accepted ones: one person appears in one of them at most.
LIVE = (Entry.PENDING, Entry.WAITING, Entry.SEEKING)


@dataclass(frozen=True, slots=True)
class EntryPlayer:
    """A player as typed in the public form."""

    last_name: str
    first_name: str
    licence: str = ""


# -- reads -------------------------------------------------------------------------------


def online_settings(tournament: Tournament) -> OnlineRegistration:
    """The tournament's registration online, or the default (closed, unsaved) when never set."""
    found = OnlineRegistration.objects.filter(tournament=tournament).first()
    return found if found is not None else OnlineRegistration(tournament=tournament)


def online_closed(tournament: Tournament, online: OnlineRegistration, now: datetime.datetime | None = None) -> str:
    """Why the public form takes no entry now, in a sentence, or "" when it does."""
    if not tournament.is_public or tournament.status != Status.REGISTRATION or not online.is_open:
        return _("Registration online is not open for this tournament.")
    if online.closes_at is not None and (now or timezone.now()) >= online.closes_at:
        closed = date_format(timezone.localtime(online.closes_at), "DATETIME_FORMAT")
        return _("Registration online closed on %(date)s.") % {"date": closed}
    return ""


def places_taken(tournament: Tournament) -> int:
    """The competitors counted against the cap: all but the withdrawn."""
    return tournament.competitors.exclude(status=Competitor.Status.WITHDRAWN).count()


def is_full(tournament: Tournament, online: OnlineRegistration) -> bool:
    return online.cap is not None and places_taken(tournament) >= online.cap


def waiting_position(entry: OnlineEntry) -> int:
    """The entry's place on its tournament's waiting list (from 1), 0 when not waiting."""
    if entry.status != Entry.WAITING:
        return 0
    earlier = OnlineEntry.objects.filter(tournament_id=entry.tournament_id, status=Entry.WAITING)
    return earlier.filter(created_at__lt=entry.created_at).count() + 1


def players_per_entry(tournament: Tournament) -> int:
    return 2 if tournament.format == Tournament.Format.TEAMS else 1


# -- the public form ----------------------------------------------------------------------


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)


def _entry_errors(
    tournament: Tournament, online: OnlineRegistration, players: Sequence[EntryPlayer], email: str, seeking: bool
) -> Refusals:
    """What the public form got wrong, keyed by its fields (`last_name_1`, `licence_2`...)."""
    errors: Refusals = {}
    try:
        validate_email(email.strip())
    except ValidationError:
        errors["email"] = [_("Give a valid e-mail address: the confirmation is sent there.")]
    size = players_per_entry(tournament)
    if seeking and size != 2:
        errors[NON_FIELD_ERRORS] = [_("Only a team tournament pairs players looking for a partner.")]
    wanted = 1 if seeking else size
    if len(players) != wanted:
        errors[NON_FIELD_ERRORS] = [_("A team is two players.") if wanted == 2 else _("Give one player.")]
        return errors
    for n, player in enumerate(players, start=1):
        if not player.last_name.strip():
            errors[f"last_name_{n}"] = [_("Give the last name.")]
        if not player.first_name.strip():
            errors[f"first_name_{n}"] = [_("Give the first name.")]
        if online.licence_required and not player.licence.strip():
            errors[f"licence_{n}"] = [_("The club asks for the licence number.")]
    if errors:
        return errors
    keys = [(csv_import.person_words(p.last_name, p.first_name), p.licence) for p in players]
    if len(keys) == 2 and _one_person(*keys[0], *keys[1]):
        errors[NON_FIELD_ERRORS] = [_("The same player twice.")]
    seated = _seated(tournament)
    live = [
        (csv_import.person_words(p.get("last_name", ""), p.get("first_name", "")), p.get("licence", ""))
        for e in OnlineEntry.objects.filter(tournament=tournament, status__in=LIVE)
        for p in e.players
    ]
    for n, player in enumerate(players, start=1):
        twin = _already_seated(seated, player.last_name, player.first_name, player.licence, None)
        words = csv_import.person_words(player.last_name, player.first_name)
        if twin is not None:
            errors[f"last_name_{n}"] = [_("%(player)s is already registered.") % {"player": twin.label}]
        elif any(_one_person(w, lic, words, player.licence) for w, lic in live):
            errors[f"last_name_{n}"] = [
                _("%(player)s has already sent an entry: the organiser will answer it.")
                % {"player": f"{player.first_name.strip()} {player.last_name.strip()}"}
            ]
    return errors


@transaction.atomic
def entry_submit(
    *,
    tournament: Tournament,
    players: Sequence[EntryPlayer],
    email: str,
    phone: str = "",
    name: str = "",
    affiliation: str = "",
    seeking_partner: bool = False,
    site_url: str = "",
) -> OnlineEntry:
    """An entry sent by the public form: accepted at once (or waiting when full) when the
    tournament accepts automatically, pending otherwise; a single player of a team
    tournament looking for a partner waits for the director to pair them."""
    tournament = _lock(tournament)
    online = online_settings(tournament)
    closed = online_closed(tournament, online)
    if closed:
        raise refusal(closed)
    raise_errors(_entry_errors(tournament, online, players, email, seeking_partner))
    entry = OnlineEntry.objects.create(
        tournament=tournament,
        status=Entry.SEEKING if seeking_partner else Entry.PENDING,
        players=[
            {"last_name": p.last_name.strip(), "first_name": p.first_name.strip(), "licence": p.licence.strip()}
            for p in players
        ],
        name=name.strip()[:200],
        affiliation=affiliation.strip()[:200],
        email=email.strip(),
        phone=phone.strip()[:30],
        site_url=site_url[:200],
    )
    if entry.status == Entry.PENDING and online.auto_accept:
        _admit(tournament, online, entry)
    _mail_after_commit(entry, "received")
    return entry


# -- admitting an entry -------------------------------------------------------------------


def _club_player(tournament: Tournament, entry: OnlineEntry, typed: dict[str, str]) -> Player | NewPlayer:
    """The club's player the typed details are, by the import's rule, or a new one."""
    last, first, licence = typed.get("last_name", ""), typed.get("first_name", ""), typed.get("licence", "")
    found = club_twin(tournament.club, last, first, licence, entry.affiliation, None)
    if found is not None:
        return found[1]
    # Nobody asked the players typed here about a public page of their results: it waits
    # for their word, as for a player imported from a list.
    return NewPlayer(
        last_name=last, first_name=first, licence=licence, affiliation=entry.affiliation, public_history=False
    )


def _accept(tournament: Tournament, entry: OnlineEntry) -> None:
    """Register the entry's competitor (the tournament locked by the caller)."""
    # The club too, as the CSV import does: two entries of one new person sent at once to
    # two of the club's tournaments never both find them missing and create them twice.
    Club.objects.select_for_update().only("pk").get(pk=tournament.club_id)
    players = [_club_player(tournament, entry, typed) for typed in entry.players]
    try:
        competitor = register_locked(tournament, players, name=entry.name)
    except ValidationError as error:
        # The director's form keys its refusals by slot; here they concern the entry.
        raise ValidationError({NON_FIELD_ERRORS: error.messages}) from None
    entry.competitor = competitor
    entry.status = Entry.ACCEPTED
    entry.decided_at = timezone.now()
    entry.save(update_fields=["competitor", "status", "decided_at"])


def _admit(tournament: Tournament, online: OnlineRegistration, entry: OnlineEntry) -> None:
    """Accept the entry when a place is free, else put it on the waiting list."""
    if is_full(tournament, online):
        entry.status = Entry.WAITING
        entry.save(update_fields=["status"])
        return
    _accept(tournament, entry)


def waiting_list_move_up(tournament: Tournament) -> list[OnlineEntry]:
    """The waiting entries that take the places free now, first come first served; each
    is told by e-mail once this commits. The caller holds the tournament's row lock (a
    withdrawal, a cap raised), so two withdrawals at once never give one place twice.

    Only while registration is open: once the night runs, the director seats latecomers."""
    online = OnlineRegistration.objects.filter(tournament=tournament).first()
    if online is None or tournament.status != Status.REGISTRATION:
        return []
    moved: list[OnlineEntry] = []
    waiting = OnlineEntry.objects.select_for_update().filter(tournament=tournament, status=Entry.WAITING)
    for entry in waiting.order_by("created_at", "pk"):
        if is_full(tournament, online):
            break
        try:
            with transaction.atomic():
                _accept(tournament, entry)
        except ValidationError:
            # One of its players was registered meanwhile (at the desk): the director
            # sees it waiting still and decides; the next one moves up.
            logger.info("waiting entry %s could not move up", entry.pk)
            continue
        _mail_after_commit(entry, "moved_up")
        moved.append(entry)
    return moved


@transaction.atomic
def competitor_withdraw(*, by: User, competitor: Competitor) -> Competitor:
    """The withdrawal (*abandon*: registration.competitor_withdraw), and the first waiting
    entry takes the place freed, in the same transaction: the withdrawal locked the
    tournament's row, which this transaction holds until it commits."""
    withdrawn = registration.competitor_withdraw(by=by, competitor=competitor)
    waiting_list_move_up(_lock(withdrawn.tournament))
    return withdrawn


def _lock_entry(by: User, entry: OnlineEntry) -> tuple[Tournament, OnlineRegistration, OnlineEntry]:
    tournament = _lock(entry.tournament)
    require_organiser(by, tournament.club)
    locked = OnlineEntry.objects.select_for_update().get(pk=entry.pk)
    return tournament, online_settings(tournament), locked


@transaction.atomic
def entry_accept(*, by: User, entry: OnlineEntry) -> OnlineEntry:
    """The director accepts an entry: registered when a place is free; a pending entry goes
    on the waiting list when the tournament is full, a waiting one stays there."""
    tournament, online, entry = _lock_entry(by, entry)
    if entry.status not in (Entry.PENDING, Entry.WAITING):
        raise refusal(_("Only an entry awaiting an answer or on the waiting list can be accepted."))
    if tournament.status != Status.REGISTRATION:
        raise refusal(_("Entries are accepted while registration is open."))
    if entry.status == Entry.WAITING and is_full(tournament, online):
        raise refusal(_("The tournament is full: raise the cap, or wait for a withdrawal."))
    _admit(tournament, online, entry)
    _mail_after_commit(entry, "accepted" if entry.status == Entry.ACCEPTED else "waiting")
    return entry


@transaction.atomic
def entry_refuse(*, by: User, entry: OnlineEntry) -> OnlineEntry:
    """The director refuses an entry not accepted yet; its registrant is told by e-mail."""
    _tournament, _online, entry = _lock_entry(by, entry)
    if entry.status not in LIVE:
        raise refusal(_("Only an entry not accepted yet can be refused: withdraw an accepted one at the desk."))
    entry.status = Entry.REFUSED
    entry.decided_at = timezone.now()
    entry.save(update_fields=["status", "decided_at"])
    _mail_after_commit(entry, "refused")
    return entry


@transaction.atomic
def entries_pair(*, by: User, first: OnlineEntry, second: OnlineEntry) -> OnlineEntry:
    """Two players looking for a partner become one team's entry (the first's), admitted
    at once: registered, or on the waiting list when the tournament is full."""
    tournament, online, first = _lock_entry(by, first)
    second = OnlineEntry.objects.select_for_update().get(pk=second.pk)
    if first.pk == second.pk:
        raise refusal(_("Choose two different players."), "second")
    if second.tournament_id != tournament.pk or {first.status, second.status} != {Entry.SEEKING}:
        raise refusal(_("Both must be players of this tournament looking for a partner."), "second")
    if tournament.status != Status.REGISTRATION:
        raise refusal(_("Entries are accepted while registration is open."))
    a, b = first.players[0], second.players[0]
    words = [csv_import.person_words(p.get("last_name", ""), p.get("first_name", "")) for p in (a, b)]
    if _one_person(words[0], a.get("licence", ""), words[1], b.get("licence", "")):
        raise refusal(_("The same player twice."), "second")
    first.players = [a, b]
    if not first.affiliation or first.affiliation != second.affiliation:
        first.affiliation = ""
    first.status = Entry.PENDING
    first.save(update_fields=["players", "affiliation", "status"])
    second.status, second.paired_into, second.decided_at = Entry.PAIRED, first, timezone.now()
    second.save(update_fields=["status", "paired_into", "decided_at"])
    _admit(tournament, online, first)
    _mail_after_commit(first, "accepted" if first.status == Entry.ACCEPTED else "waiting")
    return first


@transaction.atomic
def online_settings_update(
    *,
    by: User,
    tournament: Tournament,
    is_open: bool,
    cap: int | None = None,
    closes_at: datetime.datetime | None = None,
    auto_accept: bool = True,
    licence_required: bool = False,
) -> OnlineRegistration:
    """Set the tournament's registration online; a cap raised lets the waiting list move up."""
    tournament = _lock(tournament)
    require_organiser(by, tournament.club)
    if cap is not None and cap < 1:
        raise refusal(_("At least one competitor, or leave empty for no cap."), "cap")
    online, _created = OnlineRegistration.objects.update_or_create(
        tournament=tournament,
        defaults={
            "is_open": is_open,
            "cap": cap,
            "closes_at": closes_at,
            "auto_accept": auto_accept,
            "licence_required": licence_required,
        },
    )
    waiting_list_move_up(tournament)
    return online


# -- e-mails -------------------------------------------------------------------------------


def _subject(kind: str, entry: OnlineEntry) -> str:
    name = entry.tournament.name
    if entry.status == Entry.ACCEPTED:
        return _("Your registration for %(name)s is confirmed") % {"name": name}
    if entry.status == Entry.REFUSED:
        return _("Your registration for %(name)s was not accepted") % {"name": name}
    if entry.status == Entry.WAITING:
        return _("Your registration for %(name)s: on the waiting list") % {"name": name}
    return _("Your registration for %(name)s is received") % {"name": name}


def _mail_context(entry: OnlineEntry, kind: str) -> dict[str, object]:
    tournament = entry.tournament
    competitor = entry.competitor
    soiree = ""
    owed = tournament.entry_fee
    if competitor is not None:
        soiree = entry.site_url + reverse("soiree:page", kwargs={"token": competitor.link_token})
        owed = competitor_owes(tournament, competitor)
    return {
        "entry": entry,
        "kind": kind,
        "tournament": tournament,
        "competitor": competitor,
        "soiree_url": soiree,
        "owed": owed if owed > Decimal("0") else None,
        "position": waiting_position(entry),
        "page_url": entry.site_url + reverse("public:ranking", kwargs={"slug": tournament.slug}),
    }


def _send(entry_id: int, kind: str) -> None:
    entry = OnlineEntry.objects.select_related("tournament__club", "competitor").filter(pk=entry_id).first()
    if entry is None:
        # Gone since (its tournament deleted): nobody to tell.
        return
    recipients = [entry.email]
    if entry.status in (Entry.ACCEPTED, Entry.WAITING):
        # A team made of two players looking for a partner: the other is told too.
        recipients += [
            e.email for e in OnlineEntry.objects.filter(paired_into=entry).exclude(email__iexact=entry.email)
        ]
    body = render_to_string("tournaments/email/online_entry.txt", _mail_context(entry, kind))
    try:
        send_mail(_subject(kind, entry), body, settings.DEFAULT_FROM_EMAIL, recipients)
    except (OSError, smtplib.SMTPException):
        # The entry stands; the director sees it on their page and can tell the player.
        logger.warning("online entry %s: the e-mail (%s) could not be sent", entry_id, kind)


def _mail_after_commit(entry: OnlineEntry, kind: str) -> None:
    entry_id = entry.pk
    transaction.on_commit(lambda: _send(entry_id, kind))
