"""The organiser's account page: their API tokens (made, listed with their last use,
revoked) and their password. The key of a new token is shown on the answer to the post
that made it, once: it is stored nowhere, so the page cannot show it again. And the
forgotten password's form, throttled."""

from __future__ import annotations

import hashlib

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm, PasswordResetForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts import services
from accounts.models import ApiToken
from kit.clients import client_address
from kit.requests import UserRequest
from kit.throttle import count_hit


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name of the new token"),
        max_length=services.NAME_MAX,
        help_text=gettext_lazy("The app or the computer that will use it, to recognise it later."),
    )


@never_cache
@login_required
def account(request: UserRequest) -> HttpResponse:
    form = TokenForm(request.POST or None)
    new_key = None
    if request.method == "POST" and form.is_valid():
        try:
            made = services.api_token_create(by=request.user, name=form.cleaned_data["name"])
        except ValidationError as error:
            for message in error.message_dict.get("name", error.messages):
                form.add_error("name", message)
        else:
            new_key, form = made, TokenForm()
    context = {"form": form, "new": new_key, "tokens": ApiToken.objects.filter(user=request.user)}
    return render(request, "accounts/account.html", context)


@require_POST
@login_required
def token_revoke(request: UserRequest, token_id: int) -> HttpResponse:
    # Another user's token is a 404 here: it tells nothing of whether it exists.
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    services.api_token_revoke(by=request.user, token=token)
    messages.success(request, _("Token “%(name)s” revoked: it no longer opens the API.") % {"name": token.name})
    return redirect("accounts:account")


class PasswordChange(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:account")

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        messages.success(self.request, _("Your password was changed."))
        return super().form_valid(form)


# -- a forgotten password --------------------------------------------------------------------


def _reset_refusal(request: HttpRequest, email: str) -> str | None:
    """Why a password reset e-mail to `email` is not sent now, if it is not: too many asked.

    Counted per client (kit.clients, as the login's throttle sees it) and per address
    (normalised as Django's reset matches it, and kept in the cache only as a digest), in
    the shared cache: PASSWORD_RESET_PER_CLIENT and PASSWORD_RESET_PER_ADDRESS requests
    within PASSWORD_RESET_WINDOW. The client is counted first, so that a client past its
    limit spends nothing of an address's. An address is counted whether or not an
    account has it: the answer says nothing of which addresses have one.
    """
    window = int(settings.PASSWORD_RESET_WINDOW.total_seconds())
    minutes = max(1, window // 60)
    client = client_address(request)
    if count_hit(f"password-reset:client:{client}", window=window) > settings.PASSWORD_RESET_PER_CLIENT:
        return _(
            "Too many password reset requests from this connection: wait %(minutes)s minutes before asking again."
        ) % {"minutes": minutes}
    digest = hashlib.sha256(email.strip().casefold().encode()).hexdigest()
    if count_hit(f"password-reset:address:{digest}", window=window) > settings.PASSWORD_RESET_PER_ADDRESS:
        return _(
            "Too many password reset requests for this address: wait %(minutes)s minutes before asking again. "
            "If an e-mail already came, its link works: use the latest one."
        ) % {"minutes": minutes}
    return None


class PasswordReset(auth_views.PasswordResetView):
    """Django's password reset, throttled as the login is (`_reset_refusal`).

    Past a limit the form comes back with the reason beside the address, which it keeps,
    answered 429 ("too many requests"), and no e-mail is sent.
    """

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        refusal = _reset_refusal(self.request, form.cleaned_data["email"])
        if refusal is None:
            return super().form_valid(form)
        form.add_error("email", refusal)
        response = self.form_invalid(form)
        response.status_code = 429
        return response
