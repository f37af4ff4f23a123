"""Tarot à 4: 78 cards, four players, the taker against three defenders.

The game of club evenings and the federation's tournaments. Everything else is
engine.games.tarot_common's:

- *chien*: the 6 cards dealt aside (18 cards to each player).
- *poignée*: 10, 13 or 15 trumps shown (simple, double, triple). Two simple poignées
  fit in the 22 trumps, so a hand may record two, as a list.
- *chelem* in a garde contre: at least 60 points to the taker
  (tarot_common.chelem_floor_garde_contre with a chien of 6).
- card points are whole: the taker's cards are always an even number at four, so a half
  point is refused (it exists at three and five).

The taker scores 3 × D and each of the three defenders -D.

*Table de cinq* (the tournament setting `table_de_cinq`, docs/rules.md): when a tarot à 4
evening seats five at a table, either the five play tarot à 5 (`tarot_a_cinq`), or, the
federation's way (`mort`), the dealer sits each donne out as *le mort* and the four
others play tarot à 4: `TarotAQuatreMort`, a table game (`engine.games.TABLE_GAMES`)
whose hand names the mort, who scores 0. The deal turns, so each player is mort in turn.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import Number, OptionSpec, Preset, RuleError, gettext_noop, preset, rule_error
from engine.games.checks import whole
from engine.games.tarot_common import FIELDS, OPTION_SPECS, TarotGame, chelem_floor_garde_contre

PLAYERS = (0, 1, 2, 3)
MORT = "mort"
TAROT_A_CINQ = "tarot_a_cinq"

SETTING_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "table_de_cinq",
        (MORT, TAROT_A_CINQ),
        "A table of five at a tarot à 4 tournament: the dealer sits each donne out (le mort, scoring 0) and the "
        "four others play tarot à 4, the deal turning; or the five play tarot à 5 with a called king.",
    ),
)

PRESETS: tuple[Preset, ...] = (
    preset(
        "club",
        gettext_noop("Club (Atout's default)"),
        gettext_noop(
            "The rule text's scoring: the poignée and the petit au bout both multiplied with the contract. "
            "At a table of five the dealer sits each donne out (le mort)."
        ),
        OPTION_SPECS,
        setting_specs=SETTING_SPECS,
    ),
    preset(
        "fft",
        gettext_noop("Federation (FFT)"),
        gettext_noop(
            "The Fédération Française de Tarot's scoring: the poignée added after the multiplier, the petit au "
            "bout multiplied. At a table of five the dealer sits each donne out (le mort), as the federation seats "
            "five at a game for four."
        ),
        OPTION_SPECS,
        {"primes": "fft"},
        setting_specs=SETTING_SPECS,
        settings={"table_de_cinq": MORT},
    ),
)


class TarotAQuatre(TarotGame):
    code: ClassVar[str] = "tarot_a_quatre"
    players_per_table: ClassVar[int] = 4
    sides: ClassVar[tuple[int, ...]] = PLAYERS
    cards_per_player: ClassVar[int] = 18
    chien: ClassVar[int] = 6
    poignee_trumps: ClassVar[Mapping[str, int]] = {"simple": 10, "double": 13, "triple": 15}
    chelem_min_points_garde_contre: ClassVar[float] = chelem_floor_garde_contre(6)
    whole_points: ClassVar[bool] = True
    setting_specs: ClassVar[tuple[OptionSpec, ...]] = SETTING_SPECS
    presets: ClassVar[tuple[Preset, ...]] = PRESETS

    def share(self, hand: Mapping[str, Any], d: Number) -> tuple[Number, ...]:
        scores: list[Number] = [-d, -d, -d, -d]
        scores[hand["taker"]] = whole(3 * d)
        return tuple(scores)


class TarotAQuatreMort(TarotAQuatre):
    """Tarot à 4 at a table of five: each donne the mort (the dealer) sits out.

    Players `0` to `4`; the hand's required `mort` names who sat out, and the taker is one
    of the four others. The taker scores 3 × D, each of the three defenders -D, the mort
    0. A tournament's partie of N donnes lasts N × 5 / 4 donnes here, rounded up
    (`engine.match.end_at_table`), so that each player plays as many donnes as at a
    table of four.
    """

    code: ClassVar[str] = "tarot_a_quatre_mort"
    players_per_table: ClassVar[int] = 5
    sides: ClassVar[tuple[int, ...]] = (0, 1, 2, 3, 4)
    seats: ClassVar[tuple[str, ...]] = (MORT, "taker")
    fields: ClassVar[frozenset[str]] = FIELDS | {MORT}
    # The table game follows the tournament's tarot à 4: its settings and presets are there.
    setting_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    presets: ClassVar[tuple[Preset, ...]] = ()
    # Four of the five play each donne.
    players_per_donne: ClassVar[int | None] = 4

    def validate(self, hand: Any, options: Mapping[str, Any]) -> list[RuleError]:
        errors = super().validate(hand, options)
        if isinstance(hand, Mapping):
            taker, mort = hand.get("taker"), hand.get(MORT)
            if type(taker) is int and type(mort) is int and taker == mort:
                errors.append(
                    rule_error(
                        "taker",
                        "taker_is_mort",
                        gettext_noop(
                            "Player {player} is the mort of this donne and does not play: choose the taker "
                            "among the four others."
                        ),
                        player=taker,
                    )
                )
        return errors

    def share(self, hand: Mapping[str, Any], d: Number) -> tuple[Number, ...]:
        scores: list[Number] = [-d, -d, -d, -d, -d]
        scores[hand["taker"]] = whole(3 * d)
        scores[hand[MORT]] = 0
        return tuple(scores)

    @staticmethod
    def mort_after(previous: object) -> int:
        """The mort of the next donne: the deal turns to the next player (player 0 first,
        or after a previous mort that is no player)."""
        if type(previous) is int and 0 <= previous < 5:
            return (previous + 1) % 5
        return 0

    def _random_seats(self, rng: random.Random) -> dict[str, Any]:
        mort = rng.randrange(5)
        return {MORT: mort, "taker": (mort + rng.randrange(1, 5)) % 5}
