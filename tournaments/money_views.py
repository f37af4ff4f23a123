"""The organiser's money pages: the prizes (lots in kind and the prize money, on one
page) and the treasurer's payments (the page and its CSV file).

Access as every page under /manage/ (`tournament_view`: the club's organisers). Writes go
through tournaments/services/money.py; reads through tournaments/treasury.py.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import floatformat
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from kit.requests import UserRequest
from kit.sheets import sheet_amount, sheet_text, sheet_writer
from tournaments import services, treasury
from tournaments.forms import PrizeForm, PrizeMoneyForm, add_service_errors
from tournaments.models import Prize, Tournament
from tournaments.services.money import MAX_PLACES
from tournaments.views import tournament_view

# Places offered empty below the stored ones, so that a place is added without script.
SPARE_PLACES = 2
FEWEST_PLACES = 5


def _money_form(tournament: Tournament, data: Any = None) -> PrizeMoneyForm:
    """The prize money's form: as stored, or as sent (with as many places as were sent)."""
    split = treasury.split_of(tournament)
    if data is not None:
        sent = [key for key in data if key.startswith("place_") and key[6:].isdigit()]
        places = min(MAX_PLACES, max([int(key[6:]) for key in sent] + [1]))
        return PrizeMoneyForm(data, places=places)
    places = min(MAX_PLACES, max(FEWEST_PLACES, len(split) + SPARE_PLACES))
    initial: dict[str, Any] = {
        "pool_kind": tournament.prize_pool_kind,
        "pool_value": _plain(tournament.prize_pool_value) if tournament.prize_pool_kind != "none" else "",
        "split_kind": tournament.prize_split_kind,
        **{f"place_{place}": _plain(value) for place, value in enumerate(split, start=1)},
    }
    return PrizeMoneyForm(initial=initial, places=places)


def _plain(value: Any) -> str:
    """A stored decimal as a director types it: 50, 12,5 (French) or 12.5."""
    return str(floatformat(value, "-2"))


def _prizes_page(
    request: UserRequest,
    tournament: Tournament,
    form: PrizeForm,
    editing: Prize | None,
    money_form: PrizeMoneyForm | None = None,
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "club": tournament.club,
        "prizes": list(tournament.prizes.order_by("rank_from")),
        "form": form,
        "editing": editing,
        "money_form": money_form or _money_form(tournament),
        "plan": treasury.money_plan(tournament),
    }
    return render(request, "tournaments/prizes.html", context)


def _prize_saved(request: UserRequest, tournament: Tournament, form: PrizeForm, prize: Prize | None) -> bool:
    """Write the lot of a valid form (a new one when `prize` is None); refusals go to the form."""
    if not form.is_valid():
        return False
    try:
        if prize is None:
            services.prize_add(by=request.user, tournament=tournament, **form.cleaned_data)
        else:
            services.prize_update(by=request.user, prize=prize, **form.cleaned_data)
    except ValidationError as error:
        add_service_errors(form, error)
        return False
    return True


@tournament_view
def prizes(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """The palmarès' settings: the prize money and the lots in kind by rank or range of
    ranks, shown beside the final ranking."""
    form = PrizeForm(request.POST or None)
    if request.method == "POST" and _prize_saved(request, tournament, form, None):
        messages.success(request, _("Lot added."))
        return redirect("manage:prizes", pk=tournament.pk)
    return _prizes_page(request, tournament, form, None)


@tournament_view
def prize_edit(request: UserRequest, tournament: Tournament, prize_id: int) -> HttpResponse:
    prize = get_object_or_404(Prize, pk=prize_id, tournament=tournament)
    initial = {"rank_from": prize.rank_from, "rank_to": prize.rank_to, "text": prize.text, "value": prize.value}
    form = PrizeForm(request.POST or None, initial=initial)
    if request.method == "POST" and _prize_saved(request, tournament, form, prize):
        messages.success(request, _("Lot saved."))
        return redirect("manage:prizes", pk=tournament.pk)
    return _prizes_page(request, tournament, form, prize)


@require_POST
@tournament_view
def prize_delete(request: UserRequest, tournament: Tournament, prize_id: int) -> HttpResponse:
    prize = get_object_or_404(Prize, pk=prize_id, tournament=tournament)
    services.prize_delete(by=request.user, prize=prize)
    messages.success(request, _("Lot removed."))
    return redirect("manage:prizes", pk=tournament.pk)


@require_POST
@tournament_view
def prize_money(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """Save the prize money's settings; a refusal shows the page again, each error beside
    its field and everything typed kept."""
    form = _money_form(tournament, request.POST)
    if form.is_valid():
        try:
            services.prize_money_set(by=request.user, tournament=tournament, **form.service_values())
        except ValidationError as error:
            form.add_refusal(error)
        else:
            messages.success(request, _("Prize money saved."))
            return redirect("manage:prizes", pk=tournament.pk)
    return _prizes_page(request, tournament, PrizeForm(), None, money_form=form)


# -- the treasurer's payments ---------------------------------------------------------------


@require_safe
@tournament_view
def payments(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """Every competitor's entry fee: who paid, how, how much, when and recorded by whom;
    what is still owed and the takings."""
    context = {"tournament": tournament, "club": tournament.club, "payments": treasury.payments(tournament)}
    return render(request, "tournaments/payments.html", context)


@require_safe
@tournament_view
def payments_csv(request: UserRequest, tournament: Tournament) -> HttpResponse:
    """The payments page as a file for the club's treasurer (French Excel first: kit/sheets.py)."""
    found = treasury.payments(tournament)
    out, writer = sheet_writer()
    writer.writerow(
        [
            _("No."),
            _("Name"),
            _("Status"),
            _("Entry fee"),
            _("Method"),
            _("Amount paid (€)"),
            _("Paid at"),
            _("Recorded by"),
            _("Still owed (€)"),
        ]
    )
    for line in found.lines:
        competitor = line.competitor
        paid = competitor.payment_status == competitor.Payment.PAID
        writer.writerow(
            [
                competitor.number,
                sheet_text(competitor.name),
                competitor.get_status_display(),
                competitor.get_payment_status_display(),
                competitor.get_payment_method_display() if competitor.payment_method else "",
                sheet_amount(competitor.amount_paid) if paid else "",
                timezone.localtime(line.paid_at).strftime("%Y-%m-%d %H:%M") if line.paid_at else "",
                sheet_text(line.recorded_by),
                sheet_amount(line.owes) if line.owes else "",
            ]
        )
    writer.writerow([])
    writer.writerow(["", _("Takings"), "", "", "", sheet_amount(found.received), "", "", ""])
    writer.writerow(["", _("Still owed"), "", "", "", "", "", "", sheet_amount(found.owed)])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-paiements.csv"'
    return response
