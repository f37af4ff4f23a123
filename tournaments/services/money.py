"""The entry fee paid at check-in, and the prize list (*lots*) of the final ranking.

A competitor's payment is *paid* (with a method: cash, card or transfer, and an amount,
the tournament's entry fee unless another is given), *unpaid*, or *free* (an invited
player, an organiser). Payments may be recorded at any status: the cash is often counted
after the last round.

Each record of a payment notes when (`paid_at`, for a paid entry) and by whom
(`payment_recorded_by`), for the treasurer's payments page.

The prize money (*dotation*, terms and rules in tournaments/palmares.py): a share of the
takings or a fixed pool, split by place as percentages or fixed amounts.

A lot goes to the ranks `rank_from` to `rank_to` (one rank when both are equal); two lots
of a tournament never cover the same rank. Lots may change at any status: the list is
often completed once the night is over. Each change touches the tournament's
`updated_at`, which the cached ranking pages and the PDF are keyed by.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.template.defaultfilters import floatformat
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.access import require_organiser
from tournaments.models import Competitor, Prize, Tournament
from tournaments.services.common import Errors, raise_errors, refusal

Payment = Competitor.Payment
Method = Competitor.PaymentMethod
Pool = Tournament.PrizePool
Split = Tournament.PrizeSplit
MAX_RANK = 10_000
MAX_AMOUNT = Decimal("99999.99")


def _euros(value: Any, field: str, errors: Errors, *, required: bool) -> Decimal | None:
    """`value` as euros (two decimals, 0 to MAX_AMOUNT), or an error under `field`."""
    if value is None or value == "":
        if required:
            errors[field] = [_("Give an amount in euros.")]
        return None
    try:
        amount = Decimal(str(value).replace(",", ".").strip())
    except InvalidOperation:
        errors[field] = [_("Give an amount in euros, such as 5 or 7.50.")]
        return None
    if not amount.is_finite() or not Decimal("0") <= amount <= MAX_AMOUNT:
        errors[field] = [_("Between 0 and %(max)s euros.") % {"max": MAX_AMOUNT}]
        return None
    return amount.quantize(Decimal("0.01"))


def entry_fee_errors(value: Any) -> tuple[Decimal, Errors]:
    """The tournament form's entry fee checked: (the fee, the errors keyed `entry_fee`)."""
    errors: Errors = {}
    fee = _euros(Decimal("0") if value in (None, "") else value, "entry_fee", errors, required=True)
    return fee if fee is not None else Decimal("0"), errors


# -- payments ---------------------------------------------------------------------------


def competitor_owes(tournament: Tournament, competitor: Competitor) -> Decimal:
    """What `competitor` still owes of the entry fee (the door's « À régler », the desk's
    « à encaisser »): the fee until the director records a payment. Nothing once it is
    recorded as paid, whatever the amount (a reduced fee is the director's call, made at
    the desk), nor for a free entry."""
    if competitor.payment_status != Payment.UNPAID:
        return Decimal("0")
    return max(Decimal("0"), tournament.entry_fee - competitor.amount_paid)


@transaction.atomic
def competitor_set_payment(
    *, by: User, competitor: Competitor, status: str, method: str = "", amount: Any = None
) -> Competitor:
    """Record how a competitor paid the entry fee: paid (a method, an amount: the fee when
    none is given), unpaid, or free."""
    tournament = Tournament.objects.select_related("club").get(pk=competitor.tournament_id)
    require_organiser(by, tournament.club)
    competitor = Competitor.objects.select_for_update().get(pk=competitor.pk)
    errors: Errors = {}
    if status not in Payment.values:
        raise refusal(_("Choose paid, not paid or free."), "payment_status")
    if status == Payment.PAID:
        if method not in Method.values:
            errors["payment_method"] = [_("Say how it was paid: cash, card or transfer.")]
        paid = _euros(tournament.entry_fee if amount in (None, "") else amount, "amount_paid", errors, required=True)
    else:
        if method:
            errors["payment_method"] = [_("A payment method goes with a paid entry only.")]
        paid = Decimal("0")
    raise_errors(errors)
    competitor.payment_status = status
    competitor.payment_method = method if status == Payment.PAID else ""
    competitor.amount_paid = paid or Decimal("0")
    # The treasurer's when and by whom (the payments page): the time of this record.
    competitor.paid_at = timezone.now() if status == Payment.PAID else None
    competitor.payment_recorded_by = by
    fields = ["payment_status", "payment_method", "amount_paid", "paid_at", "payment_recorded_by"]
    competitor.save(update_fields=fields)
    if tournament.prize_pool_kind == Pool.SHARE:
        # The prize money follows the takings: the cached palmarès must show the new amounts.
        _touch(tournament)
    return competitor


# -- prizes -----------------------------------------------------------------------------


def _touch(tournament: Tournament) -> None:
    """The cached ranking (page, projector, PDF) is keyed by `updated_at`: show the new lots."""
    tournament.save(update_fields=["updated_at"])


def _prize_values(
    tournament: Tournament, rank_from: Any, rank_to: Any, text: str, value: Any, *, exclude: int | None = None
) -> dict[str, Any]:
    errors: Errors = {}
    ranks: dict[str, int] = {}
    for field, given in (("rank_from", rank_from), ("rank_to", rank_to)):
        if field == "rank_to" and given in (None, ""):
            # One rank: the lot's last rank is its first (whose errors are said once).
            if "rank_from" in ranks:
                ranks["rank_to"] = ranks["rank_from"]
            continue
        try:
            ranks[field] = int(given)
        except (TypeError, ValueError):
            errors[field] = [_("Give a rank, such as 1.")]
            continue
        if not 1 <= ranks[field] <= MAX_RANK:
            errors[field] = [_("A rank between 1 and %(max)s.") % {"max": MAX_RANK}]
    if not errors and ranks["rank_to"] < ranks["rank_from"]:
        errors["rank_to"] = [_("The last rank comes after the first one.")]
    text = str(text or "").strip()
    if not text:
        errors["text"] = [_("Say what the lot is.")]
    elif len(text) > 200:
        errors["text"] = [_("At most 200 characters.")]
    amount = _euros(value, "value", errors, required=False)
    if not errors:
        others = Prize.objects.filter(
            tournament=tournament, rank_from__lte=ranks["rank_to"], rank_to__gte=ranks["rank_from"]
        )
        if exclude is not None:
            others = others.exclude(pk=exclude)
        clash = others.order_by("rank_from").first()
        if clash is not None:
            field = "rank_from" if clash.covers(ranks["rank_from"]) else "rank_to"
            errors[field] = [
                _("Rank %(ranks)s already has a lot (%(text)s).") % {"ranks": clash.ranks_label, "text": clash.text}
                if clash.rank_from == clash.rank_to
                else _("Ranks %(ranks)s already have a lot (%(text)s).")
                % {"ranks": clash.ranks_label, "text": clash.text}
            ]
    raise_errors(errors)
    return {**ranks, "text": text, "value": amount}


@transaction.atomic
def prize_add(
    *, by: User, tournament: Tournament, rank_from: Any, rank_to: Any = None, text: str, value: Any = None
) -> Prize:
    """A lot for the ranks `rank_from` to `rank_to` (one rank when `rank_to` is empty)."""
    require_organiser(by, tournament.club)
    # Locked: two lots added at once for the same ranks cannot both pass the overlap check.
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    prize = Prize.objects.create(tournament=tournament, **_prize_values(tournament, rank_from, rank_to, text, value))
    _touch(tournament)
    return prize


@transaction.atomic
def prize_update(*, by: User, prize: Prize, rank_from: Any, rank_to: Any = None, text: str, value: Any = None) -> Prize:
    tournament = Tournament.objects.select_for_update().select_related("club").get(pk=prize.tournament_id)
    require_organiser(by, tournament.club)
    values = _prize_values(tournament, rank_from, rank_to, text, value, exclude=prize.pk)
    prize = Prize.objects.get(pk=prize.pk)
    for field, new in values.items():
        setattr(prize, field, new)
    prize.save()
    _touch(tournament)
    return prize


@transaction.atomic
def prize_delete(*, by: User, prize: Prize) -> None:
    tournament = Tournament.objects.select_for_update().select_related("club").get(pk=prize.tournament_id)
    require_organiser(by, tournament.club)
    Prize.objects.filter(pk=prize.pk).delete()
    _touch(tournament)


# -- prize money --------------------------------------------------------------------------

MAX_PLACES = 30
HUNDRED = Decimal("100")


def _percent(value: Any, field: str, errors: Errors) -> Decimal | None:
    """`value` as a percentage (above 0, at most 100, two decimals), or an error under `field`."""
    if value is None or str(value).strip() == "":
        errors[field] = [_("Give a percentage, such as 40.")]
        return None
    try:
        percent = Decimal(str(value).replace(",", ".").replace("%", "").strip())
    except InvalidOperation:
        errors[field] = [_("Give a percentage, such as 40 or 12.5.")]
        return None
    if not percent.is_finite() or not Decimal("0") < percent <= HUNDRED:
        errors[field] = [_("A percentage above 0 and at most 100.")]
        return None
    return percent.quantize(Decimal("0.01"))


def _positive_euros(value: Any, field: str, errors: Errors) -> Decimal | None:
    amount = _euros(value, field, errors, required=True)
    if amount is not None and amount <= 0:
        errors[field] = [_("An amount above 0 euros.")]
        return None
    return amount


def _split_values(split_kind: str, split: Sequence[Any], errors: Errors) -> list[Decimal]:
    """The places' shares, checked, keyed `place_1`, `place_2`... (the empty places at the
    end are dropped; an empty place before a given one is an error)."""
    given = [str(value if value is not None else "").strip() for value in split]
    while given and not given[-1]:
        given.pop()
    if not given:
        errors["split"] = [_("Give at least the share of the first place.")]
        return []
    if len(given) > MAX_PLACES:
        errors["split"] = [_("At most %(count)s places win money.") % {"count": MAX_PLACES}]
        return []
    values = []
    for place, value in enumerate(given, start=1):
        field = f"place_{place}"
        if not value:
            errors[field] = [_("Give this place's share, or leave the places after it empty.")]
            continue
        percent = split_kind == Split.PERCENT
        checked = _percent(value, field, errors) if percent else _positive_euros(value, field, errors)
        if checked is not None:
            values.append(checked)
    return values


@transaction.atomic
def prize_money_set(
    *, by: User, tournament: Tournament, pool_kind: str, pool_value: Any = None, split_kind: str, split: Sequence[Any]
) -> Tournament:
    """Set the prize money: none, a share of the takings (`pool_value` %) or a fixed pool
    (`pool_value` €), split by place (`split`, first place first) as percentages of the
    pool (adding up to 100 at most: the rest stays with the club) or fixed amounts (with a
    fixed pool, adding up to the pool at most). Without prize money, the split kept is
    the one stored, ready for the next time."""
    require_organiser(by, tournament.club)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if pool_kind not in Pool.values:
        raise refusal(_("Choose no prize money, a share of the takings or a fixed pool."), "pool_kind")
    if split_kind not in Split.values:
        raise refusal(_("Choose percentages or fixed amounts."), "split_kind")
    if pool_kind == Pool.NONE:
        tournament.prize_pool_kind = pool_kind
        tournament.save(update_fields=["prize_pool_kind", "updated_at"])
        return tournament
    errors: Errors = {}
    if pool_kind == Pool.SHARE:
        value = _percent(pool_value, "pool_value", errors)
    else:
        value = _positive_euros(pool_value, "pool_value", errors)
    values = _split_values(split_kind, split, errors)
    if not errors:
        total = sum(values, Decimal("0"))
        if split_kind == Split.PERCENT and total > HUNDRED:
            errors["split"] = [
                _("The places add up to %(total)s %%: at most 100 %%.") % {"total": floatformat(total, "-2")}
            ]
        if split_kind == Split.AMOUNT and pool_kind == Pool.FIXED and value is not None and total > value:
            errors["split"] = [
                _("The places add up to %(total)s €, more than the pool of %(pool)s €.")
                % {"total": floatformat(total, "-2"), "pool": floatformat(value, "-2")}
            ]
    raise_errors(errors)
    tournament.prize_pool_kind = pool_kind
    tournament.prize_pool_value = value or Decimal("0")
    tournament.prize_split_kind = split_kind
    tournament.prize_split = [str(v) for v in values]
    tournament.save(
        update_fields=["prize_pool_kind", "prize_pool_value", "prize_split_kind", "prize_split", "updated_at"]
    )
    return tournament
