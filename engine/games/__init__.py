"""The registry of games: one module per game, chosen by its code.

`GAMES` are the games a tournament plays. `TABLE_GAMES` are what a table of another size
plays within one of them (tarot à 4 at a table of five with a mort sitting out): they
score hands and parties like any game, but no tournament chooses them.
"""

from __future__ import annotations

from engine.core import Game
from engine.games.belote_a_trois import BeloteATrois
from engine.games.belote_classique import BeloteClassique
from engine.games.belote_contree import BeloteContree
from engine.games.belote_moderne import BeloteModerne
from engine.games.tarot_a_cinq import TarotACinq
from engine.games.tarot_a_quatre import TarotAQuatre, TarotAQuatreMort
from engine.games.tarot_a_trois import TarotATrois

GAMES: dict[str, Game] = {
    game.code: game
    for game in (
        BeloteClassique(),
        BeloteModerne(),
        BeloteContree(),
        BeloteATrois(),
        TarotATrois(),
        TarotAQuatre(),
        TarotACinq(),
    )
}

TABLE_GAMES: dict[str, Game] = {game.code: game for game in (TarotAQuatreMort(),)}
