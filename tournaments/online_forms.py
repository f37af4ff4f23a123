"""The forms of registration online: the public « S'inscrire » form, the director's settings
and pairing. They check shapes; the rules live in tournaments/services/online.py."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from tournaments.models import OnlineEntry, OnlineRegistration, Tournament
from tournaments.services.online import EntryPlayer, players_per_entry

# The honeypot: a field a person never sees nor fills (hidden by the stylesheet, out of
# the tab order); a robot filling every field gives itself away.
HONEYPOT = "website_url"


class OnlineEntryForm(forms.Form):
    """One team (both players) or one player; a single player of a team tournament may
    ask to be paired (« cherche partenaire »)."""

    name = forms.CharField(label=_("Team name"), max_length=200, required=False, help_text=_("Empty: the last names."))
    seeking_partner = forms.BooleanField(
        label=_("I have no partner: pair me with another player"),
        required=False,
        help_text=_("Fill in the first player only; the organiser pairs you with another player looking for one."),
    )
    affiliation = forms.CharField(
        label=_("Club played for"), max_length=200, required=False, help_text=_("Empty: the organising club.")
    )
    email = forms.EmailField(
        label=_("E-mail"),
        max_length=254,
        help_text=_("The confirmation and your personal link are sent there."),
        error_messages={"required": _("Give an e-mail address: the confirmation is sent there.")},
    )
    phone = forms.CharField(label=_("Phone"), max_length=30, required=False)
    website_url = forms.CharField(label=_("Leave this field empty"), required=False, max_length=200)

    def __init__(self, *args: Any, tournament: Tournament, online: OnlineRegistration, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.size = players_per_entry(tournament)
        if self.size == 1:
            del self.fields["name"], self.fields["seeking_partner"]
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        self.fields["phone"].widget.attrs["autocomplete"] = "tel"
        self.fields[HONEYPOT].widget.attrs.update({"tabindex": "-1", "autocomplete": "off"})
        for n in range(1, self.size + 1):
            who = _("Player %(n)s") % {"n": n} if self.size > 1 else _("Player")
            self.fields[f"last_name_{n}"] = forms.CharField(
                label=_("%(who)s: last name") % {"who": who}, max_length=100, required=False
            )
            self.fields[f"first_name_{n}"] = forms.CharField(
                label=_("%(who)s: first name") % {"who": who}, max_length=100, required=False
            )
            self.fields[f"licence_{n}"] = forms.CharField(
                label=_("%(who)s: licence number") % {"who": who},
                max_length=30,
                required=False,
                help_text=_("Required by the club.") if online.licence_required else "",
            )
            # The names are this site's rule to check (services), not the browser's.
            self.fields[f"last_name_{n}"].widget.attrs["autocomplete"] = "off"
            self.fields[f"first_name_{n}"].widget.attrs["autocomplete"] = "off"

    def slots(self) -> list[list[forms.BoundField]]:
        return [
            [self[f"{name}_{n}"] for name in ("last_name", "first_name", "licence")] for n in range(1, self.size + 1)
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        if self.cleaned_data.get(HONEYPOT):
            self.add_error(None, _("This form could not be sent. Leave the last field empty."))
        return self.cleaned_data

    def players(self) -> list[EntryPlayer]:
        data = self.cleaned_data
        count = 1 if data.get("seeking_partner") else self.size
        return [
            EntryPlayer(data[f"last_name_{n}"], data[f"first_name_{n}"], data[f"licence_{n}"])
            for n in range(1, count + 1)
        ]


class OnlineSettingsForm(forms.Form):
    is_open = forms.BooleanField(
        label=_("Take registrations online (« S'inscrire » on the public page)"), required=False
    )
    cap = forms.IntegerField(
        label=_("Most competitors"),
        required=False,
        min_value=1,
        max_value=10_000,
        help_text=_("Empty: no cap. Past it, entries wait on a list that moves up by itself at a withdrawal."),
    )
    closes_at = forms.DateTimeField(
        label=_("Registration online closes"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%d/%m/%Y %H:%M", "%Y-%m-%d %H:%M"],
        help_text=_("Empty: until the tournament starts."),
    )
    auto_accept = forms.TypedChoiceField(
        label=_("Entries"),
        choices=[("1", _("Accepted automatically")), ("0", _("Accepted by hand, one by one"))],
        coerce=lambda value: value == "1",
        initial="1",
    )
    licence_required = forms.BooleanField(label=_("Licence number required"), required=False)

    @classmethod
    def initial_from(cls, online: OnlineRegistration) -> dict[str, Any]:
        return {
            "is_open": online.is_open,
            "cap": online.cap,
            "closes_at": online.closes_at,
            "auto_accept": "1" if online.auto_accept else "0",
            "licence_required": online.licence_required,
        }


class EntryChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]  # not subscriptable at run time
    def label_from_instance(self, obj: OnlineEntry) -> str:
        return obj.label + (f" ({obj.affiliation})" if obj.affiliation else "")


class PairForm(forms.Form):
    first = EntryChoiceField(label=_("Pair"), queryset=OnlineEntry.objects.none())
    second = EntryChoiceField(label=_("with"), queryset=OnlineEntry.objects.none())

    def __init__(self, *args: Any, seeking: QuerySet[OnlineEntry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast("forms.ModelChoiceField[OnlineEntry]", self.fields["first"]).queryset = seeking
        cast("forms.ModelChoiceField[OnlineEntry]", self.fields["second"]).queryset = seeking
