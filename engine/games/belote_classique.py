"""Belote classique: four players in two teams, a trump suit, 162 points a donne.

The rules are in docs/rules.md, "Belote classique". `FourPlayerBelote` scores belote
classique and belote moderne (which adds its contracts): each team scores its own total
when the contract is made, the defence the whole donne when the taker is dedans, and a
tie opens a litige. The cards, contracts and scoring phases are belote_common's, the
hand's validation belote_hand's. A partie goes to 1000 by default.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import HandScore, OptionSpec, Preset, gettext_noop, preset
from engine.games.belote_common import (
    OTHER,
    SUIT_CONTRACTS,
    TEAMS,
    Contract,
    announcement_points,
    belote_points,
    card_points,
    random_announcements,
    random_belote,
    random_capot,
    random_points,
    round_to_ten,
)
from engine.games.belote_hand import TeamBelote

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "threshold",
        ("totals", "card_points"),
        "What the taker must beat: the defence's total with belote and announcements, or half the card points.",
    ),
    OptionSpec("tie", ("litige", "dedans", "made"), "A tie opens a litige, or counts as dedans, or as made."),
    OptionSpec("capot_value", (250, 252), "A capot scores the total + 88 (250) or + 90 (252)."),
    OptionSpec(
        "belote_when_dedans",
        ("keep", "defence"),
        "On a dedans, belote-rebelote stays with the team that held it, or goes to the defence.",
    ),
    OptionSpec(
        "announcement_tie",
        ("nobody", "first_in_play"),
        'Equal best announcements score for nobody, or for the team that announced first (field "order").',
    ),
    OptionSpec("announcements", ("on", "off"), "Announcements are played, or ignored."),
    OptionSpec("rounding", ("none", "nearest_ten"), "Scores as they are, or rounded to the nearest ten (5 up)."),
)


# The rule text's reading first (the defaults), then the federation's: its capot of 252
# (the dix de der of 100), its official rules played without announcements, and the
# rest as the text (docs/rules.md).
PRESETS: tuple[Preset, ...] = (
    preset(
        "atout",
        gettext_noop("Atout's default (the rule text)"),
        gettext_noop(
            "The rule text as written: a tie opens a litige, a capot is worth 250, announcements played, "
            "scores not rounded."
        ),
        OPTION_SPECS,
    ),
    preset(
        "ffb",
        gettext_noop("Federation (FFB)"),
        gettext_noop(
            "The Fédération Française de Belote's official rules: a capot is worth 252 (the dix de der of 100), "
            "no announcements, a tie opens a litige, belote-rebelote stays with its team."
        ),
        OPTION_SPECS,
        {"capot_value": 252, "announcements": "off"},
    ),
)


class FourPlayerBelote(TeamBelote):
    """Belote classique and belote moderne: each team scores its own total, or the whole
    donne goes to the defence (dedans), or a tie opens a litige."""

    option_specs = OPTION_SPECS
    presets: ClassVar[tuple[Preset, ...]] = PRESETS

    def score(self, hand: Mapping[str, Any], options: Mapping[str, Any], carry: int = 0) -> HandScore:
        reserve = carry or hand.get("reserve_in") or 0
        if hand.get("cancelled"):
            return HandScore((0, 0), "cancelled", reserve)
        contract = self.contracts[hand["contract"]]
        cards = card_points(hand, contract.total + (90 if options["capot_value"] == 252 else 88))
        belote = belote_points(hand)
        announced = announcement_points(hand, contract, options)
        # From here on: the taker's side first, the defence's second, each as
        # (card points, belote, announcements).
        t, d = (0, 1) if hand["taker"] == "A" else (1, 0)
        taker = (cards[t], belote[t], announced[t])
        defence = (cards[d], belote[d], announced[d])
        outcome = self._outcome(taker, defence, contract.total, options)
        t_score, d_score, reserve_out = self._settle(outcome, taker, defence, contract, options, reserve)
        return HandScore((t_score, d_score) if t == 0 else (d_score, t_score), outcome, reserve_out)

    @staticmethod
    def _outcome(
        taker: tuple[int, int, int], defence: tuple[int, int, int], total: int, options: Mapping[str, Any]
    ) -> str:
        """made, dedans, or what the `tie` option makes of a tie."""
        # `card_points`: more than half the contract's card points, bonuses ignored (82 of 162).
        margin = sum(taker) - sum(defence) if options["threshold"] == "totals" else 2 * taker[0] - total
        if margin > 0:
            return "made"
        if margin < 0:
            return "dedans"
        outcome: str = options["tie"]
        return outcome

    @staticmethod
    def _settle(
        outcome: str,
        taker: tuple[int, int, int],
        defence: tuple[int, int, int],
        contract: Contract,
        options: Mapping[str, Any],
        reserve: int,
    ) -> tuple[int, int, int]:
        """The taker's score, the defence's and the reserve held after the donne."""
        mult = contract.multiplier
        rounding = options["rounding"] == "nearest_ten"
        reserve_out = 0
        if outcome == "made":
            t_score = sum(taker) * mult
            d_score = sum(defence) * mult
        elif outcome == "dedans":
            _, t_belote, t_ann = taker
            d_card, d_belote, d_ann = defence
            to_defence = options["belote_when_dedans"] == "defence"
            # The whole donne, or the capot value when the defence took every trick.
            d_base = d_card if d_card > contract.total else contract.total
            d_score = (d_base + t_ann + d_ann + d_belote + (t_belote if to_defence else 0)) * mult
            t_score = 0 if to_defence else t_belote * mult
        else:
            held = sum(taker) * mult
            t_score = 0
            d_score = sum(defence) * mult
            reserve_out = reserve + (round_to_ten(held) if rounding else held)
        if rounding:
            t_score = round_to_ten(t_score)
            d_score = round_to_ten(d_score)
        # The reserve (already rounded when it was held) goes to the donne's winner.
        if outcome == "made":
            t_score += reserve
        elif outcome == "dedans":
            d_score += reserve
        return t_score, d_score, reserve_out

    # -- random hands -----------------------------------------------------------------

    def random_contract(self, rng: random.Random) -> Contract:
        return self.contracts[rng.choice(tuple(self.contracts))]

    def random_hand(self, rng: random.Random) -> dict[str, Any]:
        """A plausible donne: the taker makes it about three times in four.

        About 3 % of donnes are redealt, 3 % capot, a quarter carry a belote, a third
        some announcements.
        """
        if rng.random() < 0.03:
            return {"cancelled": True}
        contract = self.random_contract(rng)
        total = contract.total
        taker = rng.choice(TEAMS)
        hand: dict[str, Any] = {"taker": taker, "contract": contract.name}
        if rng.random() < 0.03:
            random_capot(hand, contract, taker if rng.random() < 0.9 else OTHER[taker])
        else:
            hand["points"] = random_points(rng, contract, taker, 0.6 * total, 0.15 * total)
        belote = random_belote(rng, contract, taker)
        if belote:
            hand["belote"] = belote
        announced = {team: random_announcements(rng) if rng.random() < 0.2 else [] for team in TEAMS}
        if announced["A"] or announced["B"]:
            hand["announcements"] = announced
            if announced["A"] and announced["B"]:
                hand["order"] = rng.choice(TEAMS)
            # Drawn announcements may share a card or hide a belote's king: drop them then.
            if self.validate(hand, self.resolve_options({"announcements": "on"})):
                del hand["announcements"]
                hand.pop("order", None)
        return hand


class BeloteClassique(FourPlayerBelote):
    code = "belote_classique"
    contracts: ClassVar[Mapping[str, Contract]] = SUIT_CONTRACTS
    default_target = 1000
