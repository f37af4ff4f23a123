"""Who may manage what: the one place where club access is decided.

An *organiser* is a Django user listed in `Club.organisers` (a Membership of the club,
whatever its role); they manage that club's players and tournaments and nothing else.
A *club administrator* (a Membership with the role `admin`) organises too, and besides
edits the club (name, town, logo), invites people, changes their roles, removes them
and anonymises players. A *site administrator* (a staff user or a superuser) creates
clubs, as any account may while the site's sign-up is open (`may_create_club`: its
creator is then the club's first administrator), and may administer any club (to invite
a new club's first administrator), without organising its tournaments unless they are a
member too.

Views load objects through the `*_or_403` functions here (a missing id is a 404, another
club's object a 403), and every service that writes calls `require_organiser` (or
`require_club_admin`) again, so an API view or a task that forgets the check still
cannot touch another club's data.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from tournaments.models import Club, Competitor, Membership, Player, Round, Tournament

# Whoever sent the request: an account, or nobody logged in.
Visitor = User | AnonymousUser


def is_organiser(user: Visitor | None, club: Club) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return club.organisers.filter(pk=user.pk).exists()


def require_organiser(user: Visitor | None, club: Club) -> None:
    """Raise PermissionDenied unless `user` organises `club`."""
    if not is_organiser(user, club):
        raise PermissionDenied("not an organiser of this club")


def is_site_admin(user: Visitor | None) -> bool:
    return user is not None and user.is_authenticated and bool(user.is_staff or user.is_superuser)


def require_site_admin(user: Visitor | None) -> None:
    if not is_site_admin(user):
        raise PermissionDenied("not a site administrator")


def may_create_club(user: Visitor | None) -> bool:
    """A site administrator always; any other account (its address confirmed: an
    unconfirmed one cannot log in) while the site's sign-up is open (settings.OPEN_SIGNUP)."""
    if is_site_admin(user):
        return True
    return settings.OPEN_SIGNUP and user is not None and user.is_authenticated and user.is_active


def require_may_create_club(user: Visitor | None) -> None:
    if not may_create_club(user):
        raise PermissionDenied("may not create a club")


def is_club_admin(user: Visitor | None, club: Club) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if is_site_admin(user):
        return True
    return Membership.objects.filter(club=club, user_id=user.pk, role=Membership.Role.ADMIN).exists()


def require_club_admin(user: Visitor | None, club: Club) -> None:
    """Raise PermissionDenied unless `user` administers `club` (or the site)."""
    if not is_club_admin(user, club):
        raise PermissionDenied("not an administrator of this club")


def club_admin_or_403(user: Visitor, club_id: int) -> Club:
    club = get_object_or_404(Club, pk=club_id)
    require_club_admin(user, club)
    return club


def clubs_of(user: Visitor) -> QuerySet[Club]:
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(organisers=user)


def club_for_user_or_403(user: Visitor, club_id: int) -> Club:
    club = get_object_or_404(Club, pk=club_id)
    require_organiser(user, club)
    return club


def player_for_user_or_403(user: Visitor, club: Club, player_id: int) -> Player:
    # Looked up within the club already checked: another club's player id is a 404 here,
    # which tells an outsider nothing either.
    return get_object_or_404(Player, pk=player_id, club=club)


def tournament_for_user_or_403(user: Visitor, tournament_id: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=tournament_id)
    require_organiser(user, tournament.club)
    return tournament


def competitor_of(tournament: Tournament, competitor_id: int) -> Competitor:
    return get_object_or_404(Competitor, pk=competitor_id, tournament=tournament)


def round_of(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)
