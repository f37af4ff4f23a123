"""Importing a results file into a season: the club's own copy of another club's tournament.

A league (or a federation) is a club of the site whose season counts tournaments played
elsewhere. An accepted file (results/checking.py) becomes a tournament of the league's
club, as the season app counts tournaments (`Season.tournaments`, the club's own), finished,
played again from the file's donnes: its competitors, rounds, tables and seats, every
donne stored with the engine's score (entered via "import"), each table's result from
them, and the ranking built by the site's own standings. The file's ranks and points must
be what that ranking gives, else the file is refused with their places and nothing stays.

Players are the league's records, matched as the club's CSV import matches them
(tournaments/csv_import.py): by licence, else by name and club played for; a player
erased here stays erased (tournaments.services.ErasedPlayers); anyone else is created,
with the club they play for (`affiliation`) from the file.

Idempotent by the file's `id` (the tournament's identity across Atouts): the same club
importing the same tournament again updates its copy (rewritten whole from the newer
file) or, when the file did not change, leaves it as it is; never a second copy. A file
of one of the club's own tournaments adds that tournament itself to the season.
One transaction: a refused file leaves nothing behind.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, Literal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from results.checking import Checked, Problem, ResultsRefused, check_file, pointer, same_number, tournament_values
from results.models import ResultsImport
from scoring import live_draw
from scoring.models import Hand
from scoring.partie import scored_fields, table_result_restore, table_result_write
from scoring.standings import standings_rebuild
from seasons import ranking
from seasons.models import Season
from tournaments.access import require_organiser
from tournaments.csv_import import affiliation_for, licence_key, person_words
from tournaments.models import Bye, Club, Competitor, Player, Round, Seat, Table, Tournament
from tournaments.services import ErasedPlayers

SLUG_LENGTH = 80

Done = Literal["created", "updated", "unchanged", "own"]


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    """What an import did: `created` a copy, `updated` it from a newer file, found it
    `unchanged`, or found the club's `own` tournament; either way it is in the season."""

    tournament: Tournament
    done: Done


def unique_slug(wanted: str) -> str:
    base = slugify(wanted)[: SLUG_LENGTH - 6].strip("-") or "concours"
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def _settings(data: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The copy's settings: the file's (checked as the tournament form checks them), finished."""
    values = tournament_values(data)
    return {
        **{name: value for name, value in values.items() if name != "pairing_method"},
        "rule_options": options,
        "confirmation_required": False,
        "status": Tournament.Status.FINISHED,
    }


class _Players:
    """The league's record of each person of the file (module docstring), one per person."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.erased = ErasedPlayers(club)
        self.made: dict[tuple[Any, ...], Player] = {}
        # The club's live players, read once: a league holds thousands.
        self.by_licence: dict[str, Player] = {}
        self.by_name: dict[tuple[Any, ...], Player] = {}
        for player in Player.objects.filter(club=club, anonymised_at__isnull=True).order_by("-pk"):
            # Lowest id last, so it wins when two records share a key.
            if player.licence:
                self.by_licence[licence_key(player.licence)] = player
            else:
                self.by_name[(person_words(player.last_name, player.first_name), player.affiliation)] = player

    def get(self, fields: dict[str, Any]) -> Player:
        last, first, licence = fields["last_name"], fields.get("first_name", ""), fields.get("licence", "")
        affiliation = affiliation_for(fields.get("club", ""), self.club.name, self.club.slug)
        key = ("licence", licence_key(licence)) if licence else ("name", person_words(last, first), affiliation)
        if key not in self.made:
            found = self.erased.find(last_name=last, first_name=first, licence=licence, email="")
            if found is None:
                found = (
                    self.by_licence.get(licence_key(licence))
                    if licence
                    else self.by_name.get((person_words(last, first), affiliation))
                )
            self.made[key] = found or Player.objects.create(
                club=self.club, last_name=last, first_name=first, licence=licence, affiliation=affiliation
            )
        return self.made[key]


def _clear(tournament: Tournament, data: dict[str, Any]) -> None:
    """Everything played of a copy, before a newer file is written over it; the
    competitors the file names again stay (rewritten by `_write`), so that what points
    at them (a ranking's rows) still does."""
    Round.objects.filter(tournament=tournament).delete()
    kept = [entry["number"] for entry in data["competitors"]]
    Competitor.objects.filter(tournament=tournament).exclude(number__in=kept).delete()
    # Its rounds are written anew: a public copy's draws' files follow once committed.
    live_draw.publish_draw_on_commit(tournament.pk)


def _write(tournament: Tournament, checked: Checked) -> dict[int, Competitor]:
    data = checked.data
    players = _Players(tournament.club)
    competitors: dict[int, Competitor] = {}
    for entry in data["competitors"]:
        withdrawn = entry.get("withdrawn_after_round")
        competitor, _made = Competitor.objects.update_or_create(
            tournament=tournament,
            number=entry["number"],
            defaults={
                "name": entry["name"],
                "affiliation": entry.get("club", ""),
                "joined_round": entry.get("joined_round", 1),
                "withdrawn_after_round": withdrawn,
                "status": Competitor.Status.WITHDRAWN if withdrawn is not None else Competitor.Status.CHECKED_IN,
            },
        )
        competitor.players.set([players.get(player) for player in entry["players"]])
        competitors[entry["number"]] = competitor
    now = timezone.now()
    rounds: dict[int, Round] = {}
    for entry in data["rounds"]:
        rnd = Round.objects.create(
            tournament=tournament, number=entry["number"], method=Round.Method.RANDOM, seed=0,
            status=Round.Status.CLOSED, closed_at=now,
        )  # fmt: skip
        rounds[entry["number"]] = rnd
        Bye.objects.bulk_create(
            Bye(round=rnd, competitor=competitors[bye["competitor"]], reason=bye.get("reason", "draw"))
            for bye in entry.get("byes", [])
        )
    for i, entry in enumerate(data["tables"]):
        _write_table(rounds[entry["round"]], entry, competitors, checked, i)
    return competitors


def _write_table(
    rnd: Round, entry: dict[str, Any], competitors: dict[int, Competitor], checked: Checked, i: int
) -> None:
    table = Table.objects.create(round=rnd, number=entry["number"])
    Seat.objects.bulk_create(
        Seat(
            round=rnd, table=table, competitor=competitors[seat["competitor"]], side=seat["side"],
            position=seat.get("position") or str(j + 1),
        )
        for j, seat in enumerate(entry["seats"])
    )  # fmt: skip
    played = checked.parties.get(i)
    hands = Hand.objects.bulk_create(
        Hand(
            table=table, number=hand["number"], raw=hand["input"], options=checked.options,
            status=Hand.Status.CONFIRMED, entered_via=Hand.Via.IMPORT, **fields,
        )
        for hand, fields in zip(entry["hands"], scored_fields(played) if played else [], strict=True)
    )  # fmt: skip
    result = entry["result"]
    table = Table.objects.select_related("round__tournament").prefetch_related("seats").get(pk=table.pk)
    if result is not None and result.get("forced"):
        fields = {
            "totals": result["totals"], "donnes_played": result.get("donnes", len(hands)), "reserve": 0,
            "finished": True, "winner_side": result["winner"], "forced": True,
        }  # fmt: skip
        table_result_restore(table=table, fields=fields)
    elif result is not None or hands:
        table_result_write(table, hands, played)


def _ranking_problems(
    data: dict[str, Any], tournament: Tournament, competitors: dict[int, Competitor]
) -> list[Problem]:
    """The file's ranks and points against the ranking the site built from its donnes."""
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    rows = {row.get("competitor"): row for row in snapshot.rows}
    problems: list[Problem] = []
    for i, entry in enumerate(data["competitors"]):
        row = rows.get(competitors[entry["number"]].pk) or {}
        if entry["rank"] != row.get("rank"):
            message = _("The donnes rank this competitor %(engine)s, not %(file)s.")
            problems.append(
                Problem(pointer("competitors", i, "rank"), message % {"engine": row.get("rank"), "file": entry["rank"]})
            )
        if not same_number(entry["points"], row.get("points", 0)):
            message = _("The donnes give this competitor %(engine)s points, not %(file)s.")
            problems.append(
                Problem(
                    pointer("competitors", i, "points"),
                    message % {"engine": row.get("points"), "file": entry["points"]},
                )
            )
    return problems


@transaction.atomic
def results_import(*, by: User, season: Season, raw: bytes | str) -> ImportOutcome:
    """Take a results file into `season` (module docstring); `ResultsRefused` says why not."""
    require_organiser(by, season.club)
    checked = check_file(raw)
    data = checked.data
    # One import at a time into a club: two uploads of one file cannot both make a copy.
    club = Club.objects.select_for_update().get(pk=season.club_id)
    source_id = uuid.UUID(data["id"])
    own = Tournament.objects.filter(archive_identity__archive_id=source_id, club=club).first()
    if own is not None:
        season.tournaments.add(own)
        return ImportOutcome(own, "own")
    record = ResultsImport.objects.filter(club=club, source_id=source_id).select_related("tournament").first()
    if record is not None and record.digest == checked.digest:
        season.tournaments.add(record.tournament)
        return ImportOutcome(record.tournament, "unchanged")
    settings = _settings(data, checked.options)
    if record is None:
        tournament = Tournament.objects.create(
            club=club, slug=unique_slug(data["tournament"]["slug"]), created_by=by, **settings
        )
    else:
        tournament = record.tournament
        _clear(tournament, data)
        Tournament.objects.filter(pk=tournament.pk).update(**settings)
        tournament.refresh_from_db()
    competitors = _write(tournament, checked)
    problems = _ranking_problems(data, tournament, competitors)
    if problems:
        raise ResultsRefused(problems)
    ResultsImport.objects.update_or_create(
        club=club,
        source_id=source_id,
        defaults={
            "tournament": tournament, "source_club": data["club"]["name"], "digest": checked.digest,
            "imported_by": by,
        },
    )  # fmt: skip
    season.tournaments.add(tournament)
    ranking.season_rebuild_launch(season=season, by=by, rescore=False)
    return ImportOutcome(tournament, "created" if record is None else "updated")


@transaction.atomic
def results_restore(*, tournament: Tournament, raw: bytes | str) -> Tournament:
    """Write a results file over the club's own `tournament` of the same identity.

    For the club's hosted site, which takes its venue's night (relay/): the tournament
    becomes the file's, as a league's copy is rewritten from a newer file (its slug and
    identity kept). Its ranks and points are checked as an import checks them; its
    ranking stays the versions the venue sent.
    `ResultsRefused` when the file does not check or is another tournament's.
    """
    checked = check_file(raw)
    data = checked.data
    identity = getattr(tournament, "archive_identity", None)
    if identity is None or str(identity.archive_id) != data["id"]:
        raise ResultsRefused([Problem(pointer("id"), _("This file is another tournament's."))])
    _clear(tournament, data)
    settings = _settings(data, checked.options)
    Tournament.objects.filter(pk=tournament.pk).update(**settings)
    tournament.refresh_from_db()
    competitors = _write(tournament, checked)
    # Checked against the ranking the donnes give, which is not kept: the versions the
    # venue relayed are the tournament's (a rebuild here would add one and prune them).
    with transaction.atomic():
        problems = _ranking_problems(data, tournament, competitors)
        transaction.set_rollback(True)
    if problems:
        raise ResultsRefused(problems)
    return tournament
