"""A tournament's settings and its status: draft -> registration -> running -> finished."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

import engine
from tournaments import games
from tournaments.access import require_organiser
from tournaments.models import Club, Competitor, Round, Tournament
from tournaments.rules import rules_check
from tournaments.services.common import (
    Errors,
    Status,
    raise_errors,
    refusal,
    status_label,
    table_size,
)
from tournaments.services.money import entry_fee_errors
from tournaments.signals import tournament_finished

# Fixed once rounds are drawn: changing them would change every score already entered.
# The late policy too: a late arrival's missed rounds are scored as it said when they came.
LOCKED_WHEN_RUNNING = ("game", "format", "end_rule", "end_value", "rule_options", "criteria", "late_policy")
# Fixed once the first round is drawn: the rounds of one tournament seat alike.
FIXED_ONCE_DRAWN = ("table_preference", "allow_tables_of_three", "table_de_cinq")
# Fixed once round 1 is drawn: it says how round 1 was drawn (only a running tournament
# has rounds).
FIXED_ONCE_ROUND_1_DRAWN = ("first_round_order",)
EDITABLE_WHEN_FINISHED = ("name", "date", "is_public")
TOURNAMENT_FIELDS = (
    "name",
    "date",
    "game",
    "format",
    "rounds_planned",
    "end_rule",
    "end_value",
    "pairing_method",
    "first_round_order",
    "criteria",
    "bye_policy",
    "bye_points",
    "late_policy",
    "separate_clubs_rounds",
    "table_preference",
    "allow_tables_of_three",
    "table_de_cinq",
    "rule_options",
    "is_public",
    "confirmation_required",
    # Changes until the tournament is finished (a late discount, a mistake at creation).
    "entry_fee",
    # Self check-in at the door and its team rule (tournaments/services/door.py).
    "self_check_in",
    "door_rule",
)
MAX_ROUNDS = 30


def tournament_frozen_fields(*, tournament: Tournament) -> dict[str, str]:
    """The settings the tournament's status fixes, each with the reason the page shows.

    The settings page shows them disabled with their reason; `tournament_update` refuses
    to change them with the same reason.
    """
    if tournament.status == Status.FINISHED:
        reason = _("Fixed: the tournament is finished.")
        return {field: reason for field in TOURNAMENT_FIELDS if field not in EDITABLE_WHEN_FINISHED}
    if tournament.status == Status.RUNNING:
        if tournament.rounds.exists():
            reason = _("Fixed: round 1 is drawn.")
            locked: tuple[str, ...] = (*LOCKED_WHEN_RUNNING, *FIXED_ONCE_ROUND_1_DRAWN)
        else:
            reason = _("Fixed: the tournament has started.")
            locked = LOCKED_WHEN_RUNNING
        return dict.fromkeys(locked, reason) | _seating_frozen(tournament)
    return _seating_frozen(tournament)


def _seating_frozen(tournament: Tournament) -> dict[str, str]:
    """The seating, once a round is drawn: the rounds of one tournament seat alike."""
    if not tournament.rounds.exists():
        return {}
    return dict.fromkeys(FIXED_ONCE_DRAWN, str(_("Fixed once the first round is drawn.")))


def _apply_preset(values: dict[str, Any], preset: str | None, given: frozenset[str]) -> Errors:
    """Set every option (and the game's settings) of the preset named `preset`, except
    those the caller gave itself (`given`: the option names, and the settings' fields),
    which stay as given; an error when the game has no such preset."""
    if not preset:
        return {}
    game_code = str(values.get("game") or "")
    if game_code not in engine.GAMES:
        return {}
    game = engine.get_game(game_code)
    try:
        chosen = game.get_preset(preset)
    except engine.OptionError:
        names = ", ".join(p.code for p in game.presets)
        message = _("This game has no preset “%(preset)s” (its presets: %(names)s).")
        return {"preset": [message % {"preset": preset, "names": names}]}
    options = dict(values.get("rule_options") or {})
    values["rule_options"] = {**chosen.options, **{k: v for k, v in options.items() if k in given}}
    for name, value in chosen.settings.items():
        if name not in given:
            values[name] = value
    return {}


def _clean_tournament(
    values: dict[str, Any], *, preset: str | None = None, given: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """Fill the game's defaults in `values` and check every field; raises ValidationError.

    `preset`: a preset of the game to apply first (`_apply_preset`)."""
    errors: Errors = _apply_preset(values, preset, given)
    if not str(values.get("name") or "").strip():
        errors["name"] = [_("Give the tournament a name.")]
    values["name"] = str(values.get("name") or "").strip()[:200]
    if not isinstance(values.get("date"), datetime.date):
        errors["date"] = [_("Give the date.")]
    game = values.get("game")
    rules, rule_errors = rules_check(
        game=game,
        rule_options=values.get("rule_options"),
        criteria=values.get("criteria"),
        bye_policy=values.get("bye_policy"),
        bye_points=values.get("bye_points"),
        late_policy=values.get("late_policy"),
    )
    errors.update(rule_errors)
    if "game" in rule_errors:
        raise_errors(errors)
    assert game is not None  # rules_check refuses a missing game
    formats = games.formats_for(game)
    values["format"] = values.get("format") or formats[0]
    if values["format"] not in formats:
        errors["format"] = [
            _("This game is played in these formats only: %(formats)s.")
            % {"formats": ", ".join(str(Tournament.Format(f).label) for f in formats)}
        ]
    if not 1 <= int(values.get("rounds_planned") or 0) <= MAX_ROUNDS:
        errors["rounds_planned"] = [_("Between 1 and %(max)s rounds.") % {"max": MAX_ROUNDS}]
    errors.update(_end_errors(values, game))
    if values.get("pairing_method") not in Tournament.PairingMethod.values:
        errors["pairing_method"] = [_("Choose how later rounds are drawn.")]
    values["first_round_order"] = values.get("first_round_order") or Tournament.FirstRoundOrder.RANDOM
    if values["first_round_order"] not in Tournament.FirstRoundOrder.values:
        errors["first_round_order"] = [_("Choose how round 1 is drawn: at random or by Atout rating.")]
    values["separate_clubs_rounds"] = int(values.get("separate_clubs_rounds") or 0)
    if not 0 <= values["separate_clubs_rounds"] <= int(values.get("rounds_planned") or 0):
        errors["separate_clubs_rounds"] = [_("Between 0 and the number of rounds.")]
    errors.update(_seating_errors(values, game))
    values["entry_fee"], fee_errors = entry_fee_errors(values.get("entry_fee"))
    errors.update(fee_errors)
    errors.update(_door_errors(values))
    raise_errors(errors)
    assert rules is not None
    values.update(
        rule_options=rules.rule_options,
        criteria=rules.criteria,
        bye_policy=rules.bye_policy,
        bye_points=rules.bye_points,
        late_policy=rules.late_policy,
    )
    return values


def _door_errors(values: dict[str, Any]) -> Errors:
    """Self check-in on or off, and the team rule, the usual one when none is given."""
    values["self_check_in"] = values.get("self_check_in", False)
    values["door_rule"] = values.get("door_rule") or Tournament.DoorRule.EACH
    errors: Errors = {}
    if not isinstance(values["self_check_in"], bool):
        errors["self_check_in"] = [_("Self check-in is on or off: yes or no.")]
    if values["door_rule"] not in Tournament.DoorRule.values:
        errors["door_rule"] = [_("Choose when a team is checked in at the door.")]
    return errors


def _end_errors(values: dict[str, Any], game: str) -> Errors:
    end_rule = values.get("end_rule") or Tournament.EndRule.DONNES
    values["end_rule"] = end_rule
    if end_rule not in Tournament.EndRule.values:
        return {"end_rule": [_("Choose how a partie ends.")]}
    if not values.get("end_value"):
        values["end_value"] = games.default_end_value(game, end_rule)
    if values["end_value"] is None:
        return {"end_value": [_("This game has no usual target score: give one.")]}
    low, high = (1, 100) if end_rule == Tournament.EndRule.DONNES else (100, 10_000)
    if not low <= int(values["end_value"]) <= high:
        return {"end_value": [_("Between %(low)s and %(high)s.") % {"low": low, "high": high}]}
    return {}


def _seating_errors(values: dict[str, Any], game: str) -> Errors:
    """Tarot à 4 and à 5: the seating, the game's own when none is given. Other games seat
    one table size: they take no seating. Tarot à 4: what a table of five plays."""
    errors: Errors = {}
    values["table_de_cinq"] = values.get("table_de_cinq") or Tournament.TableDeCinq.MORT
    if values["table_de_cinq"] not in Tournament.TableDeCinq.values:
        errors["table_de_cinq"] = [
            _("Choose what a table of five plays: tarot for four with a mort, or tarot for five.")
        ]
    return errors | _seating_size_errors(values, game)


def _seating_size_errors(values: dict[str, Any], game: str) -> Errors:
    preference = values.get("table_preference") or ""
    allow_three = values.get("allow_tables_of_three") or False
    if not games.has_table_choice(game):
        if preference or allow_three:
            field = "table_preference" if preference else "allow_tables_of_three"
            return {field: [_("Only tarot for four and tarot for five seat tables of several sizes.")]}
        values.update(table_preference="", allow_tables_of_three=False)
        return {}
    values["table_preference"] = preference or games.usual_table_preference(game)
    if values["table_preference"] not in Tournament.TablePreference.values:
        return {"table_preference": [_("Choose how the tables are filled.")]}
    if not isinstance(allow_three, bool):
        return {"allow_tables_of_three": [_("Tables of 3 are allowed or not: yes or no.")]}
    return {}


def _unique_slug(name: str, date: datetime.date) -> str:
    base = slugify(f"{name} {date.isoformat()}")[:70] or "tournoi"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def tournament_create(
    *,
    by: User,
    club: Club,
    name: str,
    date: datetime.date,
    game: str,
    format: str = "",
    rounds_planned: int = 4,
    end_rule: str = Tournament.EndRule.DONNES,
    end_value: int | None = None,
    pairing_method: str = Tournament.PairingMethod.SWISS,
    first_round_order: str = Tournament.FirstRoundOrder.RANDOM,
    criteria: Sequence[str] | None = None,
    bye_policy: str = Tournament.ByePolicy.AVERAGE_WIN,
    bye_points: int = 0,
    late_policy: str = Tournament.LatePolicy.ABSENT,
    separate_clubs_rounds: int = 0,
    table_preference: str = "",
    allow_tables_of_three: bool = False,
    table_de_cinq: str = "",
    rule_options: Mapping[str, Any] | None = None,
    preset: str | None = None,
    is_public: bool = True,
    confirmation_required: bool = False,
    entry_fee: Decimal | int | str = 0,
    self_check_in: bool = False,
    door_rule: str = Tournament.DoorRule.EACH,
) -> Tournament:
    """A new tournament in draft, the game's defaults filled in where nothing was given.

    `preset` (a code of the game's presets) sets every rule option and the game's
    settings at once; options in `rule_options`, and a `table_de_cinq` given, override it.
    """
    require_organiser(by, club)
    given = frozenset(rule_options or {}) | ({"table_de_cinq"} if table_de_cinq else frozenset())
    values = _clean_tournament(
        {
            "name": name,
            "date": date,
            "game": game,
            "format": format,
            "rounds_planned": rounds_planned,
            "end_rule": end_rule,
            "end_value": end_value,
            "pairing_method": pairing_method,
            "first_round_order": first_round_order,
            "criteria": criteria,
            "bye_policy": bye_policy,
            "bye_points": bye_points,
            "late_policy": late_policy,
            "separate_clubs_rounds": separate_clubs_rounds,
            "table_preference": table_preference,
            "allow_tables_of_three": allow_tables_of_three,
            "table_de_cinq": table_de_cinq,
            "rule_options": dict(rule_options or {}),
            "is_public": is_public,
            "confirmation_required": confirmation_required,
            "entry_fee": entry_fee,
            "self_check_in": self_check_in,
            "door_rule": door_rule,
        },
        preset=preset,
        given=given,
    )
    slug = _unique_slug(values["name"], values["date"])
    return Tournament.objects.create(club=club, slug=slug, created_by=by, status=Status.DRAFT, **values)


@transaction.atomic
def tournament_update(*, by: User, tournament: Tournament, preset: str | None = None, **changes: Any) -> Tournament:
    """Change the fields given; what the tournament's status fixes cannot change (see module doc).

    `preset` sets every rule option and the game's settings at once, as at creation; the
    options given in `rule_options`, and a `table_de_cinq` given, override it.
    """
    require_organiser(by, tournament.club)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    given = frozenset(changes.get("rule_options") or {}) | ({"table_de_cinq"} & set(changes))
    unknown = set(changes) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise TypeError(f"tournament_update: unknown fields {sorted(unknown)}")
    current = {field: getattr(tournament, field) for field in TOURNAMENT_FIELDS}
    # A seating left empty (a tournament imported from an older archive) is the game's own.
    current["table_preference"] = current["table_preference"] or games.usual_table_preference(tournament.game)
    if "game" in changes and changes["game"] != tournament.game:
        # Options and seating belong to a game: another game starts from its own defaults.
        for field, default in (
            ("rule_options", {}),
            ("table_preference", ""),
            ("allow_tables_of_three", False),
            ("table_de_cinq", Tournament.TableDeCinq.MORT),
        ):
            changes.setdefault(field, default)
    values = _clean_tournament({**current, **changes}, preset=preset, given=given)
    changed = [field for field in TOURNAMENT_FIELDS if values[field] != current[field]]
    frozen = tournament_frozen_fields(tournament=tournament)
    errors: Errors = {field: [frozen[field]] for field in changed if field in frozen}
    drawn = tournament.rounds.count()
    if values["rounds_planned"] < drawn:
        errors["rounds_planned"] = [_("%(count)s rounds are already drawn.") % {"count": drawn}]
    raise_errors(errors)
    for field in changed:
        setattr(tournament, field, values[field])
    tournament.save()
    return tournament


# Which status may follow which; any other change is refused.
TRANSITIONS: dict[str, tuple[str, ...]] = {
    Status.DRAFT: (Status.REGISTRATION,),
    Status.REGISTRATION: (Status.DRAFT, Status.RUNNING),
    Status.RUNNING: (Status.FINISHED,),
    Status.FINISHED: (),
}


@transaction.atomic
def tournament_set_status(*, by: User, tournament: Tournament, status: str) -> Tournament:
    require_organiser(by, tournament.club)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if status not in TRANSITIONS.get(tournament.status, ()):
        raise refusal(
            _("A tournament cannot go from “%(current)s” to “%(wanted)s”.")
            % {"current": tournament.get_status_display(), "wanted": status_label(status)}
        )
    if status == Status.DRAFT and tournament.competitors.exists():
        raise refusal(_("Players are registered: registration stays open."))
    if status == Status.RUNNING:
        present = tournament.competitors.filter(status=Competitor.Status.CHECKED_IN).count()
        if present < table_size(tournament):
            raise refusal(
                _("At least %(count)s competitors must be checked in to start.") % {"count": table_size(tournament)}
            )
    if status == Status.FINISHED and tournament.rounds.filter(status=Round.Status.OPEN).exists():
        raise refusal(_("Close the round in play first."))
    tournament.status = status
    tournament.save(update_fields=["status", "updated_at"])
    if status == Status.FINISHED:
        finished = {"tournament_id": tournament.pk}
        transaction.on_commit(lambda: tournament_finished.send_robust(sender=Tournament, **finished))
    return tournament


def tournament_settings_errors(values: Mapping[str, Any]) -> Errors:
    """What `tournament_create` would refuse in these settings, by field ({} when they hold).

    The same check, for settings that come from elsewhere than the form: a tournament
    archive is checked with it before it is imported (archive/reading.py).
    """
    try:
        _clean_tournament(dict(values))
    except ValidationError as error:
        return dict(error.message_dict)
    return {}
