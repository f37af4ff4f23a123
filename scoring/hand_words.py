"""A donne in words, for the director's pages: what the referee entered, field by field.

The correction history shows each revision as the donne it was and became: the table
sheet's own line (taker, contract, outcome, each side's score) and, below it, every
field of the entry read out ("Belote : C1", "Annonces : C2 tierce au roi de ♥"), in the
reader's language. Stored entries are kept as typed, so anything unexpected in them is
shown as it is rather than refused: the history must always open.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.labels import (
    ANNOUNCEMENT_LABELS,
    CAMP_LABELS,
    SUIT_SYMBOLS,
    bid_and_contract,
    contract_label,
    outcome_label,
)


class Side(Protocol):
    """A side of the table as the words need it (scoring.selectors.tables.SideInfo, which
    builds the table sheet with these words and so is not imported here)."""

    @property
    def code(self) -> Any: ...

    @property
    def label(self) -> str: ...


FIELD_LABELS = {
    "mort": gettext_lazy("Mort (sat out)"),
    "taker": gettext_lazy("Taker"),
    "partner": gettext_lazy("Partner"),
    "contract": gettext_lazy("Contract"),
    "bid": gettext_lazy("Bid"),
    "coinche": gettext_lazy("Coinche"),
    "points": gettext_lazy("Card points"),
    "oudlers": gettext_lazy("Oudlers"),
    "capot": gettext_lazy("Capot"),
    "belote": gettext_lazy("Belote-rebelote"),
    "announcements": gettext_lazy("Announcements"),
    "order": gettext_lazy("First to announce"),
    "petit_au_bout": gettext_lazy("Petit au bout"),
    "poignee": gettext_lazy("Poignée"),
    "chelem": gettext_lazy("Chelem"),
    "cancelled": gettext_lazy("Cancelled donne (redealt)"),
}
RANK_WORDS = {
    "A": gettext_lazy("ace"),
    "K": gettext_lazy("king"),
    "Q": gettext_lazy("queen"),
    "J": gettext_lazy("jack"),
}


def _number(value: Any) -> str:
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else number_format(value)
    return str(value)


class HandWords:
    """Reads a stored entry with the names of the table's sides."""

    def __init__(self, sides: Sequence[Side]) -> None:
        self.sides = list(sides)

    def side(self, code: Any) -> str:
        for side in self.sides:
            if side.code == code and type(side.code) is type(code):
                return side.label
        if isinstance(code, str) and code in CAMP_LABELS:
            return str(CAMP_LABELS[code])
        return str(code)

    def side_at(self, index: Any) -> str:
        """The side seated at `index` (a seat's side, as a confirmation records it), by name.

        Not `side`: at belote a side's code is "A" or "B", never its index.
        """
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(self.sides):
            return self.sides[index].label
        return str(index)

    def details(self, raw: Any) -> list[tuple[str, str]]:
        """(label, words) for each field of the entry, in a stable order."""
        if raw is None:
            return []
        if not isinstance(raw, Mapping):
            return [(_("Entry"), str(raw))]
        if raw.get("cancelled"):
            return [(str(FIELD_LABELS["cancelled"]), _("yes"))]
        lines = []
        for key in FIELD_LABELS:
            if key in raw and raw[key] not in (None, [], {}, ""):
                lines.append((str(FIELD_LABELS[key]), self.value(key, raw[key])))
        for key in sorted(set(raw) - set(FIELD_LABELS)):
            lines.append((str(key), str(raw[key])))
        return lines

    def value(self, key: str, value: Any) -> str:
        if key in ("taker", "partner", "capot", "order", "mort"):
            return self.side(value)
        if key == "contract":
            return contract_label(value)
        if key == "coinche":
            return {0: _("no"), 1: _("coinché (×2)"), 2: _("surcoinché (×4)")}.get(value, str(value))
        if key == "points":
            return self.points(value)
        if key == "belote":
            return ", ".join(self.side(code) for code in value) if isinstance(value, list) else self.side(value)
        if key == "announcements":
            return self.announcements(value)
        if key == "petit_au_bout":
            return self.side(value)
        if key == "poignee":
            shown = value if isinstance(value, list) else [value]
            return "; ".join(self.poignee(item) for item in shown)
        if key == "chelem":
            return self.chelem(value)
        return _number(value) if isinstance(value, int | float) else str(value)

    def points(self, value: Any) -> str:
        if isinstance(value, Mapping):
            return " · ".join(f"{self.side(code)} {_number(points)}" for code, points in value.items())
        if isinstance(value, list):
            return " · ".join(f"{self.side(index)} {_number(points)}" for index, points in enumerate(value))
        return _number(value)

    def announcements(self, value: Any) -> str:
        per_side = value.items() if isinstance(value, Mapping) else enumerate(value if isinstance(value, list) else [])
        said = []
        for code, items in per_side:
            for item in items if isinstance(items, list) else []:
                said.append(f"{self.side(code)} {self.announcement(item)}")
        return "; ".join(said) or _("none")

    def announcement(self, item: Any) -> str:
        if not isinstance(item, Mapping):
            return str(item)
        kind_code = item.get("kind", "")
        kind = str(ANNOUNCEMENT_LABELS.get(str(kind_code), kind_code))
        high = item.get("high")
        rank = str(RANK_WORDS.get(high, high)) if high else ""
        suit_code = item.get("suit")
        suit = SUIT_SYMBOLS.get(str(suit_code), suit_code or "")
        if kind and rank and suit:
            return _("%(kind)s to the %(rank)s of %(suit)s") % {"kind": kind, "rank": rank, "suit": suit}
        if kind and rank:
            return _("%(kind)s of %(rank)s") % {"kind": kind, "rank": rank}
        return " ".join(part for part in (kind, rank, suit) if part)

    def poignee(self, value: Any) -> str:
        if not isinstance(value, Mapping):
            return str(value)
        return _("%(size)s, shown by %(who)s") % {"size": value.get("size", "?"), "who": self.side(value.get("by"))}

    def chelem(self, value: Any) -> str:
        if not isinstance(value, Mapping):
            return str(value)
        announced = _("announced") if value.get("announced") else _("not announced")
        made_by = value.get("made_by")
        made = _("made by %(who)s") % {"who": self.side(made_by)} if made_by else _("not made")
        return f"{announced}, {made}"


def sheet_marks(raw: Any, words: HandWords) -> list[str]:
    """What a tarot donne's line on the table sheet says beside taker and contract, so that
    the players check the entry: the called partner or « seul », the poignées, the petit au
    bout and the chelem (each only when the donne had one)."""
    if not isinstance(raw, Mapping) or raw.get("cancelled"):
        return []
    marks = []
    if "partner" in raw and "taker" in raw:
        if raw["partner"] == raw["taker"]:
            marks.append(_("alone (seul)"))
        else:
            marks.append(_("partner: %(name)s") % {"name": words.side(raw["partner"])})
    if raw.get("poignee"):
        marks.append(_("poignée: %(poignee)s") % {"poignee": words.value("poignee", raw["poignee"])})
    if raw.get("petit_au_bout"):
        marks.append(_("petit au bout: %(who)s") % {"who": words.side(raw["petit_au_bout"])})
    chelem = raw.get("chelem")
    if isinstance(chelem, Mapping) and (chelem.get("announced") or chelem.get("made_by")):
        marks.append(_("chelem: %(chelem)s") % {"chelem": words.chelem(chelem)})
    return marks


class DonneWords:
    """One donne as a revision kept it, laid out as a line of the table sheet plus its words."""

    def __init__(self, snapshot: Mapping[str, Any], words: HandWords) -> None:
        raw = snapshot.get("raw")
        self.number = snapshot.get("number")
        self.scores = [_number(score) for score in snapshot.get("scores") or []]
        self.outcome = outcome_label(snapshot.get("outcome", ""))
        entry = raw if isinstance(raw, Mapping) else {}
        self.cancelled = bool(entry.get("cancelled"))
        self.taker = words.side(entry["taker"]) if "taker" in entry else ""
        # The sheet's words: in contrée the bid and the coinche before the suit ("110 ♥ coinché").
        self.contract = bid_and_contract(dict(entry)) if "contract" in entry else ""
        self.details = words.details(raw)
        self.confirmed_by = words.side_at(snapshot["confirmed_by_side"]) if "confirmed_by_side" in snapshot else ""

    @property
    def summary(self) -> str:
        if self.cancelled:
            return self.outcome
        return " · ".join(part for part in (self.taker, self.contract, self.outcome) if part)
