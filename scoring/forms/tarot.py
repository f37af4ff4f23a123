"""The tarot entry form (tarot à 3, 4 and 5): what a referee taps and types, turned into
the engine's hand (docs/rules.md).

Terms (oudlers, poignée, petit au bout, chelem): docs/glossary.md.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.base import HandForm, number_input, radio
from scoring.labels import CAMP_LABELS, CONTRACT_LABELS, POIGNEE_LABELS


class HalfPointsField(forms.CharField):
    """Card points by halves, as a phone types them: "45", "45.5" or "45,5"."""

    default_error_messages = {"invalid": _("Enter the points as a number; halves are written 45.5 or 45,5.")}

    def to_python(self, value: Any) -> int | float | None:  # type: ignore[override]
        text = str(super().to_python(value) or "").strip().replace(",", ".")
        if not text:
            return None
        try:
            number = Decimal(text)
        except InvalidOperation:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None
        if not number.is_finite():
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return int(number) if number == number.to_integral_value() else float(number)


class TarotForm(HandForm):
    """Tarot à 3, 4 and 5 (the table's game): the taker (and at five the partner the
    taker called), the attack's oudlers and card points (the defence has 91 minus
    them), poignée, petit au bout and chelem."""

    body = "tarot"

    @property
    def calls_partner(self) -> bool:
        return self.game.code == "tarot_a_cinq"

    @property
    def has_mort(self) -> bool:
        """Tarot à 4 at a table of five: each donne the dealer sits out (engine's `mort`)."""
        return "mort" in getattr(self.game, "seats", ())

    @property
    def mort_label(self) -> str:
        """The name of the player who is mort for the donne on the form ("" when none is)."""
        value = self["mort"].value() if self.has_mort else None
        for side in self.sides:
            if str(side.code) == str(value):
                return side.label
        return ""

    def build_fields(self) -> None:
        f = self.fields
        camps = [("", str(_("nobody")))] + [(camp, str(label)) for camp, label in CAMP_LABELS.items()]
        if self.has_mort:
            f["mort"] = radio(self.side_choices(), _("Mort (the dealer, who sits this donne out)"))
            f["mort"].help_text = _("The deal turns each donne; choose another player if the table dealt otherwise.")
        f["taker"] = radio(self.side_choices(), _("Taker"))
        if self.calls_partner:
            # Called alone: the called king was in the chien or the taker's own hand.
            alone = [("alone", str(_("called themself (plays alone)")))]
            f["partner"] = radio(alone + list(self.side_choices()), _("Partner (called king)"))
        f["contract"] = radio(
            ((name, CONTRACT_LABELS[name]) for name in ("petite", "garde", "garde_sans", "garde_contre")),
            _("Contract"),
        )
        f["oudlers"] = radio(((str(n), str(n)) for n in range(4)), _("Taker's oudlers (bouts)"))
        f["points"] = HalfPointsField(required=False, label=_("Taker's card points"), widget=number_input(decimal=True))
        whole = bool(getattr(self.game, "whole_points", False))
        # At four the taker's points are whole (engine: half_point_at_four).
        f["points"].help_text = (
            _("Out of 91; whole points at four players.") if whole else _("Out of 91; halves allowed (45.5).")
        )
        f["petit_au_bout"] = radio(camps, _("Petit au bout"))
        f["poignee_by"] = radio(camps, _("Poignée shown by"))
        f["poignee_size"] = radio(
            [("", "—")] + [(size, str(label)) for size, label in POIGNEE_LABELS[self.game.code].items()],
            _("Poignée"),
        )
        f["chelem_announced"] = forms.BooleanField(required=False, label=_("Chelem announced"))
        f["chelem_made_by"] = radio(camps, _("Chelem made by"))

    def has_extras(self) -> bool:
        """Whether the petit au bout, poignée or chelem part has something to show."""
        names = ("petit_au_bout", "poignee_by", "poignee_size", "chelem_announced", "chelem_made_by")
        return any(self[name].value() or self[name].errors for name in names)

    def hand(self, data: dict[str, Any]) -> dict[str, Any]:
        hand: dict[str, Any] = {}
        if data.get("mort") not in (None, ""):
            hand["mort"] = int(data["mort"])
        if data.get("taker") not in (None, ""):
            hand["taker"] = int(data["taker"])
        partner = data.get("partner")
        if partner == "alone":
            # The taker alone: the engine reads a partner equal to the taker.
            if "taker" in hand:
                hand["partner"] = hand["taker"]
        elif partner is not None and partner != "":
            hand["partner"] = int(partner)
        if data.get("contract"):
            hand["contract"] = data["contract"]
        if data.get("oudlers") not in (None, ""):
            hand["oudlers"] = int(data["oudlers"])
        if data.get("points") is not None:
            hand["points"] = data["points"]
        if data.get("petit_au_bout"):
            hand["petit_au_bout"] = data["petit_au_bout"]
        if data.get("poignee_by") or data.get("poignee_size"):
            poignee = {"by": data.get("poignee_by"), "size": data.get("poignee_size")}
            hand["poignee"] = {key: value for key, value in poignee.items() if value}
        if data.get("chelem_announced") or data.get("chelem_made_by"):
            hand["chelem"] = {
                "announced": bool(data.get("chelem_announced")),
                "made_by": data.get("chelem_made_by") or None,
            }
        return hand

    def initial_from_raw(self, raw: dict[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {}
        for name in ("mort", "taker", "contract", "oudlers"):
            if raw.get(name) is not None:
                initial[name] = str(raw[name])
        if self.calls_partner and raw.get("partner") is not None:
            initial["partner"] = "alone" if raw["partner"] == raw.get("taker") else str(raw["partner"])
        if raw.get("points") is not None:
            initial["points"] = str(raw["points"])
        initial["petit_au_bout"] = raw.get("petit_au_bout") or ""
        poignee = found if isinstance(found := raw.get("poignee"), dict) else {}
        initial["poignee_by"] = poignee.get("by") or ""
        initial["poignee_size"] = poignee.get("size") or ""
        chelem = found if isinstance(found := raw.get("chelem"), dict) else {}
        initial["chelem_announced"] = bool(chelem.get("announced"))
        initial["chelem_made_by"] = chelem.get("made_by") or ""
        return initial

    def field_for(self, path: str, code: str = "") -> str | None:
        parts = path.split(".")
        if parts[0] == "poignee":
            return "poignee_size" if len(parts) > 1 and parts[1] == "size" else "poignee_by"
        if parts[0] == "chelem":
            return "chelem_announced" if len(parts) > 1 and parts[1] == "announced" else "chelem_made_by"
        return super().field_for(path, code)
