"""What the tarot tests at four and five share: hands drawn by hypothesis, and D computed
the way the federation writes it, as an oracle the engine's own arithmetic is checked
against.

The rule values are spelled out here rather than imported from the engine, so that a
wrong constant there fails a test here.
"""

from __future__ import annotations

import math
from itertools import product
from typing import Any

from hypothesis import strategies as st

from engine.core import Game
from engine.games.tarot_a_cinq import TarotACinq
from engine.games.tarot_a_quatre import TarotAQuatre

QUATRE = TarotAQuatre()
CINQ = TarotACinq()

CONTRACTS = {"petite": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
NEEDED = (56, 51, 41, 36)
PRIMES = {"simple": 20, "double": 30, "triple": 40}
# Trumps shown per poignée size, per number of players.
POIGNEE_TRUMPS = {
    4: {"simple": 10, "double": 13, "triple": 15},
    5: {"simple": 8, "double": 10, "triple": 13},
}
# The least points of the attack's chelem in a garde contre: 87 less 4.5 per chien card.
GARDE_CONTRE_CHELEM = {4: 60, 5: 73.5}

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=12,
)


def every_options(game: Game) -> list[dict[str, Any]]:
    """Each combination of the game's option values."""
    names = [spec.name for spec in game.option_specs]
    return [dict(zip(names, values, strict=True)) for values in product(*(spec.choices for spec in game.option_specs))]


def points_range(oudlers: int) -> tuple[float, float]:
    # 4.5 per oudler, give or take the half point of the Excuse exchange.
    return max(0.0, 4.5 * oudlers - 0.5), min(91.0, 91 - 4.5 * (3 - oudlers) + 0.5)


def poignees(hand: dict[str, Any]) -> list[dict[str, Any]]:
    shown = hand.get("poignee")
    if shown is None:
        return []
    return list(shown) if isinstance(shown, list) else [shown]


def expected_d(hand: dict[str, Any], options: dict[str, Any]) -> float:
    """D = s·(25 + |diff|)·coef + p·10·coef + s·Σpoignées (× coef when multiplied) + chelem."""
    needed = NEEDED[hand["oudlers"]]
    coef = CONTRACTS[hand["contract"]]
    s = 1 if hand["points"] >= needed else -1
    diff = abs(hand["points"] - needed)
    if options.get("half_points", "to_winner") == "to_winner":
        # Made or failed, the half point goes to the winner and so widens the gap.
        diff = math.ceil(diff)
    primes = sum(PRIMES[p["size"]] for p in poignees(hand))
    if options.get("primes", "multiplied") == "multiplied":
        primes *= coef
    p = {"taker": 1, "defence": -1, None: 0}[hand.get("petit_au_bout")]
    chelem = hand.get("chelem") or {}
    announced, made_by = chelem.get("announced", False), chelem.get("made_by")
    bonus = {
        ("taker", True): 400,
        ("taker", False): 200,
        ("defence", True): -400,
        ("defence", False): -200,
        (None, True): -200,
        (None, False): 0,
    }[(made_by, announced)]
    return s * (25 + diff) * coef + p * 10 * coef + s * primes + bonus


@st.composite
def tarot_hands(draw: st.DrawFn, players: int) -> dict[str, Any]:
    """A donne at four or five drawn so that every field agrees with the others."""
    oudlers = draw(st.integers(0, 3))
    contract = draw(st.sampled_from(list(CONTRACTS)))
    low, high = points_range(oudlers)
    points: float | int
    if players == 4:
        # At four the taker's cards are an even number: its points are whole.
        points = draw(st.integers(math.ceil(low), math.floor(high)))
    else:
        halves = draw(st.integers(int(low * 2), int(high * 2)))
        points = halves // 2 if halves % 2 == 0 else halves / 2
    hand: dict[str, Any] = {"taker": draw(st.integers(0, players - 1))}
    if players == 5:
        # Any player, the taker included (alone), holds the called king.
        hand["partner"] = draw(st.integers(0, 4))
    hand.update(contract=contract, oudlers=oudlers, points=points)
    makers: list[str | None] = [None]
    if points >= (GARDE_CONTRE_CHELEM[players] if contract == "garde_contre" else 87):
        makers.append("taker")
    if points < NEEDED[oudlers]:
        makers.append("defence")
    made_by = draw(st.sampled_from(makers))
    if made_by is not None or draw(st.booleans()):
        hand["chelem"] = {"announced": draw(st.booleans()), "made_by": made_by}
    petits: list[str | None] = [None]
    if oudlers >= 1 and made_by != "defence":
        petits.append("taker")
    if oudlers <= 2 and made_by != "taker":
        petits.append("defence")
    hand["petit_au_bout"] = draw(st.sampled_from(petits))
    shown = draw(st.lists(st.sampled_from(["simple", "double", "triple"]), max_size=2))
    trumps = POIGNEE_TRUMPS[players]
    if sum(trumps[size] for size in shown) <= 22:
        entries = [{"by": draw(st.sampled_from(["taker", "defence"])), "size": size} for size in shown]
        if len(entries) == 1 and draw(st.booleans()):
            hand["poignee"] = entries[0]
        elif entries:
            hand["poignee"] = entries
    return hand
