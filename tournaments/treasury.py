"""Reads of a tournament's money: the takings, the prize money as it stands, the palmarès
shown beside the final ranking, and the treasurer's list of payments.

Terms (*takings*, *pool*, *split*, *place*): tournaments/palmares.py. Writes are in
tournaments/services/money.py.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db.models import Sum

from tournaments.models import Competitor, Tournament
from tournaments.palmares import POOL_NONE, Palmares, place_amounts, pool_amount
from tournaments.selectors import cash_summary

Payment = Competitor.Payment


def takings(tournament: Tournament) -> Decimal:
    """The entry fees received: the amounts of the entries recorded as paid."""
    paid = tournament.competitors.filter(payment_status=Payment.PAID).aggregate(total=Sum("amount_paid"))
    return paid["total"] or Decimal("0")


def split_of(tournament: Tournament) -> list[Decimal]:
    """The stored split, one decimal per place (a value the service never wrote is 0)."""
    split = []
    for value in tournament.prize_split or []:
        try:
            split.append(Decimal(str(value)))
        except InvalidOperation:
            split.append(Decimal("0"))
    return split


def money_by_place(tournament: Tournament, received: Decimal) -> list[Decimal]:
    """What each place wins when the takings are `received` (empty without prize money)."""
    if tournament.prize_pool_kind == POOL_NONE:
        return []
    pool = pool_amount(tournament.prize_pool_kind, tournament.prize_pool_value, received)
    return place_amounts(pool, tournament.prize_split_kind, split_of(tournament))


def palmares_shown(tournament: Tournament, *, with_lots: bool = True) -> Palmares:
    """The prizes shown beside a ranking (page, projector, PDF, CSV, « Ma soirée »): the
    final ranking's only, once the tournament is finished; a ranking in play promises
    nobody anything. The money follows the takings recorded so far (a payment recorded
    after the end touches the tournament: the cached pages follow)."""
    if tournament.status != Tournament.Status.FINISHED:
        return Palmares()
    lots = list(tournament.prizes.order_by("rank_from")) if with_lots else []
    received = takings(tournament) if tournament.prize_pool_kind == "share" else Decimal("0")
    return Palmares(lots=lots, money=money_by_place(tournament, received))


@dataclass(frozen=True)
class MoneyPlan:
    """The prize money as the director sets it: the takings received and expected (the
    dashboard's « Attendu »), the pool and each place's amount for both."""

    received: Decimal
    expected: Decimal
    pool_now: Decimal
    pool_expected: Decimal
    places: list[tuple[int, Decimal, Decimal]]  # (place, amount now, amount expected)

    @property
    def paid_out_now(self) -> Decimal:
        return sum((now for _place, now, _expected in self.places), Decimal("0"))

    @property
    def paid_out_expected(self) -> Decimal:
        return sum((expected for _place, _now, expected in self.places), Decimal("0"))


def money_plan(tournament: Tournament) -> MoneyPlan:
    cash = cash_summary(tournament)
    kind, value = tournament.prize_pool_kind, tournament.prize_pool_value
    now, expected = money_by_place(tournament, cash.received), money_by_place(tournament, cash.expected)
    return MoneyPlan(
        received=cash.received,
        expected=cash.expected,
        pool_now=pool_amount(kind, value, cash.received),
        pool_expected=pool_amount(kind, value, cash.expected),
        places=[(i, amount, expected[i - 1]) for i, amount in enumerate(now, start=1)],
    )


# -- the treasurer's payments page ---------------------------------------------------------


@dataclass(frozen=True)
class PaymentLine:
    competitor: Competitor
    owes: Decimal
    recorded_by: str
    paid_at: datetime.datetime | None


@dataclass(frozen=True)
class Payments:
    lines: list[PaymentLine]
    received: Decimal
    owed: Decimal
    fee: Decimal

    @property
    def owing(self) -> int:
        return sum(1 for line in self.lines if line.owes)


def _name_of(user: object) -> str:
    if user is None:
        return ""
    full = f"{getattr(user, 'first_name', '')} {getattr(user, 'last_name', '')}".strip()
    return full or str(getattr(user, "username", ""))


def payments(tournament: Tournament) -> Payments:
    """Every competitor with its payment: status, method, amount, when and by whom it was
    recorded, what it still owes (a withdrawn competitor who never paid owes nothing, as
    on the dashboard); the takings and what is still owed in total."""
    competitors = tournament.competitors.select_related("payment_recorded_by").order_by("number")
    lines = []
    for competitor in competitors:
        owes = Decimal("0")
        if competitor.status != Competitor.Status.WITHDRAWN and competitor.payment_status == Payment.UNPAID:
            owes = max(Decimal("0"), tournament.entry_fee - competitor.amount_paid)
        lines.append(PaymentLine(competitor, owes, _name_of(competitor.payment_recorded_by), competitor.paid_at))
    received = sum(
        (line.competitor.amount_paid for line in lines if line.competitor.payment_status == Payment.PAID),
        Decimal("0"),
    )
    owed = sum((line.owes for line in lines), Decimal("0"))
    return Payments(lines=lines, received=received, owed=owed, fee=tournament.entry_fee)
