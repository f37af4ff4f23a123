"""Reads that several pages share: public tournaments, a club's lists, a round's tables.

Nothing here writes. A *drawn table* is what the projector, the printed list and the
director's dashboard show of one table: its number, each seat (position, competitor,
the players' names) and, where the page shows it, how far its partie went (its
*progress*: scoring keeps the results, and this app does not import scoring, so a page
above both reads them and hands them to `drawn_tables`).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Protocol

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import games
from tournaments.models import (
    Arrival,
    Bye,
    Club,
    Competitor,
    Player,
    Round,
    ScreenMessage,
    Seat,
    Table,
    Tournament,
)
from tournaments.text import Fold, fold, matches, sort_key

# How each seat position reads on a page: a team holds both seats of a side.
POSITION_LABELS = {
    "NS": _("North–South"),
    "EW": _("East–West"),
    "N": _("North"),
    "S": _("South"),
    "E": _("East"),
    "W": _("West"),
    "1": _("Seat 1"),
    "2": _("Seat 2"),
    "3": _("Seat 3"),
    "4": _("Seat 4"),
    "5": _("Seat 5"),
}


def public_tournaments(limit: int = 50) -> QuerySet[Tournament]:
    """Tournaments anyone may follow: public, and past the draft, newest first."""
    return (
        Tournament.objects.filter(is_public=True)
        .exclude(status=Tournament.Status.DRAFT)
        .select_related("club")
        .order_by("-date", "name")[:limit]
    )


def club_public_tournaments(club: Club, limit: int = 100) -> QuerySet[Tournament]:
    """The club's tournaments anyone may follow, newest first."""
    return (
        Tournament.objects.filter(club=club, is_public=True)
        .exclude(status=Tournament.Status.DRAFT)
        .order_by("-date", "name")[:limit]
    )


def public_tournament(slug: str) -> Tournament | None:
    return (
        Tournament.objects.filter(slug=slug, is_public=True)
        .exclude(status=Tournament.Status.DRAFT)
        .select_related("club")
        .first()
    )


def club_players(club: Club, search: str = "") -> QuerySet[Player]:
    """The club's players in French order; `search` words match names without accents or case."""
    players = Player.objects.filter(club=club)
    words = fold(search).split()
    if words:
        players = players.annotate(folded_last=Fold("last_name"), folded_first=Fold("first_name"))
    for word in words:
        players = players.filter(
            Q(folded_last__contains=word) | Q(folded_first__contains=word) | Q(licence__icontains=word)
        )
    return players


def club_tournaments(club: Club) -> QuerySet[Tournament]:
    return club.tournaments.annotate(entries=Count("competitors")).order_by("-date", "name")


def competitors_with_players(tournament: Tournament) -> QuerySet[Competitor]:
    """The competitors with their players and the arrivals their players said at the door."""
    return tournament.competitors.prefetch_related(
        Prefetch("players", queryset=Player.objects.all()), "arrivals"
    ).order_by("number")


class TableProgress(Protocol):
    """How far a table's partie went, as the pages of this app read it (scoring's
    `scoring.selectors.tables.TableProgress` is one)."""

    @property
    def finished(self) -> bool: ...
    @property
    def forced(self) -> bool: ...
    @property
    def donnes_played(self) -> int: ...
    @property
    def totals(self) -> list[int]: ...
    # Donnes entered and waiting for the other side's confirmation: not counted yet.
    @property
    def pending(self) -> int: ...
    @property
    def waiting(self) -> Sequence[WaitingDonne]: ...


class WaitingDonne(Protocol):
    """A donne waiting for confirmation at a table (scoring's `WaitingDonne` is one)."""

    @property
    def table(self) -> int: ...
    @property
    def number(self) -> int: ...
    @property
    def minutes(self) -> int: ...


@dataclass(slots=True)
class SeatView:
    position: str
    side: int
    competitor: Competitor
    players: list[str]
    withdrawn: bool


@dataclass(slots=True)
class TableView:
    table: Table
    seats: list[SeatView] = field(default_factory=list)
    result: TableProgress | None = None

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def finished(self) -> bool:
        return self.result is not None and self.result.finished

    @property
    def donnes_played(self) -> int:
        return self.result.donnes_played if self.result is not None else 0

    @property
    def pending(self) -> int:
        """Donnes entered at the table that wait for the other side's confirmation."""
        return self.result.pending if self.result is not None else 0

    @property
    def waiting(self) -> Sequence[WaitingDonne]:
        return self.result.waiting if self.result is not None else ()


def drawn_tables(rnd: Round, progress: Mapping[int, TableProgress] | None = None) -> list[TableView]:
    """The round's tables with their seats, and each one's `progress` by table id when
    given (scoring's `table_progress`, read by a page above both apps)."""
    seats = Seat.objects.filter(round=rnd).select_related("competitor").prefetch_related("competitor__players")
    results = progress or {}
    views = {t.pk: TableView(table=t, result=results.get(t.pk)) for t in rnd.tables.order_by("number")}
    for seat in seats.order_by("table__number", "side", "position"):
        players = sorted(seat.competitor.players.all(), key=lambda p: (sort_key(p.last_name), sort_key(p.first_name)))
        views[seat.table_id].seats.append(
            SeatView(
                position=str(POSITION_LABELS.get(seat.position, seat.position)),
                side=seat.side,
                competitor=seat.competitor,
                players=[p.full_name for p in players],
                withdrawn=seat.competitor.status == Competitor.Status.WITHDRAWN,
            )
        )
    return list(views.values())


def round_byes(rnd: Round) -> list[Bye]:
    return list(rnd.byes.select_related("competitor").order_by("competitor__number"))


def named_pairs(rnd: Round, pairs: list[list[int]]) -> list[tuple[str, str]]:
    """The round's repeats or conflicts as pairs of names, for the director."""
    ids = {i for pair in pairs for i in pair}
    names = dict(Competitor.objects.filter(pk__in=ids).values_list("pk", "name"))
    return [(names.get(a, "?"), names.get(b, "?")) for a, b in pairs]


@dataclass(frozen=True, slots=True)
class Repeat:
    """Two competitors seated together again, and why the draw could not keep them apart.

    `rounds`: the earlier rounds they shared a table; `met_first`/`met_second`: how many of
    the round's other competitors each had already met; `others`: how many there were.
    """

    first: str
    second: str
    rounds: list[int]
    met_first: int
    met_second: int
    others: int


def explained_repeats(rnd: Round) -> list[Repeat]:
    """The round's repeats with the earlier meetings and how few new opponents were left."""
    if not rnd.repeats:
        return []
    seated = Seat.objects.filter(round__tournament=rnd.tournament, round__number__lte=rnd.number)
    tables: dict[int, set[int]] = {}
    round_of_table: dict[int, int] = {}
    for table_id, competitor_id, number in seated.values_list("table_id", "competitor_id", "round__number"):
        tables.setdefault(table_id, set()).add(competitor_id)
        round_of_table[table_id] = number
    in_round = {c for t, members in tables.items() if round_of_table[t] == rnd.number for c in members}
    met: dict[int, set[int]] = {}
    together: dict[tuple[int, int], list[int]] = {}
    for table_id, members in tables.items():
        number = round_of_table[table_id]
        if number == rnd.number:
            continue
        for a in members:
            met.setdefault(a, set()).update(members - {a})
            for b in members:
                if a < b:
                    together.setdefault((a, b), []).append(number)
    names = dict(Competitor.objects.filter(pk__in=in_round).values_list("pk", "name"))
    found = []
    for a, b in rnd.repeats:
        key = (min(a, b), max(a, b))
        found.append(
            Repeat(
                first=names.get(a, "?"),
                second=names.get(b, "?"),
                rounds=sorted(together.get(key, [])),
                met_first=len(met.get(a, set()) & in_round),
                met_second=len(met.get(b, set()) & in_round),
                others=len(in_round) - 1,
            )
        )
    return found


def current_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


@dataclass(frozen=True, slots=True)
class SeatFound:
    """Where a competitor sits this round: the table, the seat, and who else is there."""

    table: TableView
    seat: SeatView

    @property
    def others(self) -> list[str]:
        """The names of the other competitors at the table, in seat order."""
        return [other.competitor.name for other in self.table.seats if other.competitor.pk != self.seat.competitor.pk]


def seats_matching(tables: list[TableView], query: str) -> list[SeatFound]:
    """The seats whose competitor or players match `query` (every word, accents aside)."""
    if not query.split():
        return []
    return [
        SeatFound(table=table, seat=seat)
        for table in tables
        for seat in table.seats
        if matches(query, seat.competitor.name, *seat.players)
    ]


# -- the round's clock ---------------------------------------------------------------------

# The duration offered when the tournament's clock never ran yet (minutes).
DEFAULT_CLOCK_MINUTES = 60


@dataclass(frozen=True, slots=True)
class RoundClock:
    """A running round clock as the pages show it, read at `now` (the server's time, which
    the pages send along so that a phone with a wrong clock still counts down right)."""

    started_at: datetime.datetime
    minutes: int
    ends_at: datetime.datetime
    now: datetime.datetime

    @property
    def ends_at_iso(self) -> str:
        return iso_moment(self.ends_at)

    @property
    def now_iso(self) -> str:
        return iso_moment(self.now)

    @property
    def seconds_left(self) -> int:
        return max(0, int((self.ends_at - self.now).total_seconds()))

    @property
    def over(self) -> bool:
        return self.now >= self.ends_at

    @property
    def elapsed(self) -> float:
        """The share of the round's time gone, from 0 to 1."""
        total = (self.ends_at - self.started_at).total_seconds()
        return min(1.0, max(0.0, (self.now - self.started_at).total_seconds() / total)) if total > 0 else 1.0

    @property
    def left_label(self) -> str:
        """The time left as h:mm:ss or m:ss, as the browser's countdown writes it."""
        minutes, seconds = divmod(self.seconds_left, 60)
        hours, minutes = divmod(minutes, 60)
        return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def iso_moment(moment: datetime.datetime) -> str:
    """A UTC timestamp to the millisecond, as every browser's Date.parse reads it."""
    return moment.astimezone(datetime.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def round_clock(rnd: Round | None, now: datetime.datetime | None = None) -> RoundClock | None:
    """The clock of an open round, or None when the round is closed or no clock runs."""
    if rnd is None or rnd.status != Round.Status.OPEN:
        return None
    ends_at = rnd.clock_ends_at
    if ends_at is None or rnd.clock_started_at is None or rnd.clock_minutes is None:
        return None
    return RoundClock(
        started_at=rnd.clock_started_at, minutes=rnd.clock_minutes, ends_at=ends_at, now=now or timezone.now()
    )


def default_clock_minutes(tournament: Tournament) -> int:
    """The duration the director is offered: the last one the tournament's clock ran for."""
    last = tournament.rounds.filter(clock_minutes__isnull=False).order_by("-number").first()
    return last.clock_minutes if last is not None and last.clock_minutes else DEFAULT_CLOCK_MINUTES


@dataclass(frozen=True, slots=True)
class LateTable:
    """A table still playing when it should not be: its donnes played and, when the partie
    ends after a number of donnes, how many it has to play."""

    number: int
    donnes_played: int
    donnes_to_play: int | None


def donnes_to_play(tournament: Tournament, seats: int) -> int | None:
    """The donnes a table of `seats` plays (None: a partie to a target score); a table of
    five with a mort plays more (games.table_donnes)."""
    return games.table_donnes(tournament, seats)


def late_tables(tournament: Tournament, tables: list[TableView], clock: RoundClock | None) -> list[LateTable]:
    """Once the round's time is up, the tables whose partie is not finished."""
    if clock is None or not clock.over:
        return []
    return [
        LateTable(t.number, t.donnes_played, donnes_to_play(tournament, len(t.seats))) for t in tables if not t.finished
    ]


def tables_behind(tournament: Tournament, tables: list[TableView], clock: RoundClock | None) -> list[LateTable]:
    """Before the time is up, the tables a quarter of their partie or more behind the
    clock (a partie of a number of donnes only: a target score gives no pace)."""
    if clock is None or clock.over or tournament.end_rule != Tournament.EndRule.DONNES:
        return []
    behind = []
    for t in tables:
        to_play = donnes_to_play(tournament, len(t.seats)) or 0
        if not t.finished and t.donnes_played + to_play / 4 <= clock.elapsed * to_play:
            behind.append(LateTable(t.number, t.donnes_played, to_play))
    return behind


# -- entry fees and lots ------------------------------------------------------------------


@dataclass
class CashSummary:
    """What the entry fees come to (tournaments/services/money.py).

    `expected`: what was paid, plus the fee of every competitor still to pay (a withdrawn
    competitor who never paid owes nothing). `received`: what was paid, in total and by
    method. `unpaid`: the competitors (not withdrawn) still to pay.
    """

    fee: Decimal
    expected: Decimal
    received: Decimal
    by_method: list[tuple[str, int, Decimal]]
    unpaid: list[Competitor]
    free: list[Competitor]

    @property
    def outstanding(self) -> Decimal:
        return self.fee * len(self.unpaid)


def cash_summary(tournament: Tournament, competitors: Iterable[Competitor] | None = None) -> CashSummary:
    """The entry fees of `tournament`, from `competitors` when the caller has them loaded."""
    listed = list(competitors if competitors is not None else tournament.competitors.all())
    fee = tournament.entry_fee
    Payment, Method = Competitor.Payment, Competitor.PaymentMethod
    paid = [c for c in listed if c.payment_status == Payment.PAID]
    withdrawn = Competitor.Status.WITHDRAWN
    unpaid = [c for c in listed if c.status != withdrawn and c.payment_status == Payment.UNPAID]
    received = sum((c.amount_paid for c in paid), Decimal("0"))
    by_method = []
    for method, label in Method.choices:
        chosen = [c for c in paid if c.payment_method == method]
        by_method.append((str(label), len(chosen), sum((c.amount_paid for c in chosen), Decimal("0"))))
    return CashSummary(
        fee=fee,
        expected=received + fee * len(unpaid),
        received=received,
        by_method=by_method,
        unpaid=unpaid,
        free=[c for c in listed if c.payment_status == Payment.FREE],
    )


def screen_messages(tournament_id: int, *, now: datetime.datetime | None = None) -> list[ScreenMessage]:
    """The director's messages on the screens now: not withdrawn and not expired, newest first."""
    now = now or timezone.now()
    return list(
        ScreenMessage.objects.filter(tournament_id=tournament_id, withdrawn_at=None)
        .filter(Q(expires_at=None) | Q(expires_at__gt=now))
        .order_by("-created_at", "-pk")
    )


def screen_messages_stamp(messages: Iterable[ScreenMessage]) -> str:
    """What the screens' ETag says of the messages shown: it moves when one comes or goes."""
    return ".".join(str(message.pk) for message in messages) or "none"


# -- the door (self check-in) ----------------------------------------------------------------

# A « Ma soirée » link as printed on a receipt's QR code, pasted or typed by a scanner.
_SOIREE_LINK = re.compile(r"soiree/([A-Za-z0-9_-]{16,64})")
_BARE_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
# The most people the door lists for one search: past it, type more of the name.
DOOR_RESULTS = 12


@dataclass(frozen=True, slots=True)
class DoorMatch:
    """A player the door found, in the registration they play in."""

    competitor: Competitor
    player: Player
    arrived: bool


def _door_competitors(tournament: Tournament) -> QuerySet[Competitor]:
    return (
        tournament.competitors.exclude(status=Competitor.Status.WITHDRAWN)
        .prefetch_related(Prefetch("players", queryset=Player.objects.all()), "arrivals")
        .order_by("number")
    )


def door_find(tournament: Tournament, text: str) -> tuple[list[DoorMatch], bool]:
    """The players the door's search finds, and whether there were more than it lists.

    `text` is a name (every word found in a player's or the registration's name, accents
    and case aside, as the seat finder reads it), or the « Ma soirée » link of a receipt
    (its QR code scanned into the field, or the link pasted): then that registration's
    players. A withdrawn registration is never found; nor is a withdrawn link."""
    text = text.strip()[:300]
    if not text:
        return [], False
    link = _SOIREE_LINK.search(text)
    token = link.group(1) if link else (text if _BARE_TOKEN.fullmatch(text) else "")
    competitors: list[Competitor] = []
    if token:
        competitors = list(_door_competitors(tournament).filter(link_token=token, link_revoked=False))
    if competitors or link:
        words: str = ""
    else:
        words = text
        competitors = list(_door_competitors(tournament))
    found: list[DoorMatch] = []
    for competitor in competitors:
        arrived = {arrival.player_id for arrival in competitor.arrivals.all()}
        players = list(competitor.players.all())
        # The players found by their own name; all of them when only the team's name matches.
        named = [p for p in players if words and matches(words, p.full_name)]
        if not named and (not words or matches(words, competitor.name)):
            named = players
        found.extend(DoorMatch(competitor, player, player.pk in arrived) for player in named)
    return found[:DOOR_RESULTS], len(found) > DOOR_RESULTS


@dataclass(frozen=True, slots=True)
class RoomCount:
    """The room as the desk counts it: « 42 / 48 pointés, 3 à encaisser »."""

    # Registrations still in (withdrawals aside), and those checked in.
    expected: int
    present: int
    # Checked in and still owing part of the entry fee.
    owing: int
    # Checked in by their players at the door.
    at_the_door: int
    # Teams of which a player arrived at the door, the partner not yet.
    waiting: list[Competitor]
    owing_list: list[Competitor]

    @property
    def stamp(self) -> str:
        """What the desk's ETag says of the room: it moves with every figure shown."""
        waiting = ".".join(str(c.pk) for c in self.waiting)
        owing = ".".join(str(c.pk) for c in self.owing_list)
        return f"{self.expected}-{self.present}-{self.at_the_door}-{waiting}-{owing}"


def owing_filter(tournament: Tournament) -> Q:
    """The competitors still owing the tournament's entry fee, as a query (as
    tournaments.services.money.competitor_owes: no payment recorded yet)."""
    if not tournament.entry_fee:
        return Q(pk__in=[])
    return Q(payment_status=Competitor.Payment.UNPAID) & Q(amount_paid__lt=tournament.entry_fee)


def room_count(tournament: Tournament) -> RoomCount:
    """Who is in the room: two small queries, for the desk's count polled every few seconds."""
    present = Q(status=Competitor.Status.CHECKED_IN)
    still_in = tournament.competitors.exclude(status=Competitor.Status.WITHDRAWN)
    figures = still_in.aggregate(
        expected=Count("pk"),
        present=Count("pk", filter=present),
        at_the_door=Count("pk", filter=present & Q(self_checked_in=True)),
    )
    arrived = Exists(Arrival.objects.filter(competitor=OuterRef("pk")))
    noted = list(
        still_in.filter((present & owing_filter(tournament)) | (~present & arrived))
        .order_by("number")
        .only("pk", "number", "name", "status")
    )
    return RoomCount(
        expected=figures["expected"],
        present=figures["present"],
        owing=sum(1 for c in noted if c.status == Competitor.Status.CHECKED_IN),
        at_the_door=figures["at_the_door"],
        waiting=[c for c in noted if c.status != Competitor.Status.CHECKED_IN],
        owing_list=[c for c in noted if c.status == Competitor.Status.CHECKED_IN],
    )


def club_next_tournament(club: Club) -> Tournament | None:
    """The club's next public concours (the club's embed page): the one of tonight, or the
    next open for registration; once the night is over, tonight's stays until tomorrow."""
    today = timezone.localdate()
    upcoming = (
        Tournament.objects.filter(club=club, is_public=True, date__gte=today)
        .filter(status__in=[Tournament.Status.REGISTRATION, Tournament.Status.RUNNING])
        .select_related("club")
        .order_by("date", "name")
    )
    found = upcoming.first()
    if found is None:
        tonight = Tournament.objects.filter(club=club, is_public=True, date=today, status=Tournament.Status.FINISHED)
        found = tonight.select_related("club").order_by("name").first()
    return found
