"""Writing a tournament's archive: one JSON document with everything needed to rebuild it.

Layout (version 1):

    {"format": "atout-tournament", "version": 1, "archive_id": UUID, "exported_at": ...,
     "checksum": "sha256:<hex of the canonical JSON of content>",
     "content": {
       "clubs": [{slug, name, ...}],
       "players": [{ref, club: slug, last_name, first_name, licence, email, phone, ...}],
       "tournament": {club: slug, every setting...},
       "competitors": [{number, club: slug|null, players: [ref...], ...}],
       "forbidden_pairs": [{first: number, second: number, reason}],
       "prizes": [{rank_from, rank_to, text, value}],
       "rounds": [{number, ..., repeats: [[number, number]], conflicts: [...],
                   byes: [{competitor: number, reason}],
                   tables: [{number, token, token_revoked,
                             seats: [{competitor: number, side, position}],
                             hands: [{number, raw, scores, version, ...}],
                             revisions: [{hand: bool, number, action, before, after, at, ...}],
                             result: {...} | null}]}]}}

Players travel with their private contact data (email, phone): the archive is the
organiser moving their own club's records between their own Atouts, and a player is
matched on import by licence or name. Keep archives as private as the site itself. An
anonymised player travels anonymised (`anonymised_at` set, their name this Atout's
anonymous one); the digests this Atout keeps to recognise them stay here.

User accounts do not travel (they hold passwords, and belong to a site): who entered a
hand or made a revision is kept by name in `author_label`. Standings snapshots and jobs
are not archived: the standings are rebuilt from the hands after an import.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone

from archive import ledger
from archive.fields import ArchiveError, dump
from archive.models import ArchiveIdentity
from scoring.models import Hand, HandRevision, TableResult
from tournaments.models import Bye, Club, Player, Seat, Table, Tournament

FORMAT = "atout-tournament"
VERSION = 1
# Round fields that hold pairs of competitor ids: ids mean nothing in another database,
# so the archive holds the competitors' numbers instead.
COMPETITOR_PAIR_FIELDS = ("repeats", "conflicts")
# Player fields that never leave this Atout: the keyed digests of an erased player's
# identity mean nothing under another site's key (tournaments/services/privacy.py).
PLAYER_PRIVATE_FIELDS = ("erased_identity",)
# Competitor fields that never leave this Atout: the personal link to « Ma soirée » opens
# this site's page only; a competitor imported elsewhere gets a link of its own there.
COMPETITOR_LINK_FIELDS = ("link_token", "link_revoked")


def checksum(content: Any) -> str:
    """A digest of the content in a canonical JSON form: any change to a value changes it."""
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def pairs_to_numbers(pairs: Any, number_of: dict[int, int], where: str) -> list[list[int]]:
    try:
        return [[number_of[int(first)], number_of[int(second)]] for first, second in pairs or []]
    except (KeyError, TypeError, ValueError):
        raise ArchiveError(f"{where}: names a competitor that is not in the tournament") from None


def _grouped(rows: Iterable[Any], key: str) -> dict[int, list[Any]]:
    groups: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        groups[getattr(row, key)].append(row)
    return groups


def _revision(revision: HandRevision) -> dict[str, Any]:
    data = {"hand": revision.hand_id is not None, **dump(revision)}
    if not data["author_label"] and revision.author is not None:
        # The account stays behind; its name does not.
        data["author_label"] = revision.author.get_username()[:120]
    return data


def _tables(
    tables: list[Table], rows: dict[str, dict[int, list[Any]]], number_of: dict[int, int]
) -> list[dict[str, Any]]:
    results = rows["results"]
    return [
        {
            **dump(table),
            "seats": [{"competitor": number_of[seat.competitor_id], **dump(seat)} for seat in rows["seats"][table.pk]],
            "hands": [dump(hand) for hand in rows["hands"][table.pk]],
            "revisions": [_revision(revision) for revision in rows["revisions"][table.pk]],
            "result": dump(results[table.pk][0]) if results.get(table.pk) else None,
        }
        for table in tables
    ]


def _rounds(tournament: Tournament, number_of: dict[int, int]) -> list[dict[str, Any]]:
    scope = {"table__round__tournament": tournament}
    tables = _grouped(Table.objects.filter(round__tournament=tournament).order_by("number"), "round_id")
    rows = {
        "seats": _grouped(Seat.objects.filter(round__tournament=tournament).order_by("side", "position"), "table_id"),
        "hands": _grouped(Hand.objects.filter(**scope).order_by("number"), "table_id"),
        "revisions": _grouped(
            HandRevision.objects.filter(**scope).select_related("author").order_by("at", "pk"), "table_id"
        ),
        "results": _grouped(TableResult.objects.filter(**scope), "table_id"),
    }
    byes = _grouped(Bye.objects.filter(round__tournament=tournament).order_by("competitor__number"), "round_id")
    rounds = []
    for rnd in tournament.rounds.order_by("number"):
        where = f"round {rnd.number}"
        rounds.append(
            {
                **dump(rnd, skip=COMPETITOR_PAIR_FIELDS),
                **{name: pairs_to_numbers(getattr(rnd, name), number_of, where) for name in COMPETITOR_PAIR_FIELDS},
                "byes": [{"competitor": number_of[bye.competitor_id], **dump(bye)} for bye in byes[rnd.pk]],
                "tables": _tables(tables[rnd.pk], rows, number_of),
            }
        )
    return rounds


def archive_content(tournament: Tournament) -> dict[str, Any]:
    """The `content` part of the archive (deterministic: the same data gives the same JSON)."""
    competitors = list(tournament.competitors.select_related("club").prefetch_related("players").order_by("number"))
    number_of = {competitor.pk: competitor.number for competitor in competitors}
    players: dict[int, Player] = {}
    for competitor in competitors:
        for player in competitor.players.all():
            players[player.pk] = player
    ordered_players = sorted(players.values(), key=lambda player: player.pk)
    ref_of = {player.pk: ref for ref, player in enumerate(ordered_players, start=1)}
    club_ids = {tournament.club_id, *(p.club_id for p in ordered_players), *(c.club_id for c in competitors)}
    clubs = {club.pk: club for club in Club.objects.filter(pk__in=club_ids - {None})}
    return {
        "clubs": [dump(club) for club in sorted(clubs.values(), key=lambda club: club.slug)],
        "players": [
            {"ref": ref_of[player.pk], "club": clubs[player.club_id].slug, **dump(player, skip=PLAYER_PRIVATE_FIELDS)}
            for player in ordered_players
        ],
        "tournament": {"club": clubs[tournament.club_id].slug, **dump(tournament)},
        "competitors": [
            {
                "club": clubs[competitor.club_id].slug if competitor.club_id else None,
                "players": sorted(ref_of[player.pk] for player in competitor.players.all()),
                **dump(competitor, skip=COMPETITOR_LINK_FIELDS),
            }
            for competitor in competitors
        ],
        "forbidden_pairs": [
            {"first": number_of[pair.first_id], "second": number_of[pair.second_id], **dump(pair)}
            for pair in tournament.forbidden_pairs.order_by("first__number", "second__number")
        ],
        "prizes": [dump(prize) for prize in tournament.prizes.order_by("rank_from")],
        "rounds": _rounds(tournament, number_of),
    }


@transaction.atomic
def archive_export(*, tournament: Tournament) -> dict[str, Any]:
    """The whole archive of `tournament`, giving it an archive id the first time.

    One transaction, so the archive is a consistent picture even while referees type.
    Every part of it is recorded as a version seen (archive/ledger.py): imported here
    again later, it never undoes what this Atout changed since.
    """
    identity, _ = ArchiveIdentity.objects.get_or_create(tournament=tournament)
    now = timezone.now()
    ArchiveIdentity.objects.filter(pk=identity.pk).update(last_exported_at=now)
    content = archive_content(tournament)
    ledger.record(identity, ledger.content_parts(content))
    return {
        "format": FORMAT,
        "version": VERSION,
        "archive_id": str(identity.archive_id),
        "exported_at": now.isoformat(),
        "checksum": checksum(content),
        "content": content,
    }


def archive_dumps(archive: dict[str, Any]) -> str:
    """The archive as the text of a .json file (UTF-8, readable, one value per line)."""
    return json.dumps(archive, ensure_ascii=False, indent=1) + "\n"
