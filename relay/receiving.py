"""The hosted side of the relay: an item from the club's venue taken into its tournament.

An item (relay/sending.py's envelope) names the club, the tournament (its identity
across Atouts and its settings, the results file's `tournament`), its kind and key, and
its data. It is taken into the club's own tournament of that identity, made on first
sight from the settings (checked as the tournament form checks them):

- a ranking version becomes the `StandingsSnapshot` of the same version, its rows
  pointing at the competitors here (matched by number);
- the draw becomes the competitors, rounds, tables, seats, byes and table results;
- the results file becomes the whole tournament (results.importing.results_restore).

Idempotent by (tournament, kind, key) (`RelayReceipt`): an item already taken is
acknowledged and ignored. Everything is checked before anything is written: a refusal is
`RelayRefused`, with the place of the problem, and leaves nothing.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from typing import Any, Literal

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from archive.models import ArchiveIdentity
from engine.standings.criteria import allowed_criteria
from relay.models import Kind, RelayReceipt
from results.checking import ResultsRefused, tournament_values
from results.importing import results_restore, unique_slug
from scoring import live_draw
from scoring.models import StandingsSnapshot, TableResult
from scoring.standings.snapshots import announce
from tournaments.access import require_organiser
from tournaments.models import Bye, Club, Competitor, Round, Seat, Table, Tournament
from tournaments.services.tournament import tournament_settings_errors

# Bounds on what an item may hold (a night of 3,000 teams fits well within them).
MAX_COMPETITORS = 5000
MAX_ROUNDS = 60
MAX_TABLES = 3000
MAX_SIDES = 5
MAX_SEATS = 5
MAX_INT = 2**31 - 1
NAME_LENGTH = 200
ROW_KEY = re.compile(r"^[a-z_]{1,40}$")
RELAYED_STATUSES = (Tournament.Status.RUNNING, Tournament.Status.FINISHED)

Done = Literal["taken", "already"]


class RelayRefused(Exception):
    """The item is refused: `field` says where, `status` how the API answers (400, 409)."""

    def __init__(self, field: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.status = status


@dataclass(frozen=True, slots=True)
class Taken:
    tournament: Tournament
    done: Done


def _int(value: Any, field: str, low: int = 0, high: int = MAX_INT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RelayRefused(
            field, _("A whole number between %(low)s and %(high)s is expected.") % {"low": low, "high": high}
        )
    return int(value)


def _number(value: Any, field: str) -> int | float:
    if isinstance(value, bool) or not isinstance(value, int | float) or abs(value) > 1e12 or value != value:
        raise RelayRefused(field, _("A number is expected."))
    return int(value) if isinstance(value, int) else float(value)


def _text(value: Any, field: str, length: int = NAME_LENGTH) -> str:
    if not isinstance(value, str) or len(value) > length or "\x00" in value:
        raise RelayRefused(field, _("A text of at most %(length)s characters is expected.") % {"length": length})
    return value


def _dict(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RelayRefused(field, _("An object is expected."))
    return value


def _list(value: Any, field: str, most: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > most:
        raise RelayRefused(field, _("A list of at most %(most)s items is expected.") % {"most": most})
    return value


def _envelope(item: Any) -> dict[str, Any]:
    data = item
    data = _dict(data, "")
    if data.get("format") != "atout-relay" or data.get("version") != 1:
        raise RelayRefused("format", _("This is not an item of the relay, version 1."))
    if data.get("kind") not in Kind.values:
        raise RelayRefused("kind", _("Unknown kind of item."))
    _int(data.get("key"), "key")
    _text(data.get("club"), "club", 100)
    _dict(data.get("data"), "data")
    header = _dict(data.get("tournament"), "tournament")
    try:
        uuid.UUID(str(header.get("id")))
    except ValueError:
        raise RelayRefused("tournament.id", _("The tournament's identity is not a UUID.")) from None
    if header.get("status") not in RELAYED_STATUSES:
        raise RelayRefused("tournament.status", _("Only a running or finished tournament is relayed."))
    return data


def _settings(header: dict[str, Any]) -> dict[str, Any]:
    """The tournament's settings from the item, checked as the tournament form checks them."""
    try:
        values = tournament_values({"tournament": header, "rounds": []})
    except (KeyError, TypeError, AttributeError):
        raise RelayRefused("tournament", _("The tournament's settings are incomplete.")) from None
    _text(values["name"], "tournament.name")
    errors = tournament_settings_errors(values)
    if errors:
        name, messages = next(iter(errors.items()))
        raise RelayRefused(f"tournament.{name}", str(messages[0]))
    values.pop("pairing_method", None)
    return {**values, "status": header["status"]}


def _tournament(club: Club, header: dict[str, Any], by: User) -> Tournament:
    """The club's tournament of this identity, made on first sight."""
    identity = ArchiveIdentity.objects.filter(archive_id=uuid.UUID(str(header["id"]))).select_related("tournament")
    found = identity.first()
    if found is not None:
        if found.tournament.club_id != club.pk:
            raise RelayRefused("tournament.id", _("This tournament is another club's."), status=409)
        return found.tournament
    settings = _settings(header)
    slug = unique_slug(_text(header.get("slug") or "concours", "tournament.slug", 80))
    tournament = Tournament.objects.create(club=club, slug=slug, created_by=by, **settings)
    ArchiveIdentity.objects.create(tournament=tournament, archive_id=uuid.UUID(str(header["id"])))
    return tournament


def _competitors_by_number(tournament: Tournament) -> dict[int, Competitor]:
    return {competitor.number: competitor for competitor in Competitor.objects.filter(tournament=tournament)}


PARTIE_KEYS = {"round": int, "table": int, "donnes": int, "finished": bool}


def _row(row: Any, place: str) -> dict[str, Any]:
    """A ranking row as the pages read it (scoring.rows.SnapshotRow): known keys, right types."""
    row = _dict(row, place)
    kept: dict[str, Any] = {}
    for key, value in row.items():
        field = f"{place}.{key}"
        if key in ("competitor", "rounds"):
            continue  # the competitor's id is this site's (set by the caller); old histories go
        if key == "name":
            kept[key] = _text(value, field)
        elif key in ("number", "played", "byes", "absences"):
            kept[key] = _int(value, field)
        elif key == "rank":
            kept[key] = None if value is None else _int(value, field)
        elif key == "withdrawn":
            kept[key] = bool(value)
        elif key == "values":
            kept[key] = [None if v is None else _number(v, field) for v in _list(value, field, 20)]
        elif key == "current_partie":
            if value is None:
                kept[key] = None
                continue
            partie = _dict(value, field)
            kept[key] = {name: (bool(partie.get(name)) if kind is bool else _int(partie.get(name), f"{field}.{name}"))
                         for name, kind in PARTIE_KEYS.items()}  # fmt: skip
        elif ROW_KEY.match(key):
            kept[key] = None if value is None else _number(value, field)
    if "number" not in kept or "name" not in kept:
        raise RelayRefused(place, _("A ranking row needs a number and a name."))
    return kept


def _ranking(tournament: Tournament, key: int, data: dict[str, Any]) -> None:
    if _int(data.get("version"), "data.version", 1) != key:
        raise RelayRefused("data.version", _("The version is not the item's key."))
    after = data.get("after_round")
    after = None if after is None else _int(after, "data.after_round", 1, MAX_ROUNDS)
    criteria = [_text(c, "data.criteria", 40) for c in _list(data.get("criteria", []), "data.criteria", 20)]
    allowed = set(allowed_criteria(tournament.game))
    if any(criterion not in allowed for criterion in criteria):
        raise RelayRefused("data.criteria", _("Unknown ranking criterion."))
    rows = [_row(row, f"data.rows.{i}") for i, row in enumerate(_list(data.get("rows"), "data.rows", MAX_COMPETITORS))]
    competitors = _competitors_by_number(tournament)
    for row in rows:
        competitor = competitors.get(row["number"])
        if competitor is None:
            # A version written before the draw that names it reached here: the draw completes it.
            competitor = Competitor.objects.create(tournament=tournament, number=row["number"], name=row["name"])
            competitors[row["number"]] = competitor
        row["competitor"] = competitor.pk
    if StandingsSnapshot.objects.filter(tournament=tournament, version=key).exists():
        return  # this site's own rebuild wrote that version (after a results file): it stays
    StandingsSnapshot.objects.create(
        tournament=tournament, version=key, after_round=after, rows=rows, criteria=criteria
    )
    newest = (
        StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").values_list("version", flat=True)
    )
    if newest.first() == key:
        announce(tournament, key)


def _checked_draw(data: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    competitors = []
    for i, entry in enumerate(_list(data.get("competitors"), "data.competitors", MAX_COMPETITORS)):
        place = f"data.competitors.{i}"
        entry = _dict(entry, place)
        status = entry.get("status")
        if status not in Competitor.Status.values:
            raise RelayRefused(f"{place}.status", _("Unknown status."))
        withdrawn = entry.get("withdrawn_after_round")
        competitors.append(
            {
                "number": _int(entry.get("number"), f"{place}.number", 1),
                "name": _text(entry.get("name"), f"{place}.name"),
                "affiliation": _text(entry.get("club", ""), f"{place}.club"),
                "status": status,
                "joined_round": _int(entry.get("joined_round", 1), f"{place}.joined_round", 1, MAX_ROUNDS),
                "withdrawn_after_round": None if withdrawn is None else _int(withdrawn, f"{place}.withdrawn", 0),
            }
        )
    numbers = {entry["number"] for entry in competitors}
    if len(numbers) != len(competitors):
        raise RelayRefused("data.competitors", _("Two competitors have the same number."))
    rounds = []
    for i, entry in enumerate(_list(data.get("rounds"), "data.rounds", MAX_ROUNDS)):
        place = f"data.rounds.{i}"
        entry = _dict(entry, place)
        if entry.get("status") not in Round.Status.values or entry.get("method") not in Round.Method.values:
            raise RelayRefused(place, _("Unknown round status or method."))
        tables = [
            _table(t, f"{place}.tables.{j}", numbers)
            for j, t in enumerate(_list(entry.get("tables"), f"{place}.tables", MAX_TABLES))
        ]
        byes = []
        for j, bye in enumerate(_list(entry.get("byes", []), f"{place}.byes", MAX_COMPETITORS)):
            bye = _dict(bye, f"{place}.byes.{j}")
            byes.append({"competitor": _member(bye.get("competitor"), f"{place}.byes.{j}", numbers),
                         "reason": _text(bye.get("reason", "draw"), f"{place}.byes.{j}.reason", 16)})  # fmt: skip
        rounds.append({"number": _int(entry.get("number"), f"{place}.number", 1, MAX_ROUNDS),
                       "status": entry["status"], "method": entry["method"],
                       "seed": _int(entry.get("seed", 0), f"{place}.seed", -(2**63), 2**63 - 1),
                       "tables": tables, "byes": byes})  # fmt: skip
    if len({r["number"] for r in rounds}) != len(rounds):
        raise RelayRefused("data.rounds", _("Two rounds have the same number."))
    return competitors, rounds


def _member(value: Any, place: str, numbers: set[int]) -> int:
    number = _int(value, f"{place}.competitor", 1)
    if number not in numbers:
        raise RelayRefused(f"{place}.competitor", _("No competitor has this number."))
    return number


def _table(entry: Any, place: str, numbers: set[int]) -> dict[str, Any]:
    entry = _dict(entry, place)
    seats = []
    for k, seat in enumerate(_list(entry.get("seats"), f"{place}.seats", MAX_SIDES * MAX_SEATS)):
        seat = _dict(seat, f"{place}.seats.{k}")
        seats.append({"competitor": _member(seat.get("competitor"), f"{place}.seats.{k}", numbers),
                      "side": _int(seat.get("side"), f"{place}.seats.{k}.side", 0, MAX_SIDES - 1),
                      "position": _text(seat.get("position"), f"{place}.seats.{k}.position", 2)})  # fmt: skip
    result = entry.get("result")
    if result is not None:
        result = _dict(result, f"{place}.result")
        winner = result.get("winner")
        result = {
            "totals": [_number(v, f"{place}.result.totals") for v in _list(result.get("totals"), place, MAX_SIDES)],
            "donnes_played": _int(result.get("donnes", 0), f"{place}.result.donnes", 0, 1000),
            "finished": bool(result.get("finished")), "forced": bool(result.get("forced")),
            "winner_side": None if winner is None else _int(winner, f"{place}.result.winner", 0, MAX_SIDES - 1),
        }  # fmt: skip
    return {"number": _int(entry.get("number"), f"{place}.number", 1), "seats": seats, "result": result}


def _draw(tournament: Tournament, data: dict[str, Any]) -> None:
    competitors, rounds = _checked_draw(data)
    kept_rounds = [entry["number"] for entry in rounds]
    Round.objects.filter(tournament=tournament).exclude(number__in=kept_rounds).delete()
    by_number = _competitors_by_number(tournament)
    for entry in competitors:
        number = entry.pop("number")
        competitor = by_number.get(number)
        if competitor is None:
            by_number[number] = Competitor.objects.create(tournament=tournament, number=number, **entry)
        else:
            Competitor.objects.filter(pk=competitor.pk).update(**entry)
    for entry in rounds:
        _draw_round(tournament, entry, by_number)
    # The competitors the venue no longer has (none is seated any more).
    listed = [entry["number"] for entry in data["competitors"]]
    Competitor.objects.filter(tournament=tournament, seats__isnull=True).exclude(number__in=listed).delete()
    # The public draws' files follow (a round gone, drawn again, a name changed) once committed.
    live_draw.publish_draw_on_commit(tournament.pk)


def _seating(tables: list[dict[str, Any]]) -> list[Any]:
    return sorted(
        (t["number"], sorted((s["competitor"], s["side"], s["position"]) for s in t["seats"])) for t in tables
    )


def _draw_round(tournament: Tournament, entry: dict[str, Any], by_number: dict[int, Competitor]) -> None:
    rnd, _made = Round.objects.update_or_create(
        tournament=tournament, number=entry["number"],
        defaults={"status": entry["status"], "method": entry["method"], "seed": entry["seed"]},
    )  # fmt: skip
    number_of = {competitor.pk: number for number, competitor in by_number.items()}
    stored: dict[int, list[dict[str, Any]]] = {}
    for table_number, competitor_id, side, position in Seat.objects.filter(round=rnd).values_list(
        "table__number", "competitor_id", "side", "position"
    ):
        stored.setdefault(table_number, []).append(
            {"competitor": number_of.get(competitor_id), "side": side, "position": position}
        )
    if _seating([{"number": n, "seats": s} for n, s in stored.items()]) != _seating(entry["tables"]):
        # A new draw of the round (or its first): its tables are the venue's now.
        Table.objects.filter(round=rnd).delete()
        for table in entry["tables"]:
            made = Table.objects.create(round=rnd, number=table["number"])
            Seat.objects.bulk_create(
                Seat(
                    round=rnd, table=made, competitor=by_number[s["competitor"]], side=s["side"], position=s["position"]
                )
                for s in table["seats"]
            )
    Bye.objects.filter(round=rnd).delete()
    Bye.objects.bulk_create(
        Bye(round=rnd, competitor=by_number[b["competitor"]], reason=b["reason"]) for b in entry["byes"]
    )
    tables = dict(Table.objects.filter(round=rnd).values_list("number", "pk"))
    for table in entry["tables"]:
        if table["result"] is None:
            TableResult.objects.filter(table_id=tables[table["number"]]).delete()
        else:
            TableResult.objects.update_or_create(table_id=tables[table["number"]], defaults=table["result"])


def _results(tournament: Tournament, data: dict[str, Any]) -> None:
    try:
        results_restore(tournament=tournament, raw=json.dumps(data))
    except ResultsRefused as refused:
        problem = refused.problems[0]
        raise RelayRefused("data" + problem.pointer.replace("/", "."), problem.message) from None


@transaction.atomic
def relay_receive(*, by: User, item: Any) -> Taken:
    """Take an item from the club's venue (module docstring), as JSON read it (the API's
    parser bounds its depth and refuses a NUL anywhere); `RelayRefused` says why not."""
    data = _envelope(item)
    club = Club.objects.filter(slug=data["club"]).first()
    if club is None:
        raise RelayRefused("club", _("No club has this address here."), status=404)
    require_organiser(by, club)
    # One item of a club at a time: two deliveries of one item cannot both take it.
    club = Club.objects.select_for_update().get(pk=club.pk)
    tournament = _tournament(club, data["tournament"], by)
    kind, key = data["kind"], data["key"]
    if RelayReceipt.objects.filter(tournament=tournament, kind=kind, key=key).exists():
        return Taken(tournament, "already")
    if kind != Kind.RANKING and tournament.status != data["tournament"]["status"]:
        Tournament.objects.filter(pk=tournament.pk).update(status=data["tournament"]["status"])
        tournament.refresh_from_db()
    if kind == Kind.RANKING:
        _ranking(tournament, key, data["data"])
    elif kind == Kind.DRAW:
        _draw(tournament, data["data"])
    else:
        _results(tournament, data["data"])
    try:
        with transaction.atomic():
            RelayReceipt.objects.create(
                tournament=tournament, kind=kind, key=key, digest=_text(data.get("digest", ""), "digest", 80)
            )
    except IntegrityError:
        raise RelayRefused("key", _("This item was taken meanwhile."), status=409) from None
    return Taken(tournament, "taken")
