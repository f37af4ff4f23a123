"""Importing an archive: nothing lost, nothing doubled, all or nothing.

Each row is matched to what the database already holds by a natural key, never by id:
- a club by its slug (else by its name, which is unique too), created if missing;
- a player by (club, licence) when the archive gives a licence, else by (club, last
  name, first name), ignoring case; a matched player only gains the details it lacked;
- the tournament by the archive id recorded at its first import (or export). An import
  never changes the address (slug) of a tournament already here. Without `slug`, the
  tournament found is updated, or else created at the archive's address (a different
  tournament already there is a clear error). With `slug`, the archive becomes a new
  tournament at that address, always: a new copy beside the one it came from when that
  one is here (the copy then gets an archive id of its own); an address already taken is
  refused before anything is written;
- a competitor by number, a round by number, a table by (round, number), a hand by
  (table, donne number), a revision by (table, donne, action, time), a bye by
  (round, competitor), a forbidden pair by its two competitors, a lot (prize) by its
  first rank (a lot here that would share a rank with the archive's is an error).

Rows found are brought up to the archive's state, with one exception: a hand already
here with a higher version (corrected here after an earlier import) is kept as it is.
A row whose data already is the archive's is not written at all (its times included).
Nothing the archive lacks is deleted, except the seating of a round, which is the
archive's as a whole (seats carry no data of their own).

The report counts, kind by kind, what was created, updated and found already here as the
archive has it (read, not written): nothing is counted as written that was not. Two
writes go uncounted: the time of this import, kept with the archive id, and the table
results, written from the archive every time.

A table keeps its referee token, so the links and QR codes printed for the room still
work, unless another table here already uses it: then it gets a new one (counted in the
report). Everything runs in one transaction: on any error, nothing is written.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, models, transaction
from django.db.models.functions import Lower
from django.utils import timezone

from archive.fields import ArchiveError
from archive.models import ArchiveIdentity
from archive.reading import Archive, RoundPlan, TablePlan, read_archive
from scoring.models import Hand, HandRevision
from scoring.partie import table_result_restore
from scoring.standings import standings_schedule_refresh
from tournaments.models import (
    Bye,
    Club,
    Competitor,
    ForbiddenPair,
    Player,
    Prize,
    Round,
    Seat,
    Table,
    Tournament,
    new_table_token,
)

# Fields Django sets itself on save (auto_now, auto_now_add): written back after the
# rows exist, so that an imported hand keeps the time it was really entered.
_AUTO_TIME_FIELDS = ("created_at", "updated_at", "drawn_at", "at")


# The report's lines, kind by kind: the kind, its outcomes (every one shown, a 0 included),
# then extras shown only when they happened. The first kinds are in every archive and
# always listed; the others only when the archive holds some.
_REPORT_KINDS: tuple[tuple[str, tuple[str, ...], tuple[str, ...], bool], ...] = (
    ("competitors", ("created", "updated", "unchanged"), (), True),
    ("rounds", ("created", "updated", "unchanged"), ("seated",), True),
    ("tables", ("created", "updated", "unchanged"), ("tokens replaced",), True),
    ("hands", ("created", "updated", "unchanged"), ("kept (newer here)",), True),
    ("revisions", ("created", "unchanged"), (), True),
    ("clubs", ("created", "unchanged"), (), False),
    ("players", ("created", "completed", "unchanged"), (), False),
    ("forbidden pairs", ("created", "updated", "unchanged"), (), False),
    ("prizes", ("created", "updated", "unchanged"), (), False),
    ("table results", ("created",), (), False),
)
# Counted under another name than "<kind> <outcome>" (kept: callers read them).
_COUNT_NAMES = {("tables", "tokens replaced"): "table tokens replaced"}


@dataclass
class ImportReport:
    """What an import did, for the command's output and the tests."""

    tournament: Tournament
    created: bool
    # What was written, as "<kind> <outcome>": "hands created", "rounds seated"...
    counts: Counter[str] = field(default_factory=Counter)
    # What the archive holds that was already here as it has it, by kind: read, not written.
    unchanged: Counter[str] = field(default_factory=Counter)
    # The tournament already here that the archive came from, when `slug` made a new copy of it.
    copy_of: Tournament | None = None

    def count(self, kind: str, outcome: str) -> int:
        if outcome == "unchanged":
            return self.unchanged[kind]
        return self.counts[_COUNT_NAMES.get((kind, outcome), f"{kind} {outcome}")]

    @property
    def wrote(self) -> bool:
        """Was anything created or changed (the import's own time and table results aside)?"""
        return self.created or any(self.counts.values())

    def headline(self) -> str:
        slug = self.tournament.slug
        if self.copy_of is not None:
            return (
                f"Tournament {slug} created, a new copy: {self.copy_of.slug}, the tournament "
                "this archive came from, is left as it was."
            )
        if self.created:
            return f"Tournament {slug} created."
        if self.counts["tournament settings updated"]:
            return f"Tournament {slug} updated, its settings included."
        if self.wrote:
            return f"Tournament {slug} updated, its settings unchanged."
        return f"Tournament {slug} unchanged: nothing written, the archive holds nothing new."

    def kind_lines(self) -> list[str]:
        """One line per kind: "hands: 2 created, 1 updated, 40 unchanged"."""
        lines = []
        for kind, outcomes, extras, always in _REPORT_KINDS:
            figures = {outcome: self.count(kind, outcome) for outcome in (*outcomes, *extras)}
            if not always and not any(figures.values()):
                continue
            shown = [f"{count} {outcome}" for outcome, count in figures.items() if outcome in outcomes or count]
            lines.append(f"{kind}: {', '.join(shown)}")
        return lines

    def lines(self) -> list[str]:
        """The command's output: the headline, then the figures kind by kind."""
        return [self.headline(), *self.kind_lines()]


def _auto_times(fields: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in fields.items() if name in _AUTO_TIME_FIELDS}


def _restore_times(model: type[models.Model], rows: Iterable[tuple[models.Model, dict[str, Any]]]) -> None:
    """Write the archive's timestamps over those Django set when the rows were saved."""
    changed = []
    names: set[str] = set()
    for obj, fields in rows:
        times = _auto_times(fields)
        for name, value in times.items():
            setattr(obj, name, value)
        names.update(times)
        if times:
            changed.append(obj)
    if changed:
        # bulk_update writes the attributes as they are: auto_now does not run again.
        model._default_manager.bulk_update(changed, sorted(names), batch_size=500)


def _differs(obj: models.Model, fields: dict[str, Any]) -> bool:
    """Does `obj` hold other data than `fields`? Times alone do not count."""
    return any(getattr(obj, name) != value for name, value in fields.items() if name not in _AUTO_TIME_FIELDS)


class _Importer:
    def __init__(self, archive: Archive, slug: str | None) -> None:
        self.archive = archive
        self.slug = slug
        self.counts: Counter[str] = Counter()
        self.unchanged: Counter[str] = Counter()
        self.clubs: dict[str, Club] = {}
        self.players: dict[int, Player] = {}
        self.competitors: dict[int, Competitor] = {}

    # -- clubs, players, the tournament -------------------------------------------------

    def import_clubs(self) -> None:
        for slug, fields in self.archive.clubs.items():
            club = Club.objects.filter(slug=slug).first() or Club.objects.filter(name=fields["name"]).first()
            if club is None:
                club = Club.objects.create(**fields)
                _restore_times(Club, [(club, fields)])
                self.counts["clubs created"] += 1
            else:
                self.unchanged["clubs"] += 1
            self.clubs[slug] = club

    def _find_player(self, club: Club, fields: dict[str, Any]) -> Player | None:
        players = Player.objects.filter(club=club)
        if fields.get("licence"):
            return players.filter(licence=fields["licence"]).order_by("pk").first()
        return (
            players.annotate(last=Lower("last_name"), first=Lower("first_name"))
            .filter(last=fields["last_name"].lower(), first=fields["first_name"].lower())
            .order_by("pk")
            .first()
        )

    def import_players(self) -> None:
        for ref, (club_slug, fields) in self.archive.players.items():
            club = self.clubs[club_slug]
            player = self._find_player(club, fields)
            if player is None:
                player = Player.objects.create(club=club, **fields)
                _restore_times(Player, [(player, fields)])
                self.counts["players created"] += 1
            else:
                # Fill in what this Atout lacks; never blank out or overwrite what it knows.
                missing = {
                    name: value
                    for name, value in fields.items()
                    if name not in _AUTO_TIME_FIELDS and value not in ("", None) and getattr(player, name) in ("", None)
                }
                if missing:
                    Player.objects.filter(pk=player.pk).update(**missing)
                    self.counts["players completed"] += 1
                else:
                    self.unchanged["players"] += 1
            self.players[ref] = player

    def _identity(self) -> ArchiveIdentity | None:
        """The tournament already here that this archive came from (or was imported into)."""
        return ArchiveIdentity.objects.select_related("tournament").filter(archive_id=self.archive.archive_id).first()

    def check_address(self) -> None:
        """Refuse, before anything is written, an address that cannot be the tournament's.

        With `slug`, a new tournament is made at that address: it must be a valid one,
        and free. Without, the tournament found by its archive id keeps its own address;
        a new one takes the archive's, which no other tournament here may hold.
        """
        identity = self._identity()
        if self.slug is not None:
            try:
                validate_slug(self.slug)
            except ValidationError:
                raise ArchiveError(
                    f"--slug {self.slug!r} is not an address: letters, digits, hyphens and underscores only"
                ) from None
            max_length = Tournament._meta.get_field("slug").max_length or 0
            if len(self.slug) > max_length:
                raise ArchiveError(f"--slug {self.slug!r} is too long: {max_length} characters at most")
            holder = Tournament.objects.filter(slug=self.slug).first()
            if holder is None:
                return
            if identity is not None and identity.tournament_id == holder.pk:
                raise ArchiveError(
                    f"the address {self.slug!r} is already this archive's tournament here: import without "
                    "--slug to update it, or give --slug a free address for a new copy"
                )
            raise ArchiveError(
                f"the address {self.slug!r} is already taken here by the tournament {holder.name!r}: "
                "--slug makes a new copy and never replaces a tournament; choose a free address"
            )
        if identity is None and Tournament.objects.filter(slug=self.archive.tournament["slug"]).exists():
            raise ArchiveError(
                f"another tournament here already uses the address {self.archive.tournament['slug']!r}: "
                "import this one under another address (--slug)"
            )

    def import_tournament(self) -> tuple[Tournament, bool, Tournament | None]:
        """The tournament to import into, whether it was created, and what it is a copy of."""
        fields = dict(self.archive.tournament)
        club = self.clubs[self.archive.tournament_club]
        identity = self._identity()
        if self.slug is not None or identity is None:
            # A new tournament. Its archive id is the archive's, unless the tournament that
            # holds that id is here: the copy is then a tournament of its own, with its own id.
            copy_of = identity.tournament if identity is not None else None
            fields["slug"] = self.slug or fields["slug"]
            tournament = Tournament.objects.create(club=club, **fields)
            ArchiveIdentity.objects.create(
                tournament=tournament,
                archive_id=uuid.uuid4() if copy_of is not None else self.archive.archive_id,
                last_imported_at=timezone.now(),
            )
            _restore_times(Tournament, [(tournament, fields)])
            return tournament, True, copy_of
        tournament = identity.tournament
        ArchiveIdentity.objects.filter(pk=identity.pk).update(last_imported_at=timezone.now())
        # Its address here stays: links, QR codes and posters printed for it point there.
        fields["slug"] = tournament.slug
        if _differs(tournament, fields) or tournament.club_id != club.pk:
            for name, value in fields.items():
                setattr(tournament, name, value)
            tournament.club = club
            tournament.save()
            _restore_times(Tournament, [(tournament, fields)])
            self.counts["tournament settings updated"] += 1
        return tournament, False, None

    # -- competitors and forbidden pairs ----------------------------------------------

    def import_competitors(self, tournament: Tournament) -> None:
        existing = {c.number: c for c in Competitor.objects.filter(tournament=tournament)}
        for number, plan in self.archive.competitors.items():
            club = self.clubs[plan.club] if plan.club else None
            competitor = existing.get(number)
            if competitor is None:
                competitor = Competitor.objects.create(tournament=tournament, club=club, **plan.fields)
                _restore_times(Competitor, [(competitor, plan.fields)])
                self.counts["competitors created"] += 1
                competitor.players.set({self.players[ref].pk for ref in plan.players})
            else:
                update = {k: v for k, v in plan.fields.items() if k not in _AUTO_TIME_FIELDS}
                wanted = {self.players[ref].pk for ref in plan.players}
                members = set(competitor.players.values_list("pk", flat=True)) != wanted
                if _differs(competitor, update) or competitor.club_id != (club.pk if club else None) or members:
                    Competitor.objects.filter(pk=competitor.pk).update(club=club, **update)
                    if members:
                        competitor.players.set(wanted)
                    self.counts["competitors updated"] += 1
                else:
                    self.unchanged["competitors"] += 1
            self.competitors[number] = competitor

    def import_forbidden_pairs(self, tournament: Tournament) -> None:
        for first, second, fields in self.archive.forbidden_pairs:
            pair = {"tournament": tournament, "first": self.competitors[first], "second": self.competitors[second]}
            here = ForbiddenPair.objects.filter(**pair).first()
            if here is None:
                ForbiddenPair.objects.create(**pair, **fields)
                self.counts["forbidden pairs created"] += 1
            elif _differs(here, fields):
                ForbiddenPair.objects.filter(pk=here.pk).update(**fields)
                self.counts["forbidden pairs updated"] += 1
            else:
                self.unchanged["forbidden pairs"] += 1

    def import_prizes(self, tournament: Tournament) -> None:
        existing = {prize.rank_from: prize for prize in Prize.objects.filter(tournament=tournament)}
        incoming = {fields["rank_from"] for fields in self.archive.prizes}
        for i, fields in enumerate(self.archive.prizes):
            for other in existing.values():
                overlaps = other.rank_from <= fields["rank_to"] and fields["rank_from"] <= other.rank_to
                if overlaps and other.rank_from not in incoming:
                    raise ArchiveError(
                        f"prizes[{i}]: ranks {fields['rank_from']} to {fields['rank_to']} overlap the lot of "
                        f"ranks {other.rank_from} to {other.rank_to} already here"
                    )
            here = existing.get(fields["rank_from"])
            if here is None:
                Prize.objects.create(tournament=tournament, **fields)
                self.counts["prizes created"] += 1
            elif _differs(here, fields):
                Prize.objects.filter(pk=here.pk).update(**fields)
                self.counts["prizes updated"] += 1
            else:
                self.unchanged["prizes"] += 1

    # -- rounds, tables, seats, byes --------------------------------------------------

    def import_round(self, tournament: Tournament, plan: RoundPlan) -> None:
        fields = dict(plan.fields)
        for name, pairs in plan.pairs.items():
            fields[name] = [sorted((self.competitors[a].pk, self.competitors[b].pk)) for a, b in pairs]
        rnd = Round.objects.filter(tournament=tournament, number=fields["number"]).first()
        if rnd is None:
            rnd = Round.objects.create(tournament=tournament, **fields)
            _restore_times(Round, [(rnd, fields)])
            self.counts["rounds created"] += 1
        elif _differs(rnd, fields):
            # The archive's times too (update() leaves auto_now alone).
            Round.objects.filter(pk=rnd.pk).update(**fields)
            self.counts["rounds updated"] += 1
        else:
            self.unchanged["rounds"] += 1
        tables = {table.number: table for table in Table.objects.filter(round=rnd)}
        for table_plan in plan.tables:
            tables[table_plan.fields["number"]] = self.import_table(
                rnd, tables.get(table_plan.fields["number"]), table_plan
            )
        self.import_seating(rnd, plan, tables)

    def _free_token(self, token: str, table: Table | None) -> bool:
        others = Table.objects.filter(token=token)
        if table is not None:
            others = others.exclude(pk=table.pk)
        return not others.exists()

    def import_table(self, rnd: Round, table: Table | None, plan: TablePlan) -> Table:
        fields = dict(plan.fields)
        token = fields.get("token")
        if token is None:
            # An archive without tokens: keep this table's, or make a fresh one.
            fields["token"] = table.token if table is not None else new_table_token()
        elif not self._free_token(token, table):
            # Another table here holds this token: the referee gets a new link for this one.
            fields["token"] = table.token if table is not None else new_table_token()
            self.counts["table tokens replaced"] += 1
        if table is None:
            table = Table.objects.create(round=rnd, **fields)
            self.counts["tables created"] += 1
        elif _differs(table, fields):
            Table.objects.filter(pk=table.pk).update(**fields)
            self.counts["tables updated"] += 1
        else:
            self.unchanged["tables"] += 1
        hands = self.import_hands(table, plan.hands)
        self.import_revisions(table, plan.revisions, hands)
        if plan.result is not None:
            self.counts["table results created"] += table_result_restore(table=table, fields=plan.result)
        return table

    def import_seating(self, rnd: Round, plan: RoundPlan, tables: dict[int, Table]) -> None:
        wanted_seats = {
            (tables[t.fields["number"]].pk, self.competitors[number].pk, seat["side"], seat["position"])
            for t in plan.tables
            for number, seat in t.seats
        }
        current = set(Seat.objects.filter(round=rnd).values_list("table_id", "competitor_id", "side", "position"))
        wanted_byes = {(self.competitors[number].pk, bye["reason"]) for number, bye in plan.byes}
        current_byes = set(Bye.objects.filter(round=rnd).values_list("competitor_id", "reason"))
        if current != wanted_seats:
            Seat.objects.filter(round=rnd).delete()
            Seat.objects.bulk_create(
                Seat(round=rnd, table_id=t, competitor_id=c, side=side, position=position)
                for t, c, side, position in wanted_seats
            )
        if current_byes != wanted_byes:
            Bye.objects.filter(round=rnd).delete()
            Bye.objects.bulk_create(Bye(round=rnd, competitor_id=c, reason=reason) for c, reason in wanted_byes)
        if current != wanted_seats or current_byes != wanted_byes:
            self.counts["rounds seated"] += 1

    # -- hands and their revisions ----------------------------------------------------

    def import_hands(self, table: Table, plans: list[dict[str, Any]]) -> dict[int, Hand]:
        hands = {hand.number: hand for hand in Hand.objects.filter(table=table)}
        new: list[tuple[Hand, dict[str, Any]]] = []
        for fields in plans:
            hand = hands.get(fields["number"])
            if hand is None:
                hand = Hand(table=table, **fields)
                new.append((hand, fields))
                hands[fields["number"]] = hand
            elif fields.get("version", 1) < hand.version:
                self.counts["hands kept (newer here)"] += 1
            elif _differs(hand, fields):
                # The archive's times too (update() leaves auto_now alone).
                Hand.objects.filter(pk=hand.pk).update(**fields)
                self.counts["hands updated"] += 1
            else:
                self.unchanged["hands"] += 1
        Hand.objects.bulk_create([hand for hand, _ in new], batch_size=500)
        _restore_times(Hand, new)
        self.counts["hands created"] += len(new)
        return hands

    def import_revisions(self, table: Table, plans: list[tuple[bool, dict[str, Any]]], hands: dict[int, Hand]) -> None:
        def key(number: int, action: str, at: datetime) -> tuple[int, str, datetime]:
            return (number, action, at)

        # Counted, not just compared: two revisions may share a key (a bulk re-scoring
        # stamps a batch with one time); the archive's count of each is what must exist.
        here = Counter(
            key(*row) for row in HandRevision.objects.filter(table=table).values_list("number", "action", "at")
        )
        new: list[tuple[HandRevision, dict[str, Any]]] = []
        for linked, fields in plans:
            k = key(fields["number"], fields["action"], fields["at"])
            if here[k] > 0:
                here[k] -= 1
                self.unchanged["revisions"] += 1
                continue
            hand = hands.get(fields["number"]) if linked else None
            new.append((HandRevision(table=table, hand=hand, **fields), fields))
        HandRevision.objects.bulk_create([revision for revision, _ in new], batch_size=500)
        _restore_times(HandRevision, new)
        self.counts["revisions created"] += len(new)

    def run(self) -> ImportReport:
        self.check_address()
        self.import_clubs()
        self.import_players()
        tournament, created, copy_of = self.import_tournament()
        self.import_competitors(tournament)
        self.import_forbidden_pairs(tournament)
        self.import_prizes(tournament)
        for plan in self.archive.rounds:
            self.import_round(tournament, plan)
        tournament.refresh_from_db()
        return ImportReport(tournament, created, self.counts, self.unchanged, copy_of)


def archive_import(*, text: str | bytes, slug: str | None = None) -> ImportReport:
    """Import the archive in `text` (see the module docstring); ArchiveError if it cannot be.

    `slug`: import it as a new tournament at that address, which must be free; without
    it, the archive's tournament is updated where it is here, or created at its own
    address. The archive is read and checked in full first; the writes then run in one
    transaction, so a failure at any point leaves the database as it was.
    """
    archive = read_archive(text)
    try:
        with transaction.atomic():
            report = _Importer(archive, slug).run()
            if archive.rounds:
                # Standings snapshots are not archived: they are rebuilt from the imported
                # results, once these are committed (by a worker when there is one).
                transaction.on_commit(partial(standings_schedule_refresh, tournament_id=report.tournament.pk))
            return report
    except IntegrityError as exc:
        raise ArchiveError(f"the archive conflicts with data already here: {exc}") from None
