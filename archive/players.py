"""An archive's players, matched to this Atout's: erased here, erased in the archive, known, or new.

What identifies a player in an archive is what it says of them: their club's slug, their
names, their licence and e-mail (their `ref` numbers them within the file only, and no
id travels between Atouts). Each is matched in this order:

1. erased here: a player anonymised here is recognised by the keyed digests of the
   identity they had (`tournaments.services.ErasedPlayers`: licence, e-mail, or name);
   the archive's player becomes that erased player, and nothing the archive says of them
   is written (reported as left out). Erasure is for good: an archive exported before it
   never brings the name, licence or contact data back. One exception: a person who
   came back and is registered here again (rule 2 finds them) keeps, for a tournament
   played after their erasure, their new record;
2. known here: by (club, licence) when the archive gives a licence, else by (club, last
   name, first name) ignoring case, among players not anonymised; the player here only
   gains the details it lacked;
3. a player the archive does not name any more (anonymised where it was exported), or
   one neither rule finds, who sits in a competitor of this tournament whose member here
   is an erased player: that erased player (a team keeps its members; this also covers
   players anonymised before erasures kept digests);
4. otherwise a new player; one the archive says was anonymised is created anonymised,
   under this Atout's anonymous name, whatever names the file still holds.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models.functions import Lower

from archive.reading import Archive
from archive.report import Tally
from tournaments import services
from tournaments.models import Club, Competitor, Player, Tournament

# Fields the import fills in on a player here that lacks them; the others are this Atout's.
_TIMES = ("created_at",)


def _find_live(club: Club, fields: dict[str, Any]) -> Player | None:
    players = Player.objects.filter(club=club, anonymised_at__isnull=True)
    if fields.get("licence"):
        return players.filter(licence=fields["licence"]).order_by("pk").first()
    return (
        players.annotate(last=Lower("last_name"), first=Lower("first_name"))
        .filter(last=fields["last_name"].lower(), first=fields.get("first_name", "").lower())
        .order_by("pk")
        .first()
    )


class PlayersImport:
    """Matches or creates each player of the archive; `run` returns them by ref."""

    def __init__(self, archive: Archive, clubs: dict[str, Club], context: Tournament | None, tally: Tally) -> None:
        self.archive = archive
        self.clubs = clubs
        # The tournament here the archive came from or updates (its teams' erased members).
        self.context = context
        self.tally = tally
        self.found: dict[int, Player] = {}
        self.place = {ref: f"players[{i}]" for i, ref in enumerate(archive.players)}
        self.numbers: dict[int, list[int]] = defaultdict(list)
        for number, plan in archive.competitors.items():
            for ref in plan.players:
                self.numbers[ref].append(number)
        self._erased: dict[int, services.ErasedPlayers] = {}

    def _what(self, ref: int) -> str:
        numbers = self.numbers.get(ref, [])
        if not numbers:
            return "a player of no competitor"
        label = "competitor" if len(numbers) == 1 else "competitors"
        return f"a player of {label} {', '.join(str(n) for n in numbers)}"

    def _erased_of(self, club: Club) -> services.ErasedPlayers:
        if club.pk not in self._erased:
            self._erased[club.pk] = services.ErasedPlayers(club)
        return self._erased[club.pk]

    def _after(self, erased: Player) -> bool:
        """Was the archive's tournament played after `erased` was anonymised? A player who
        came back and was registered here again plays under their new record from then on;
        what they played before stays the erased player's."""
        date = self.archive.tournament.get("date")
        return erased.anonymised_at is not None and date is not None and date > erased.anonymised_at.date()

    def _kept_erased(self, ref: int, player: Player) -> None:
        self.found[ref] = player
        self.tally.counts["players kept erased"] += 1
        when = f" on {player.anonymised_at.date().isoformat()}" if player.anonymised_at else ""
        self.tally.leave(
            self.place[ref],
            self._what(ref),
            f"erased here{when}: imported as {player.full_name}, erased; the name, licence and contact "
            "data the archive holds are left out",
        )

    def _complete(self, ref: int, player: Player, fields: dict[str, Any]) -> None:
        """Fill in what this Atout lacks; never blank out or overwrite what it knows."""
        missing = {
            name: value
            for name, value in fields.items()
            if name not in _TIMES and value not in ("", None) and getattr(player, name) in ("", None)
        }
        if missing:
            Player.objects.filter(pk=player.pk).update(**missing)
            self.tally.counts["players completed"] += 1
        else:
            self.tally.unchanged["players"] += 1
        self.found[ref] = player

    def run(self) -> dict[int, Player]:
        waiting: list[int] = []
        for ref, (club_slug, fields) in self.archive.players.items():
            club = self.clubs[club_slug]
            if fields.get("anonymised_at") is not None:
                waiting.append(ref)
                continue
            erased = self._erased_of(club).find(
                last_name=fields["last_name"],
                first_name=fields.get("first_name", ""),
                licence=fields.get("licence", ""),
                email=fields.get("email", ""),
            )
            known = _find_live(club, fields)
            if erased is not None and not (known is not None and self._after(erased)):
                self._kept_erased(ref, erased)
                continue
            if known is not None:
                self._complete(ref, known, fields)
                continue
            waiting.append(ref)
        self._claim_erased_members(waiting)
        for ref in waiting:
            if ref not in self.found:
                self.found[ref] = self._create(ref)
        return self.found

    def _claim_erased_members(self, waiting: list[int]) -> None:
        """Rule 3: a player still unmatched, in a team whose member here is erased, is that member."""
        if self.context is None or not waiting:
            return
        unmatched = set(waiting)
        claimed = {player.pk for player in self.found.values()}
        here = {
            competitor.number: competitor
            for competitor in Competitor.objects.filter(tournament=self.context).prefetch_related("players")
        }
        for number, plan in self.archive.competitors.items():
            competitor = here.get(number)
            if competitor is None:
                continue
            for ref in plan.players:
                if ref not in unmatched or ref in self.found:
                    continue
                club = self.clubs[self.archive.players[ref][0]]
                member = next(
                    (
                        player
                        for player in sorted(competitor.players.all(), key=lambda player: player.pk)
                        if player.anonymised_at is not None and player.pk not in claimed and player.club_id == club.pk
                    ),
                    None,
                )
                if member is None:
                    continue
                claimed.add(member.pk)
                if self.archive.players[ref][1].get("anonymised_at") is not None:
                    # Erased in the archive and here: the same erased player, nothing to write.
                    self.found[ref] = member
                    self.tally.unchanged["players"] += 1
                else:
                    self._kept_erased(ref, member)

    def _create(self, ref: int) -> Player:
        club_slug, fields = self.archive.players[ref]
        club = self.clubs[club_slug]
        self.tally.counts["players created"] += 1
        if fields.get("anonymised_at") is None:
            player = Player.objects.create(club=club, **fields)
        else:
            # Erased where the archive was made: erased here too, whatever the file still says.
            player = Player.objects.create(
                club=club,
                last_name="-",
                first_name="",
                affiliation=fields.get("affiliation", ""),
                public_history=fields.get("public_history", True),
                anonymised_at=fields["anonymised_at"],
            )
            player.last_name = services.anonymous_name(player)
            player.save(update_fields=["last_name"])
        if "created_at" in fields:
            # The archive's time, not this import's (auto_now_add set it on create).
            Player.objects.filter(pk=player.pk).update(created_at=fields["created_at"])
            player.created_at = fields["created_at"]
        return player
