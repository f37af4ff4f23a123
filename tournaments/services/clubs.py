"""Clubs and their people: a club made and edited, its members' roles, invitations.

- A site administrator makes a club (`club_create`), and so does any account while the
  site's sign-up is open (settings.OPEN_SIGNUP), becoming its first administrator; a
  club administrator edits it (`club_update`: name, town, logo).
- A club administrator changes a member's role (`member_set_role`) or removes them
  (`member_remove`); a club always keeps one administrator at least, so the last one can
  be neither demoted nor removed. Each of these locks the club's row first: two
  administrators demoting each other at once cannot leave the club with none.
- A club administrator invites someone by e-mail (`invitation_create`): a link with a
  random secret, working once and for `INVITATION_LIFETIME`. Whoever opens it joins the
  club with the role, with the account they are logged in with
  (`invitation_accept`) or a new one (`invitation_accept_new_account`).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import smtplib
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.access import is_site_admin, require_club_admin, require_may_create_club
from tournaments.logos import LogoImage
from tournaments.models import Club, ClubLogo, Invitation, Membership
from tournaments.services.common import Errors, raise_errors, refusal

INVITATION_LIFETIME = timedelta(days=7)
# What secrets.token_urlsafe(32) makes; anything else is no invitation, without a query.
INVITATION_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{40,64}$")
Role = Membership.Role


# -- the club ------------------------------------------------------------------------------


def _club_errors(name: str, exclude_pk: int | None) -> Errors:
    if not name:
        return {"name": [_("Give the club's name.")]}
    others = Club.objects.all() if exclude_pk is None else Club.objects.exclude(pk=exclude_pk)
    if others.filter(name__iexact=name).exists():
        return {"name": [_("A club of that name already exists.")]}
    return {}


def _unique_club_slug(name: str) -> str:
    base = slugify(name)[:70] or "club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _store_logo(club: Club, logo: LogoImage | None, remove_logo: bool) -> None:
    if logo is not None:
        ClubLogo.objects.update_or_create(
            club=club,
            defaults={"data": logo.data, "content_type": logo.content_type, "width": logo.width, "height": logo.height},
        )
        club.logo_version = logo.version
    elif remove_logo:
        ClubLogo.objects.filter(club=club).delete()
        club.logo_version = ""


@transaction.atomic
def club_create(*, by: User, name: str, town: str = "", logo: LogoImage | None = None, administer: bool = True) -> Club:
    """A new club, of which `by` is the first administrator.

    A site administrator may create it with no member instead (`administer=False`, a
    federation making its clubs): its first administrator then comes by invitation.
    Anyone else always administers the club they create.
    """
    require_may_create_club(by)
    name, town = name.strip(), town.strip()
    raise_errors(_club_errors(name, None))
    club = Club.objects.create(name=name, slug=_unique_club_slug(name), town=town)
    _store_logo(club, logo, remove_logo=False)
    club.save(update_fields=["logo_version"])
    if administer or not is_site_admin(by):
        Membership.objects.create(club=club, user=by, role=Role.ADMIN)
    return club


@transaction.atomic
def club_update(
    *,
    by: User,
    club: Club,
    name: str,
    town: str = "",
    logo: LogoImage | None = None,
    remove_logo: bool = False,
) -> Club:
    """The club's name, town and logo (a new `logo`, or `remove_logo`); its address stays."""
    require_club_admin(by, club)
    club = Club.objects.select_for_update().get(pk=club.pk)
    name, town = name.strip(), town.strip()
    raise_errors(_club_errors(name, club.pk))
    club.name, club.town = name, town
    _store_logo(club, logo, remove_logo)
    club.save(update_fields=["name", "town", "logo_version"])
    return club


# -- members -------------------------------------------------------------------------------


def _lock(club: Club) -> Club:
    return Club.objects.select_for_update().get(pk=club.pk)


def _last_admin(membership: Membership) -> bool:
    admins = Membership.objects.filter(club_id=membership.club_id, role=Role.ADMIN)
    return membership.role == Role.ADMIN and not admins.exclude(pk=membership.pk).exists()


@transaction.atomic
def member_set_role(*, by: User, membership: Membership, role: str) -> Membership:
    require_club_admin(by, membership.club)
    _lock(membership.club)
    membership = Membership.objects.select_related("club", "user").get(pk=membership.pk)
    if role not in Role.values:
        raise refusal(_("Choose a role."), "role")
    if role != Role.ADMIN and _last_admin(membership):
        raise refusal(
            _("%(user)s is the club's last administrator: make someone else administrator first.")
            % {"user": membership.user.get_username()},
            "role",
        )
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def member_remove(*, by: User, membership: Membership) -> None:
    """The member no longer organises the club; their tournaments and players stay the club's."""
    require_club_admin(by, membership.club)
    _lock(membership.club)
    membership = Membership.objects.select_related("user").get(pk=membership.pk)
    if _last_admin(membership):
        raise refusal(
            _("%(user)s is the club's last administrator: make someone else administrator first.")
            % {"user": membership.user.get_username()}
        )
    membership.delete()


# -- invitations ---------------------------------------------------------------------------


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _send_invitation(invitation: Invitation, link: str) -> None:
    context = {
        "club": invitation.club,
        "role": invitation.get_role_display(),
        "link": link,
        "inviter": invitation.invited_by.get_username() if invitation.invited_by else "",
        "days": INVITATION_LIFETIME.days,
    }
    subject = _("Invitation to organise the tournaments of %(club)s") % {"club": invitation.club.name}
    body = render_to_string("tournaments/email/invitation.txt", context)
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [invitation.email])
    except (smtplib.SMTPException, OSError):
        # The mail server refused or is away: nothing is kept, the form says so.
        raise refusal(
            _("The e-mail could not be sent (the mail server refused it or is out of reach). Try again later."),
            "email",
        ) from None


@transaction.atomic
def invitation_create(*, by: User, club: Club, email: str, role: str, link_for: Callable[[str], str]) -> Invitation:
    """Invite `email` to join `club` as `role`, by an e-mail with the link `link_for(secret)`.

    A pending invitation to the same address is replaced: only the newest link works.
    The e-mail is sent before this returns; if it cannot be, nothing is kept.
    """
    require_club_admin(by, club)
    email = email.strip()
    errors: Errors = {}
    try:
        validate_email(email)
    except ValidationError:
        errors["email"] = [_("Give a valid e-mail address.")]
    if role not in Role.values:
        errors["role"] = [_("Choose a role.")]
    raise_errors(errors)
    club = _lock(club)
    Invitation.objects.filter(club=club, email__iexact=email, accepted_at__isnull=True).delete()
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        club=club,
        email=email,
        role=role,
        token_hash=_token_hash(token),
        invited_by=by,
        expires_at=timezone.now() + INVITATION_LIFETIME,
    )
    _send_invitation(invitation, link_for(token))
    return invitation


@transaction.atomic
def invitation_cancel(*, by: User, invitation: Invitation) -> None:
    require_club_admin(by, invitation.club)
    Invitation.objects.filter(pk=invitation.pk, accepted_at__isnull=True).delete()


def invitation_open(*, token: str, lock: bool = False) -> Invitation:
    """The invitation of the link's `token` while it works; ValidationError with code
    `unknown`, `used` or `expired` otherwise (the pages say which)."""
    invitation = None
    if INVITATION_TOKEN_SHAPE.match(token):
        found = Invitation.objects.select_related("club", "invited_by")
        if lock:
            found = found.select_for_update(of=("self",))
        invitation = found.filter(token_hash=_token_hash(token)).first()
    if invitation is None:
        raise ValidationError(_("This invitation link is not valid: check it, or ask for a new one."), code="unknown")
    if invitation.accepted_at is not None:
        raise ValidationError(
            _("This invitation was already used. Log in, or ask the club's administrator for a new one."), code="used"
        )
    if invitation.expires_at <= timezone.now():
        raise ValidationError(
            _("This invitation has expired. Ask the club's administrator for a new one."), code="expired"
        )
    return invitation


def _join(invitation: Invitation, user: User) -> Membership:
    membership, created = Membership.objects.get_or_create(
        club=invitation.club, user=user, defaults={"role": invitation.role}
    )
    # Someone already in the club keeps the higher of their role and the invitation's.
    if not created and invitation.role == Role.ADMIN and membership.role != Role.ADMIN:
        membership.role = Role.ADMIN
        membership.save(update_fields=["role"])
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return membership


@transaction.atomic
def invitation_accept(*, token: str, user: User | AnonymousUser) -> Membership:
    """The logged-in `user` joins the club of the invitation, which is then used up."""
    if not user.is_authenticated:
        raise PermissionDenied("log in first")
    invitation = invitation_open(token=token, lock=True)
    return _join(invitation, user)


@transaction.atomic
def invitation_accept_new_account(*, token: str, username: str, password: str) -> User:
    """A new account (`username`, `password`, the invitation's e-mail) that joins the club."""
    invitation = invitation_open(token=token, lock=True)
    user_model = get_user_model()
    username = username.strip()
    errors: Errors = {}
    if not username:
        errors["username"] = [_("Choose a username.")]
    elif user_model._default_manager.filter(username__iexact=username).exists():
        errors["username"] = [_("This username is taken: choose another.")]
    raise_errors(errors)
    user = user_model(username=username, email=invitation.email)
    try:
        # The username's characters and length, as the user model checks them.
        user.clean_fields(exclude={"password"})
    except ValidationError as error:
        raise ValidationError({"username": error.message_dict.get("username", error.messages)}) from None
    try:
        password_validation.validate_password(password, user)
    except ValidationError as error:
        raise ValidationError({"password": error.messages}) from None
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        raise refusal(_("This username is taken: choose another."), "username") from None
    _join(invitation, user)
    return user
