"""The words a referee reads for the engine's values, in the active language.

The engine spells contracts, outcomes and camps as stable codes (`hearts`, `dedans`,
`garde_sans`, `defence`); these are the labels shown for them on the referee's page, the
table sheet and the director's pages. French first: *trèfle, carreau, cœur, pique*,
*sans atout*, *tout atout*; *petite, garde, garde sans, garde contre*; *fait, dedans,
litige, chute*.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

CONTRACT_LABELS: dict[str, Promise] = {
    "clubs": _("♣ clubs"),
    "diamonds": _("♦ diamonds"),
    "hearts": _("♥ hearts"),
    "spades": _("♠ spades"),
    "sans_atout": _("no trump"),
    "tout_atout": _("all trumps"),
    "petite": _("petite"),
    "garde": _("garde"),
    "garde_sans": _("garde sans"),
    "garde_contre": _("garde contre"),
}

OUTCOME_LABELS: dict[str, Promise] = {
    "made": _("made"),
    "dedans": _("dedans"),
    "litige": _("litige"),
    "cancelled": _("cancelled"),
    "failed": _("failed"),
}

CAMP_LABELS: dict[str, Promise] = {"taker": _("the taker"), "defence": _("the defence")}

ANNOUNCEMENT_LABELS: dict[str, Promise] = {
    "tierce": _("tierce"),
    "cinquante": _("cinquante"),
    "cent": _("cent"),
    "carre": _("carré"),
}

# The poignées by game: the trumps shown depend on the table's size.
POIGNEE_LABELS: dict[str, dict[str, Promise]] = {
    "tarot_a_trois": {"simple": _("simple (13 trumps)"), "double": _("double (15)"), "triple": _("triple (18)")},
    "tarot_a_quatre": {"simple": _("simple (10 trumps)"), "double": _("double (13)"), "triple": _("triple (15)")},
    "tarot_a_cinq": {"simple": _("simple (8 trumps)"), "double": _("double (10)"), "triple": _("triple (13)")},
}
# Tarot à 4 at a table of five with a mort: tarot à 4's poignées.
POIGNEE_LABELS["tarot_a_quatre_mort"] = POIGNEE_LABELS["tarot_a_quatre"]

SUIT_SYMBOLS: dict[str, str] = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}


def contract_label(code: object) -> str:
    return str(CONTRACT_LABELS.get(str(code), code))


def outcome_label(code: object) -> str:
    return str(OUTCOME_LABELS.get(str(code), code))


COINCHE_LABELS: dict[int, Promise] = {1: _("coinché"), 2: _("surcoinché")}


def bid_and_contract(raw: dict[str, object]) -> str:
    """A donne's contract as the sheet shows it: in contrée, with the bid and the coinche
    before it ("110 ♥ hearts coinché"); in the other games, the contract alone."""
    contract = contract_label(raw.get("contract", ""))
    bid = raw.get("bid")
    if bid is None:
        return contract
    words = [str(_("capot")) if bid == "capot" else str(bid), contract]
    coinche = raw.get("coinche")
    if coinche in COINCHE_LABELS:
        words.append(str(COINCHE_LABELS[coinche]))
    return " ".join(words)
