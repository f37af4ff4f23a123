"""What a tournament needs to know about each game of the engine, in the reader's language.

The engine owns the rules: the games (`engine.GAMES`: their table, sides and rule
options), the ranking criteria with each game's default and allowed ones
(`engine.standings`), and the default end of a partie (`engine.match`). This module adds
the tournament side: which formats a game can be played in, which games seat tables of
several sizes (tarot à 4 and à 5), and the one table of words a reader sees for each
ranking criterion, each option and its values (the engine carries only English
descriptions, and translations live in the Django layer). Terms (criterion):
docs/glossary.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

import engine
from engine.core import Preset
from engine.match import DEFAULT_DONNES, End, default_end, default_target, end_at_table
from tournaments.models import Tournament

# Every ranking criterion of engine.standings, as the ranking's columns and the settings name it.
CRITERION_LABELS: dict[str, Promise] = {
    "wins": _("Parties won"),
    "match_points": _("Match points"),
    "points": _("Points"),
    "difference": _("Difference"),
    "against": _("Points against"),
    "buchholz": _("Buchholz"),
    "head_to_head": _("Head-to-head"),
}
# The orders the tournament's form offers (the standings page offers every criterion).
CRITERIA_PRESETS: tuple[tuple[str, ...], ...] = (
    ("wins", "points", "difference"),
    ("points", "wins"),
    ("wins", "points"),
    ("points", "difference"),
)

OPTION_LABELS: dict[str, Promise] = {
    "threshold": _("What the taker must beat"),
    "tie": _("A tie between taker and defence"),
    "capot_value": _("Value of a capot"),
    "belote_when_dedans": _("Belote-rebelote when the taker is dedans"),
    "announcement_tie": _("Equal best announcements"),
    "announcements": _("Announcements"),
    "rounding": _("Rounding of scores"),
    "split_rounding": _("Two opponents level share the taker's points"),
    "half_points": _("Half points"),
    "primes": _("Poignée and petit au bout"),
    "marque": _("What a made contract scores"),
    "belote_counts": _("Belote-rebelote toward the contract"),
    "capot_failed": _("A failed capot bid scores the defence"),
    "defence_capot": _("A defence that took every trick scores"),
    "belote_multiplied": _("Belote under a coinche"),
    "max_bid": _("Highest bid"),
    "sans_atout_tout_atout": _("Sans atout and tout atout"),
    "coinche_marque": _("A made coinché contract scores"),
    "chute": _("A fall (chute) gives the defence"),
}
CHOICE_LABELS: dict[tuple[str, Any], Promise] = {
    ("threshold", "totals"): _("the defence's total, with belote and announcements"),
    ("threshold", "card_points"): _("half the card points, bonuses ignored"),
    ("tie", "litige"): _("litige: the taker's points held for the next donne"),
    ("tie", "dedans"): _("counted as dedans"),
    ("tie", "made"): _("counted as made"),
    ("capot_value", 250): _("250"),
    ("capot_value", 252): _("252"),
    ("capot_value", 162): _("162 (no bonus unless capot was bid)"),
    ("marque", "faits_et_contrat"): _("its points + the bid (points made and the contract)"),
    ("marque", "contrat_seul"): _("the bid only"),
    ("marque", "faits_seuls"): _("the points made only, no bid added anywhere"),
    ("coinche_marque", "forfait"): _("the lump sum (160 + bid) × 2 or × 4, the defence nothing"),
    ("coinche_marque", "points_faits"): _("the taker's points + the bid, × 2 or × 4, the defence its points"),
    ("chute", 160): _("160 + the bid"),
    ("chute", 162): _("162 + the bid"),
    ("belote_counts", "yes"): _("counts toward making it"),
    ("belote_counts", "no"): _("scored by its holders only"),
    ("capot_failed", 410): _("160 + 250"),
    ("capot_failed", 500): _("500"),
    ("defence_capot", 160): _("the chute + the bid"),
    ("defence_capot", 250): _("250 + the bid"),
    ("belote_multiplied", "no"): _("added after the multiplier"),
    ("belote_multiplied", "yes"): _("multiplied with the rest"),
    ("max_bid", 160): _("160"),
    ("max_bid", 180): _("180"),
    ("max_bid", "none"): _("no maximum"),
    ("sans_atout_tout_atout", "off"): _("not played (suits only)"),
    ("sans_atout_tout_atout", "on"): _("played (card values rescaled to 162)"),
    ("belote_when_dedans", "keep"): _("stays with the team that held it"),
    ("belote_when_dedans", "defence"): _("goes to the defence"),
    ("announcement_tie", "nobody"): _("nobody scores"),
    ("announcement_tie", "first_in_play"): _("the first to announce scores"),
    ("announcements", "on"): _("played"),
    ("announcements", "off"): _("not played"),
    ("rounding", "none"): _("none"),
    ("rounding", "nearest_ten"): _("to the nearest ten, 5 up"),
    ("split_rounding", "down"): _("half each, rounded down"),
    ("split_rounding", "half_points"): _("half each, half points kept"),
    ("half_points", "to_winner"): _("to the side that wins the donne"),
    ("half_points", "exact"): _("kept as halves"),
    ("primes", "multiplied"): _("both multiplied (the rule text)"),
    ("primes", "fft"): _("poignée added after the multiplier (FFT)"),
}


Preference = Tournament.TablePreference
# The games whose rounds seat tables of several sizes, and the seating each takes unless
# the director chooses the other (docs/rules.md, "Tarot à 4 and tarot à 5").
USUAL_TABLE_PREFERENCE: dict[str, str] = {
    "tarot_a_quatre": Preference.FOUR_FIRST,
    "tarot_a_cinq": Preference.FIVE_FIRST,
}
# Each seating's table sizes, the first preferred first (the engine's `table_sizes`).
PREFERENCE_SIZES: dict[str, tuple[int, ...]] = {Preference.FOUR_FIRST: (4, 5), Preference.FIVE_FIRST: (5, 4)}
# A table of 3 plays tarot à 3 (scoring.partie): the last resort, when the director allows it.
LAST_RESORT_SIZE = 3


# The game a tarot tournament's table plays by its seat count (scoring.partie reads it):
# tarot is played at three, four and five, and a table of five at a tarot à 4 tournament
# plays tarot à 4 with a mort when the tournament's `table_de_cinq` says so.
TAROT_BY_SEATS: dict[int, str] = {3: "tarot_a_trois", 4: "tarot_a_quatre", 5: "tarot_a_cinq"}
MORT_TABLE_GAME = "tarot_a_quatre_mort"
TABLE_DE_CINQ = "table_de_cinq"


def table_game_code(game_code: str, seats: int, table_de_cinq: str) -> str:
    """The engine game (or table game) a table of `seats` competitors plays."""
    if game_code not in TAROT_BY_SEATS.values():
        return game_code
    if seats == 5 and has_table_de_cinq(game_code) and table_de_cinq == Tournament.TableDeCinq.MORT:
        return MORT_TABLE_GAME
    return TAROT_BY_SEATS.get(seats, game_code)


def has_table_de_cinq(game_code: str) -> bool:
    """Does the game let the tournament say what a table of five plays (tarot à 4)?"""
    return game_code in engine.GAMES and TABLE_DE_CINQ in engine.get_game(game_code).setting_names


def table_donnes(tournament: Tournament, seats: int) -> int | None:
    """The donnes a partie lasts at a table of `seats` (None: to a target score): the
    tournament's, or more where a mort sits out each donne (engine.match.end_at_table)."""
    if tournament.end_rule != Tournament.EndRule.DONNES:
        return None
    game = engine.get_game(table_game_code(tournament.game, seats, tournament.table_de_cinq))
    return end_at_table(game, End(donnes=tournament.end_value)).donnes


def table_de_cinq_label(tournament: Tournament) -> str:
    """What a table of five plays, as the dashboard and the rules sheet state it ("" when
    the game does not ask)."""
    if not has_table_de_cinq(tournament.game):
        return ""
    return str(dict(Tournament.TableDeCinq.choices).get(tournament.table_de_cinq, tournament.table_de_cinq))


@dataclass(frozen=True, slots=True)
class OptionField:
    """One rule option as a form shows it: its name, label, choices with labels, default."""

    name: str
    label: str
    choices: tuple[tuple[Any, str], ...]
    default: Any


def game_codes() -> list[str]:
    return list(engine.GAMES)


def formats_for(game_code: str) -> tuple[str, ...]:
    """The tournament formats a game can be played in: teams or mêlée at four, individual at three."""
    game = engine.get_game(game_code)
    if game.players_per_table == 4 and len(game.sides) == 2:
        return ("teams", "melee")
    return ("individual",)


def has_table_choice(game_code: str) -> bool:
    """Does the game seat tables of several sizes, the director choosing which first?"""
    return game_code in USUAL_TABLE_PREFERENCE


def usual_table_preference(game_code: str) -> str:
    """The game's own seating ("" for a game at one table size)."""
    return USUAL_TABLE_PREFERENCE.get(game_code, "")


def table_sizes(game_code: str, preference: str, allow_three: bool) -> tuple[int, ...]:
    """The table sizes a round of the game may seat, the first preferred first; empty for a
    game at one table size. An empty `preference` is the game's own."""
    if not has_table_choice(game_code):
        return ()
    sizes = PREFERENCE_SIZES.get(preference) or PREFERENCE_SIZES[usual_table_preference(game_code)]
    return (*sizes, LAST_RESORT_SIZE) if allow_three else sizes


def seating_label(tournament: Tournament) -> str:
    """The tournament's seating as the dashboard states it ("" for a game at one table size)."""
    if not has_table_choice(tournament.game):
        return ""
    preference = tournament.table_preference or usual_table_preference(tournament.game)
    label = str(dict(Preference.choices).get(preference, preference))
    if tournament.allow_tables_of_three:
        return _("%(seating)s; a table of 3 as a last resort") % {"seating": label}
    return label


def default_end_value(game_code: str, end_rule: str) -> int | None:
    """The engine's default end of a partie of the game: its donnes, or its target (None: none)."""
    game = engine.get_game(game_code)
    if end_rule == "donnes":
        return default_end(game).donnes
    return default_target(game)


def end_value_help() -> str:
    """What an empty end value means, from the engine's defaults."""
    targets = [
        _("%(game)s: %(target)s") % {"game": label, "target": target}
        for code, label in Tournament.Game.choices
        if code in engine.GAMES and (target := default_target(engine.get_game(code))) is not None
    ]
    return _("Empty: %(donnes)s donnes, or the game's usual target (%(targets)s).") % {
        "donnes": DEFAULT_DONNES,
        "targets": "; ".join(targets),
    }


def criterion_label(key: str) -> str:
    return str(CRITERION_LABELS.get(key, key))


def criteria_label(criteria: Sequence[str]) -> str:
    return ", ".join(criterion_label(key) for key in criteria)


def option_fields(game_code: str) -> list[OptionField]:
    """The game's rule options, each with its choices (the default first) in the reader's language."""
    fields = []
    for spec in engine.get_game(game_code).option_specs:
        choices = tuple((value, str(CHOICE_LABELS.get((spec.name, value), value))) for value in spec.choices)
        label = str(OPTION_LABELS.get(spec.name, spec.description or spec.name))
        fields.append(OptionField(spec.name, label, choices, spec.default))
    return fields


def option_summary(game_code: str, options: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, chosen value's label) for each option of the game, the defaults filled in."""
    game = engine.get_game(game_code)
    try:
        resolved = game.resolve_options(options)
    except engine.OptionError:
        # Stored options are checked on the way in; an engine that later drops a value
        # must not break the dashboard: show the defaults rather than fail.
        resolved = game.resolve_options({})
    return [
        (field.label, dict(field.choices).get(resolved[field.name], str(resolved[field.name])))
        for field in option_fields(game_code)
    ]


# -- presets ------------------------------------------------------------------------------

SETTING_LABELS: dict[str, Promise] = {TABLE_DE_CINQ: _("A table of five plays")}


@dataclass(frozen=True, slots=True)
class PresetView:
    """A preset of the engine as a form and a rules sheet show it, in the reader's language:
    its name, what it is for, and what it sets apart from the game's defaults."""

    code: str
    name: str
    description: str
    options: dict[str, Any]
    settings: dict[str, Any]
    changes: tuple[tuple[str, str], ...]


def setting_label(name: str) -> str:
    return str(SETTING_LABELS.get(name, name))


def setting_choice_label(name: str, value: Any) -> str:
    if name == TABLE_DE_CINQ:
        return str(dict(Tournament.TableDeCinq.choices).get(value, value))
    return str(value)


def _preset_view(game_code: str, preset: Preset) -> PresetView:
    game = engine.get_game(game_code)
    defaults, fields = game.resolve_options({}), {f.name: f for f in option_fields(game_code)}
    changes = [
        (fields[name].label, dict(fields[name].choices).get(value, str(value)))
        for name, value in preset.options.items()
        if value != defaults[name]
    ]
    default_settings = game.resolve_settings({})
    changes += [
        (setting_label(name), setting_choice_label(name, value))
        for name, value in preset.settings.items()
        if value != default_settings[name]
    ]
    return PresetView(
        preset.code,
        str(_(preset.name)),
        str(_(preset.description)),
        dict(preset.options),
        dict(preset.settings),
        tuple(changes),
    )


def presets_for(game_code: str) -> list[PresetView]:
    """The game's presets, the defaults first, each with what it changes."""
    return [_preset_view(game_code, preset) for preset in engine.get_game(game_code).presets]


def tournament_settings(tournament: Tournament) -> dict[str, Any]:
    """The tournament's values of its game's settings (tarot à 4: `table_de_cinq`)."""
    names = engine.get_game(tournament.game).setting_names
    return {name: getattr(tournament, name) for name in sorted(names)}


@dataclass(frozen=True, slots=True)
class PresetState:
    """Which preset a tournament's rules are: `preset` (the nearest when `modified`), None
    for a game without presets."""

    preset: PresetView | None
    modified: bool

    @property
    def label(self) -> str:
        if self.preset is None:
            return ""
        if self.modified:
            return _("%(preset)s (modified)") % {"preset": self.preset.name}
        return self.preset.name


def preset_state(game_code: str, options: dict[str, Any], settings: dict[str, Any]) -> PresetState:
    """The preset these options and settings are, or the one they differ least from."""
    game = engine.get_game(game_code)
    try:
        nearest, apart = game.nearest_preset(options, settings)
    except engine.OptionError:
        # Stored options the engine no longer allows (see option_summary): no preset fits.
        nearest, apart = game.presets[0] if game.presets else None, 1
    if nearest is None:
        return PresetState(None, False)
    return PresetState(_preset_view(game_code, nearest), apart > 0)


def tournament_preset(tournament: Tournament) -> PresetState:
    return preset_state(tournament.game, tournament.rule_options or {}, tournament_settings(tournament))
