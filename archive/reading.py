"""Reading an archive: every check made before anything is written.

`read_archive` turns the archive's text into an `Archive`: the file first read as JSON
that can be walked without harm (`parsing`), then every value converted and checked as
the site's forms and models check it (`fields`, `identifiers`), every reference resolved
(a player's ref, a competitor's number, a club's slug), and the checksum matched to the
content. An archive that fails any check raises `ArchiveError`, one line with the path
of the faulty value; the database has not been touched at that point.

A checksum only proves the file is whole, not that it is right: anyone can edit a hand
and compute the checksum again. So every table's hands then go through the engine as
the referees' entries did (`_check_hands`): each entry must be one the engine accepts
in that partie, and each stored score the one the engine gives for it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import models
from django.utils import translation

from archive import identifiers
from archive.exporting import (
    COMPETITOR_LINK_FIELDS,
    COMPETITOR_PAIR_FIELDS,
    FORMAT,
    PLAYER_PRIVATE_FIELDS,
    VERSION,
    checksum,
)
from archive.fields import ArchiveError, json_type, load, shown
from archive.parsing import parse
from engine.core import OptionError, RuleError
from scoring.models import Hand, HandRevision, TableResult
from scoring.partie import SCORE_FIELDS, game_for_seats, partie_play, score_fields, tournament_options
from tournaments import games
from tournaments.models import Bye, Club, Competitor, ForbiddenPair, Player, Prize, Round, Seat, Table, Tournament


@dataclass
class TablePlan:
    fields: dict[str, Any]
    seats: list[tuple[int, dict[str, Any]]]  # (competitor number, seat fields)
    hands: list[dict[str, Any]]
    revisions: list[tuple[bool, dict[str, Any]]]  # (linked to its hand, revision fields)
    result: dict[str, Any] | None


@dataclass
class RoundPlan:
    fields: dict[str, Any]
    pairs: dict[str, list[tuple[int, int]]]  # repeats and conflicts, as competitor numbers
    byes: list[tuple[int, dict[str, Any]]]
    tables: list[TablePlan]


@dataclass
class CompetitorPlan:
    fields: dict[str, Any]
    club: str | None
    players: list[int]


@dataclass
class Archive:
    archive_id: uuid.UUID
    clubs: dict[str, dict[str, Any]]  # slug -> fields
    players: dict[int, tuple[str, dict[str, Any]]]  # ref -> (club slug, fields)
    tournament_club: str
    tournament: dict[str, Any]
    competitors: dict[int, CompetitorPlan]  # number -> plan
    forbidden_pairs: list[tuple[int, int, dict[str, Any]]]
    rounds: list[RoundPlan] = field(default_factory=list)
    # The lots of the final ranking (rank_from, rank_to, text, value); none in an archive
    # made before them.
    prizes: list[dict[str, Any]] = field(default_factory=list)


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise ArchiveError(f"{path}: expected a list, found {json_type(value)}")
    return value


def _object(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ArchiveError(f"{path}: expected an object, found {json_type(value)}")
    return value


def _unique(items: Iterable[Hashable], path: str, what: str, why: str = "") -> None:
    seen: set[Hashable] = set()
    for item in items:
        if item in seen:
            raise ArchiveError(f"{path}: {what} {shown(item)} appears twice{why}")
        seen.add(item)


def _reference(data: dict[str, Any], key: str, known: Callable[[Any], bool], path: str, what: str) -> Any:
    value = data.get(key)
    if not isinstance(value, str | int) or isinstance(value, bool) or not known(value):
        raise ArchiveError(f"{path}.{key}: {shown(value)} is not a {what} of this archive")
    return value


def _envelope(text: str | bytes) -> dict[str, Any]:
    archive = parse(text)
    if archive.get("format") != FORMAT:
        raise ArchiveError(f"not an Atout tournament archive (format {shown(archive.get('format'))})")
    version = archive.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ArchiveError(f"archive version {shown(version)} is not valid")
    if version > VERSION:
        raise ArchiveError(f"archive version {version} was made by a newer Atout (this one reads up to {VERSION})")
    content = _object(archive.get("content"), "content")
    if archive.get("checksum") != checksum(content):
        raise ArchiveError("the archive's checksum does not match its content: the file was altered or damaged")
    return archive


def _players(content: dict[str, Any], clubs: dict[str, Any]) -> dict[int, tuple[str, dict[str, Any]]]:
    players: dict[int, tuple[str, dict[str, Any]]] = {}
    for i, data in enumerate(_list(content.get("players", []), "players")):
        path = f"players[{i}]"
        data = _object(data, path)
        ref = data.get("ref")
        if not isinstance(ref, int) or isinstance(ref, bool) or ref in players:
            raise ArchiveError(f"{path}.ref: {shown(ref)} is not a new whole number")
        club = _reference(data, "club", lambda slug: slug in clubs, path, "club slug")
        # An anonymised player has no first name: the site writes it so (imported erased anyway).
        erased = ("first_name",) if data.get("anonymised_at") is not None else ()
        fields = load(Player, data, path, skip=PLAYER_PRIVATE_FIELDS, references=("ref", "club"), blank_ok=erased)
        players[ref] = (club, fields)
    return players


def _competitors(content: dict[str, Any], clubs: dict[str, Any], players: dict[int, Any]) -> dict[int, CompetitorPlan]:
    competitors: dict[int, CompetitorPlan] = {}
    for i, data in enumerate(_list(content.get("competitors", []), "competitors")):
        path = f"competitors[{i}]"
        fields = load(Competitor, data, path, skip=COMPETITOR_LINK_FIELDS, references=("club", "players"))
        identifiers.from_one(fields, ("number", "joined_round"), path)
        if fields["number"] in competitors:
            raise ArchiveError(f"{path}.number: competitor number {fields['number']} appears twice")
        club = data.get("club")
        if club is not None:
            _reference(data, "club", lambda slug: slug in clubs, path, "club slug")
        refs = _list(data.get("players", []), f"{path}.players")
        for j, ref in enumerate(refs):
            if not isinstance(ref, int) or isinstance(ref, bool) or ref not in players:
                raise ArchiveError(f"{path}.players[{j}]: {shown(ref)} is not a player ref of this archive")
        _unique(refs, f"{path}.players", "player ref")
        competitors[fields["number"]] = CompetitorPlan(fields, club, refs)
    return competitors


def _number(competitors: dict[int, Any]) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, int) and value in competitors


def _table(data: Any, path: str, competitors: dict[int, Any], format: str) -> TablePlan:
    data = _object(data, path)
    fields = load(Table, data, path, references=("seats", "hands", "revisions", "result"))
    identifiers.from_one(fields, ("number",), path)
    identifiers.token(fields.get("token"), path)
    seats = []
    for i, seat in enumerate(_list(data.get("seats", []), f"{path}.seats")):
        seat_path = f"{path}.seats[{i}]"
        number = _reference(_object(seat, seat_path), "competitor", _number(competitors), seat_path, "competitor")
        seat_fields = load(Seat, seat, seat_path, references=("competitor",))
        identifiers.seat(seat_fields, format, seat_path)
        seats.append((number, seat_fields))
    _unique((seat["position"] for _, seat in seats), f"{path}.seats", "position")
    hands = []
    for i, hand in enumerate(_list(data.get("hands", []), f"{path}.hands")):
        hand_fields = load(Hand, hand, f"{path}.hands[{i}]")
        identifiers.shapes(hand_fields, identifiers.HAND_SHAPES, f"{path}.hands[{i}]")
        hands.append(hand_fields)
    _unique((hand["number"] for hand in hands), f"{path}.hands", "donne")
    revisions = []
    for i, revision in enumerate(_list(data.get("revisions", []), f"{path}.revisions")):
        revision_path = f"{path}.revisions[{i}]"
        linked = _object(revision, revision_path).get("hand", False)
        if not isinstance(linked, bool):
            raise ArchiveError(f"{revision_path}.hand: expected true or false")
        revision_fields = load(HandRevision, revision, revision_path, references=("hand",))
        identifiers.shapes(revision_fields, identifiers.REVISION_SHAPES, revision_path)
        revisions.append((linked, revision_fields))
    result = data.get("result")
    result_fields = None if result is None else load(TableResult, result, f"{path}.result")
    if result_fields is not None:
        identifiers.shapes(result_fields, identifiers.RESULT_SHAPES, f"{path}.result")
    return TablePlan(fields, seats, hands, revisions, result_fields)


def _round(data: Any, path: str, competitors: dict[int, Any], format: str) -> RoundPlan:
    data = _object(data, path)
    fields = load(
        Round, data, path, skip=COMPETITOR_PAIR_FIELDS, references=(*COMPETITOR_PAIR_FIELDS, "byes", "tables")
    )
    identifiers.from_one(fields, ("number",), path)
    pairs: dict[str, list[tuple[int, int]]] = {}
    for name in COMPETITOR_PAIR_FIELDS:
        pairs[name] = []
        for i, pair in enumerate(_list(data.get(name, []), f"{path}.{name}")):
            if not (isinstance(pair, list) and len(pair) == 2 and all(_number(competitors)(n) for n in pair)):
                raise ArchiveError(f"{path}.{name}[{i}]: expected a pair of competitor numbers of this archive")
            pairs[name].append((pair[0], pair[1]))
    byes = []
    for i, bye in enumerate(_list(data.get("byes", []), f"{path}.byes")):
        bye_path = f"{path}.byes[{i}]"
        number = _reference(_object(bye, bye_path), "competitor", _number(competitors), bye_path, "competitor")
        bye_fields = load(Bye, bye, bye_path, references=("competitor",))
        identifiers.bye(bye_fields, bye_path)
        byes.append((number, bye_fields))
    tables = [
        _table(table, f"{path}.tables[{i}]", competitors, format)
        for i, table in enumerate(_list(data.get("tables", []), f"{path}.tables"))
    ]
    _unique((table.fields["number"] for table in tables), f"{path}.tables", "table number")
    seated = [number for table in tables for number, _ in table.seats] + [number for number, _ in byes]
    _unique(seated, path, "competitor", " (seated or exempt twice in one round)")
    return RoundPlan(fields, pairs, byes, tables)


def read_archive(text: str | bytes) -> Archive:
    """Parse and check a whole archive; raise ArchiveError on the first problem found.

    Its messages are in English, as the rest of the import's report (the site's checks
    and validators speak the active language otherwise).
    """
    with translation.override("en"):
        return _read(text)


def _read(text: str | bytes) -> Archive:
    envelope = _envelope(text)
    try:
        archive_id = uuid.UUID(str(envelope.get("archive_id")))
    except ValueError:
        raise ArchiveError(f"archive_id: {shown(envelope.get('archive_id'))} is not a UUID") from None
    content = envelope["content"]
    clubs: dict[str, dict[str, Any]] = {}
    for i, data in enumerate(_list(content.get("clubs"), "clubs")):
        fields = load(Club, data, f"clubs[{i}]")
        if fields["slug"] in clubs:
            raise ArchiveError(f"clubs[{i}].slug: club {shown(fields['slug'])} appears twice")
        clubs[fields["slug"]] = fields
    players = _players(content, clubs)
    tournament_data = _object(content.get("tournament"), "tournament")
    tournament_club = _reference(tournament_data, "club", lambda slug: slug in clubs, "tournament", "club slug")
    tournament = load(Tournament, tournament_data, "tournament", references=("club",))
    if not tournament.get("table_preference"):
        # An archive from before the seating setting: the game's own (empty for one size).
        tournament["table_preference"] = games.usual_table_preference(tournament["game"])
    if "table_de_cinq" not in tournament_data:
        # An archive from before the setting: its tables of five played tarot à 5.
        tournament["table_de_cinq"] = Tournament.TableDeCinq.TAROT_A_CINQ
    identifiers.tournament(tournament)
    competitors = _competitors(content, clubs, players)
    forbidden = []
    for i, data in enumerate(_list(content.get("forbidden_pairs", []), "forbidden_pairs")):
        path = f"forbidden_pairs[{i}]"
        first = _reference(_object(data, path), "first", _number(competitors), path, "competitor")
        second = _reference(data, "second", _number(competitors), path, "competitor")
        if first == second:
            raise ArchiveError(f"{path}: competitor {first} kept apart from itself")
        forbidden.append((first, second, load(ForbiddenPair, data, path, references=("first", "second"))))
    prizes = _prizes(content)
    rounds = [
        _round(data, f"rounds[{i}]", competitors, tournament["format"])
        for i, data in enumerate(_list(content.get("rounds", []), "rounds"))
    ]
    _unique((rnd.fields["number"] for rnd in rounds), "rounds", "round number")
    _check_hands(tournament, rounds)
    return Archive(archive_id, clubs, players, tournament_club, tournament, competitors, forbidden, rounds, prizes)


def _prizes(content: dict[str, Any]) -> list[dict[str, Any]]:
    """The lots, each range of ranks in order and no rank in two lots."""
    prizes: list[dict[str, Any]] = []
    for i, data in enumerate(_list(content.get("prizes", []), "prizes")):
        path = f"prizes[{i}]"
        fields = load(Prize, data, path)
        if not 1 <= fields["rank_from"] <= fields["rank_to"]:
            raise ArchiveError(f"{path}: ranks {fields['rank_from']} to {fields['rank_to']} are not in order")
        for other in prizes:
            if other["rank_from"] <= fields["rank_to"] and fields["rank_from"] <= other["rank_to"]:
                raise ArchiveError(f"{path}: ranks {fields['rank_from']} to {fields['rank_to']} overlap another lot")
        prizes.append(fields)
    return prizes


# -- the hands, through the engine ---------------------------------------------------------


def _check_hands(tournament_fields: dict[str, Any], rounds: list[RoundPlan]) -> None:
    """Play every table's partie with its game (the tarot of its seat count at a tarot
    evening), and the tournament's end and rule options.

    Refused, naming the hand's place in the file and giving the engine's message: an
    entry the engine refuses (or one after the partie's end), donnes not numbered 1, 2, 3...,
    a hand scored with rule options other than the tournament's, or a stored score that
    is not the engine's for the entry.
    """
    # Never saved: only its game, end rule and rule options are read.
    tournament = Tournament(**tournament_fields)
    try:
        options = tournament_options(tournament)
    except OptionError as exc:
        raise ArchiveError(f"tournament.rule_options: {exc}") from None
    for i, rnd in enumerate(rounds):
        for j, table in enumerate(rnd.tables):
            where = f"rounds[{i}].tables[{j}]"
            label = f"round {rnd.fields['number']}, table {table.fields['number']}"
            # A tarot à 4 evening's table of 5 plays tarot à 5, or tarot à 4 with a mort
            # (its table_de_cinq): the table's game, by its seats.
            game = game_for_seats(tournament, len(table.seats))
            # (place in the file, hand fields), in donne order.
            hands = sorted(enumerate(table.hands), key=lambda pair: pair[1]["number"])
            for expected, (k, hand) in enumerate(hands, start=1):
                if hand["number"] != expected:
                    raise ArchiveError(
                        f"{where}.hands[{k}].number ({label}): donne {hand['number']} found where donne "
                        f"{expected} should be: a table's donnes are numbered 1, 2, 3... without gaps"
                    )
            result = partie_play(tournament, [hand.get("raw") for _, hand in hands], game)
            if result.errors:
                raise ArchiveError(_engine_refusal(result.errors[0], where, label, [k for k, _ in hands]))
            reserve = 0
            for (k, hand), score in zip(hands, result.scores, strict=True):
                place = f"{where}.hands[{k}]"
                donne = f"{label}, donne {hand['number']}"
                try:
                    scored_with = game.resolve_options(hand.get("options") or {})
                except OptionError as exc:
                    raise ArchiveError(f"{place}.options ({donne}): {exc}") from None
                if scored_with != options:
                    raise ArchiveError(
                        f"{place}.options ({donne}): scored with other rule options than the tournament's; "
                        "re-score the tournament where it was exported, then export it again"
                    )
                engine_fields = score_fields(score, reserve)
                reserve = score.reserve_out
                for name in SCORE_FIELDS:
                    column = Hand._meta.get_field(name)
                    assert isinstance(column, models.Field)  # a column of Hand's own
                    stored = hand.get(name, column.get_default())
                    if stored != engine_fields[name]:
                        raise ArchiveError(
                            f"{place}.{name} ({donne}): the file says {shown(stored)}, "
                            f"the engine gives {shown(engine_fields[name])} for this entry"
                        )


def _engine_refusal(error: RuleError, where: str, label: str, places: list[int]) -> str:
    """The engine's first error in a partie, placed in the file: `hands.2.points.A` -> hands[k].raw.points.A."""
    parts = error.field.split(".")
    if parts[0] != "hands" or len(parts) < 2 or not parts[1].isdigit():
        # Not a hand's error: the partie's end the tournament sets.
        return f"tournament.end_value: {error.message}"
    index = int(parts[1])
    inner = ".".join(parts[2:])
    return (
        f"{where}.hands[{places[index]}].raw{'.' + inner if inner else ''} ({label}, donne {index + 1}): "
        f"{error.message}"
    )
