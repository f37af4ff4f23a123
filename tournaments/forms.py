"""The organiser's forms. They check types and shapes; the rules live in `tournaments.services`.

A service refuses with a `ValidationError` keyed by field: `add_service_errors` puts each
message beside its field (or above the form when no field of the form matches), so the
director reads every problem at once, in their language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from tournaments import games
from tournaments.logos import LogoImage, read_logo
from tournaments.models import Competitor, Membership, Player, Tournament
from tournaments.services import SAME_PERSON, NewPlayer

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def add_service_errors(form: forms.BaseForm, error: ValidationError) -> None:
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for field, messages in error.message_dict.items():
        target = field if field in form.fields else None
        if field == NON_FIELD_ERRORS:
            target = None
        for message in messages:
            form.add_error(target, message)


def same_person_offers(error: ValidationError) -> dict[str, int]:
    """The club's players a service's refusal says are already there ("same person"), by the
    key of the error: what a form offers to use in place of the one typed."""
    if not hasattr(error, "error_dict"):
        return {}
    offers: dict[str, int] = {}
    for key, problems in error.error_dict.items():
        for problem in problems:
            if problem.code == SAME_PERSON and problem.params and "player_id" in problem.params:
                offers.setdefault(key, int(problem.params["player_id"]))
    return offers


class PlayerForm(forms.ModelForm):  # type: ignore[type-arg]  # not subscriptable at run time
    """A player's record. Their results go on a public page only with their word: a player
    whose page is off (imported ones start so) has it turned on only with `consent` ticked."""

    consent = forms.BooleanField(
        label=_("The player agreed"),
        required=False,
        help_text=_("Tick it when turning on their public page: the player (asked) agreed."),
    )

    class Meta:
        model = Player
        fields = ["last_name", "first_name", "licence", "affiliation", "email", "phone", "public_history"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Asked only of a record whose public page is off: turning it on needs the player's word.
        self.needs_consent = self.instance.pk is not None and not self.instance.public_history
        if not self.needs_consent:
            del self.fields["consent"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data
        if self.needs_consent and data.get("public_history") and not data.get("consent"):
            self.add_error("consent", _("Their public page is turned on only once the player has agreed: tick here."))
        data.pop("consent", None)
        return data


class CsvUploadForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "Columns: nom, prénom, club, licence, separated by semicolons or commas"
            " (as Excel or LibreOffice save them)."
        ),
    )


class CsvConfirmForm(forms.Form):
    # The decoded file travels back with the confirmation; it is parsed and checked again.
    text = forms.CharField(widget=forms.HiddenInput, strip=False)


def _criteria_choices(current: Sequence[str] = ()) -> list[tuple[str, StrOrPromise]]:
    """The form's orders of criteria, and the tournament's own when it is none of them
    (chosen on the standings page, which offers every criterion)."""
    presets = [tuple(preset) for preset in games.CRITERIA_PRESETS]
    if current and tuple(current) not in presets:
        presets.append(tuple(current))
    return [("", _("The game's usual order"))] + [(",".join(order), games.criteria_label(order)) for order in presets]


SEATING_FIELDS = ("table_preference", "allow_tables_of_three", "table_de_cinq")


class TournamentForm(forms.Form):
    """The short form: the game decides the formats and the rule options shown, and the
    seating for the games played at tables of several sizes (tarot à 4 and à 5).

    `options_for` records the game whose options the page showed: when the director
    changes the game without JavaScript, the form shows the new game's options again
    instead of saving options chosen for another game.

    `frozen` maps the settings the tournament's status fixes to the reason
    (`services.tournament_frozen_fields`): their fields are disabled, shown with the
    reason, and keep the tournament's value whatever is posted (pass `initial`).
    """

    name = forms.CharField(label=_("Name"), max_length=200)
    # An <input type=date> holds ISO dates only, whatever the page's language: a French
    # 14/03/2026 would show empty and be sent as nothing. Typed by hand (a browser without
    # a date picker), the French form is understood too.
    date = forms.DateField(
        label=_("Date"),
        input_formats=["%Y-%m-%d", "%d/%m/%Y"],
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
    )
    game = forms.ChoiceField(label=_("Game"), choices=Tournament.Game.choices)
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[("", _("The game's usual format")), *Tournament.Format.choices],
        required=False,
        help_text=_("Teams or mêlée for the belote games at four; individual for the games for three."),
    )
    rounds_planned = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30, initial=4)
    end_rule = forms.ChoiceField(label=_("A partie ends after"), choices=Tournament.EndRule.choices)
    end_value = forms.IntegerField(label=_("Donnes or target score"), required=False, min_value=1)
    pairing_method = forms.ChoiceField(
        label=_("Draw of rounds 2 and after"), choices=Tournament.PairingMethod.choices, initial="swiss"
    )
    first_round_order = forms.ChoiceField(
        label=_("Order of round 1"),
        choices=Tournament.FirstRoundOrder.choices,
        initial=Tournament.FirstRoundOrder.RANDOM,
        # A browser always sends the select; a form sent without it keeps the setting.
        required=False,
        help_text=_("By Atout rating: the strongest players, rated from their earlier tournaments, do not meet."),
    )
    criteria = forms.ChoiceField(label=_("Ranking"), choices=_criteria_choices, required=False)
    bye_policy = forms.ChoiceField(label=_("A bye (exempt) scores"), choices=Tournament.ByePolicy.choices)
    bye_points = forms.IntegerField(label=_("Points for a bye (fixed policy)"), min_value=0, initial=0, required=False)
    late_policy = forms.ChoiceField(
        label=_("A late arrival scores, for each round missed"),
        choices=Tournament.LatePolicy.choices,
        initial=Tournament.LatePolicy.ABSENT,
    )
    separate_clubs_rounds = forms.IntegerField(
        label=_("Keep players of the same club apart for the first rounds"),
        min_value=0,
        max_value=30,
        initial=0,
        required=False,
    )
    entry_fee = forms.DecimalField(
        label=_("Entry fee per competitor (€)"),
        min_value=0,
        max_value=99999,
        decimal_places=2,
        initial=0,
        required=False,
        help_text=_("0: free entry. Payments are recorded at check-in."),
        localize=True,
    )
    is_public = forms.BooleanField(label=_("Public ranking and draw"), required=False, initial=True)
    confirmation_required = forms.BooleanField(label=_("Hands confirmed by the other side"), required=False)
    self_check_in = forms.BooleanField(
        label=_("Self check-in at the door"),
        required=False,
        help_text=_("Players check themselves in on a tablet at the door (« Pointage » poster on the dashboard)."),
    )
    door_rule = forms.ChoiceField(
        label=_("At the door, a team is checked in when"),
        choices=Tournament.DoorRule.choices,
        initial=Tournament.DoorRule.EACH,
        # A browser always sends the select; a form sent without it keeps the setting.
        required=False,
    )
    options_for = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(
        self,
        *args: Any,
        game: str,
        criteria: Sequence[str] = (),
        frozen: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        """`criteria`: the tournament's own order, when editing one."""
        super().__init__(*args, **kwargs)
        self.game_code = game
        self.fields["options_for"].initial = game
        self.fields["end_value"].help_text = games.end_value_help()
        cast(forms.ChoiceField, self.fields["criteria"]).choices = _criteria_choices(criteria)
        for option in games.option_fields(game):
            by_text = {str(value): value for value, _label in option.choices}
            self.fields[f"option_{option.name}"] = forms.TypedChoiceField(
                label=option.label,
                choices=[(str(value), label) for value, label in option.choices],
                coerce=lambda text, by_text=by_text: by_text[text],
                initial=str(option.default),
            )
        if games.has_table_choice(game):
            self._add_seating_fields(game)
        self._add_preset_fields(game)
        for name, reason in (frozen or {}).items():
            names = [f.name for f in self.option_bound_fields()] if name == "rule_options" else [name]
            if name == "rule_options" and "preset" in self.fields:
                names.append("preset")
            for bound in (self[n] for n in names if n in self.fields):
                bound.field.disabled = True
                bound.field.frozen_reason = reason  # type: ignore[attr-defined]  # shown beside it

    def _add_preset_fields(self, game: str) -> None:
        """The preset select: one step sets every option and the game's settings.

        `preset_from` is the preset the options showed when the page was drawn ("" when
        they were none). A form sent with another preset than that (a director without
        JavaScript choosing one) takes the preset's values in place of the options sent;
        otherwise the options sent stand, and the preset is only what they amount to. The
        page's script (static/js/presets.js) keeps the select and the options in step.
        """
        self.presets = games.presets_for(game)
        if not self.presets:
            return
        options = self._options_shown()
        state = games.preset_state(game, options, self._settings_shown())
        current = state.preset.code if state.preset is not None and not state.modified else ""
        nearest = state.preset.name if state.preset is not None else ""
        self.modified_template = str(_("%(preset)s (modified)"))
        modified = self.modified_template % {"preset": nearest} if state.modified else str(_("Modified"))
        self.fields["preset"] = forms.ChoiceField(
            label=_("Preset"),
            choices=[(p.code, p.name) for p in self.presets] + [("", modified)],
            required=False,
            initial=current,
            help_text=_("Sets every option below at once; any option may then be changed."),
        )
        self.fields["preset_from"] = forms.CharField(widget=forms.HiddenInput, required=False, initial=current)
        if not self.is_bound:
            self.initial.setdefault("preset", current)
            self.initial.setdefault("preset_from", current)
            return
        chosen = next((p for p in self.presets if p.code == self.data.get("preset")), None)
        if chosen is None or self.data.get("preset") == self.data.get("preset_from"):
            return
        # A preset chosen without the page's script: its values replace the options sent.
        data = self.data.copy() if isinstance(self.data, QueryDict) else QueryDict(mutable=True)
        if not isinstance(self.data, QueryDict):
            data.update(self.data)
        for name, value in chosen.options.items():
            data[f"option_{name}"] = str(value)
        for name, value in chosen.settings.items():
            if name in self.fields:
                data[name] = str(value)
        data["preset_from"] = chosen.code
        self.data = data

    def _options_shown(self) -> dict[str, Any]:
        """The rule options as the page shows them (a value the game lacks: its default)."""
        options = {}
        for name, field in self.fields.items():
            if name.startswith("option_"):
                coerce = cast(forms.TypedChoiceField, field).coerce
                try:
                    options[name.removeprefix("option_")] = coerce(str(self[name].value()))
                except KeyError:
                    continue
        return options

    def _settings_shown(self) -> dict[str, Any]:
        """The game's settings as the page shows them (tarot à 4's table de cinq)."""
        if "table_de_cinq" not in self.fields:
            return {}
        return {"table_de_cinq": self["table_de_cinq"].value() or Tournament.TableDeCinq.MORT}

    def preset_data(self) -> list[dict[str, Any]]:
        """The presets as the page's script reads them (json_script)."""
        return [{"code": p.code, "name": p.name, "options": p.options, "settings": p.settings} for p in self.presets]

    def _add_seating_fields(self, game: str) -> None:
        self.fields["table_preference"] = forms.ChoiceField(
            label=_("Seating"),
            choices=Tournament.TablePreference.choices,
            initial=games.usual_table_preference(game),
        )
        self.fields["allow_tables_of_three"] = forms.BooleanField(
            label=_("Allow a table of 3 (tarot for three) as a last resort"),
            required=False,
            help_text=_("Otherwise the players who fit no table of 4 or 5 sit out the round (exempt)."),
        )
        if games.has_table_de_cinq(game):
            self.fields["table_de_cinq"] = forms.ChoiceField(
                label=_("A table of five plays"),
                choices=Tournament.TableDeCinq.choices,
                initial=Tournament.TableDeCinq.MORT,
                # A browser always sends the select; a form sent without it keeps the setting.
                required=False,
                help_text=_(
                    "The mort: each donne the dealer sits out and scores 0, the four others play tarot for four "
                    "(the federation's way); the partie lasts a quarter longer so that each plays as many donnes."
                ),
            )

    def option_bound_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("option_")]

    def seating_bound_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in SEATING_FIELDS if name in self.fields]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.is_bound and data.get("game") and data.get("options_for") not in ("", None, data["game"]):
            raise ValidationError(
                _("The game changed: check its rule options below, then save again."), code="game_changed"
            )
        return data

    def service_values(self) -> dict[str, Any]:
        data = self.cleaned_data
        values = {
            "name": data["name"],
            "date": data["date"],
            "game": data["game"],
            "format": data["format"],
            "rounds_planned": data["rounds_planned"],
            "end_rule": data["end_rule"],
            "end_value": data["end_value"],
            "pairing_method": data["pairing_method"],
            "criteria": data["criteria"].split(",") if data["criteria"] else None,
            "bye_policy": data["bye_policy"],
            "bye_points": data["bye_points"] or 0,
            "late_policy": data["late_policy"],
            "separate_clubs_rounds": data["separate_clubs_rounds"] or 0,
            "table_preference": data.get("table_preference", ""),
            "allow_tables_of_three": data.get("allow_tables_of_three", False),
            # Tarot à 4 only: another game's form does not show it, and the tournament keeps its value.
            **({"table_de_cinq": data["table_de_cinq"]} if data.get("table_de_cinq") else {}),
            "rule_options": {
                name.removeprefix("option_"): value for name, value in data.items() if name.startswith("option_")
            },
            "is_public": data["is_public"],
            "confirmation_required": data["confirmation_required"],
            "entry_fee": data["entry_fee"] or 0,
            "self_check_in": data["self_check_in"],
        }
        # Selects a form may be sent without: the tournament keeps its setting.
        for name in ("first_round_order", "door_rule"):
            if data.get(name):
                values[name] = data[name]
        return values

    @classmethod
    def initial_from(cls, tournament: Tournament) -> dict[str, Any]:
        initial = {name: getattr(tournament, name) for name in cls.base_fields if hasattr(tournament, name)}
        initial["criteria"] = ",".join(tournament.criteria)
        initial["options_for"] = tournament.game
        initial.update({f"option_{name}": str(value) for name, value in tournament.rule_options.items()})
        initial["table_preference"] = tournament.table_preference or games.usual_table_preference(tournament.game)
        initial["allow_tables_of_three"] = tournament.allow_tables_of_three
        initial["table_de_cinq"] = tournament.table_de_cinq
        return initial


class PlayerChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]  # not subscriptable at run time
    """A club player as the registration picker lists them: last name first, then the licence."""

    def label_from_instance(self, obj: Player) -> str:
        label = f"{obj.last_name} {obj.first_name}".strip()
        return f"{label} ({obj.licence})" if obj.licence else label


class RegistrationForm(forms.Form):
    """One slot per player of the competitor: pick a club player, or type a new one's name."""

    name = forms.CharField(label=_("Team name"), max_length=200, required=False, help_text=_("Empty: the last names."))
    checked_in = forms.BooleanField(label=_("Checked in now"), required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.size = 2 if tournament.format == Tournament.Format.TEAMS else 1
        if self.size == 1:
            del self.fields["name"]
        registered = Player.objects.filter(competitors__tournament=tournament).exclude(
            competitors__status=Competitor.Status.WITHDRAWN
        )
        available = Player.objects.filter(club=tournament.club).exclude(pk__in=registered)
        for n in range(1, self.size + 1):
            self.fields[f"player_{n}"] = PlayerChoiceField(
                label=_("Player %(n)s") % {"n": n} if self.size > 1 else _("Player"),
                queryset=available,
                required=False,
                empty_label=_("— a new player —"),
            )
            self.fields[f"last_name_{n}"] = forms.CharField(
                label=_("or a new player: last name"), max_length=100, required=False
            )
            self.fields[f"first_name_{n}"] = forms.CharField(label=_("first name"), max_length=100, required=False)
            self.fields[f"licence_{n}"] = forms.CharField(label=_("licence"), max_length=30, required=False)
            self.fields[f"affiliation_{n}"] = forms.CharField(
                label=_("club played for"), max_length=200, required=False, help_text=_("Empty: this club.")
            )

            # Sent by the button offering the club's player a typed name turned out to be.
            self.fields[f"use_{n}"] = forms.ModelChoiceField(
                queryset=available, required=False, widget=forms.HiddenInput
            )
        # The slot (from 1) -> the club's player the name typed there already is.
        self.offers: dict[int, Player] = {}

    def slots(self) -> list[list[forms.BoundField]]:
        names = ("player", "last_name", "first_name", "licence", "affiliation")
        return [[self[f"{name}_{n}"] for name in names] for n in range(1, self.size + 1)]

    def slot_rows(self) -> list[tuple[int, list[forms.BoundField], Player | None]]:
        """Each slot's number, fields, and the existing player offered in place of the name typed."""
        return [(n, fields, self.offers.get(n)) for n, fields in enumerate(self.slots(), start=1)]

    def add_refusal(self, error: ValidationError) -> None:
        """A service's refusal beside its field; a name typed for a player the club already
        has is refused beside the name, with that player offered (`offers`)."""
        offers = same_person_offers(error)
        if hasattr(error, "error_dict"):
            typed = {
                f"player_{n}": f"last_name_{n}"
                for n in range(1, self.size + 1)
                if not self.cleaned_data.get(f"player_{n}") and not self.cleaned_data.get(f"use_{n}")
            }
            error = ValidationError({typed.get(key, key): problems for key, problems in error.error_dict.items()})
        add_service_errors(self, error)
        for key, player_id in offers.items():
            slot = int(key.removeprefix("player_")) if key.startswith("player_") else 0
            player = Player.objects.filter(pk=player_id, club=self.tournament.club).first()
            if slot and player is not None:
                self.offers[slot] = player

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        for n in range(1, self.size + 1):
            if data.get(f"use_{n}"):
                # The existing player replaces the name typed, which stays in the form as sent.
                data[f"player_{n}"] = data[f"use_{n}"]
                continue
            typed = data.get(f"last_name_{n}") or data.get(f"first_name_{n}")
            if data.get(f"player_{n}") and typed:
                self.add_error(f"player_{n}", _("Pick a player or type a new one, not both."))
            elif not data.get(f"player_{n}") and not typed:
                self.add_error(f"player_{n}", _("Pick a player or type a new one."))
        return data

    def players(self) -> list[Player | NewPlayer]:
        data = self.cleaned_data
        return [
            data[f"player_{n}"]
            or NewPlayer(
                last_name=data[f"last_name_{n}"],
                first_name=data[f"first_name_{n}"],
                licence=data[f"licence_{n}"],
                affiliation=data[f"affiliation_{n}"],
            )
            for n in range(1, self.size + 1)
        ]


class ForbiddenPairForm(forms.Form):
    first = forms.ModelChoiceField(label=_("Keep apart"), queryset=Competitor.objects.none())
    second = forms.ModelChoiceField(label=_("and"), queryset=Competitor.objects.none())
    reason = forms.CharField(label=_("Why (for you)"), max_length=200, required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        competitors = tournament.competitors.exclude(status=Competitor.Status.WITHDRAWN)
        cast("forms.ModelChoiceField[Competitor]", self.fields["first"]).queryset = competitors
        cast("forms.ModelChoiceField[Competitor]", self.fields["second"]).queryset = competitors


class PaymentForm(forms.Form):
    """The dashboard's compact payment control: one choice, status and method together."""

    CHOICES = (
        ("unpaid", _("Not paid")),
        ("paid:cash", _("Paid: cash")),
        ("paid:card", _("Paid: card")),
        ("paid:transfer", _("Paid: transfer")),
        ("free", _("Free entry")),
    )
    payment = forms.ChoiceField(label=_("Entry fee"), choices=CHOICES)

    def service_values(self) -> dict[str, str]:
        status, _sep, method = self.cleaned_data["payment"].partition(":")
        return {"status": status, "method": method}


class PrizeForm(forms.Form):
    rank_from = forms.IntegerField(label=_("From rank"), min_value=1, max_value=10_000)
    rank_to = forms.IntegerField(
        label=_("To rank"), min_value=1, max_value=10_000, required=False, help_text=_("Empty: this rank only.")
    )
    text = forms.CharField(label=_("Lot"), max_length=200)
    value = forms.DecimalField(
        label=_("Value (€)"), min_value=0, max_value=99999, decimal_places=2, required=False, localize=True
    )


class PrizeMoneyForm(forms.Form):
    """The prize money's settings: the pool, how it is split, and one field per place
    (`place_1`...). Refusals about the places together (their total) go to
    `split_errors`, shown above the places; the service checks every value."""

    pool_kind = forms.ChoiceField(label=_("Prize money comes from"), choices=Tournament.PrizePool.choices)
    pool_value = forms.CharField(
        label=_("Share of the takings (%) or pool (€)"),
        required=False,
        max_length=20,
        help_text=_("A share of the takings: a percentage, such as 50. A fixed pool: euros, such as 200."),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )
    split_kind = forms.ChoiceField(label=_("Split by place as"), choices=Tournament.PrizeSplit.choices)

    def __init__(self, *args: Any, places: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.split_errors: list[str] = []
        self.places = places
        for place in range(1, places + 1):
            self.fields[f"place_{place}"] = forms.CharField(
                label=_("Place %(place)s") % {"place": place},
                required=False,
                max_length=20,
                widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off", "size": 8}),
            )

    def place_fields(self) -> list[forms.BoundField]:
        return [self[f"place_{place}"] for place in range(1, self.places + 1)]

    def service_values(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "pool_kind": data["pool_kind"],
            "pool_value": data.get("pool_value", ""),
            "split_kind": data["split_kind"],
            "split": [data.get(f"place_{place}", "") for place in range(1, self.places + 1)],
        }

    def add_refusal(self, error: ValidationError) -> None:
        """The service's refusal beside its fields; the places' total above the places."""
        if hasattr(error, "error_dict"):
            messages = error.message_dict
            self.split_errors.extend(messages.get("split", []))
            remaining = {key: value for key, value in messages.items() if key != "split"}
            if remaining:
                add_service_errors(self, ValidationError(remaining))
        else:
            add_service_errors(self, error)


class StatusForm(forms.Form):
    status = forms.ChoiceField(choices=Tournament.Status.choices)


# -- clubs and their people ----------------------------------------------------------------


class ClubForm(forms.Form):
    """A club's name, town and logo; the logo is checked and re-encoded here (tournaments.logos)."""

    name = forms.CharField(label=_("Name"), max_length=200)
    town = forms.CharField(label=_("Town"), max_length=120, required=False)
    logo = forms.FileField(
        label=_("Logo"),
        required=False,
        help_text=_("A PNG or JPEG image, at most 2 MB; shown at most 512 pixels wide."),
        widget=forms.FileInput(attrs={"accept": "image/png,image/jpeg"}),
    )
    remove_logo = forms.BooleanField(label=_("Remove the logo"), required=False)
    # A new club only, offered to a site administrator (tournaments.club_views.club_create).
    administer = forms.BooleanField(
        label=_("I am its administrator"),
        required=False,
        initial=True,
        help_text=_("Untick to create the club for others: then invite its first administrator."),
    )

    def __init__(self, *args: Any, offer_administer: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not offer_administer:
            self.fields.pop("administer")

    def clean_logo(self) -> LogoImage | None:
        upload = self.cleaned_data.get("logo")
        if not upload:
            return None
        try:
            return read_logo(upload, upload.size)
        except ValidationError as error:
            raise ValidationError(error.message_dict["logo"]) from None


class InvitationForm(forms.Form):
    email = forms.EmailField(label=_("Their e-mail"), max_length=254)
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices, initial=Membership.Role.ORGANISER)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices)


# The round clock's form (the director's dashboard; the actions are in rounds/).
CLOCK_START, CLOCK_ADJUST, CLOCK_STOP = "start", "adjust", "stop"
CLOCK_LABELS: dict[str, StrOrPromise] = {
    CLOCK_START: _("Duration of the round (minutes)"),
    CLOCK_ADJUST: _("Minutes to add (negative: to take off)"),
    CLOCK_STOP: "",
}


class ClockForm(forms.Form):
    """One form for the three actions; the limits on the minutes are the service's."""

    action = forms.ChoiceField(choices=[(a, a) for a in CLOCK_LABELS], widget=forms.HiddenInput)
    minutes = forms.IntegerField(required=False, min_value=-10_000, max_value=10_000)

    def __init__(self, *args: Any, action: str = CLOCK_START, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, "prefix": "clock"})
        self.fields["minutes"].label = CLOCK_LABELS.get(action, "")
        self.fields["minutes"].widget.attrs.update({"min": -600 if action == CLOCK_ADJUST else 1, "max": 600})

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        wanted = data.get("action") in (CLOCK_START, CLOCK_ADJUST)
        if wanted and data.get("minutes") is None and "minutes" not in self.errors:
            self.add_error("minutes", _("Give a number of minutes."))
        return data


class ScreenMessageForm(forms.Form):
    """A message for the screens; its limits are the service's (tournaments.services.screen)."""

    text = forms.CharField(
        label=_("Message on the screens"),
        required=False,
        strip=True,
        help_text=_("At most 140 characters: shown on the projectors and on every player’s « Ma soirée » page."),
        widget=forms.TextInput(attrs={"maxlength": 140, "autocomplete": "off"}),
    )
    minutes = forms.IntegerField(
        label=_("For (minutes)"),
        required=False,
        help_text=_("Empty: until withdrawn."),
        widget=forms.NumberInput(attrs={"min": 1, "max": 1440}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, "prefix": "screen"})
