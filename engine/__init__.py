"""Atout's rules engine: pure Python, no Django.

`engine.GAMES[code]` gives the game object for one of `belote_classique`,
`belote_moderne`, `belote_contree`, `belote_a_trois`, `tarot_a_trois`; `engine.get_game(code)` does the
same with a clear ValueError for an unknown code. See engine/README.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import Game, HandScore, OptionError, OptionSpec, RuleError

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["GAMES", "Game", "HandScore", "OptionError", "OptionSpec", "RuleError", "get_game"]


def __getattr__(name: str) -> Any:
    # The registry imports every game module; load it on first use so that
    # `import engine.core` stays light.
    if name == "GAMES":
        from engine.games import GAMES

        return GAMES
    raise AttributeError(name)


def get_game(code: str) -> Game:
    from engine.games import GAMES

    games: Mapping[str, Game] = GAMES
    try:
        return games[code]
    except KeyError:
        raise ValueError(f"unknown game {code!r} (one of {', '.join(sorted(games))})") from None
