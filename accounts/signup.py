"""Every write of open sign-up and of the first-run setup, keyword-only like accounts.services.

Terms:
- A *sign-up* (`SignUp`) is an account made at /signup/: inactive (it cannot log in) until
  the link e-mailed to its address is opened (*confirmed*). The link is signed
  (django.core.signing, salted), works for `SIGNUP_CONFIRM_LIFETIME` and once: it names
  the sign-up and its nonce, and a confirmed sign-up refuses it.
- A *pending* sign-up is one not confirmed yet; a *stale* one is pending and older than
  the link's lifetime: its username and address may be taken again (it is deleted then).
- The *first-run setup* (/setup/) makes the site's first administrator, in the browser,
  while the database has no account at all. `SiteSetup`'s single row closes it for good.

Nothing here says whether an address has an account: a sign-up or a resend for an address
that has one sends that address a "you already have an account" e-mail, and the page
answers as for a new one. `signup_create` and `signup_resend` send their e-mail before
they return; if it cannot be sent, nothing is kept and the form says so.
"""

from __future__ import annotations

import secrets
import smtplib
from collections.abc import Callable, Mapping
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import SignUp, SiteSetup

# Salt of the confirmation links' signatures: a value signed elsewhere with the site's key
# (a session, a password reset) is no confirmation link.
SALT = "accounts.signup.confirm"

# Turns a path of this site into the address an e-mail carries (the request's
# build_absolute_uri in a view).
Absolute = Callable[[str], str]


def _users() -> type[User]:
    return get_user_model()


def _lifetime_days() -> int:
    return max(1, settings.SIGNUP_CONFIRM_LIFETIME.days)


# -- e-mails -------------------------------------------------------------------------------


def _send(subject: str, template: str, context: Mapping[str, object], email: str) -> None:
    body = render_to_string(template, context)
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [email])
    except (smtplib.SMTPException, OSError):
        # The mail server refused or is away: the transaction rolls back, the form says so.
        message = _("The e-mail could not be sent (the mail server refused it or is out of reach). Try again later.")
        raise ValidationError({"email": [message]}) from None


def confirmation_token(signup: SignUp) -> str:
    return signing.dumps({"s": signup.pk, "n": signup.nonce}, salt=SALT, compress=True)


def _send_confirmation(signup: SignUp, absolute: Absolute) -> None:
    link = absolute(reverse("signup_confirm", kwargs={"token": confirmation_token(signup)}))
    context = {"name": signup.user.get_username(), "link": link, "days": _lifetime_days()}
    _send(_("Confirm your e-mail address on Atout"), "accounts/email/signup_confirm.txt", context, signup.user.email)


def _send_already_registered(email: str, absolute: Absolute) -> None:
    context = {"login": absolute(reverse("login")), "reset": absolute(reverse("password_reset"))}
    _send(_("You already have an Atout account"), "accounts/email/signup_exists.txt", context, email)


# -- who has what --------------------------------------------------------------------------


def _stale_before() -> datetime:
    return timezone.now() - settings.SIGNUP_CONFIRM_LIFETIME


def _forget_stale(*, username: str = "", email: str = "") -> None:
    """Delete the stale sign-ups holding `username` or `email`: whoever made them never
    opened the link, and the name or the address is asked for again."""
    stale = SignUp.objects.filter(confirmed_at__isnull=True, created_at__lt=_stale_before())
    holding = _users().objects.none()
    if username:
        holding |= _users().objects.filter(username__iexact=username)
    if email:
        holding |= _users().objects.filter(email__iexact=email)
    _users().objects.filter(pk__in=stale.filter(user__in=holding).values("user_id")).delete()


def _pending(email: str) -> SignUp | None:
    return (
        SignUp.objects.select_related("user")
        .filter(confirmed_at__isnull=True, user__email__iexact=email)
        .order_by("-created_at")
        .first()
    )


def _has_account(email: str) -> bool:
    """An account other than a pending sign-up has `email` (an invited or confirmed one)."""
    accounts = _users().objects.filter(email__iexact=email)
    return accounts.exclude(signup__isnull=False, signup__confirmed_at__isnull=True).exists()


# -- validation ----------------------------------------------------------------------------


def _new_user(*, username: str, email: str, password: str, email_required: bool = True) -> User:
    """An unsaved user with these, or ValidationError by field (`username`, `email`, `password`)."""
    errors: dict[str, list[str]] = {}
    if email or email_required:
        try:
            validate_email(email)
        except ValidationError:
            errors["email"] = [_("Give a valid e-mail address.")]
    user = _users()(username=username, email=email)
    if not username:
        errors["username"] = [_("Choose a username.")]
    else:
        try:
            # The username's characters and length, as the user model checks them.
            user.clean_fields(exclude={"password", "email"})
        except ValidationError as error:
            errors["username"] = error.message_dict.get("username", error.messages)
    if "username" not in errors and _users().objects.filter(username__iexact=username).exists():
        errors["username"] = [_("This username is taken: choose another.")]
    try:
        password_validation.validate_password(password, user)
    except ValidationError as error:
        errors["password"] = list(error.messages)
    if errors:
        raise ValidationError(errors)
    user.set_password(password)
    return user


def _save_new(user: User) -> None:
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        # The same username taken at the same moment: refused as the check above refuses it.
        raise ValidationError({"username": [_("This username is taken: choose another.")]}) from None


# -- sign-up -------------------------------------------------------------------------------


@transaction.atomic
def signup_create(*, username: str, email: str, password: str, absolute: Absolute) -> None:
    """Sign `email` up: a new inactive account and its confirmation link, by e-mail.

    If the address already has an account, that address gets an e-mail saying so instead;
    if it has a sign-up waiting, that sign-up's link is sent again (the password of the
    first sign-up stays: someone who merely knows the address cannot set it). The caller
    answers the same in every case.
    """
    username, email = username.strip(), _users().objects.normalize_email(email.strip())
    _forget_stale(username=username, email=email)
    user = _new_user(username=username, email=email, password=password)
    if _has_account(email):
        _send_already_registered(email, absolute)
        return
    pending = _pending(email)
    if pending is not None:
        _send_confirmation(pending, absolute)
        return
    user.is_active = False
    _save_new(user)
    signup = SignUp.objects.create(user=user, nonce=secrets.token_hex(16))
    _send_confirmation(signup, absolute)


@transaction.atomic
def signup_resend(*, email: str, absolute: Absolute) -> None:
    """Send again the link of the sign-up waiting at `email` (with a new lifetime), or say
    the address has an account; nothing for an address Atout does not know."""
    email = email.strip()
    pending = _pending(email)
    if pending is not None:
        # The new link works its whole lifetime: the sign-up is not stale before it ends.
        SignUp.objects.filter(pk=pending.pk).update(created_at=timezone.now())
        _send_confirmation(pending, absolute)
    elif _has_account(email):
        _send_already_registered(email, absolute)


def signup_open(*, token: str, lock: bool = False) -> SignUp:
    """The sign-up the link's `token` confirms; ValidationError with the code `unknown`,
    `expired` or `used` otherwise (the pages say which)."""
    unknown = ValidationError(
        _("This confirmation link is not valid: check that the whole link was copied, or sign up again."),
        code="unknown",
    )
    try:
        value = signing.loads(token, salt=SALT, max_age=settings.SIGNUP_CONFIRM_LIFETIME)
    except signing.SignatureExpired:
        raise ValidationError(
            _("This confirmation link has expired. Ask for a new one, or sign up again."), code="expired"
        ) from None
    except signing.BadSignature:
        raise unknown from None
    if not isinstance(value, dict) or not isinstance(value.get("s"), int) or not isinstance(value.get("n"), str):
        raise unknown
    found = SignUp.objects.select_related("user")
    if lock:
        found = found.select_for_update(of=("self",))
    signup = found.filter(pk=value["s"], nonce=value["n"]).first()
    if signup is None:
        raise unknown
    if signup.confirmed_at is not None:
        raise ValidationError(
            _("This link was already used: your address is confirmed. Log in with your username and password."),
            code="used",
        )
    return signup


@transaction.atomic
def signup_confirm(*, token: str) -> User:
    """Confirm the sign-up of the link: its account may log in from now on."""
    signup = signup_open(token=token, lock=True)
    signup.confirmed_at = timezone.now()
    signup.save(update_fields=["confirmed_at"])
    user = signup.user
    user.is_active = True
    user.save(update_fields=["is_active"])
    return user


def signup_waiting(*, username: str, password: str) -> bool:
    """Whether `username` and `password` are those of an account whose sign-up waits for
    its confirmation: the login then says so, rather than "wrong password". Nothing is
    said to whoever does not know the password."""
    signup = (
        SignUp.objects.select_related("user")
        .filter(confirmed_at__isnull=True, user__username=username, user__is_active=False)
        .first()
    )
    return signup is not None and signup.user.check_password(password)


# -- the first-run setup -------------------------------------------------------------------


def setup_pending() -> bool:
    """Whether /setup/ is open: the database has no account at all, and never had one
    since it was closed (an account made otherwise, as ./run's demo or createsuperuser
    make them, closes it at the next look)."""
    if SiteSetup.objects.exists():
        return False
    if _users().objects.exists():
        SiteSetup.objects.get_or_create(id=SiteSetup.SINGLETON)
        return False
    return True


@transaction.atomic
def first_admin_create(*, username: str, email: str, password: str) -> User:
    """The site's first administrator (a superuser), which closes /setup/ for good.

    PermissionDenied when the setup is closed, including when another first-run form won
    a moment before: its `SiteSetup` row, inserted first, makes this one's fail, and this
    whole transaction (the account with it) is rolled back.
    """
    if not setup_pending():
        raise PermissionDenied("the site is set up already")
    try:
        with transaction.atomic():
            SiteSetup.objects.create(id=SiteSetup.SINGLETON)
    except IntegrityError:
        raise PermissionDenied("the site is set up already") from None
    username, email = username.strip(), email.strip()
    if email:
        email = _users().objects.normalize_email(email)
    user = _new_user(username=username, email=email, password=password, email_required=False)
    user.is_staff = user.is_superuser = True
    _save_new(user)
    return user
