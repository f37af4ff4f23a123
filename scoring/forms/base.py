"""What every game's entry form shares (docs/rules.md): the entry's key and donne
number, who types, the engine's hand read from whatever fields are sound, and the
engine's errors put back beside each field; the forms that go with a hand (the reason
for a director's change, a side's confirmation).

The forms check only what a browser can get wrong (a word where a number goes); every
rule is the engine's, so the referee reads the same reasons whatever sends the hand.
Every field is optional here: a missing one is the engine's "This field is required."
beside it. Each game family's form is in its own module (`belote`, `tarot`); `games`
says which form a game uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext_lazy as _

from engine.core import Game, RuleError
from scoring.messages import rule_error_text
from scoring.selectors.tables import SideInfo


def number_input(*, decimal: bool = False) -> forms.TextInput:
    # A text input with a numeric keypad: type="number" lets a wheel or an "e" slip in
    # and hides what the browser refused; inputmode brings up the phone's keypad.
    attrs = {"inputmode": "decimal" if decimal else "numeric", "autocomplete": "off", "class": "num"}
    if not decimal:
        attrs["pattern"] = "[0-9]*"
    return forms.TextInput(attrs=attrs)


def radio(choices: Iterable[tuple[Any, Any]], label: Any) -> forms.ChoiceField:
    # Labels made plain strings once, not resolved again for every chip drawn.
    plain = [(value, str(text)) for value, text in choices]
    return forms.ChoiceField(choices=plain, label=label, required=False, widget=forms.RadioSelect)


class HandForm(forms.Form):
    """What every game's form shares: the entry's key, its donne number, who types.

    `raw()` gives the hand as the engine reads it, from whatever fields are sound (a
    field the browser sent wrong is left out, so the engine still judges the others);
    `add_rule_errors` places the engine's errors beside their fields.
    """

    idempotency_key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    expected_number = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    # The per-game part of the form's template (scoring/referee_form_<body>.html).
    body: ClassVar[str]

    def __init__(
        self,
        data: Any = None,
        *,
        game: Game,
        options: dict[str, Any],
        sides: Sequence[SideInfo],
        initial_raw: dict[str, Any] | None = None,
        ask_side: bool = False,
        **kwargs: Any,
    ) -> None:
        self.game = game
        self.options = options
        self.sides = list(sides)
        initial = dict(kwargs.pop("initial", None) or {})
        super().__init__(data, initial=initial, **kwargs)
        self.build_fields()
        self.ask_side = ask_side
        if ask_side:
            # With confirmation, the page must know who typed, so that another side
            # confirms. Optional here so that checking while typing does not nag;
            # `require_side` insists on submit.
            self.fields["entered_side"] = forms.TypedChoiceField(
                choices=[(side.index, side.label) for side in self.sides],
                coerce=int,
                empty_value=None,
                label=_("Who is entering this donne?"),
                required=False,
                widget=forms.RadioSelect,
            )
        if initial_raw:
            self.initial.update(self.initial_from_raw(initial_raw))

    # -- per game ---------------------------------------------------------------------

    def build_fields(self) -> None:
        raise NotImplementedError

    def hand(self, data: dict[str, Any]) -> dict[str, Any]:
        """The engine's hand from cleaned values (missing ones left out)."""
        raise NotImplementedError

    def initial_from_raw(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Form values showing a stored hand (for a correction)."""
        raise NotImplementedError

    def field_for(self, path: str, code: str = "") -> str | None:
        """The form field where an error of the engine's field `path` is shown."""
        head = path.split(".")[0]
        return head if head in self.fields else None

    def adjust_errors(self, errors: list[RuleError]) -> list[RuleError]:
        """A game's chance to reword what the form, not the referee, caused."""
        return errors

    # -- shared -----------------------------------------------------------------------

    def side_choices(self, *, nobody: Any = None) -> list[tuple[str, str]]:
        choices = [(str(side.code), side.label) for side in self.sides]
        return [("", str(nobody)), *choices] if nobody is not None else choices

    def value(self, name: str) -> Any:
        data = getattr(self, "cleaned_data", {})
        value = data.get(name)
        return None if value in ("", None) else value

    def raw(self) -> dict[str, Any]:
        return self.hand(getattr(self, "cleaned_data", {}))

    def add_rule_errors(self, errors: Iterable[RuleError], *, skip_required: bool = False) -> None:
        """Put each engine error beside its field, once; a field the browser got wrong
        keeps only that error (the engine saw the field as missing)."""
        already = {name for name in self.errors if name != NON_FIELD_ERRORS}
        for error in self.adjust_errors(list(errors)):
            if skip_required and error.code == "required":
                continue
            name = self.field_for(error.field, error.code)
            if name is not None and name in already:
                continue
            message = rule_error_text(error)
            if message in self.errors.get(name or NON_FIELD_ERRORS, []):
                continue
            self.add_error(name, message)

    def require_side(self) -> bool:
        """On submit at a tournament with confirmation: who typed must be said."""
        if self.ask_side and self.entered_side is None:
            self.add_error("entered_side", _("Say which side you are on: a player of another side will confirm."))
            return False
        return True

    @property
    def entered_side(self) -> int | None:
        value = getattr(self, "cleaned_data", {}).get("entered_side")
        return value if isinstance(value, int) else None

    def error_slots(self) -> list[str]:
        return list(self.fields)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason for the change"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("Give the reason for this change.")},
    )


class ConfirmForm(forms.Form):
    side = forms.TypedChoiceField(
        coerce=int, choices=(), error_messages={"required": _("Choose the side that confirms.")}
    )

    def __init__(self, data: Any = None, *, sides: Sequence[SideInfo], **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        field: Any = self.fields["side"]
        field.choices = [(side.index, side.label) for side in sides]
