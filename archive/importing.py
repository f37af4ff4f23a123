"""Importing an archive: nothing lost, nothing doubled, all or nothing, nothing undone.

An archive is a copy of the past: importing one never undoes what this Atout did after
the copy was made. Each row is matched to what the database already holds by a natural
key, never by id:
- a club by its slug (else by its name, which is unique too), created if missing;
- a player as archive/players.py says: a player erased here stays erased (recognised by
  the keyed digests of the identity they had), a known player only gains the details it
  lacked;
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

What is found here is weighed against the archive's (archive/ledger.py): the archive's
version is taken when it is news and the row here unchanged since the two Atouts last
exchanged it; a row changed or deleted here since wins, and the archive's is left out.
A table's donnes are weighed by their revisions first, which order them exactly: when
this Atout holds revisions the archive lacks (a donne deleted or corrected here), the
table's donnes here are kept whole; when the archive holds revisions this one lacks,
and this one none the archive lacks, the archive's donnes are taken whole (a donne
deleted there is deleted here). A tournament exchanged before the ledger existed keeps
the older rule for its first import: rows are brought up to the archive's state, except
a hand already here with a higher version, and nothing the archive lacks is deleted.

A table keeps its referee link here, whatever the archive says: an import never brings
back a link this Atout renewed or revoked (nor takes one from another Atout), and never
lifts a revocation; it revokes a link here only when the archive revokes that very link.
A new table takes the archive's link unless another table here uses it (then a new one,
counted in the report).

The report (archive/report.py) counts, kind by kind, what was created, updated, and found
already here as the archive has it (read, not written), then lists what was left out and
why, with its place in the file. Two writes go uncounted: the time of this import and the
versions seen, kept with the archive id. Everything runs in one transaction: on any
error, nothing is written.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from functools import partial
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, models, transaction
from django.db.models import Q
from django.utils import timezone

from archive import ledger
from archive.exporting import archive_content
from archive.fields import ArchiveError
from archive.ledger import Decision, Ledger, Part, RoundParts, Verdict
from archive.models import ArchiveIdentity
from archive.players import PlayersImport
from archive.reading import Archive, RoundPlan, TablePlan, read_archive
from archive.report import ImportReport, Tally
from scoring import live_draw
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
from tournaments.services.registration import competitor_default_name

__all__ = ["ImportReport", "archive_import"]

# Fields Django sets itself on save (auto_now, auto_now_add): written back after the
# rows exist, so that an imported hand keeps the time it was really entered.
_AUTO_TIME_FIELDS = ("created_at", "updated_at", "drawn_at", "at")
_ACTION_WORDS: dict[str, str] = {
    HandRevision.Action.CREATE: "entered",
    HandRevision.Action.UPDATE: "corrected",
    HandRevision.Action.DELETE: "deleted",
    HandRevision.Action.CONFIRM: "confirmed",
    HandRevision.Action.RESCORE: "re-scored",
}
WHY_LINK_RENEWED = (
    "the table's referee link here is not the archive's (renewed here, or in the other Atout): "
    "the link here is kept; an import never brings back a link this Atout replaced"
)
WHY_NOT_DRAWN_HERE = "not in this round's draw here (drawn again here since): left out, donnes and all"
WHY_LINK_REVOKED = "the table's referee link was revoked here: it stays revoked; an import never revives a link"


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


def _numbers(numbers: Iterable[int]) -> str:
    ordered = sorted(set(numbers))
    return f"{'donne' if len(ordered) == 1 else 'donnes'} {', '.join(str(n) for n in ordered)}"


def _revisions_said(revisions: Counter[tuple[int, str, datetime]]) -> str:
    """What revisions did, for the reader: "donne 2 deleted, donnes 3, 4 re-scored"."""
    by_action: dict[str, set[int]] = {}
    for number, action, _at in revisions:
        by_action.setdefault(action, set()).add(number)
    return ", ".join(
        f"{_numbers(numbers)} {_ACTION_WORDS.get(action, action)}" for action, numbers in by_action.items()
    )


def _club_here(slug: str, fields: dict[str, Any]) -> Club | None:
    """The club here an archive's club is: by its slug, else by its name (unique too)."""
    return Club.objects.filter(slug=slug).first() or Club.objects.filter(name=fields["name"]).first()


def archive_parts(archive: Archive) -> dict[Part, Any]:
    """The ledger's parts of an archive as read (its values checked and converted), its
    clubs named by their slugs here (a club found by its name may have another one)."""
    here = {slug: _club_here(slug, fields) for slug, fields in archive.clubs.items()}
    slug_here = {slug: club.slug if club is not None else slug for slug, club in here.items()}
    return ledger.parts_of(
        archive.tournament,
        slug_here[archive.tournament_club],
        ((plan.fields, slug_here[plan.club] if plan.club else None) for plan in archive.competitors.values()),
        archive.forbidden_pairs,
        archive.prizes,
        (
            RoundParts(
                plan.fields,
                plan.pairs,
                ((number, bye["reason"]) for number, bye in plan.byes),
                (
                    (
                        table.fields["number"],
                        ((number, seat["side"], seat["position"]) for number, seat in table.seats),
                        table.hands,
                        table.result,
                    )
                    for table in plan.tables
                ),
            )
            for plan in archive.rounds
        ),
    )


class _Importer:
    def __init__(self, archive: Archive, slug: str | None) -> None:
        self.archive = archive
        self.slug = slug
        self.tally = Tally()
        self.counts = self.tally.counts
        self.unchanged = self.tally.unchanged
        self.clubs: dict[str, Club] = {}
        self.players: dict[int, Player] = {}
        self.competitors: dict[int, Competitor] = {}
        self.identity = self._identity()
        # The tournament this archive updates (None: the import makes a new one), read as
        # an export would write it, before anything is written: the parts here.
        self.target = self.identity.tournament if self.identity is not None and slug is None else None
        here = ledger.content_parts(archive_content(self.target)) if self.target is not None else {}
        self.ledger = Ledger.of(self.identity if self.target is not None else None, archive_parts(archive), here)
        # Parts written as the archive has them: their new state here is a version seen too.
        self.written: set[Part] = set()

    # -- clubs, players, the tournament -------------------------------------------------

    def import_clubs(self) -> None:
        for slug, fields in self.archive.clubs.items():
            club = _club_here(slug, fields)
            if club is None:
                # The logo does not travel: a club made here has none until one is uploaded.
                club = Club.objects.create(**{**fields, "logo_version": ""})
                _restore_times(Club, [(club, fields)])
                self.counts["clubs created"] += 1
            else:
                self.unchanged["clubs"] += 1
            self.clubs[slug] = club

    def _identity(self) -> ArchiveIdentity | None:
        """The tournament already here that this archive came from (or was imported into)."""
        return ArchiveIdentity.objects.select_related("tournament").filter(archive_id=self.archive.archive_id).first()

    def check_address(self) -> None:
        """Refuse, before anything is written, an address that cannot be the tournament's.

        With `slug`, a new tournament is made at that address: it must be a valid one,
        and free. Without, the tournament found by its archive id keeps its own address;
        a new one takes the archive's, which no other tournament here may hold.
        """
        identity = self.identity
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
        identity = self.identity
        if self.target is None:
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
            self.written.add(("tournament",))
            return tournament, True, copy_of
        assert identity is not None  # the target is its tournament
        tournament = self.target
        ArchiveIdentity.objects.filter(pk=identity.pk).update(last_imported_at=timezone.now())
        decision = self.ledger.decide(("tournament",))
        if decision.verdict is Verdict.KEEP:
            self.counts["tournament settings kept as here"] += 1
            self.tally.leave("tournament", "the tournament's settings", decision.why)
            return tournament, False, None
        # Its address here stays: links, QR codes and posters printed for it point there.
        fields["slug"] = tournament.slug
        if _differs(tournament, fields) or tournament.club_id != club.pk:
            for name, value in fields.items():
                setattr(tournament, name, value)
            tournament.club = club
            tournament.save()
            _restore_times(Tournament, [(tournament, fields)])
            self.counts["tournament settings updated"] += 1
        self.written.add(("tournament",))
        return tournament, False, None

    # -- competitors, forbidden pairs, lots ---------------------------------------------

    def _leave(self, kind: str, place: str, what: str, decision: Decision) -> None:
        outcome = "kept as here" if decision.verdict is Verdict.KEEP else "left out"
        self.counts[f"{kind} {outcome}"] += 1
        self.tally.leave(place, what, decision.why)

    def import_competitors(self, tournament: Tournament) -> None:
        existing = {c.number: c for c in Competitor.objects.filter(tournament=tournament)}
        for i, (number, plan) in enumerate(self.archive.competitors.items()):
            place, what, part = f"competitors[{i}]", f"competitor {number}", ("competitor", number)
            club = self.clubs[plan.club] if plan.club else None
            members = [self.players[ref] for ref in plan.players]
            fields = dict(plan.fields)
            if any(player.anonymised_at is not None for player in members):
                # A team's own name may name its erased player: rebuilt as the erasure did
                # (its players in their usual order).
                ordered = list(Player.objects.filter(pk__in=[player.pk for player in members]))
                fields["name"] = competitor_default_name(ordered)[:200]
            decision = self.ledger.decide(part)
            competitor = existing.get(number)
            if decision.verdict in (Verdict.KEEP, Verdict.LEAVE_OUT):
                self._leave("competitors", place, what, decision)
                if competitor is not None:
                    self.competitors[number] = competitor
                continue
            self.written.add(part)
            if competitor is None:
                competitor = Competitor.objects.create(tournament=tournament, club=club, **fields)
                _restore_times(Competitor, [(competitor, fields)])
                self.counts["competitors created"] += 1
                competitor.players.set({player.pk for player in members})
            else:
                update = {k: v for k, v in fields.items() if k not in _AUTO_TIME_FIELDS}
                wanted = {player.pk for player in members}
                other_members = set(competitor.players.values_list("pk", flat=True)) != wanted
                if _differs(competitor, update) or competitor.club_id != (club.pk if club else None) or other_members:
                    Competitor.objects.filter(pk=competitor.pk).update(club=club, **update)
                    if other_members:
                        competitor.players.set(wanted)
                    self.counts["competitors updated"] += 1
                else:
                    self.unchanged["competitors"] += 1
            self.competitors[number] = competitor

    def _absent(self, numbers: Iterable[int]) -> list[int]:
        """The competitors among `numbers` that are not here (left out): what names them cannot be written."""
        return sorted({number for number in numbers if number not in self.competitors})

    def import_forbidden_pairs(self, tournament: Tournament) -> None:
        for i, (first, second, fields) in enumerate(self.archive.forbidden_pairs):
            place, what = f"forbidden_pairs[{i}]", f"competitors {first} and {second} kept apart"
            part = ("forbidden pair", *sorted((first, second)))
            decision = self.ledger.decide(part)
            absent = self._absent((first, second))
            if absent and decision.verdict is not Verdict.LEAVE_OUT:
                decision = Decision(Verdict.LEAVE_OUT, f"names competitor {absent[0]}, which is not here")
            if decision.verdict in (Verdict.KEEP, Verdict.LEAVE_OUT):
                self._leave("forbidden pairs", place, what, decision)
                continue
            self.written.add(part)
            a, b = self.competitors[first], self.competitors[second]
            # Stored in either order (the lower id first where it was made).
            here = ForbiddenPair.objects.filter(
                Q(first=a, second=b) | Q(first=b, second=a), tournament=tournament
            ).first()
            if here is None:
                ForbiddenPair.objects.create(tournament=tournament, first=a, second=b, **fields)
                self.counts["forbidden pairs created"] += 1
            elif _differs(here, fields):
                ForbiddenPair.objects.filter(pk=here.pk).update(**fields)
                self.counts["forbidden pairs updated"] += 1
            else:
                self.unchanged["forbidden pairs"] += 1

    def import_prizes(self, tournament: Tournament) -> None:
        existing = {prize.rank_from: prize for prize in Prize.objects.filter(tournament=tournament)}
        taken = []
        for i, fields in enumerate(self.archive.prizes):
            part = ("prize", fields["rank_from"])
            decision = self.ledger.decide(part)
            if decision.verdict in (Verdict.KEEP, Verdict.LEAVE_OUT):
                what = f"the lot of ranks {fields['rank_from']} to {fields['rank_to']}"
                self._leave("prizes", f"prizes[{i}]", what, decision)
                continue
            taken.append((i, fields))
        incoming = {fields["rank_from"] for _i, fields in taken}
        for i, fields in taken:
            for other in existing.values():
                overlaps = other.rank_from <= fields["rank_to"] and fields["rank_from"] <= other.rank_to
                if overlaps and other.rank_from not in incoming:
                    raise ArchiveError(
                        f"prizes[{i}]: ranks {fields['rank_from']} to {fields['rank_to']} overlap the lot of "
                        f"ranks {other.rank_from} to {other.rank_to} already here"
                    )
            self.written.add(("prize", fields["rank_from"]))
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

    def import_round(self, tournament: Tournament, index: int, plan: RoundPlan) -> None:
        number = plan.fields["number"]
        place, what = f"rounds[{index}]", f"round {number}"
        decision = self.ledger.decide(("round", number))
        rnd = Round.objects.filter(tournament=tournament, number=number).first()
        seated = [n for pairs in plan.pairs.values() for pair in pairs for n in pair]
        seated += [n for n, _bye in plan.byes] + [n for table in plan.tables for n, _seat in table.seats]
        absent = self._absent(seated)
        if absent and decision.verdict is not Verdict.LEAVE_OUT:
            why = f"it seats competitor {absent[0]}, which is not here"
            decision = (
                Decision(Verdict.LEAVE_OUT, why)
                if rnd is None
                else Decision(Verdict.KEEP, f"{why}: the round here is kept as it is")
            )
        if decision.verdict is Verdict.LEAVE_OUT:
            self._leave("rounds", place, what, Decision(Verdict.LEAVE_OUT, f"{decision.why}, tables and all"))
            return
        # Drawn as the archive has it (created, taken or the same), or kept as it is here.
        as_archive = decision.verdict is not Verdict.KEEP
        if rnd is not None and decision.verdict is Verdict.KEEP:
            self._leave("rounds", place, what, decision)
        else:
            fields = dict(plan.fields)
            for name, pairs in plan.pairs.items():
                fields[name] = [sorted((self.competitors[a].pk, self.competitors[b].pk)) for a, b in pairs]
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
        if as_archive:
            self.written.add(("round", number))
        tables = {table.number: table for table in Table.objects.filter(round=rnd)}
        for j, table_plan in enumerate(plan.tables):
            table_number = table_plan.fields["number"]
            where = (f"{place}.tables[{j}]", f"round {number}, table {table_number}", ("partie", number, table_number))
            table = tables.get(table_number)
            if table is not None:
                self.import_table(table, table_plan, where)
            elif as_archive:
                tables[table_number] = self.create_table(rnd, table_plan, where[2])
            else:
                self.counts["tables left out"] += 1
                self.tally.leave(where[0], where[1], WHY_NOT_DRAWN_HERE)
        if as_archive:
            self.import_seating(rnd, plan, tables)

    def _free_token(self, token: str) -> bool:
        return not Table.objects.filter(token=token).exists()

    def create_table(self, rnd: Round, plan: TablePlan, part: Part) -> Table:
        fields = dict(plan.fields)
        token = fields.get("token")
        if token is None or not self._free_token(token):
            # An archive without tokens, or another table here holds this one: a new link.
            fields["token"] = new_table_token()
            if token is not None:
                self.counts["table tokens replaced"] += 1
        table = Table.objects.create(round=rnd, **fields)
        self.counts["tables created"] += 1
        hands = self.write_hands(table, {}, plan.hands)
        self.import_revisions(table, plan.revisions, hands)
        self.restore_result(table, plan)
        self.written.add(part)
        return table

    def import_table(self, table: Table, plan: TablePlan, where: tuple[str, str, Part]) -> None:
        """A table already here: its link stays this Atout's; its donnes as weighed."""
        token, revoked = plan.fields.get("token"), plan.fields.get("token_revoked", False)
        if revoked and not table.token_revoked and token == table.token:
            # The archive revokes this very link: a revocation only ever closes a door.
            Table.objects.filter(pk=table.pk).update(token_revoked=True)
            self.counts["tables updated"] += 1
        elif token is not None and token != table.token:
            self.counts["tables links kept as here"] += 1
            self.tally.leave(f"{where[0]}.token", where[1], WHY_LINK_RENEWED)
        elif token is not None and table.token_revoked and not revoked:
            self.counts["tables links kept as here"] += 1
            self.tally.leave(f"{where[0]}.token", where[1], WHY_LINK_REVOKED)
        else:
            self.unchanged["tables"] += 1
        self.import_partie(table, plan, where)

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

    def import_partie(self, table: Table, plan: TablePlan, where: tuple[str, str, Part]) -> None:
        """A table's donnes: the same, taken whole, kept whole, or (no ledger yet) merged."""
        place, what, part = where
        hands = {hand.number: hand for hand in Hand.objects.filter(table=table)}
        if self.ledger.here.get(part) == self.ledger.archive[part]:
            self._count(self.unchanged, "hands", len(plan.hands))
            self.import_revisions(table, plan.revisions, hands)
            return
        here = Counter(HandRevision.objects.filter(table=table).values_list("number", "action", "at"))
        there = Counter((fields["number"], fields["action"], fields["at"]) for _linked, fields in plan.revisions)
        only_here, only_there = here - there, there - here
        if only_here:
            said = _revisions_said(only_here)
            why = (
                f"changed both here ({said}) and in the other Atout since they last exchanged it: "
                "this table's donnes here are kept"
                if only_there
                else f"changed here since this archive was made ({said}): this table's donnes here are kept"
            )
            self.keep_hands(hands, plan, place, what, why)
            return
        if not only_there:
            # The same history, other data (a change made without a revision): the ledger says.
            decision = self.ledger.decide(part)
            if decision.verdict is Verdict.KEEP:
                self.keep_hands(hands, plan, place, what, decision.why)
                return
            if not self.ledger.active:
                self.merge_hands(table, hands, plan)
                return
        # The archive holds the later history: its donnes, whole.
        hands = self.write_hands(table, hands, plan.hands)
        self.import_revisions(table, plan.revisions, hands)
        self.restore_result(table, plan)
        self.written.add(part)

    @staticmethod
    def _count(counter: Counter[str], name: str, number: int) -> None:
        """Count `number` under `name`, leaving no 0 behind (a report lists what happened)."""
        if number:
            counter[name] += number

    def keep_hands(self, hands: dict[int, Hand], plan: TablePlan, place: str, what: str, why: str) -> None:
        differ, missing = [], []
        for fields in plan.hands:
            hand = hands.get(fields["number"])
            if hand is None:
                missing.append(fields["number"])
            elif _differs(hand, fields):
                differ.append(fields["number"])
            else:
                self.unchanged["hands"] += 1
        self._count(self.counts, "hands kept as here", len(differ))
        self._count(self.counts, "hands left out", len(missing))
        if differ or missing:
            self.tally.leave(f"{place}.hands", f"{what}, the archive's {_numbers(differ + missing)}", why)

    def write_hands(self, table: Table, hands: dict[int, Hand], plans: list[dict[str, Any]]) -> dict[int, Hand]:
        """Make the table's donnes the archive's: update, create, delete what it lacks."""
        wanted = {fields["number"] for fields in plans}
        gone = [hand.pk for number, hand in hands.items() if number not in wanted]
        if gone:
            Hand.objects.filter(pk__in=gone).delete()
            self.counts["hands deleted as in the archive"] += len(gone)
        hands = {number: hand for number, hand in hands.items() if number in wanted}
        changed = [(hands[f["number"]], f) for f in plans if f["number"] in hands and _differs(hands[f["number"]], f)]
        # Entry keys are unique per table and may move between donnes: cleared first.
        moved = [hand.pk for hand, fields in changed if hand.idempotency_key != fields.get("idempotency_key")]
        Hand.objects.filter(pk__in=moved).update(idempotency_key=None)
        for hand, fields in changed:
            # The archive's times too (update() leaves auto_now alone).
            Hand.objects.filter(pk=hand.pk).update(**fields)
        new = [(Hand(table=table, **fields), fields) for fields in plans if fields["number"] not in hands]
        Hand.objects.bulk_create([hand for hand, _ in new], batch_size=500)
        _restore_times(Hand, new)
        self._count(self.counts, "hands updated", len(changed))
        self._count(self.unchanged, "hands", len(plans) - len(new) - len(changed))
        self._count(self.counts, "hands created", len(new))
        return {**hands, **{hand.number: hand for hand, _ in new}}

    def merge_hands(self, table: Table, hands: dict[int, Hand], plan: TablePlan) -> None:
        """A tournament with no ledger yet: the archive's donnes, except one here at a higher version."""
        new: list[tuple[Hand, dict[str, Any]]] = []
        for fields in plan.hands:
            hand = hands.get(fields["number"])
            if hand is None:
                hand = Hand(table=table, **fields)
                new.append((hand, fields))
                hands[fields["number"]] = hand
            elif fields.get("version", 1) < hand.version:
                self.counts["hands kept as here"] += 1
            elif _differs(hand, fields):
                Hand.objects.filter(pk=hand.pk).update(**fields)
                self.counts["hands updated"] += 1
            else:
                self.unchanged["hands"] += 1
        Hand.objects.bulk_create([hand for hand, _ in new], batch_size=500)
        _restore_times(Hand, new)
        self.counts["hands created"] += len(new)
        self.import_revisions(table, plan.revisions, hands)
        self.restore_result(table, plan)

    def restore_result(self, table: Table, plan: TablePlan) -> None:
        if plan.result is not None:
            self.counts["table results created"] += table_result_restore(table=table, fields=plan.result)

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

    # -- the whole --------------------------------------------------------------------

    def remember(self, tournament: Tournament) -> None:
        """Record the archive's parts, and what was written of them here, as versions seen."""
        identity = ArchiveIdentity.objects.get(tournament=tournament)
        ledger.record(identity, self.ledger.archive)
        if self.written:
            now = ledger.content_parts(archive_content(tournament))
            ledger.record(identity, {part: now[part] for part in self.written if part in now})

    def run(self) -> ImportReport:
        self.check_address()
        self.import_clubs()
        context = self.identity.tournament if self.identity is not None else None
        self.players = PlayersImport(self.archive, self.clubs, context, self.tally).run()
        tournament, created, copy_of = self.import_tournament()
        self.import_competitors(tournament)
        self.import_forbidden_pairs(tournament)
        self.import_prizes(tournament)
        for index, plan in enumerate(self.archive.rounds):
            self.import_round(tournament, index, plan)
        tournament.refresh_from_db()
        self.remember(tournament)
        return ImportReport(tournament, created, self.counts, self.unchanged, copy_of, self.tally.left_out)


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
                # A public tournament's draws' files follow its rounds as imported.
                live_draw.publish_draw_on_commit(report.tournament.pk)
            return report
    except IntegrityError as exc:
        raise ArchiveError(f"the archive conflicts with data already here: {exc}") from None
