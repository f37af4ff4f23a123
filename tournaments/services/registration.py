"""Registration, check-in (*pointage*), withdrawals (*abandon*), late arrivals, forbidden meetings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments import csv_import
from tournaments.access import require_organiser
from tournaments.models import Bye, Competitor, ForbiddenPair, Player, Tournament, new_table_token
from tournaments.services.common import (
    Refusals,
    Status,
    last_round_number,
    raise_errors,
    refresh_standings_after_commit,
    refusal,
    status_label,
)
from tournaments.services.players import NewPlayer, player_errors


def _players_per_competitor(tournament: Tournament) -> int:
    return 2 if tournament.format == Tournament.Format.TEAMS else 1


def _check_can_join(tournament: Tournament) -> None:
    """Registration is open, or the tournament runs and round 2 is not drawn yet (late arrival)."""
    if tournament.status in (Status.DRAFT, Status.FINISHED):
        raise refusal(
            _("Registration is not open (the tournament is “%(status)s”).")
            % {"status": status_label(tournament.status)}
        )
    if tournament.status == Status.RUNNING and last_round_number(tournament) >= 2:
        raise refusal(_("Too late: round 2 is drawn. Late arrivals join before round 2."))


def _join_late(tournament: Tournament, competitor: Competitor) -> None:
    """Seat a late arrival from the next round on, with a 'late' bye for every round missed."""
    last = last_round_number(tournament)
    competitor.joined_round = last + 1
    for rnd in tournament.rounds.filter(number__lte=last):
        Bye.objects.get_or_create(round=rnd, competitor=competitor, defaults={"reason": "late"})
    if last:
        refresh_standings_after_commit(tournament)


def _leave_late(tournament: Tournament, competitor: Competitor) -> None:
    """Undo `_join_late` for a competitor seated in no round yet: its 'late' byes go."""
    deleted, _by_model = competitor.byes.filter(reason="late").delete()
    competitor.joined_round = 1
    if deleted:
        refresh_standings_after_commit(tournament)


@transaction.atomic
def competitor_register(
    *,
    by: User,
    tournament: Tournament,
    players: Sequence[Player | NewPlayer],
    name: str = "",
    checked_in: bool = False,
) -> Competitor:
    """Register a team (two players) or a player; new players join the club's list on the way.

    Errors about the n-th player are keyed `player_<n>` (from 1).
    """
    require_organiser(by, tournament.club)
    tournament = Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)
    return register_locked(tournament, players, name=name, checked_in=checked_in)


def register_locked(
    tournament: Tournament, players: Sequence[Player | NewPlayer], *, name: str = "", checked_in: bool = False
) -> Competitor:
    """`competitor_register` on a tournament the caller locked, whoever asks (the director,
    or an online entry accepted: tournaments/services/online.py)."""
    _check_can_join(tournament)
    size = _players_per_competitor(tournament)
    if len(players) != size:
        raise refusal(_("A team is two players.") if size == 2 else _("Register one player at a time in this format."))
    chosen = _registration_players(tournament, players)
    number = (tournament.competitors.aggregate(n=Max("number"))["n"] or 0) + 1
    labels = {p.club_label for p in chosen}
    competitor = Competitor.objects.create(
        tournament=tournament,
        number=number,
        name=name.strip()[:200] or competitor_default_name(chosen),
        club=tournament.club,
        affiliation=labels.pop() if len(labels) == 1 else "",
        status=Competitor.Status.CHECKED_IN if checked_in or tournament.status == Status.RUNNING else "registered",
    )
    competitor.players.set(chosen)
    if tournament.status == Status.RUNNING:
        _join_late(tournament, competitor)
        competitor.save(update_fields=["joined_round"])
    return competitor


@dataclass(frozen=True, slots=True)
class Seated:
    """A player of a competitor still in the tournament, as the one-person rule compares them."""

    player_id: int
    words: tuple[str, ...]
    licence: str
    label: str
    competitor_id: int
    number: int
    checked_in: bool


def _seated(tournament: Tournament) -> list[Seated]:
    rows = (
        Competitor.players.through.objects.filter(competitor__tournament=tournament)
        .exclude(competitor__status=Competitor.Status.WITHDRAWN)
        .values_list(
            "player_id",
            "player__last_name",
            "player__first_name",
            "player__licence",
            "competitor_id",
            "competitor__number",
            "competitor__status",
        )
    )
    return [
        Seated(
            pk,
            csv_import.person_words(last, first),
            licence,
            f"{first} {last}".strip(),
            competitor,
            number,
            status == Competitor.Status.CHECKED_IN,
        )
        for pk, last, first, licence, competitor, number, status in rows
    ]


def _one_person(words_a: tuple[str, ...], licence_a: str, words_b: tuple[str, ...], licence_b: str) -> bool:
    """The import's rule within a tournament, whatever club each plays for: the same licence,
    or the same name (accents, case and word order aside) unless two licences differ."""
    if licence_a.strip() and csv_import.licence_key(licence_a) == csv_import.licence_key(licence_b):
        return True
    return words_a == words_b and csv_import.same_person(licence_a, licence_b)


def _already_seated(seated: Sequence[Seated], last: str, first: str, licence: str, pk: int | None) -> Seated | None:
    words = csv_import.person_words(last, first)
    return next((s for s in seated if s.player_id == pk or _one_person(s.words, s.licence, words, licence)), None)


def _registration_players(tournament: Tournament, players: Sequence[Player | NewPlayer]) -> list[Player]:
    """The players to register, new ones created; refused when one of them is already in
    the tournament (the same record, or the same person by the import's rule: one person
    never sits twice in a tournament) or, typed by hand, is already in the club's list."""
    errors: Refusals = {}
    seated = _seated(tournament)
    for index, player in enumerate(players, start=1):
        key = f"player_{index}"
        pk = player.pk if isinstance(player, Player) else None
        if isinstance(player, Player) and player.club_id != tournament.club_id:
            errors[key] = [_("Only the club's players can be registered.")]
            continue
        twin = _already_seated(seated, player.last_name, player.first_name, player.licence, pk)
        if twin is not None:
            errors[key] = [
                ValidationError(
                    _("%(player)s is already registered (no. %(number)s)."),
                    code="already_registered",
                    params={"player": twin.label, "number": twin.number},
                )
            ]
        elif isinstance(player, NewPlayer):
            problems = player_errors(
                tournament.club, player.last_name, player.first_name, player.licence, player.affiliation, None
            )
            if problems:
                errors[key] = [message for messages in problems.values() for message in messages]
    keys = [(csv_import.person_words(p.last_name, p.first_name), p.licence) for p in players]
    pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1 :] if a[0]]
    if any(_one_person(*a, *b) for a, b in pairs):
        errors[NON_FIELD_ERRORS] = [_("The same player twice.")]
    raise_errors(errors)
    chosen: list[Player] = []
    for player in players:
        if isinstance(player, NewPlayer):
            affiliation = csv_import.affiliation_for(
                player.affiliation.strip(), tournament.club.name, tournament.club.slug
            )
            player = Player.objects.create(
                club=tournament.club,
                last_name=player.last_name.strip(),
                first_name=player.first_name.strip(),
                licence=player.licence.strip(),
                affiliation=affiliation,
                public_history=player.public_history,
            )
        chosen.append(player)
    return chosen


def competitor_default_name(players: Sequence[Player]) -> str:
    """A competitor's name when none is given: the player's full name, or a team's last names."""
    if len(players) == 1:
        return players[0].full_name
    return " – ".join(p.last_name for p in players)


def _lock_competitor(by: User, competitor: Competitor) -> tuple[Tournament, Competitor]:
    """The competitor and its tournament as the database has them now, both locked."""
    # The caller's objects may be stale (the tournament started since they were loaded):
    # every rule below reads fresh rows.
    tournament = Tournament.objects.select_for_update().select_related("club").get(pk=competitor.tournament_id)
    require_organiser(by, tournament.club)
    return tournament, Competitor.objects.select_for_update().select_related("tournament").get(pk=competitor.pk)


@transaction.atomic
def competitor_check_in(*, by: User, competitor: Competitor, present: bool = True) -> Competitor:
    """Mark a competitor present (*pointage*) or not; once rounds are drawn, present means a late arrival."""
    tournament, competitor = _lock_competitor(by, competitor)
    _check_can_check_in(tournament, competitor)
    # A late arrival's byes are rounds it missed, not rounds it played.
    played = competitor.seats.exists() or competitor.byes.exclude(reason="late").exists()
    if present and competitor.status != Competitor.Status.CHECKED_IN:
        check_in_locked(tournament, competitor)
    elif not present and competitor.status == Competitor.Status.CHECKED_IN:
        if played:
            raise refusal(_("%(name)s has already played: withdraw them instead.") % {"name": competitor.name})
        if competitor.joined_round > 1:
            # A late arrival checked in by mistake, before any round it would play: undone.
            _leave_late(tournament, competitor)
        competitor.status = Competitor.Status.REGISTERED
        # Not there after all: the arrivals said at the door go with the check-in.
        competitor.arrivals.all().delete()
    # The director's hand decides now: the desk no longer marks it checked in at the door.
    competitor.self_checked_in = False
    competitor.save(update_fields=["status", "joined_round", "self_checked_in"])
    return competitor


def _check_can_check_in(tournament: Tournament, competitor: Competitor) -> None:
    if tournament.status not in (Status.REGISTRATION, Status.RUNNING):
        raise refusal(_("Check-in is done while registration is open or the tournament runs."))
    if competitor.status == Competitor.Status.WITHDRAWN:
        raise refusal(_("%(name)s has withdrawn.") % {"name": competitor.name})


def check_in_locked(tournament: Tournament, competitor: Competitor) -> None:
    """The check-in itself, on a tournament and a competitor locked by the caller (the
    director's desk, the door): one person never checked in twice, and once a round is
    drawn a late arrival, seated from the next round on. The caller saves the competitor."""
    _refuse_twin_checked_in(tournament, competitor)
    if tournament.status == Status.RUNNING and last_round_number(tournament) >= competitor.joined_round:
        _check_can_join(tournament)
        _join_late(tournament, competitor)
    competitor.status = Competitor.Status.CHECKED_IN


@transaction.atomic
def competitor_link_revoke(*, by: User, competitor: Competitor) -> Competitor:
    """The competitor's « Ma soirée » link stops working at once (a lost receipt, a link
    shared too widely), as a table's link does (scoring.services.table_token_revoke)."""
    _tournament, locked = _lock_competitor(by, competitor)
    locked.link_revoked = True
    locked.save(update_fields=["link_revoked"])
    return locked


@transaction.atomic
def competitor_link_renew(*, by: User, competitor: Competitor) -> Competitor:
    """A new personal link for the competitor; the old one stops working (print the new receipt)."""
    _tournament, locked = _lock_competitor(by, competitor)
    locked.link_token = new_table_token()
    locked.link_revoked = False
    locked.save(update_fields=["link_token", "link_revoked"])
    return locked


def _refuse_twin_checked_in(tournament: Tournament, competitor: Competitor) -> None:
    """One person never sits twice: a registration made twice (before Atout compared names
    folded) is checked in once; the other is to be withdrawn."""
    found = twin_checked_in(tournament, competitor)
    if found is not None:
        mine, twin = found
        raise refusal(
            _("%(player)s is already in no. %(number)s, checked in: withdraw one of the two registrations.")
            % {"player": mine.label, "number": twin.number}
        )


def twin_checked_in(tournament: Tournament, competitor: Competitor) -> tuple[Seated, Seated] | None:
    """A player of `competitor` and the same person in another competitor already checked
    in, or None: the one-person rule at check-in."""
    seated = _seated(tournament)
    own = [s for s in seated if s.competitor_id == competitor.pk]
    present = [s for s in seated if s.checked_in and s.competitor_id != competitor.pk]
    for mine in own:
        twin = next((s for s in present if _one_person(s.words, s.licence, mine.words, mine.licence)), None)
        if twin is not None:
            return mine, twin
    return None


@transaction.atomic
def competitors_check_in_all(*, by: User, tournament: Tournament) -> int:
    """Check in everyone registered (*tout pointer*), before the first draw; returns how many.

    Once rounds are drawn a check-in is a late arrival, decided one competitor at a time.
    """
    tournament = Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)
    require_organiser(by, tournament.club)
    if tournament.status != Status.REGISTRATION:
        raise refusal(_("Everyone can be checked in at once only while registration is open."))
    seated = _seated(tournament)
    for index, first in enumerate(seated):
        twin = next(
            (
                s
                for s in seated[index + 1 :]
                if s.competitor_id != first.competitor_id
                and _one_person(s.words, s.licence, first.words, first.licence)
            ),
            None,
        )
        if twin is not None:
            raise refusal(
                _("%(player)s is in two registrations (no. %(first)s and no. %(second)s): withdraw one of them first.")
                % {
                    "player": first.label,
                    "first": min(first.number, twin.number),
                    "second": max(first.number, twin.number),
                }
            )
    return tournament.competitors.filter(status=Competitor.Status.REGISTERED).update(
        status=Competitor.Status.CHECKED_IN
    )


@transaction.atomic
def competitor_withdraw(*, by: User, competitor: Competitor) -> Competitor:
    """Withdraw (*abandon*): the results stay, and the competitor is never drawn again.

    Called through `services.competitor_withdraw` (tournaments/services/online.py), which
    lets the waiting list of registration online move up in the same transaction."""
    tournament, competitor = _lock_competitor(by, competitor)
    if tournament.status not in (Status.REGISTRATION, Status.RUNNING):
        raise refusal(_("Withdrawals are recorded while registration is open or the tournament runs."))
    if competitor.status == Competitor.Status.WITHDRAWN:
        raise refusal(_("%(name)s has already withdrawn.") % {"name": competitor.name})
    competitor.status = Competitor.Status.WITHDRAWN
    competitor.withdrawn_after_round = last_round_number(tournament)
    competitor.save(update_fields=["status", "withdrawn_after_round"])
    if competitor.withdrawn_after_round:
        refresh_standings_after_commit(tournament)
    return competitor


@transaction.atomic
def competitor_reinstate(*, by: User, competitor: Competitor) -> Competitor:
    """Take back a withdrawal (a mistaken one, or a team that comes back) before the next draw.

    Only while no round was drawn without them: a round drawn since has no seat for them
    and no result to give, so from then on the withdrawal stands.
    """
    tournament, competitor = _lock_competitor(by, competitor)
    if tournament.status not in (Status.REGISTRATION, Status.RUNNING):
        raise refusal(_("Withdrawals are taken back while registration is open or the tournament runs."))
    if competitor.status != Competitor.Status.WITHDRAWN:
        raise refusal(_("%(name)s has not withdrawn.") % {"name": competitor.name})
    if (competitor.withdrawn_after_round or 0) < last_round_number(tournament):
        raise refusal(
            _("A round was drawn without %(name)s since the withdrawal: it can no longer be taken back.")
            % {"name": competitor.name}
        )
    had_rounds = bool(competitor.withdrawn_after_round)
    # Present again: they were there to withdraw, and the next draw is to seat them.
    competitor.status = Competitor.Status.CHECKED_IN
    competitor.withdrawn_after_round = None
    competitor.save(update_fields=["status", "withdrawn_after_round"])
    if had_rounds:
        refresh_standings_after_commit(tournament)
    return competitor


@transaction.atomic
def forbidden_pair_add(
    *, by: User, tournament: Tournament, first: Competitor, second: Competitor, reason: str = ""
) -> ForbiddenPair:
    """Keep two competitors apart in every draw from now on (family, same household...)."""
    require_organiser(by, tournament.club)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Status.FINISHED:
        raise refusal(_("The tournament is finished."))
    if first.tournament_id != tournament.pk or second.tournament_id != tournament.pk:
        raise refusal(_("Both must be competitors of this tournament."))
    if first.pk == second.pk:
        raise refusal(_("Choose two different competitors."), "second")
    # Stored in one order, so that (A, B) and (B, A) are the same pair for the database.
    low, high = sorted((first, second), key=lambda c: c.pk)
    pair, created = ForbiddenPair.objects.get_or_create(
        tournament=tournament, first=low, second=high, defaults={"reason": reason.strip()[:200]}
    )
    if not created:
        raise refusal(_("These two are already kept apart."), "second")
    return pair


@transaction.atomic
def forbidden_pair_remove(*, by: User, pair: ForbiddenPair) -> None:
    require_organiser(by, pair.tournament.club)
    pair.delete()
