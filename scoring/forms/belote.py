"""The entry forms of the belote family: belote at four (classique and moderne), contrée
and belote à 3, what a referee taps and types turned into the engine's hand
(docs/rules.md), with the announcement rows they share.

Each form is built from the engine's game definition (its sides, contracts and rule
options); the shared machinery is scoring/forms/base.py.

Terms (preneur, défense, dix de der, annonces, belote-rebelote, capot): docs/glossary.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.core import RuleError
from engine.games import announcements as annonces
from engine.games.checks import required
from scoring.forms.base import HandForm, number_input, radio
from scoring.labels import ANNOUNCEMENT_LABELS, CONTRACT_LABELS, SUIT_SYMBOLS
from scoring.selectors.tables import SideInfo

# Announcement rows offered per side: more than a side ever holds in practice.
ANNOUNCEMENT_ROWS = 3
RANK_LABELS: dict[str, str] = {"A": "A", "K": "R", "Q": "D", "J": "V", "10": "10", "9": "9", "8": "8", "7": "7"}


class MenuField(forms.CharField):
    """A row of chips whose values the engine checks (an announcement's kind, card, suit).

    A ChoiceField would check them too, at the cost of normalising its choices for each
    of the eighteen groups of every form; the engine already names a wrong value.
    """

    def __init__(self, *, menu: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(required=False, max_length=16, **kwargs)
        self.menu = menu


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


class AnnouncementsMixin:
    """Announcement rows per side: `ann_<side>_<row>_kind|high|suit`."""

    fields: dict[str, forms.Field]
    sides: list[SideInfo]
    options: dict[str, Any]

    def announcements_on(self) -> bool:
        return self.options.get("announcements", "on") == "on"

    def add_announcement_fields(self) -> None:
        kinds = [("", str(_("none")))] + [(kind, str(ANNOUNCEMENT_LABELS[kind])) for kind in annonces.KINDS]
        ranks = [("", "—")] + [(rank, RANK_LABELS[rank]) for rank in annonces.RANKS]
        suits = [("", "—")] + [(suit, SUIT_SYMBOLS[suit]) for suit in annonces.SUITS]
        labels = (_("Announcement"), _("Top card"), _("Suit"))
        for side in self.sides:
            for row in range(ANNOUNCEMENT_ROWS):
                prefix = f"ann_{side.code}_{row}"
                for key, menu, label in zip(("kind", "high", "suit"), (kinds, ranks, suits), labels, strict=True):
                    self.fields[f"{prefix}_{key}"] = MenuField(menu=menu, label=label)

    def announcement_grid(self) -> list[tuple[SideInfo, list[list[forms.BoundField]]]]:
        """For the template: per side, its rows of (kind, top card, suit) fields."""
        form: Any = self
        return [
            (
                side,
                [
                    [form[f"ann_{side.code}_{row}_{key}"] for key in ("kind", "high", "suit")]
                    for row in range(ANNOUNCEMENT_ROWS)
                ],
            )
            for side in self.sides
        ]

    def has_announcements(self) -> bool:
        form: Any = self
        return any(name.startswith("ann_") and (form[name].value() or form[name].errors) for name in self.fields)

    def announcement_rows(self, data: dict[str, Any], code: Any) -> tuple[list[dict[str, Any]], list[int]]:
        """A side's announcements as the engine reads them, and the form row of each."""
        items: list[dict[str, Any]] = []
        rows: list[int] = []
        for row in range(ANNOUNCEMENT_ROWS):
            prefix = f"ann_{code}_{row}"
            item = {key: data.get(f"{prefix}_{key}") for key in ("kind", "high", "suit")}
            item = {key: value for key, value in item.items() if value}
            if item:
                items.append(item)
                rows.append(row)
        return items, rows

    def announcement_initial(self, announced: Any) -> dict[str, Any]:
        initial: dict[str, Any] = {}
        if not announced:
            return initial
        per_side = announced.items() if isinstance(announced, dict) else enumerate(announced)
        for code, items in per_side:
            for row, item in enumerate((items or [])[:ANNOUNCEMENT_ROWS]):
                if isinstance(item, dict):
                    for key in ("kind", "high", "suit"):
                        if item.get(key):
                            initial[f"ann_{code}_{row}_{key}"] = item[key]
        return initial

    def announcement_field(self, parts: list[str], data: dict[str, Any]) -> str | None:
        """`announcements[.side[.i[.key]]]` -> the form field of that row."""
        if len(parts) < 2:
            return f"ann_{self.sides[0].code}_0_kind"
        code = parts[1]
        _items, rows = self.announcement_rows(data, code)
        row = 0
        if len(parts) >= 3 and parts[2].isdigit() and int(parts[2]) < len(rows):
            row = rows[int(parts[2])]
        key = parts[3] if len(parts) >= 4 and parts[3] in ("kind", "high", "suit") else "kind"
        name = f"ann_{code}_{row}_{key}"
        return name if name in self.fields else None


class BeloteForm(AnnouncementsMixin, HandForm):
    """Belote at four (classique and moderne): the taking team, its card points, the
    defence's filled in from the contract's total (162, 130 or 258) unless typed."""

    body = "belote"

    def playable_contracts(self) -> Mapping[str, Any]:
        """The contracts a referee may choose: the game's (contrée: those its options allow)."""
        game: Any = self.game
        return dict(game.contracts)

    def build_fields(self) -> None:
        self.contracts = self.playable_contracts()
        self.multi_belote = any(contract.max_belote > 1 for contract in self.contracts.values())
        f = self.fields
        f["taker"] = radio(self.side_choices(), _("Taker"))
        f["contract"] = radio(((name, CONTRACT_LABELS[name]) for name in self.contracts), _("Contract"))
        f["points_taker"] = forms.IntegerField(required=False, label=_("Taker's card points"), widget=number_input())
        f["points_taker"].help_text = _("Dix de der included.")
        f["points_defence"] = forms.IntegerField(
            required=False, label=_("Defence's card points"), widget=number_input()
        )
        f["points_defence"].help_text = _("Left empty: the contract's total minus the taker's points.")
        # Set by the page when it filled the defence's points itself (static/js/referee.js).
        f["defence_auto"] = forms.BooleanField(required=False, widget=forms.HiddenInput)
        f["capot"] = radio(self.side_choices(nobody=_("nobody")), _("Capot (every trick)"))
        f["capot"].help_text = _("A capot needs no points typed: every point goes to the side that took every trick.")
        if self.multi_belote:
            counts = [(str(n), str(n)) for n in range(5)]
            for side in self.sides:
                f[f"belote_{side.code}"] = radio(counts, side.label)
        else:
            f["belote"] = radio(self.side_choices(nobody=_("nobody")), _("Belote-rebelote"))
        if self.announcements_on():
            self.add_announcement_fields()
            if self.options.get("announcement_tie") == "first_in_play":
                f["order"] = radio(self.side_choices(nobody=_("not needed")), _("First to announce"))
        f["cancelled"] = forms.BooleanField(required=False, label=_("Cancelled donne (redealt)"))

    def belote_fields(self) -> list[forms.BoundField]:
        """Belote moderne's per-team counts (up to four belotes in tout atout)."""
        return [self[f"belote_{side.code}"] for side in self.sides] if self.multi_belote else []

    def contract_totals(self) -> dict[str, int]:
        return {name: contract.total for name, contract in self.contracts.items()}

    def _total(self, contract: str | None) -> int | None:
        """The card points of a donne: the contract's, or the game's when all agree (162)."""
        totals = self.contract_totals()
        if contract in totals:
            return totals[contract]
        distinct = set(totals.values())
        return distinct.pop() if len(distinct) == 1 else None

    def _taker(self, data: dict[str, Any]) -> str:
        # Until a taker is chosen the points are read as team A's: the engine then asks
        # for the taker, and the points are still checked.
        taker = data.get("taker")
        return taker if taker in ("A", "B") else "A"

    def hand(self, data: dict[str, Any]) -> dict[str, Any]:
        hand: dict[str, Any] = {}
        if data.get("cancelled"):
            hand["cancelled"] = True
            return hand
        for name in ("taker", "contract"):
            if data.get(name):
                hand[name] = data[name]
        taker = self._taker(data)
        defence = "B" if taker == "A" else "A"
        taken, defended = data.get("points_taker"), data.get("points_defence")
        if data.get("defence_auto"):
            defended = None
        total = self._total(data.get("contract"))
        capot = data.get("capot")
        if capot in (taker, defence) and taken is None and defended is None and total is not None:
            # A capot's card points are known: every trick, so every point, to one side.
            taken, defended = (total, 0) if capot == taker else (0, total)
        self.defence_filled = defended is None and taken is not None and total is not None
        if self.defence_filled:
            defended = total - taken
        points = {side: value for side, value in ((taker, taken), (defence, defended)) if value is not None}
        if points:
            hand["points"] = points
        if data.get("capot"):
            hand["capot"] = data["capot"]
        belote = self._belote(data)
        if belote:
            hand["belote"] = belote
        if self.announcements_on():
            announced = {side.code: self.announcement_rows(data, side.code)[0] for side in self.sides}
            if any(announced.values()):
                hand["announcements"] = announced
            if data.get("order"):
                hand["order"] = data["order"]
        return hand

    def _belote(self, data: dict[str, Any]) -> list[str]:
        if not self.multi_belote:
            return [data["belote"]] if data.get("belote") else []
        counts = {str(side.code): _int_or_none(data.get(f"belote_{side.code}")) or 0 for side in self.sides}
        return [code for code, count in counts.items() for _n in range(count)]

    def initial_from_raw(self, raw: dict[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {"cancelled": bool(raw.get("cancelled"))}
        for name in ("taker", "contract", "capot", "order"):
            if raw.get(name):
                initial[name] = raw[name]
        points = raw.get("points") if isinstance(raw.get("points"), dict) else {}
        taker = raw.get("taker") if raw.get("taker") in ("A", "B") else "A"
        initial["points_taker"] = points.get(taker)
        initial["points_defence"] = points.get("B" if taker == "A" else "A")
        belote = raw.get("belote") or []
        if self.multi_belote:
            for side in self.sides:
                initial[f"belote_{side.code}"] = str(belote.count(side.code))
        elif belote:
            initial["belote"] = belote[0]
        initial.update(self.announcement_initial(raw.get("announcements")))
        return initial

    def adjust_errors(self, errors: list[RuleError]) -> list[RuleError]:
        """The defence's points the form filled in are not the referee's: what is wrong
        with them is said once, beside the taker's points the referee typed."""
        if not getattr(self, "defence_filled", False):
            return errors
        taker = self._taker(getattr(self, "cleaned_data", {}))
        defence_field = f"points.{'B' if taker == 'A' else 'A'}"
        on_taker = any(error.field in ("points", f"points.{taker}") for error in errors)
        adjusted = []
        for error in errors:
            if error.field == defence_field:
                if on_taker:
                    continue
                error = RuleError(f"points.{taker}", error.code, error.template, error.params)
            adjusted.append(error)
        return adjusted

    def field_for(self, path: str, code: str = "") -> str | None:
        parts = path.split(".")
        data = getattr(self, "cleaned_data", {})
        if parts[0] == "points":
            if len(parts) == 1:
                return "points_taker"
            return "points_taker" if parts[1] == self._taker(data) else "points_defence"
        if parts[0] == "belote":
            return "belote" if "belote" in self.fields else f"belote_{self.sides[0].code}"
        if parts[0] == "announcements":
            return self.announcement_field(parts, data)
        return super().field_for(path, code)


class ContreeForm(BeloteForm):
    """Belote contrée: belote at four with the bid (80 to the highest allowed, or capot)
    and the coinche (×2, surcoinche ×4); only the contracts the options allow."""

    body = "contree"

    def playable_contracts(self) -> Mapping[str, Any]:
        game: Any = self.game
        return dict(game.allowed_contracts(self.options))

    def build_fields(self) -> None:
        super().build_fields()
        f = self.fields
        highest = self.options.get("max_bid", 160)
        top = 180 if highest == "none" else int(highest)
        bids = [(str(points), str(points)) for points in range(80, top + 1, 10)] + [("capot", str(_("capot")))]
        f["bid"] = radio(bids, _("Bid"))
        f["coinche"] = radio((("0", _("no")), ("1", _("coinché (×2)")), ("2", _("surcoinché (×4)"))), _("Coinche"))

    def announcements_on(self) -> bool:
        return self.options.get("announcements", "off") == "on"

    def hand(self, data: dict[str, Any]) -> dict[str, Any]:
        hand = super().hand(data)
        if hand.get("cancelled"):
            return hand
        bid = data.get("bid")
        if bid:
            hand["bid"] = bid if bid == "capot" else _int_or_none(bid)
        coinche = _int_or_none(data.get("coinche"))
        hand["coinche"] = coinche if coinche is not None else 0
        return hand

    def initial_from_raw(self, raw: dict[str, Any]) -> dict[str, Any]:
        initial = super().initial_from_raw(raw)
        if raw.get("bid") is not None:
            initial["bid"] = str(raw["bid"])
        initial["coinche"] = str(raw.get("coinche") or 0)
        return initial


class BeloteATroisForm(AnnouncementsMixin, HandForm):
    """Belote à 3: the three players' card points (they add up to 95-162), who took the
    last trick (the dix de der), who took no trick at all (capot)."""

    body = "belote_a_trois"

    def build_fields(self) -> None:
        f = self.fields
        suits: Any = annonces.SUITS
        f["taker"] = radio(self.side_choices(), _("Taker"))
        f["contract"] = radio(((suit, CONTRACT_LABELS[suit]) for suit in suits), _("Trump"))
        for side in self.sides:
            f[f"points_{side.code}"] = forms.IntegerField(required=False, label=side.label, widget=number_input())
        f["last_trick"] = radio(self.side_choices(nobody=_("not said")), _("Dix de der (last trick)"))
        f["capot"] = forms.MultipleChoiceField(
            choices=self.side_choices(),
            required=False,
            label=_("Capot: took no trick"),
            widget=forms.CheckboxSelectMultiple,
        )
        f["belote"] = radio(self.side_choices(nobody=_("nobody")), _("Belote-rebelote"))
        if self.announcements_on():
            self.add_announcement_fields()
            if self.options.get("announcement_tie") == "first_in_play":
                f["order"] = radio(self.side_choices(nobody=_("not needed")), _("First to announce"))
        f["cancelled"] = forms.BooleanField(required=False, label=_("Cancelled donne (redealt)"))

    def points_fields(self) -> list[forms.BoundField]:
        return [self[f"points_{side.code}"] for side in self.sides]

    def hand(self, data: dict[str, Any]) -> dict[str, Any]:
        hand: dict[str, Any] = {}
        if data.get("cancelled"):
            return {"cancelled": True}
        if data.get("taker") not in (None, ""):
            hand["taker"] = int(data["taker"])
        if data.get("contract"):
            hand["contract"] = data["contract"]
        points = [data.get(f"points_{side.code}") for side in self.sides]
        if any(value is not None for value in points):
            # A player left blank stays null: `adjust_errors` words it as missing.
            hand["points"] = points
        if data.get("last_trick") not in (None, ""):
            hand["last_trick"] = int(data["last_trick"])
        if data.get("capot"):
            hand["capot"] = [int(player) for player in data["capot"]]
        if data.get("belote") not in (None, ""):
            hand["belote"] = [int(data["belote"])]
        if self.announcements_on():
            announced = [self.announcement_rows(data, side.code)[0] for side in self.sides]
            if any(announced):
                hand["announcements"] = announced
            if data.get("order") not in (None, ""):
                hand["order"] = int(data["order"])
        return hand

    def initial_from_raw(self, raw: dict[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {"cancelled": bool(raw.get("cancelled"))}
        for name in ("taker", "contract", "last_trick", "order"):
            if raw.get(name) is not None:
                initial[name] = str(raw[name])
        points = raw.get("points") if isinstance(raw.get("points"), list) else []
        for side, value in zip(self.sides, points, strict=False):
            initial[f"points_{side.code}"] = value
        initial["capot"] = [str(player) for player in raw.get("capot") or []]
        if raw.get("belote"):
            initial["belote"] = str(raw["belote"][0])
        initial.update(self.announcement_initial(raw.get("announcements")))
        return initial

    def adjust_errors(self, errors: list[RuleError]) -> list[RuleError]:
        # The form sends null for a player left blank; the referee reads "required".
        data = getattr(self, "cleaned_data", {})
        adjusted = []
        for error in errors:
            parts = error.field.split(".")
            if parts[0] == "points" and len(parts) == 2 and data.get(f"points_{parts[1]}") is None:
                error = required(error.field)
            adjusted.append(error)
        return adjusted

    def field_for(self, path: str, code: str = "") -> str | None:
        parts = path.split(".")
        if parts[0] == "points":
            if len(parts) > 1 and f"points_{parts[1]}" in self.fields:
                return f"points_{parts[1]}"
            # A missing list belongs with the first player, a wrong total with the last.
            return f"points_{self.sides[0 if code == 'required' else -1].code}"
        if parts[0] == "announcements":
            return self.announcement_field(parts, getattr(self, "cleaned_data", {}))
        return super().field_for(path, code)
