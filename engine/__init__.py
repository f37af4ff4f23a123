"""Atout's rules engine: pure Python, no Django.

`engine.GAMES[code]` gives the game object for one of `belote_classique`,
`belote_moderne`, `belote_contree`, `belote_a_trois`, `tarot_a_trois`; `engine.get_game(code)` does the
same with a clear ValueError for an unknown code. See engine/README.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import Game, HandScore, OptionError, OptionSpec, Preset, RuleError

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["GAMES", "TABLE_GAMES", "Game", "HandScore", "OptionError", "OptionSpec", "Preset", "RuleError", "get_game"]


def __getattr__(name: str) -> Any:
    # The registry imports every game module; load it on first use so that
    # `import engine.core` stays light.
    if name == "GAMES":
        from engine.games import GAMES

        return GAMES
    if name == "TABLE_GAMES":
        from engine.games import TABLE_GAMES

        return TABLE_GAMES
    raise AttributeError(name)


def get_game(code: str) -> Game:
    """A game of `GAMES`, or a table game of `TABLE_GAMES` (engine.games)."""
    from engine.games import GAMES, TABLE_GAMES

    games: Mapping[str, Game] = GAMES
    try:
        return games[code] if code in games else TABLE_GAMES[code]
    except KeyError:
        known = ", ".join(sorted([*games, *TABLE_GAMES]))
        raise ValueError(f"unknown game {code!r} (one of {known})") from None
