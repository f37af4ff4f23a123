"""The palmarès: what each rank of the final ranking wins, lots in kind and prize money.

Terms:
- *place*: a position in the final ranking, 1, 2, 3... Competitors equal on every
  criterion share a *rank* (1, 2, 2, 4): the two ranked 2nd *hold* places 2 and 3.
- *lot*: a prize in kind (`Prize`), for one place or a range of places (each place of
  the range wins one).
- *takings*: the entry fees received (the amounts of the entries recorded as paid).
- *pool*: the prize money, a share of the takings (a percentage) or a fixed sum.
- *split*: what each place wins of the pool, as percentages of it or as fixed amounts.

The rules (docs/rules.md, "Prize money and ties"):
- Amounts are exact decimals. A share of the takings is rounded down to the cent; each
  place's percentage of the pool too, and the cents these roundings leave go to the first
  place, so that the places win exactly the pool's share they were promised.
- Tied competitors share the prizes of the places they hold: the money of those places
  in equal parts, rounded down to the cent (the odd cents, fewer than the tied, stay in
  the takings); the lots of those places together, to share between them, unless all
  their places win the same lot (a lot for places 2 to 3: each of the two tied 2nd wins
  one).

Nothing here reads the database: tournaments/treasury.py gives the lots, the settings and
the takings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

from django.template.defaultfilters import floatformat
from django.utils.translation import gettext

from tournaments.models import Prize

CENT = Decimal("0.01")
HUNDRED = Decimal("100")
POOL_NONE, POOL_SHARE, POOL_FIXED = "none", "share", "fixed"
SPLIT_PERCENT, SPLIT_AMOUNT = "percent", "amount"


def down_to_cent(amount: Decimal) -> Decimal:
    return amount.quantize(CENT, rounding=ROUND_DOWN)


def pool_amount(kind: str, value: Decimal, takings: Decimal) -> Decimal:
    """The prize money: `value` % of `takings` (down to the cent), or `value` euros."""
    if kind == POOL_SHARE:
        return down_to_cent(takings * value / HUNDRED)
    if kind == POOL_FIXED:
        return value
    return Decimal("0")


def place_amounts(pool: Decimal, split_kind: str, split: Sequence[Decimal]) -> list[Decimal]:
    """What each place wins (first place first): fixed amounts as they are, or each
    place's percentage of `pool` down to the cent, the cents left over going to the first
    place (their sum is exactly the pool's share the percentages add up to)."""
    if split_kind == SPLIT_AMOUNT:
        return list(split)
    amounts = [down_to_cent(pool * percent / HUNDRED) for percent in split]
    if amounts:
        promised = down_to_cent(pool * sum(split, Decimal("0")) / HUNDRED)
        amounts[0] += promised - sum(amounts, Decimal("0"))
    return amounts


@dataclass(frozen=True, slots=True)
class Award:
    """What one competitor of a rank wins: `lots` (each lot with the number of places held
    that win it), `money` (its own part, None when none) and `shared_by` (the competitors
    holding the rank: 1 when alone)."""

    first_place: int
    shared_by: int
    lots: tuple[tuple[Prize, int], ...]
    money: Decimal | None

    @property
    def lots_shared(self) -> bool:
        """Whether the lots are to share between the tied rather than one to each: the
        places they hold win different lots, or not all win one."""
        if self.shared_by == 1 or not self.lots:
            return False
        return not (len(self.lots) == 1 and self.lots[0][1] == self.shared_by)

    @property
    def lot_texts(self) -> list[str]:
        """The lots as a reader sees them: "Un saucisson", "2 × Un saucisson"."""
        if not self.lots_shared:
            return [prize.text for prize, _count in self.lots[:1]]
        return [prize.text if count == 1 else f"{count} × {prize.text}" for prize, count in self.lots]

    def __bool__(self) -> bool:
        return bool(self.lots) or self.money is not None


@dataclass(frozen=True, slots=True)
class Palmares:
    """The prizes of the final ranking by place: `lots` (in kind) and `money` (the
    amount of each place, first place first). Empty (false) when it promises nothing."""

    lots: Sequence[Prize] = ()
    money: Sequence[Decimal] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.lots) or any(self.money)

    @property
    def has_money(self) -> bool:
        return any(self.money)

    def _lot_of(self, place: int) -> Prize | None:
        return next((prize for prize in self.lots if prize.rank_from <= place <= prize.rank_to), None)

    def award(self, rank: object, shared_by: int = 1) -> Award | None:
        """What each of the `shared_by` competitors ranked `rank` wins, or None."""
        if not isinstance(rank, int) or isinstance(rank, bool) or rank < 1 or shared_by < 1:
            return None
        places = range(rank, rank + shared_by)
        lots: list[tuple[Prize, int]] = []
        for place in places:
            lot = self._lot_of(place)
            if lot is None:
                continue
            if lots and lots[-1][0].pk == lot.pk:
                lots[-1] = (lot, lots[-1][1] + 1)
            else:
                lots.append((lot, 1))
        held = sum((self.money[place - 1] for place in places if place <= len(self.money)), Decimal("0"))
        money = down_to_cent(held / shared_by) if held > 0 else None
        award = Award(first_place=rank, shared_by=shared_by, lots=tuple(lots), money=money)
        return award if award else None

    def awards(self, ranks: Iterable[object]) -> dict[object, Award]:
        """The award of each rank among `ranks` (a ranking's, one per competitor, so
        that a rank given twice is a tie of two), for the ranks that win something."""
        held = Counter(rank for rank in ranks if isinstance(rank, int))
        found: dict[object, Award] = {}
        for rank, count in held.items():
            award = self.award(rank, count)
            if award is not None:
                found[rank] = award
        return found


# -- as a reader sees them -------------------------------------------------------------------


def euros(amount: Decimal) -> str:
    """An amount as the site writes it, in the reader's language: 60 €, 27,50 €."""
    return f"{floatformat(amount, '-2')} €"


def lots_text(award: Award) -> str:
    """The lots of `award` in one line: "Un jambon", or with a tie that holds places
    winning different lots, "Un jambon + Un saucisson, to share between the 2 tied"."""
    texts = " + ".join(award.lot_texts)
    if not award.lots_shared:
        return texts
    return gettext("%(lots)s, to share between the %(count)s tied") % {"lots": texts, "count": award.shared_by}
