"""Belote contrée (coinche): belote classique's cards, with a bid, a coinche and a lump sum.

The belote of most concours. The rule texts do not cover it; every point is settled in
docs/rules.md, the defaults being concours practice and every other reading an option.

Terms (the others are belote_common's):

- *enchère* (`bid`): what the taking team undertakes to make, 80 to `max_bid` in tens,
  or `"capot"` (every trick; worth 250 as a contract).
- *coinche*: the defence doubts the contract, *coinché* (×2); the takers may answer,
  *surcoinché* (×4). The hand's `coinche` is 0, 1 or 2.
- a side's *total*: its card points (its capot value when it took every trick), its
  belote-rebelote, its scoring announcements. A capot team takes the other's
  announcements.
- *made*: the taker's total reaches the bid and is strictly more than the defence's (a
  capot bid: the takers took every trick). Rounding never decides it.
- *chute* (`dedans`): the contract failed; the defence scores 160 + the bid (`chute`:
  162 for the counters that count the whole deck).
- *lump sum* (*forfait*): under a coinche the winner of the contract scores (160 + bid)
  × 2 or × 4, the loser only its belote. The bracket of a made contract holds the
  federation's fixed 160, or 250 for a capot, whatever `capot_value` says an unbid capot
  counts. `coinche_marque: points_faits` instead multiplies the taker's ordinary made
  score (its own total + the bid) and leaves the defence its own.
- *belote imprenable*: belote-rebelote always stays with the team that held it.

Cards and totals are belote classique's, 162 with the dix de der. With the option
`sans_atout_tout_atout` the federation's two extra contracts are played with card values
rescaled so that they total 162 too (sans atout: A 19, 10 10, K 4, Q 3, J 2; tout
atout: J 13, 9 9, A 6, 10 5, K 3, Q 2), with no multiplier.

`marque: faits_seuls` is a whole reading, a score counter's: no number bid is added
anywhere. Made, each side scores its own total; coinché, the winner 160 × k (or its own
total × k with `coinche_marque: points_faits`); failed, the defence the chute alone (250
with `defence_capot: 250` when it took every trick). A capot bid keeps its 250, as those
counters give it: 500 made, `capot_failed` failed.

Litige (`tie: litige`), which the federation leaves to each tournament and no source
details further: as the federation's own rule says, the defence scores its total and the
taker's total (card points, announcements, and its belote when belote counts toward the
contract) is held for the team that wins the next donne. Under a coinche "the score of
the donne is multiplied" (the federation's words), so both are multiplied, belote only
with `belote_multiplied: yes`. The reserve is rounded as it is held, like each side's
score, so that every score of a donne stays a multiple of ten. `marque` does not change
a litige: no source that plays `contrat_seul` or `faits_seuls` has a litige at all.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import HandScore, OptionSpec, Preset, RuleError, gettext_noop, preset, rule_error
from engine.games import hand_schema as js
from engine.games.belote_common import (
    HAND_FIELDS,
    OTHER,
    PLAIN_VALUES,
    SUIT_CONTRACTS,
    SUITS,
    TEAMS,
    TRUMP_VALUES,
    Contract,
    announcement_points,
    belote_points,
    card_points,
    impossible_points,
    random_belote,
    random_capot,
    random_points,
    round_to_ten,
)
from engine.games.belote_hand import TeamBelote
from engine.games.checks import check_int, is_int, required, show

CAPOT = "capot"
# What a capot bid is worth as a contract.
CAPOT_BID = 250
MIN_BID = 80
# Card points of a donne, dix de der included, in every contract.
CARD_TOTAL = 162
# The "160 points de chute": the base of a failed contract and of a coinche's lump sum.
FALL = 160
# coinche 0, 1, 2: not coinché, coinché, surcoinché.
COINCHE_FACTORS: tuple[int, int, int] = (1, 2, 4)

SANS_ATOUT_VALUES: Mapping[str, int] = {"A": 19, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
TOUT_ATOUT_VALUES: Mapping[str, int] = {"J": 13, "9": 9, "A": 6, "10": 5, "K": 3, "Q": 2, "8": 0, "7": 0}
# Announcements keep belote classique's values in these contracts too, as the rules
# settle it (the federation's own carré values for sans atout are not used).
SANS_ATOUT = Contract(
    "sans_atout", CARD_TOTAL, 1, None, False, 0, impossible_points(4 * list(SANS_ATOUT_VALUES.values()), CARD_TOTAL)
)
TOUT_ATOUT = Contract(
    "tout_atout", CARD_TOTAL, 1, None, True, 4, impossible_points(4 * list(TOUT_ATOUT_VALUES.values()), CARD_TOTAL)
)
ALL_CONTRACTS: Mapping[str, Contract] = {**SUIT_CONTRACTS, SANS_ATOUT.name: SANS_ATOUT, TOUT_ATOUT.name: TOUT_ATOUT}

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "marque",
        ("faits_et_contrat", "contrat_seul", "faits_seuls"),
        "A made contract, not coinché: the taker scores its total + the bid, the defence its total; "
        "or the taker the bid and each side only its belote and announcements; or each side its total, "
        "and no number bid is added anywhere (a fall gives the defence the chute alone, a coinche 160 x k).",
    ),
    OptionSpec(
        "coinche_marque",
        ("forfait", "points_faits"),
        "A made coinché contract: the taker scores the lump sum (160 + bid) x 2 or x 4 (250 when capot), the "
        "defence nothing but its belote; or the taker its ordinary made score x 2 or x 4, the defence its own.",
    ),
    OptionSpec(
        "chute",
        (160, 162),
        "The base a defence scores when the contract fails (then + the bid, x 2 or x 4 under a coinche): 160 or 162.",
    ),
    OptionSpec(
        "capot_value",
        (250, 252, 162),
        "The card points of a team that took every trick: 250, 252, or 162 (no bonus unless capot was bid).",
    ),
    OptionSpec(
        "belote_counts",
        ("yes", "no"),
        "Belote-rebelote counts toward making the contract, or is only scored by the team that held it.",
    ),
    OptionSpec(
        "announcements", ("off", "on"), "Announcements are not played (refused), or played as in belote classique."
    ),
    OptionSpec(
        "announcement_tie",
        ("nobody", "first_in_play"),
        'Equal best announcements score for nobody, or for the team that announced first (field "order").',
    ),
    OptionSpec("capot_failed", (410, 500), "A failed capot bid scores the defence 160 + 250, or 500."),
    OptionSpec(
        "defence_capot",
        (160, 250),
        "A defence that took every trick on a failed contract scores 160 + the bid, or 250 + the bid.",
    ),
    OptionSpec(
        "belote_multiplied",
        ("no", "yes"),
        "Under a coinche the winner's belote is added after the multiplier, or multiplied with the rest.",
    ),
    OptionSpec(
        "tie",
        ("dedans", "litige", "made"),
        "Equal totals: the contract fails, or the taker's total is held for the next donne's winner, or it is made.",
    ),
    OptionSpec("rounding", ("nearest_ten", "none"), "Each side's score rounded to the nearest ten (5 up), or not."),
    OptionSpec("max_bid", (160, 180, "none"), "The highest bid in points (capot is always allowed), or no maximum."),
    OptionSpec(
        "sans_atout_tout_atout",
        ("off", "on"),
        "Suit contracts only, or sans atout and tout atout too (card values rescaled to 162).",
    ),
)

OPTION_SPECS_BY_NAME: Mapping[str, OptionSpec] = {spec.name: spec for spec in OPTION_SPECS}

# Concours practice first (the defaults), then the federation's text, then one preset
# for each reading other scorers use (docs/rules.md, "Options, and who plays each way").
PRESETS: tuple[Preset, ...] = (
    preset(
        "concours",
        gettext_noop("Competition (Atout's default)"),
        gettext_noop(
            "Concours practice: points made + the bid, a fall worth 160 + the bid, a coinche paid as a lump sum "
            "(160 + bid) x 2 or x 4, no announcements, scores rounded to the ten, bids up to 160."
        ),
        OPTION_SPECS,
    ),
    preset(
        "ffb",
        gettext_noop("Federation (FFB)"),
        gettext_noop(
            "The Fédération Française de Belote's coinche: announcements played, sans atout and tout atout, no "
            "bid ceiling, the winner's belote inside the coinche's bracket, and its capot: 252 + the bid made "
            "without a coinche (its dix de der of 100), (250 + bid) x 2 or x 4 coinché."
        ),
        OPTION_SPECS,
        {
            "capot_value": 252,
            "announcements": "on",
            "belote_multiplied": "yes",
            "max_bid": "none",
            "sans_atout_tout_atout": "on",
        },
    ),
    preset(
        "chute_162",
        gettext_noop("Fall of 162"),
        gettext_noop(
            "As the counters that count the whole deck: a fall gives the defence 162 + the bid (x 2 or x 4 "
            "coinché), scores not rounded."
        ),
        OPTION_SPECS,
        {"chute": 162, "rounding": "none"},
    ),
    preset(
        "points_faits",
        gettext_noop("Coinche on points made"),
        gettext_noop(
            "A made coinché contract scores the taker's own total + the bid, x 2 or x 4, and the defence keeps "
            "its own points; a fall is paid as usual."
        ),
        OPTION_SPECS,
        {"coinche_marque": "points_faits"},
    ),
    preset(
        "faits_seuls",
        gettext_noop("Points made only"),
        gettext_noop(
            "No bid is ever added: made, each side scores its points; coinché, 160 x 2 or x 4; a fall gives the "
            "defence 160, or 250 when it took every trick; a capot bid is worth 500 made or failed."
        ),
        OPTION_SPECS,
        {"marque": "faits_seuls", "defence_capot": 250, "capot_failed": 500},
    ),
    preset(
        "contrat_seul",
        gettext_noop("Bid only (points annoncés)"),
        gettext_noop(
            "A made contract scores the bid alone (and the belote and announcements), the defence nothing but "
            "its own bonuses; falls and coinches as in a concours."
        ),
        OPTION_SPECS,
        {"marque": "contrat_seul"},
    ),
)

# Bids as a concours sees them: mostly low, capot rare (random hands only).
_BIDS: tuple[int | str, ...] = (80, 90, 100, 110, 120, 130, 140, 150, 160, CAPOT)
_BID_WEIGHTS: tuple[int, ...] = (24, 20, 17, 12, 9, 6, 4, 3, 3, 2)


class BeloteContree(TeamBelote):
    code = "belote_contree"
    contracts: ClassVar[Mapping[str, Contract]] = ALL_CONTRACTS
    option_specs = OPTION_SPECS
    presets: ClassVar[tuple[Preset, ...]] = PRESETS
    card_values: ClassVar[Mapping[str, Mapping[str, int]]] = {
        "trump": TRUMP_VALUES,
        "plain": PLAIN_VALUES,
        "sans_atout": SANS_ATOUT_VALUES,
        "tout_atout": TOUT_ATOUT_VALUES,
    }
    hand_fields = HAND_FIELDS | {"bid", "coinche"}
    refuses_unplayed_announcements = True
    default_target = 2000

    def allowed_contracts(self, options: Mapping[str, Any]) -> Mapping[str, Contract]:
        return ALL_CONTRACTS if options["sans_atout_tout_atout"] == "on" else SUIT_CONTRACTS

    # -- the hand's schema -------------------------------------------------------------

    def _contract_description(self) -> str:
        return "The trump suit; sans_atout and tout_atout only with the option sans_atout_tout_atout: on."

    def _bidding_schema(self) -> tuple[dict[str, Any], tuple[str, ...]]:
        bid = js.one_of_shapes(
            js.integer(MIN_BID, None, multiple_of=10),
            js.choice((CAPOT,)),
            description=f"The bid: {MIN_BID} points or more in tens, up to the tournament's max_bid "
            f'({OPTION_SPECS_BY_NAME["max_bid"].default} by default), or "{CAPOT}" (worth {CAPOT_BID}).',
        )
        coinche = js.nullable(
            js.integer(0, len(COINCHE_FACTORS) - 1, "0 not coinché, 1 coinché (x 2), 2 surcoinché (x 4).")
        )
        return {"bid": bid, "coinche": coinche}, ("bid",)

    # -- validation -------------------------------------------------------------------

    def _check_bidding(
        self, errors: list[RuleError], hand: Mapping[str, Any], options: Mapping[str, Any], *, cancelled: bool
    ) -> None:
        bid = hand.get("bid")
        if bid is None:
            # An all-pass donne is recorded as cancelled, with no bid.
            if not cancelled:
                errors.append(required("bid"))
        elif is_int(bid):
            max_bid = options["max_bid"]
            value = check_int(errors, "bid", bid, MIN_BID, None if max_bid == "none" else max_bid)
            if value is not None and value % 10:
                errors.append(
                    rule_error(
                        "bid", "bid_not_in_tens", gettext_noop("Bids go up in tens: {value} is not one."), value=value
                    )
                )
        elif not (type(bid) is str and bid == CAPOT):
            errors.append(
                rule_error(
                    "bid",
                    "invalid_bid",
                    gettext_noop('A bid is a whole number of points or "capot", not {value}.'),
                    value=show(bid),
                )
            )
        coinche = hand.get("coinche")
        if coinche is not None:
            check_int(errors, "coinche", coinche, 0, len(COINCHE_FACTORS) - 1)

    def _plain_bidding(self, hand: dict[str, Any], options: Mapping[str, Any]) -> bool:
        bid = hand.get("bid")
        if type(bid) is int:
            max_bid = options["max_bid"]
            if bid < MIN_BID or bid % 10 or (max_bid != "none" and bid > max_bid):
                return False
        elif type(bid) is not str or bid != CAPOT:
            return False
        coinche = hand.get("coinche")
        return coinche is None or (type(coinche) is int and 0 <= coinche < len(COINCHE_FACTORS))

    def _check_reserve_in(self, errors: list[RuleError], value: object, options: Mapping[str, Any]) -> None:
        reserve = check_int(errors, "reserve_in", value, 0, None)
        if reserve and options["tie"] != "litige":
            errors.append(
                rule_error(
                    "reserve_in",
                    "reserve_without_litige",
                    gettext_noop("A tie is no litige in this tournament, so no points can be held in reserve."),
                )
            )

    # -- scoring ----------------------------------------------------------------------

    def score(self, hand: Mapping[str, Any], options: Mapping[str, Any], carry: int = 0) -> HandScore:
        reserve = carry or hand.get("reserve_in") or 0
        if hand.get("cancelled"):
            return HandScore((0, 0), "cancelled", reserve)
        bid = hand["bid"]
        capot_value = options["capot_value"]
        # A capot that was bid is always worth its 250, even where an unbid one earns no bonus.
        if bid == CAPOT and capot_value < CAPOT_BID:
            capot_value = CAPOT_BID
        t = 0 if hand["taker"] == "A" else 1
        taker, defence, capot = self._sides(hand, t, capot_value, options)
        outcome = self._outcome(bid, capot, taker, defence, options)
        t_score, d_score, held = self._settle(
            outcome, bid, COINCHE_FACTORS[hand.get("coinche") or 0], capot, capot_value, taker, defence, options
        )
        if options["rounding"] == "nearest_ten":
            t_score = round_to_ten(t_score)
            d_score = round_to_ten(d_score)
            held = round_to_ten(held)
        # A pending reserve goes to the donne's winner; a new litige adds to it.
        reserve_out = 0
        if outcome == "made":
            t_score += reserve
        elif outcome == "dedans":
            d_score += reserve
        else:
            reserve_out = reserve + held
        return HandScore((t_score, d_score) if t == 0 else (d_score, t_score), outcome, reserve_out)

    def _sides(
        self, hand: Mapping[str, Any], t: int, capot_value: int, options: Mapping[str, Any]
    ) -> tuple[tuple[int, int, int], tuple[int, int, int], str | None]:
        """The taker's and the defence's (card points, belote, announcements), and which
        of them (`"taker"`, `"defence"`, None) took every trick."""
        contract = self.contracts[hand["contract"]]
        cards = card_points(hand, capot_value)
        belote = belote_points(hand)
        announced = announcement_points(hand, contract, options)
        d = 1 - t
        t_ann, d_ann = announced[t], announced[d]
        capot = hand.get("capot")
        if capot is None:
            side = None
        elif capot == TEAMS[t]:
            # A capot team takes the other team's announcements.
            side, t_ann, d_ann = "taker", t_ann + d_ann, 0
        else:
            side, t_ann, d_ann = "defence", 0, t_ann + d_ann
        return (cards[t], belote[t], t_ann), (cards[d], belote[d], d_ann), side

    @staticmethod
    def _outcome(
        bid: int | str,
        capot: str | None,
        taker: tuple[int, int, int],
        defence: tuple[int, int, int],
        options: Mapping[str, Any],
    ) -> str:
        """made, dedans, or what the `tie` option makes of equal totals (never rounded)."""
        if isinstance(bid, str):
            # A capot bid (the only bid that is not a number) is made by every trick.
            return "made" if capot == "taker" else "dedans"
        t_card, t_belote, t_ann = taker
        d_card, d_belote, d_ann = defence
        if options["belote_counts"] == "yes":
            t_total = t_card + t_belote + t_ann
            d_total = d_card + d_belote + d_ann
        else:
            t_total = t_card + t_ann
            d_total = d_card + d_ann
        if t_total < bid or t_total < d_total:
            return "dedans"
        if t_total > d_total:
            return "made"
        outcome: str = options["tie"]
        return outcome

    def _settle(
        self,
        outcome: str,
        bid: int | str,
        factor: int,
        capot: str | None,
        capot_value: int,
        taker: tuple[int, int, int],
        defence: tuple[int, int, int],
        options: Mapping[str, Any],
    ) -> tuple[int, int, int]:
        """The taker's score, the defence's, and what a litige holds, before rounding."""
        t_card, t_belote, t_ann = taker
        d_card, d_belote, d_ann = defence
        marque = options["marque"]
        # What the contract adds: the bid; under `faits_seuls` no number bid is added
        # anywhere, only a capot bid's 250 (so a capot bid made is worth 500 there too).
        contract = CAPOT_BID if isinstance(bid, str) else 0 if marque == "faits_seuls" else bid
        # Belote is imprenable: it stays with its team, multiplied only with `belote_multiplied`.
        belote_factor = factor if options["belote_multiplied"] == "yes" else 1
        if outcome == "made":
            if factor == 1:
                return (*self._made(marque, contract, taker, defence), 0)
            if options["coinche_marque"] == "points_faits":
                # The taker's ordinary made score (its capot value, when capot) multiplied,
                # its belote as `belote_multiplied` says; the defence keeps its own score.
                t_made, d_made = self._made(marque, contract, (t_card, 0, t_ann), defence)
                return t_made * factor + t_belote * belote_factor, d_made, 0
            # The lump sum holds the federation's fixed 160, or 250 for a capot that earns
            # a bonus, whatever `capot_value` gives an unbid capot's card points.
            base = CAPOT_BID if capot == "taker" and capot_value > CARD_TOTAL else FALL
            return (base + contract + t_ann + d_ann) * factor + t_belote * belote_factor, d_belote, 0
        if outcome == "dedans":
            fall: int = options["chute"]
            # `defence_capot: 160` leaves a capoted taker's fall at the chute.
            if capot == "defence" and options["defence_capot"] > fall:
                fall = options["defence_capot"]
            stake = fall + contract
            if isinstance(bid, str) and stake < options["capot_failed"]:
                stake = options["capot_failed"]
            return t_belote, (stake + t_ann + d_ann) * factor + d_belote * belote_factor, 0
        # A litige: the defence scores its total, the taker's is held (module docstring).
        counted = options["belote_counts"] == "yes"
        held = (t_card + t_ann) * factor + (t_belote * belote_factor if counted else 0)
        return 0 if counted else t_belote, (d_card + d_ann) * factor + d_belote * belote_factor, held

    @staticmethod
    def _made(
        marque: str, contract: int, taker: tuple[int, int, int], defence: tuple[int, int, int]
    ) -> tuple[int, int]:
        """A made contract as `marque` counts it, not multiplied: (taker, defence).

        `contract` is what the bid adds (0 for a number bid under `faits_seuls`).
        """
        if marque == "contrat_seul":
            # The bid stands for the card points: each side keeps only its bonuses.
            return contract + taker[1] + taker[2], defence[1] + defence[2]
        return sum(taker) + contract, sum(defence)

    # -- random hands -----------------------------------------------------------------

    def random_hand(self, rng: random.Random) -> dict[str, Any]:
        """A plausible donne under any options: a suit, a bid of 80 to 160 or capot, no
        announcements; the contract made about three times in four, one in fourteen
        coinché, one in a hundred surcoinché, 3 % redealt."""
        if rng.random() < 0.03:
            return {"cancelled": True}
        contract = SUIT_CONTRACTS[rng.choice(SUITS)]
        taker = rng.choice(TEAMS)
        bid = rng.choices(_BIDS, weights=_BID_WEIGHTS)[0]
        hand: dict[str, Any] = {"taker": taker, "bid": bid, "contract": contract.name}
        draw = rng.random()
        if draw < 0.07:
            hand["coinche"] = 1 if draw < 0.06 else 2
        if (bid == CAPOT and rng.random() < 0.75) or rng.random() < 0.02:
            random_capot(hand, contract, taker if rng.random() < 0.9 else OTHER[taker])
        else:
            # A failed capot bid still takes most of the points.
            aim = 130 if bid == CAPOT else bid
            assert isinstance(aim, int)
            hand["points"] = random_points(rng, contract, taker, aim + 12, 16)
        belote = random_belote(rng, contract, taker)
        if belote:
            hand["belote"] = belote
        return hand
