"""Which entry form each game uses: one class per game family (scoring/forms/belote.py,
scoring/forms/tarot.py), built from the game's definition."""

from __future__ import annotations

from scoring.forms.base import HandForm
from scoring.forms.belote import BeloteATroisForm, BeloteForm, ContreeForm
from scoring.forms.tarot import TarotForm

HAND_FORMS: dict[str, type[HandForm]] = {
    "belote_classique": BeloteForm,
    "belote_moderne": BeloteForm,
    "belote_contree": ContreeForm,
    "belote_a_trois": BeloteATroisForm,
    "tarot_a_trois": TarotForm,
    "tarot_a_quatre": TarotForm,
    # Tarot à 4 at a table of five, the mort sitting out (the tournament's table_de_cinq).
    "tarot_a_quatre_mort": TarotForm,
    "tarot_a_cinq": TarotForm,
}


def hand_form_class(game_code: str) -> type[HandForm]:
    try:
        return HAND_FORMS[game_code]
    except KeyError:
        raise ValueError(f"no entry form for the game {game_code!r}") from None
