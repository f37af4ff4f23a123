"""Reading a results file and checking it, each problem with its place (a JSON pointer).

In this order, each step only when the one before passed (its problems would be noise
after a failure): the text is JSON (else the line and column); it says it is a results
file of a version this Atout reads (`/format`, `/version`); it follows the JSON Schema
(`results/schema/atout-results-1.json`), every breach with its pointer; then what a
schema cannot say: each competitor once (its number, and its players: the same player
in two competitors is the same competitor entered twice), each seat's competitor known
and seated once a round, each table playing the game its seat count plays, and every
table's donnes scored again by the engine with the file's rules: a donne the engine
refuses, a score, a total or a winner it does not give is refused where it stands
(`/tables/12/hands/3/scores`). Ranks and points are checked after the import ranked the
tournament again (results/importing.py), with the same pointers.

Pointers follow RFC 6901 (`~1` for a `/` in a key); messages are in the reader's
language (French first), through gettext.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import jsonschema
from django.utils.translation import gettext as _

import engine
from engine import match
from engine.core import Game, Number, OptionError
from engine.match import End, MatchResult, end_at_table
from results.building import FORMAT, SCHEMA_FILE, VERSION
from scoring.messages import rule_error_text
from tournaments import games
from tournaments.csv_import import licence_key, person_words
from tournaments.services import tournament_settings_errors

MAX_BYTES = 20_000_000
# Past this many, the list stops: a file that wrong is better fixed from its first ones.
MAX_PROBLEMS = 200


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason to refuse a file, and where it is (`pointer`, "" for the file itself)."""

    pointer: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"pointer": self.pointer, "message": self.message}


class ResultsRefused(Exception):
    """The file is refused; `problems` says every reason found, each with its place."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = list(problems)[:MAX_PROBLEMS]


@dataclass(slots=True)
class Checked:
    """A file that passed every check this module makes, with its tables scored again."""

    data: dict[str, Any]
    digest: str  # of the file's content, to tell a file already imported
    options: dict[str, Any]  # the tournament's options, every one resolved
    parties: dict[int, MatchResult] = field(default_factory=dict)  # by table index


def pointer(*parts: object) -> str:
    """The JSON pointer of `parts` (RFC 6901)."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def _numbers(values: Iterable[Number]) -> str:
    return ", ".join(f"{value:g}" if isinstance(value, float) else str(value) for value in values)


def same_number(a: Any, b: Any) -> bool:
    return isinstance(a, int | float) and isinstance(b, int | float) and float(a) == float(b)


# -- the text, the format and the version ---------------------------------------------


def parse(raw: bytes | str) -> Any:
    """The JSON value of the file; `ResultsRefused` when it is too big, not UTF-8 or not JSON."""
    if len(raw) > MAX_BYTES:
        raise ResultsRefused([Problem("", _("The file is larger than %(mb)d MB.") % {"mb": MAX_BYTES // 1_000_000})])
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ResultsRefused([Problem("", _("The file is not UTF-8 text."))]) from None
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        message = _("The file is not valid JSON: line %(line)d, column %(column)d.")
        raise ResultsRefused([Problem("", message % {"line": error.lineno, "column": error.colno})]) from None
    except RecursionError:
        raise ResultsRefused([Problem("", _("The file is not valid JSON: nested too deep."))]) from None


def _format_problems(data: Any) -> list[Problem]:
    if not isinstance(data, dict):
        return [Problem("", _("A results file is one JSON object."))]
    if data.get("format") != FORMAT:
        return [
            Problem(
                "/format", _("This is not an Atout results file (“format” must be “%(format)s”).") % {"format": FORMAT}
            )
        ]
    version = data.get("version")
    if version != VERSION:
        message = _("Version %(version)s of the results file is not one this Atout reads: it reads version %(known)d.")
        return [Problem("/version", message % {"version": json.dumps(version)[:20], "known": VERSION})]
    return []


MAX_DEPTH = 32


def _text_problems(data: Any) -> list[Problem]:
    """A NUL character anywhere (no text holds one, and PostgreSQL refuses it in JSON), or a
    value nested deeper than any file of the format: refused before anything reads them."""
    pending: list[tuple[Any, tuple[object, ...]]] = [(data, ())]
    while pending:
        value, place = pending.pop()
        if len(place) > MAX_DEPTH:
            return [Problem(pointer(*place), _("The value is nested too deep."))]
        if isinstance(value, str) and "\x00" in value:
            return [Problem(pointer(*place), _("The text holds a NUL character."))]
        if isinstance(value, dict):
            for key, item in value.items():
                if "\x00" in key:
                    return [Problem(pointer(*place), _("The text holds a NUL character."))]
                pending.append((item, (*place, key)))
        elif isinstance(value, list):
            pending.extend((item, (*place, index)) for index, item in enumerate(value))
    return []


# -- the schema ---------------------------------------------------------------------------


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of version 1, as shipped (results/schema/) and served (results/urls.py)."""
    loaded: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return loaded


@cache
def _validator() -> jsonschema.protocols.Validator:
    cls = jsonschema.Draft202012Validator
    return cls(schema(), format_checker=cls.FORMAT_CHECKER)


def _schema_message(error: jsonschema.ValidationError) -> str:
    kind, expected = error.validator, error.validator_value
    if kind == "type":
        names = expected if isinstance(expected, list) else [expected]
        return _("Wrong type: expected %(types)s.") % {"types": ", ".join(str(name) for name in names)}
    if kind in ("enum", "const"):
        values = expected if kind == "enum" else [expected]
        return _("Unexpected value: expected one of %(values)s.") % {
            "values": ", ".join(json.dumps(value, ensure_ascii=False) for value in values)
        }
    if kind in ("minimum", "maximum"):
        template = _("The value is below %(limit)s.") if kind == "minimum" else _("The value is above %(limit)s.")
        return template % {"limit": expected}
    if kind in ("minLength", "maxLength"):
        if kind == "minLength":
            return _("The text is empty.") if expected == 1 else _("The text is too short.")
        return _("The text is longer than %(limit)d characters.") % {"limit": expected}
    if kind in ("minItems", "maxItems", "maxProperties"):
        return _("Too few or too many entries (limit %(limit)d).") % {"limit": expected}
    if kind in ("pattern", "format"):
        return _("The value is not in the expected form.")
    if kind == "oneOf":
        return _("The value matches none of the allowed forms.")
    return _("The value breaks the rule “%(rule)s” of the schema.") % {"rule": kind}


def _schema_problems(data: Any) -> list[Problem]:
    problems: list[Problem] = []
    for error in sorted(_validator().iter_errors(data), key=lambda error: list(map(str, error.absolute_path))):
        place = list(error.absolute_path)
        instance = error.instance
        if error.validator == "required" and isinstance(instance, dict):
            for name in error.validator_value:
                if name not in instance:
                    problems.append(Problem(pointer(*place, name), _("This field is missing.")))
        elif error.validator == "additionalProperties" and isinstance(instance, dict):
            known = set((error.schema or {}).get("properties", {}))
            for name in sorted(set(instance) - known):
                problems.append(Problem(pointer(*place, name), _("This field is not part of the format.")))
        else:
            problems.append(Problem(pointer(*place), _schema_message(error)))
        if len(problems) >= MAX_PROBLEMS:
            break
    return problems


# -- what the schema cannot say -------------------------------------------------------------


def _player_key(player: dict[str, Any]) -> tuple[Any, ...]:
    """A person, as the player imports tell them apart: the licence, else the name and club."""
    if player.get("licence"):
        return ("licence", licence_key(player["licence"]))
    return ("name", person_words(player["last_name"], player.get("first_name", "")), player.get("club", ""))


def _competitor_problems(data: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    numbers: dict[int, int] = {}
    people: dict[tuple[Any, ...], str] = {}
    for i, competitor in enumerate(data["competitors"]):
        earlier = numbers.setdefault(competitor["number"], i)
        if earlier != i:
            message = _("Competitor number %(number)d is already at %(place)s.")
            problems.append(
                Problem(
                    pointer("competitors", i, "number"),
                    message % {"number": competitor["number"], "place": pointer("competitors", earlier)},
                )
            )
        for j, player in enumerate(competitor["players"]):
            place = pointer("competitors", i, "players", j)
            seen = people.setdefault(_player_key(player), place)
            if seen != place:
                problems.append(Problem(place, _("This player is already at %(place)s.") % {"place": seen}))
    return problems


def _round_problems(data: dict[str, Any], known: set[int]) -> list[Problem]:
    problems: list[Problem] = []
    seen: set[int] = set()
    for i, rnd in enumerate(data["rounds"]):
        if rnd["number"] in seen:
            problems.append(Problem(pointer("rounds", i, "number"), _("This round is already in the file.")))
        seen.add(rnd["number"])
        for j, bye in enumerate(rnd.get("byes", [])):
            if bye["competitor"] not in known:
                problems.append(
                    Problem(pointer("rounds", i, "byes", j, "competitor"), _("No competitor has this number."))
                )
    return problems


def _seat_problems(data: dict[str, Any], known: set[int]) -> list[Problem]:
    problems: list[Problem] = []
    rounds = {rnd["number"] for rnd in data["rounds"]}
    tables: dict[tuple[int, int], int] = {}
    seated: dict[tuple[int, int], str] = {}
    for i, table in enumerate(data["tables"]):
        key = (table["round"], table["number"])
        if table["round"] not in rounds:
            problems.append(Problem(pointer("tables", i, "round"), _("This round is not in the file’s rounds.")))
        if tables.setdefault(key, i) != i:
            message = _("Table %(table)d of round %(round)d is already at %(place)s.")
            problems.append(
                Problem(
                    pointer("tables", i, "number"),
                    message % {"table": key[1], "round": key[0], "place": pointer("tables", tables[key])},
                )
            )
        positions = [seat.get("position") for seat in table["seats"] if seat.get("position")]
        if len(set(positions)) != len(positions):
            problems.append(Problem(pointer("tables", i, "seats"), _("Two seats of this table have one position.")))
        for j, seat in enumerate(table["seats"]):
            place = pointer("tables", i, "seats", j, "competitor")
            if seat["competitor"] not in known:
                problems.append(Problem(place, _("No competitor has this number.")))
                continue
            earlier = seated.setdefault((table["round"], seat["competitor"]), place)
            if earlier != place:
                problems.append(
                    Problem(place, _("This competitor is already seated at %(place)s.") % {"place": earlier})
                )
    return problems


# The tournament's settings as the site's own check names them, and where they are in the file.
SETTING_PLACES = {
    "name": "/tournament/name", "date": "/tournament/date", "game": "/tournament/game",
    "format": "/tournament/format", "rule_options": "/tournament/options", "criteria": "/tournament/criteria",
    "bye_policy": "/tournament/bye_policy", "bye_points": "/tournament/bye_points",
    "late_policy": "/tournament/late_policy", "end_rule": "/tournament/end", "end_value": "/tournament/end",
    "table_de_cinq": "/tournament/table_de_cinq",
}  # fmt: skip


def tournament_values(data: dict[str, Any]) -> dict[str, Any]:
    """The file's tournament as the settings of a tournament of this site."""
    rules = data["tournament"]
    end = rules["end"]
    try:
        date: datetime.date | None = datetime.date.fromisoformat(rules["date"])
    except ValueError:
        date = None
    return {
        "name": rules["name"], "date": date, "game": rules["game"], "format": rules["format"],
        # The file's rounds, whatever was planned: a concours may stop early.
        "rounds_planned": max(1, len(data["rounds"]), rules.get("rounds_planned") or 0),
        "end_rule": "donnes" if "donnes" in end else "target", "end_value": end.get("donnes", end.get("target")),
        "table_de_cinq": rules.get("table_de_cinq") or "mort", "rule_options": rules["options"],
        "criteria": rules["criteria"], "match_points": rules["match_points"], "bye_policy": rules["bye_policy"],
        "bye_points": rules["bye_points"], "late_policy": rules["late_policy"], "is_public": rules["public"],
        "pairing_method": "random",
    }  # fmt: skip


def _settings_problems(data: dict[str, Any]) -> list[Problem]:
    """What the site's own check of a tournament's settings refuses (the tournament form's)."""
    errors = tournament_settings_errors(tournament_values(data))
    return [
        Problem(SETTING_PLACES.get(name, "/tournament"), message)
        for name, messages in errors.items()
        for message in messages
    ]


def _options(data: dict[str, Any]) -> tuple[dict[str, Any] | None, list[Problem]]:
    rules = data["tournament"]
    try:
        return engine.get_game(rules["game"]).resolve_options(rules["options"]), []
    except OptionError as error:
        message = _("The engine refuses these rule options: %(error)s") % {"error": error}
        return None, [Problem("/tournament/options", message)]


def _end(rules: dict[str, Any]) -> End:
    return End(donnes=rules["end"]["donnes"]) if "donnes" in rules["end"] else End(target=rules["end"]["target"])


def _engine_place(i: int, error_field: str) -> str:
    """Where an engine error of table `i`'s partie is in the file: `hands.3.points.A` is
    the input of the table's fourth listed donne, field points.A."""
    parts = error_field.split(".") if error_field else []
    if len(parts) >= 2 and parts[0] == "hands" and parts[1].isdigit():
        return pointer("tables", i, "hands", int(parts[1]), "input", *parts[2:])
    if parts and parts[0] == "end":
        return "/tournament/end"
    return pointer("tables", i, "hands")


def _score_problems(i: int, table: dict[str, Any], played: MatchResult, game: Game) -> list[Problem]:
    problems: list[Problem] = []
    for k, (hand, score) in enumerate(zip(table["hands"], played.scores, strict=False)):
        stated = hand["scores"]
        if len(stated) != len(score.scores) or not all(map(same_number, stated, score.scores)):
            message = _("The engine scores this donne %(engine)s, not %(file)s.")
            problems.append(
                Problem(
                    pointer("tables", i, "hands", k, "scores"),
                    message % {"engine": _numbers(score.scores), "file": _numbers(stated)},
                )
            )
    result = table["result"]
    if result is None or problems:
        return problems
    if len(result["totals"]) != len(played.totals) or not all(map(same_number, result["totals"], played.totals)):
        message = _("The donnes make the totals %(engine)s, not %(file)s.")
        problems.append(
            Problem(
                pointer("tables", i, "result", "totals"),
                message % {"engine": _numbers(played.totals), "file": _numbers(result["totals"])},
            )
        )
    elif not result.get("forced"):
        winner = None if played.winner is None else game.sides.index(played.winner)
        if result["winner"] != winner or result["finished"] != played.finished:
            problems.append(
                Problem(pointer("tables", i, "result", "winner"), _("The donnes do not give this winner or this end."))
            )
    return problems


def _table_problems(data: dict[str, Any], options: dict[str, Any], checked: Checked) -> list[Problem]:
    rules = data["tournament"]
    problems: list[Problem] = []
    for i, table in enumerate(data["tables"]):
        code = games.table_game_code(rules["game"], len(table["seats"]), rules.get("table_de_cinq", ""))
        if table["game"] != code:
            message = _("A table of %(seats)d at this tournament plays %(game)s.")
            problems.append(
                Problem(pointer("tables", i, "game"), message % {"seats": len(table["seats"]), "game": code})
            )
            continue
        game = engine.get_game(code)
        sides = len(game.sides)
        for j, seat in enumerate(table["seats"]):
            if seat["side"] >= sides:
                problems.append(Problem(pointer("tables", i, "seats", j, "side"), _("The game has no such side.")))
        if {seat["side"] for seat in table["seats"]} != set(range(sides)):
            problems.append(Problem(pointer("tables", i, "seats"), _("Every side of the game needs a seat.")))
            continue
        numbers = [hand["number"] for hand in table["hands"]]
        for k in range(1, len(numbers)):
            if numbers[k] <= numbers[k - 1]:
                problems.append(Problem(pointer("tables", i, "hands", k, "number"), _("The donnes are not in order.")))
        played = match.play(game, [hand["input"] for hand in table["hands"]], end_at_table(game, _end(rules)), options)
        if played.errors:
            problems.extend(Problem(_engine_place(i, error.field), rule_error_text(error)) for error in played.errors)
            continue
        problems.extend(_score_problems(i, table, played, game))
        checked.parties[i] = played
        if len(problems) >= MAX_PROBLEMS:
            break
    return problems


def digest(data: Any) -> str:
    """A digest of the file's content, its time of export aside (the same results exported
    twice are the same file)."""
    content = {key: value for key, value in data.items() if key != "exported_at"}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def check_file(raw: bytes | str) -> Checked:
    """The file read and checked (module docstring); `ResultsRefused` with every problem found."""
    data = parse(raw)
    problems = _format_problems(data) or _text_problems(data) or _schema_problems(data)
    if problems:
        raise ResultsRefused(problems)
    known = {competitor["number"] for competitor in data["competitors"]}
    problems = _competitor_problems(data) + _round_problems(data, known) + _seat_problems(data, known)
    options, option_problems = _options(data)
    problems += option_problems or _settings_problems(data)
    if problems or options is None:
        raise ResultsRefused(problems)
    checked = Checked(data=data, digest=digest(data), options=options)
    problems = _table_problems(data, options, checked)
    if problems:
        raise ResultsRefused(problems)
    return checked
