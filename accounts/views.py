"""The organiser's account page: their API tokens (made, listed with their last use,
revoked) and their password. The key of a new token is shown on the answer to the post
that made it, once: it is stored nowhere, so the page cannot show it again."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts import services
from accounts.models import ApiToken
from kit.requests import UserRequest


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
