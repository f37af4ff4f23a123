"""What an archive's values must be beyond each field's own checks: what the site requires.

A field's type, length, choices and validators are checked by `fields.clean`. What the
site's forms and services require besides, an archive must hold too, or the site would
store what it never stores itself, and its pages could not show it (a tournament
address `../../etc/passwd` made every page that links to it answer 500):
- the tournament's settings: the check the settings form's values go through
  (`tournaments.services.tournament_settings_errors`: the game and the formats it allows,
  rounds, the end of a partie, rule options, ranking criteria, bye and late policies,
  seating, the entry fee), and match points as the ranking reads them;
- the numbers that name things on pages and in addresses (a competitor, a round, a
  table, the round a competitor joined) start at 1;
- a table's referee link is what the site makes (`scoring.access.TOKEN_SHAPE`), or it
  opens nothing and cannot be written into an address;
- a seat sits at one of the positions the draw writes, on one of its table's sides;
  a bye's reason is the draw's or a late arrival's;
- the JSON a hand, a revision or a result holds has the shape its readers expect.
Each refusal is an `ArchiveError` naming the value's place in the file.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from archive.fields import ArchiveError, data_fields, json_type, shown
from engine.standings import MatchPoints
from scoring.access import TOKEN_SHAPE
from tournaments import services
from tournaments.models import Tournament
from tournaments.selectors import POSITION_LABELS

# A bye is the draw's (a competitor left over) or a late arrival's (a round missed).
BYE_REASONS = ("draw", "late")
# Sides of a table: two at the games for teams and mêlées; at most five seats, one each,
# at the games played alone (tarot à 5).
MAX_SIDES = {Tournament.Format.TEAMS: 2, Tournament.Format.MELEE: 2, Tournament.Format.INDIVIDUAL: 5}


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def tournament(fields: Mapping[str, Any]) -> None:
    """The settings as the settings form checks them, the match points as the ranking reads them."""
    for name, kind in (("rule_options", dict), ("criteria", list), ("match_points", dict)):
        if name in fields and not isinstance(fields[name], kind):
            expected = "an object" if kind is dict else "a list"
            raise ArchiveError(f"tournament.{name}: expected {expected}, found {json_type(fields[name])}")
    for i, key in enumerate(fields.get("criteria") or []):
        if not isinstance(key, str):
            raise ArchiveError(f"tournament.criteria[{i}]: expected a criterion's name, found {json_type(key)}")
    for key, value in (fields.get("match_points") or {}).items():
        if key not in MatchPoints.allowed_params:
            allowed = ", ".join(sorted(MatchPoints.allowed_params))
            raise ArchiveError(f"tournament.match_points: {shown(key)} is not one of {allowed}")
        if not _number(value):
            raise ArchiveError(f"tournament.match_points.{key}: expected a number, found {json_type(value)}")
    # An archive from before a setting lacks it: checked at its default, as it is imported.
    values = {name: field.get_default() for name, field in data_fields(Tournament).items()} | dict(fields)
    errors = services.tournament_settings_errors(values)
    for name, messages in errors.items():
        raise ArchiveError(f"tournament.{name}: {' '.join(str(message) for message in messages)}")


def from_one(fields: Mapping[str, Any], names: Iterable[str], path: str) -> None:
    """Numbers that name a thing on the site's pages start at 1."""
    for name in names:
        value = fields.get(name)
        if value is not None and value < 1:
            raise ArchiveError(f"{path}.{name}: {value} is not a number from 1")


def token(value: Any, path: str) -> None:
    if value is not None and not TOKEN_SHAPE.match(value):
        raise ArchiveError(f"{path}.token: {shown(value)} is not a referee link this site makes")


def seat(fields: Mapping[str, Any], format: str, path: str) -> None:
    if fields["position"] not in POSITION_LABELS:
        raise ArchiveError(
            f"{path}.position: {shown(fields['position'])} is not one of {', '.join(sorted(POSITION_LABELS))}"
        )
    sides = MAX_SIDES.get(Tournament.Format(format), 2)
    if not 0 <= fields["side"] < sides:
        raise ArchiveError(f"{path}.side: {fields['side']} is not a side of a table (0 to {sides - 1})")


def bye(fields: Mapping[str, Any], path: str) -> None:
    if fields.get("reason", "draw") not in BYE_REASONS:
        raise ArchiveError(f"{path}.reason: {shown(fields['reason'])} is not one of {', '.join(BYE_REASONS)}")


def shapes(fields: Mapping[str, Any], expected: Mapping[str, tuple[type, ...]], path: str) -> None:
    """JSON fields of the shapes their readers expect (an object, a list of numbers...)."""
    said = {dict: "an object", list: "a list", type(None): "null"}
    for name, kinds in expected.items():
        if name not in fields:
            continue
        value = fields[name]
        if not isinstance(value, kinds):
            wanted = " or ".join(said.get(kind, kind.__name__) for kind in kinds)
            raise ArchiveError(f"{path}.{name}: expected {wanted}, found {json_type(value)}")
        if name in NUMBER_LISTS and isinstance(value, list) and not all(_number(item) for item in value):
            raise ArchiveError(f"{path}.{name}: expected a list of numbers")


# A list of numbers, one per side: a hand's scores, a result's totals.
NUMBER_LISTS = ("scores", "totals")
HAND_SHAPES: dict[str, tuple[type, ...]] = {"options": (dict,), "scores": (list,), "extra": (dict,)}
REVISION_SHAPES: dict[str, tuple[type, ...]] = {"before": (dict, type(None)), "after": (dict, type(None))}
RESULT_SHAPES: dict[str, tuple[type, ...]] = {"totals": (list,)}
