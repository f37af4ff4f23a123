"""Self check-in at the door (« Pointage »): each player says « Je suis là » on the tablet
at the entrance, and the competitor is checked in when the tournament's door rule is met.

- The door is reached by its secret link (`Door`, one per tournament, made the first time
  the director asks for it), withdrawn and renewed by the director like a table's link.
- Self check-in is on only when the director switched it on (`Tournament.self_check_in`),
  while registration is open or the tournament runs.
- A team of two is checked in when each of its players said « Je suis là » (`door_rule`
  `each`, the default), or, when the rule lets one say both are here (`one`), as soon
  as one of them says « Nous sommes là tous les deux ». Each player's arrival is kept
  (`Arrival`); a mêlée's or an individual tournament's player is checked in at once.
- The check-in itself is the director's (`registration.check_in_locked`): one person
  never checked in twice, and once a round is drawn a late arrival seated from the next
  round on, byes for the rounds missed. The door words its refusals for the player, and
  sends them to the organiser's table.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.access import require_organiser
from tournaments.models import Arrival, Competitor, Door, Player, Tournament, new_table_token
from tournaments.services.common import Status, last_round_number, refusal
from tournaments.services.money import competitor_owes
from tournaments.services.registration import check_in_locked, twin_checked_in


@dataclass(frozen=True, slots=True)
class DoorAnswer:
    """What the door's screen says once a player said « Je suis là »."""

    competitor: Competitor
    player: Player
    # The competitor's players who said they are here, and those still expected.
    arrived: list[Player]
    waiting: list[Player]
    # Checked in now (by this arrival, or before it), and whether it was before.
    checked_in: bool
    already: bool
    # What the competitor still owes of the entry fee (0: settled, or free entry).
    owed: Decimal


@transaction.atomic
def door_open(*, by: User, tournament: Tournament) -> Door:
    """The tournament's door, made with its link the first time the director asks."""
    require_organiser(by, tournament.club)
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    door, _created = Door.objects.get_or_create(tournament=tournament)
    return door


@transaction.atomic
def door_link_revoke(*, by: User, tournament: Tournament) -> Door:
    """The door's link stops working at once (a tablet lost, a link shared too widely)."""
    door = door_open(by=by, tournament=tournament)
    door.revoked = True
    door.save(update_fields=["revoked"])
    return door


@transaction.atomic
def door_link_renew(*, by: User, tournament: Tournament) -> Door:
    """A new door link; the old one stops working (print the poster again)."""
    door = door_open(by=by, tournament=tournament)
    door.token = new_table_token()
    door.revoked = False
    door.save(update_fields=["token", "revoked"])
    return door


def _check_door_open(tournament: Tournament, door: Door) -> None:
    if door.revoked:
        raise refusal(_("This door link was withdrawn: check in at the organiser’s table."))
    if not tournament.self_check_in:
        raise refusal(_("Self check-in is closed: check in at the organiser’s table."))
    if tournament.status == Status.FINISHED:
        raise refusal(_("The tournament is finished."))
    if tournament.status != Status.REGISTRATION and tournament.status != Status.RUNNING:
        raise refusal(_("Check-in has not opened yet: see the organiser’s table."))


def _check_can_come_in(tournament: Tournament, competitor: Competitor) -> None:
    """The director's rules for a check-in, said to the player at the door."""
    found = twin_checked_in(tournament, competitor)
    if found is not None:
        mine, twin = found
        raise refusal(
            _("%(player)s is already checked in with no. %(number)s: see the organiser’s table.")
            % {"player": mine.label, "number": twin.number}
        )
    last = last_round_number(tournament)
    if tournament.status == Status.RUNNING and last >= competitor.joined_round and last >= 2:
        raise refusal(
            _("Too late to check in here: round %(number)s is drawn. See the organiser’s table.") % {"number": last}
        )


@transaction.atomic
def door_check_in(*, door: Door, competitor: Competitor, player: Player, both: bool = False) -> DoorAnswer:
    """`player` of `competitor` says « Je suis là » at `door` (`both`: « Nous sommes là tous
    les deux », where the tournament's door rule allows it). The competitor is checked in
    once the rule is met; saying it again changes nothing."""
    tournament = Tournament.objects.select_for_update().get(pk=door.tournament_id)
    door = Door.objects.get(pk=door.pk)
    _check_door_open(tournament, door)
    if competitor.tournament_id != tournament.pk:
        raise refusal(_("No such registration at this tournament."))
    competitor = Competitor.objects.select_for_update().get(pk=competitor.pk)
    players = list(competitor.players.all())
    if player.pk not in {p.pk for p in players}:
        raise refusal(_("%(player)s is not in this registration.") % {"player": player.full_name})
    if competitor.status == Competitor.Status.WITHDRAWN:
        raise refusal(_("%(name)s has withdrawn: see the organiser’s table.") % {"name": competitor.name})
    if both and (len(players) < 2 or tournament.door_rule != Tournament.DoorRule.ONE):
        raise refusal(_("At this tournament each player checks in by their own name."))
    already = competitor.status == Competitor.Status.CHECKED_IN
    if not already:
        _check_can_come_in(tournament, competitor)
    for here in players if both else [player]:
        Arrival.objects.get_or_create(competitor=competitor, player=here)
    arrived_ids = set(competitor.arrivals.values_list("player_id", flat=True))
    if not already and all(p.pk in arrived_ids for p in players):
        check_in_locked(tournament, competitor)
        competitor.self_checked_in = True
        competitor.save(update_fields=["status", "joined_round", "self_checked_in"])
    return DoorAnswer(
        competitor=competitor,
        player=player,
        arrived=[p for p in players if p.pk in arrived_ids],
        waiting=[p for p in players if p.pk not in arrived_ids],
        checked_in=competitor.status == Competitor.Status.CHECKED_IN,
        already=already,
        owed=competitor_owes(tournament, competitor),
    )
