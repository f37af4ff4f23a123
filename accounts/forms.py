"""The forms of sign-up, of the first-run setup and of the login.

Each keeps what was typed and says its errors beside their field; the rules of a username,
an address and a password are the services' (accounts.signup), which the views put back
on the fields (`put_errors`). The login's form says, to whoever gave the right password,
that their address still waits for its confirmation.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from accounts import signup


class SignupForm(forms.Form):
    username = forms.CharField(
        # The user model's own word, as the login and the invitation's form say it.
        label=capfirst(_("username")),
        max_length=150,
        help_text=_("To log in, and how the members of your clubs see you."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        help_text=_("We send a link there to confirm it."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=_("Password confirmation"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("Enter the same password as before, for verification."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The validators' rules, in the language of this request (not of the import).
        self.fields["password1"].help_text = " ".join(password_validation.password_validators_help_texts())

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ: type the same one twice."))
        return data

    def put_errors(self, error: ValidationError) -> None:
        """A service's refusal beside its fields (the password's on the second box)."""
        for field, messages in error.message_dict.items():
            target = {"password": "password2"}.get(field, field)
            for message in messages:
                self.add_error(target if target in self.fields else None, message)


class SetupForm(SignupForm):
    """The site's first administrator: their address is optional (a venue laptop may have no
    mail to send), and needed only for a forgotten password."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].required = False
        self.fields["email"].help_text = _("Optional: for a forgotten password, if this site sends e-mail.")
        self.fields["username"].help_text = _("To log in.")


class ResendForm(forms.Form):
    email = forms.EmailField(
        label=_("E-mail address"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )


class LoginForm(AuthenticationForm):
    """Django's login form, which besides tells an account waiting for its address's
    confirmation (the right password given) to open its link or ask for a new one."""

    waiting_confirmation = False

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except ValidationError:
            username, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
            if username and password and signup.signup_waiting(username=username, password=password):
                self.waiting_confirmation = True
                raise ValidationError(
                    _(
                        "Your e-mail address is not confirmed yet: open the link of the e-mail we sent you, "
                        "then log in."
                    ),
                    code="unconfirmed",
                ) from None
            raise
