"""The one check of a tournament's rules: game, rule options, ranking criteria, bye and late policies.

The tournament's settings (`tournaments.services.tournament_create`/`tournament_update`)
and the director's standings page (scoring's `standings_rules_change`) both check a
tournament's rules here, so that what one of them stores the other never refuses. The
vocabulary is the engine's: the games and their options (`engine.GAMES`), the ranking
criteria, which a game allows and which it uses by default (`engine.standings`).

Errors are keyed by the tournament's field (`game`, `criteria`, `bye_policy`,
`bye_points`, `late_policy`), an option's by `option_<name>`, and an option the game does
not have by `rule_options`; each caller shows them beside its own fields.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

import engine
import engine.standings
from tournaments.models import Tournament

Errors = dict[str, list[str]]


@dataclass(frozen=True, slots=True)
class Rules:
    """A tournament's rules once checked: every option resolved, the criteria filled in."""

    rule_options: dict[str, Any]
    criteria: list[str]
    bye_policy: str
    bye_points: int
    late_policy: str = Tournament.LatePolicy.ABSENT


def rules_check(
    *,
    game: str | None,
    rule_options: Mapping[str, Any] | None,
    criteria: Sequence[str] | None,
    bye_policy: str | None,
    bye_points: int | None,
    late_policy: str | None = Tournament.LatePolicy.ABSENT,
) -> tuple[Rules | None, Errors]:
    """The rules checked: (the rules, {}) when they hold, else (None, the errors by field).

    No criteria means the game's own; no bye points, 0; no late policy given, `absent`.
    """
    if game is None or game not in engine.GAMES:
        return None, {"game": [_("Choose a game.")]}
    options, errors = _options(game, rule_options or {})
    chosen = list(criteria or engine.standings.default_criteria(game))
    allowed = engine.standings.allowed_criteria(game)
    if any(key not in allowed for key in chosen) or len(set(chosen)) != len(chosen):
        errors["criteria"] = [_("Choose the ranking criteria, each once.")]
    if bye_policy not in Tournament.ByePolicy.values:
        errors["bye_policy"] = [_("Choose what a bye is worth.")]
    points = int(bye_points or 0)
    if points < 0:
        errors["bye_points"] = [_("A bye cannot be worth fewer than 0 points.")]
    if late_policy not in Tournament.LatePolicy.values:
        errors["late_policy"] = [_("Choose what a late arrival scores for the rounds it missed.")]
    if errors:
        return None, errors
    return Rules(options, chosen, str(bye_policy), points, str(late_policy)), {}


def _options(game_code: str, rule_options: Mapping[str, Any]) -> tuple[dict[str, Any], Errors]:
    """The game's options resolved by the engine, and an error per option it refuses."""
    game = engine.get_game(game_code)
    errors: Errors = {}
    known = {spec.name for spec in game.option_specs}
    for name, value in rule_options.items():
        try:
            game.resolve_options({name: value})
        except engine.OptionError:
            if name in known:
                errors.setdefault(f"option_{name}", []).append(_("This value is not allowed for this game."))
            else:
                errors.setdefault("rule_options", []).append(
                    _("The game %(game)s has no option “%(option)s”.") % {"game": game_code, "option": name}
                )
    if errors:
        return {}, errors
    return game.resolve_options(dict(rule_options)), {}
