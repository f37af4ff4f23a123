"""The pages of open sign-up and of the first-run setup.

- /signup/: a username, an address and a password; then « check your mailbox »
  (/signup/sent/), whatever the address (nothing says whether it has an account).
- /signup/confirm/<token>/: the e-mailed link. Opening it shows one button, which
  confirms the address and logs in: a mail scanner that opens links before their reader
  confirms nothing.
- /signup/resend/: a new link for an address whose sign-up waits.
- /setup/: the site's first administrator, while there is no account at all; a 404 ever after.

With sign-up closed (settings.OPEN_SIGNUP off) the sign-up pages say so, answered 403;
invitations and the setup still work. Sign-ups and resends are throttled per address and
per client in the shared cache (kit.throttle), as the forgotten password's e-mails are:
SIGNUP_PER_ADDRESS and SIGNUP_PER_CLIENT within SIGNUP_WINDOW, then 429.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from accounts import signup
from accounts.forms import ResendForm, SetupForm, SignupForm
from kit.clients import client_address
from kit.throttle import count_hit

# The accounts made here log in with the site's password check, not django-axes' (no
# credentials were checked: the link, or the form that made the account, is the proof).
PASSWORD_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _closed(request: HttpRequest) -> HttpResponse:
    context = {
        "title": _("Sign-up is closed"),
        "message": _(
            "This site does not take new accounts: ask the administrator of your club for an invitation. "
            "If you have an account, log in."
        ),
    }
    return render(request, "notice.html", context, status=403)


def _refusal(request: HttpRequest, email: str) -> str | None:
    """Why no e-mail goes to `email` now, if none does: too many asked (as
    accounts.views._reset_refusal counts them, the client first)."""
    window = int(settings.SIGNUP_WINDOW.total_seconds())
    minutes = max(1, window // 60)
    if count_hit(f"signup:client:{client_address(request)}", window=window) > settings.SIGNUP_PER_CLIENT:
        return _("Too many sign-ups from this connection: wait %(minutes)s minutes before trying again.") % {
            "minutes": minutes
        }
    digest = hashlib.sha256(email.strip().casefold().encode()).hexdigest()
    if count_hit(f"signup:address:{digest}", window=window) > settings.SIGNUP_PER_ADDRESS:
        return _(
            "Too many e-mails asked for this address: wait %(minutes)s minutes before trying again. "
            "If an e-mail already came, its link works."
        ) % {"minutes": minutes}
    return None


@never_cache
def signup_form(request: HttpRequest) -> HttpResponse:
    if not settings.OPEN_SIGNUP:
        return _closed(request)
    if request.user.is_authenticated:
        return redirect("manage:clubs")
    form = SignupForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        refusal = _refusal(request, data["email"])
        if refusal is not None:
            form.add_error("email", refusal)
            status = 429
        else:
            try:
                signup.signup_create(
                    username=data["username"],
                    email=data["email"],
                    password=data["password1"],
                    absolute=request.build_absolute_uri,
                )
            except ValidationError as error:
                form.put_errors(error)
            else:
                return redirect("signup_sent")
    return render(request, "accounts/signup.html", {"form": form}, status=status)


def signup_sent(request: HttpRequest) -> HttpResponse:
    if not settings.OPEN_SIGNUP:
        return _closed(request)
    return render(request, "accounts/signup_sent.html", {"days": settings.SIGNUP_CONFIRM_LIFETIME.days})


@never_cache
def signup_resend(request: HttpRequest) -> HttpResponse:
    if not settings.OPEN_SIGNUP:
        return _closed(request)
    form = ResendForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        refusal = _refusal(request, email)
        if refusal is not None:
            form.add_error("email", refusal)
            status = 429
        else:
            try:
                signup.signup_resend(email=email, absolute=request.build_absolute_uri)
            except ValidationError as error:
                form.add_error("email", error.message_dict["email"])
            else:
                return redirect("signup_sent")
    return render(request, "accounts/signup_resend.html", {"form": form}, status=status)


@never_cache
def signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    if not settings.OPEN_SIGNUP:
        return _closed(request)
    try:
        found = signup.signup_open(token=token)
        if request.method != "POST":
            return render(request, "accounts/signup_confirm.html", {"name": found.user.get_username()})
        user = signup.signup_confirm(token=token)
    except ValidationError as error:
        context = {"title": _("Confirmation link not valid"), "message": error.messages[0]}
        return render(request, "notice.html", context, status=404 if error.code == "unknown" else 410)
    login(request, user, backend=PASSWORD_BACKEND)
    messages.success(request, _("Your address is confirmed: welcome to Atout."))
    return redirect("manage:clubs")


@never_cache
def setup(request: HttpRequest) -> HttpResponse:
    """The first administrator, while the database has no account; never again after."""
    if not signup.setup_pending():
        raise Http404("the site is set up")
    form = SetupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = signup.first_admin_create(username=data["username"], email=data["email"], password=data["password1"])
        except PermissionDenied:
            # Another first-run form won a moment before: this one made nothing.
            raise Http404("the site is set up") from None
        except ValidationError as error:
            form.put_errors(error)
        else:
            login(request, user, backend=PASSWORD_BACKEND)
            messages.success(request, _("You are this site's administrator. Create your club to begin."))
            return redirect("manage:clubs")
    return render(request, "accounts/setup.html", {"form": form})
