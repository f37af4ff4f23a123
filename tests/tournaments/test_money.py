"""Entry fees and prizes: the director records the lots by rank and each competitor's
payment at check-in; the dashboard sums the cash.

Personas (tests/tournaments/conftest.py): the *organiser* of the Rodez club, and an
*outsider* who organises another club.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from tests.browser_form import as_post_data, form_as_sent
from tests.tournaments.conftest import new_tournament, register_many, tournament_in
from tournaments import services
from tournaments.models import Prize
from tournaments.palmares import Palmares, lots_text
from tournaments.selectors import cash_summary

pytestmark = pytest.mark.django_db


def open_tournament(club, organiser, count: int = 6, fee: str = "8"):
    tournament = new_tournament(club, organiser, entry_fee=Decimal(fee))
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    return tournament, register_many(tournament, organiser, count)


# -- the entry fee --------------------------------------------------------------------------


def test_the_entry_fee_is_set_at_creation_and_changes_until_the_tournament_is_finished(club, organiser) -> None:
    tournament = new_tournament(club, organiser, entry_fee="7,50")
    assert tournament.entry_fee == Decimal("7.50")
    running = tournament_in("running-drawn", club, organiser)
    services.tournament_update(by=organiser, tournament=running, entry_fee=Decimal("10"))
    running.refresh_from_db()
    assert running.entry_fee == Decimal("10")
    finished = tournament_in("finished", club, organiser)
    with pytest.raises(ValidationError) as refused:
        services.tournament_update(by=organiser, tournament=finished, entry_fee=Decimal("10"))
    assert "entry_fee" in refused.value.message_dict


def test_a_negative_or_absurd_entry_fee_is_refused_beside_its_field(club, organiser) -> None:
    for fee in ("-1", "abc", "1e9"):
        with pytest.raises(ValidationError) as refused:
            new_tournament(club, organiser, entry_fee=fee)
        assert list(refused.value.message_dict) == ["entry_fee"], fee


def test_the_settings_page_saves_the_entry_fee(club, organiser, organiser_client) -> None:
    tournament = new_tournament(club, organiser)
    page = organiser_client.get(reverse("manage:tournament_edit", args=[tournament.pk]))
    assert 'name="entry_fee"' in page.content.decode()
    sent = [
        (name, value) for name, value in form_as_sent(page.content.decode(), css_class="form") if name != "entry_fee"
    ]
    form = as_post_data([*sent, ("entry_fee", "6,50")])
    response = organiser_client.post(reverse("manage:tournament_edit", args=[tournament.pk]), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert tournament.entry_fee == Decimal("6.50")


# -- payments ---------------------------------------------------------------------------------


def test_a_payment_records_its_method_and_the_fee_as_amount(club, organiser) -> None:
    _tournament, (first, second, *_rest) = open_tournament(club, organiser)
    paid = services.competitor_set_payment(by=organiser, competitor=first, status="paid", method="card")
    assert (paid.payment_status, paid.payment_method, paid.amount_paid) == ("paid", "card", Decimal("8.00"))
    other = services.competitor_set_payment(by=organiser, competitor=second, status="paid", method="cash", amount="5")
    assert other.amount_paid == Decimal("5.00")
    back = services.competitor_set_payment(by=organiser, competitor=first, status="unpaid")
    assert (back.payment_status, back.payment_method, back.amount_paid) == ("unpaid", "", Decimal("0"))


def test_a_paid_entry_needs_a_method_and_an_unpaid_one_takes_none(club, organiser) -> None:
    _tournament, (first, *_rest) = open_tournament(club, organiser)
    with pytest.raises(ValidationError) as refused:
        services.competitor_set_payment(by=organiser, competitor=first, status="paid")
    assert "payment_method" in refused.value.message_dict
    with pytest.raises(ValidationError):
        services.competitor_set_payment(by=organiser, competitor=first, status="free", method="cash")
    with pytest.raises(ValidationError):
        services.competitor_set_payment(by=organiser, competitor=first, status="gift")


def test_the_cash_summary_adds_up_exactly(club, organiser) -> None:
    tournament, competitors = open_tournament(club, organiser, count=7, fee="7.50")
    a, b, c, d, e, f, g = competitors
    services.competitor_set_payment(by=organiser, competitor=a, status="paid", method="cash")
    services.competitor_set_payment(by=organiser, competitor=b, status="paid", method="cash")
    services.competitor_set_payment(by=organiser, competitor=c, status="paid", method="card")
    services.competitor_set_payment(by=organiser, competitor=d, status="paid", method="transfer", amount="5")
    services.competitor_set_payment(by=organiser, competitor=e, status="free")
    # A withdrawn competitor who never paid owes nothing; g stays to pay.
    services.competitor_withdraw(by=organiser, competitor=f)
    summary = cash_summary(tournament)
    assert summary.received == Decimal("27.50")
    assert summary.by_method == [
        ("Espèces", 2, Decimal("15.00")),
        ("Carte", 1, Decimal("7.50")),
        ("Virement", 1, Decimal("5.00")),
    ]
    assert [x.name for x in summary.unpaid] == [g.name]
    assert summary.outstanding == Decimal("7.50")
    assert summary.expected == Decimal("35.00")
    assert [x.name for x in summary.free] == [e.name]


def test_only_the_clubs_organisers_record_payments(club, organiser, outsider) -> None:
    _tournament, (first, *_rest) = open_tournament(club, organiser)
    with pytest.raises(PermissionDenied):
        services.competitor_set_payment(by=outsider, competitor=first, status="free")


def test_the_dashboard_records_a_payment_in_place_and_shows_the_summary(club, organiser, organiser_client) -> None:
    tournament, (first, *_rest) = open_tournament(club, organiser, count=3)
    url = reverse("manage:payment", args=[tournament.pk, first.pk])
    response = organiser_client.post(url, {"payment": "paid:cash"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="competitors"' in body and 'class="cash-received">8 €' in body
    first.refresh_from_db()
    assert (first.payment_status, first.payment_method) == ("paid", "cash")
    page = organiser_client.get(reverse("manage:dashboard", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    text = page.content.decode()
    assert "Droits d’inscription" in text and "Reste à payer" in text
    assert 'value="paid:cash" selected' in text


def test_a_forged_payment_choice_is_refused_without_an_error_page(club, organiser, organiser_client) -> None:
    tournament, (first, *_rest) = open_tournament(club, organiser, count=3)
    url = reverse("manage:payment", args=[tournament.pk, first.pk])
    response = organiser_client.post(url, {"payment": "paid:gold"})
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.payment_status == "unpaid"


def test_another_clubs_organiser_cannot_record_a_payment(club, organiser, outsider_client) -> None:
    tournament, (first, *_rest) = open_tournament(club, organiser, count=3)
    response = outsider_client.post(reverse("manage:payment", args=[tournament.pk, first.pk]), {"payment": "free"})
    assert response.status_code == 403
    first.refresh_from_db()
    assert first.payment_status == "unpaid"


# -- prizes -----------------------------------------------------------------------------------


def test_lots_by_rank_and_by_range_never_overlap(club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    services.prize_add(by=organiser, tournament=tournament, rank_from=1, text="Un jambon", value="60")
    services.prize_add(by=organiser, tournament=tournament, rank_from=4, rank_to=8, text="Une bouteille")
    for ranks in ((1, 1), (3, 4), (8, 10), (2, 9)):
        with pytest.raises(ValidationError) as refused:
            services.prize_add(by=organiser, tournament=tournament, rank_from=ranks[0], rank_to=ranks[1], text="X")
        assert set(refused.value.message_dict) <= {"rank_from", "rank_to"}, ranks
    with pytest.raises(ValidationError) as refused:
        services.prize_add(by=organiser, tournament=tournament, rank_from=3, rank_to=5, text="X")
    assert refused.value.message_dict == {"rank_to": ["Les rangs 4–8 ont déjà un lot (Une bouteille)."]}
    services.prize_add(by=organiser, tournament=tournament, rank_from=2, rank_to=3, text="Un saucisson")
    assert [p.ranks_label for p in tournament.prizes.order_by("rank_from")] == ["1", "2–3", "4–8"]


def test_a_lot_ends_after_it_starts_and_says_what_it_is(club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    with pytest.raises(ValidationError) as refused:
        services.prize_add(by=organiser, tournament=tournament, rank_from=5, rank_to=2, text="")
    assert set(refused.value.message_dict) == {"rank_to", "text"}
    with pytest.raises(ValidationError) as refused:
        services.prize_add(by=organiser, tournament=tournament, rank_from=0, text="X", value="-3")
    assert set(refused.value.message_dict) == {"rank_from", "value"}


def test_a_lot_moved_onto_its_own_ranks_is_no_overlap_and_deleting_frees_them(club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    lot = services.prize_add(by=organiser, tournament=tournament, rank_from=1, rank_to=3, text="Un panier")
    services.prize_update(by=organiser, prize=lot, rank_from=1, rank_to=4, text="Un grand panier", value=None)
    lot.refresh_from_db()
    assert (lot.rank_to, lot.text) == (4, "Un grand panier")
    services.prize_delete(by=organiser, prize=lot)
    assert not Prize.objects.filter(tournament=tournament).exists()


def test_each_place_of_a_range_wins_its_lot_and_a_tie_shares_the_lots_of_its_places(club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    services.prize_add(by=organiser, tournament=tournament, rank_from=1, text="Un jambon")
    services.prize_add(by=organiser, tournament=tournament, rank_from=2, rank_to=3, text="Un saucisson")
    palmares = Palmares(lots=list(tournament.prizes.order_by("rank_from")))
    alone = [palmares.award(rank) for rank in (1, 2, 3, 4, None)]
    assert [lots_text(award) if award else None for award in alone] == [
        "Un jambon",
        "Un saucisson",
        "Un saucisson",
        None,
        None,
    ]
    # Two tied 2nd hold places 2 and 3, both winning a saucisson: one each, nothing to share.
    tied_second = palmares.award(2, 2)
    assert tied_second is not None and not tied_second.lots_shared and lots_text(tied_second) == "Un saucisson"
    # Two tied 1st hold places 1 and 2: the jambon and a saucisson, to share between them.
    tied_first = palmares.award(1, 2)
    assert tied_first is not None and tied_first.lots_shared
    assert lots_text(tied_first) == "Un jambon + Un saucisson, to share between the 2 tied"
    # Three tied 3rd hold places 3 to 5: one saucisson for the three of them.
    tied_third = palmares.award(3, 3)
    assert tied_third is not None and lots_text(tied_third) == "Un saucisson, to share between the 3 tied"


def test_only_the_clubs_organisers_change_the_lots(club, organiser, outsider) -> None:
    tournament = new_tournament(club, organiser)
    with pytest.raises(PermissionDenied):
        services.prize_add(by=outsider, tournament=tournament, rank_from=1, text="X")
    lot = services.prize_add(by=organiser, tournament=tournament, rank_from=1, text="X")
    with pytest.raises(PermissionDenied):
        services.prize_delete(by=outsider, prize=lot)


def test_the_prizes_page_adds_edits_and_removes_lots_errors_beside_the_field(club, organiser, organiser_client) -> None:
    tournament = new_tournament(club, organiser)
    url = reverse("manage:prizes", args=[tournament.pk])
    assert organiser_client.get(reverse("manage:dashboard", args=[tournament.pk])).content.decode().count(url) == 1
    response = organiser_client.post(url, {"rank_from": "1", "rank_to": "2", "text": "Un jambon", "value": "45,50"})
    assert response.status_code == 302
    lot = tournament.prizes.get()
    assert (lot.rank_from, lot.rank_to, lot.value) == (1, 2, Decimal("45.50"))
    refused = organiser_client.post(url, {"rank_from": "2", "text": "Un saucisson"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert refused.status_code == 200
    body = refused.content.decode()
    assert 'id="field-rank_from"' in body and "Les rangs 1–2 ont déjà un lot (Un jambon)." in body
    edit = reverse("manage:prize_edit", args=[tournament.pk, lot.pk])
    assert organiser_client.post(edit, {"rank_from": "1", "text": "Deux jambons"}).status_code == 302
    lot.refresh_from_db()
    assert (lot.rank_to, lot.text, lot.value) == (1, "Deux jambons", None)
    delete = reverse("manage:prize_delete", args=[tournament.pk, lot.pk])
    assert organiser_client.post(delete).status_code == 302
    assert not tournament.prizes.exists()


def test_another_clubs_organiser_cannot_see_or_change_the_lots(club, organiser, outsider_client) -> None:
    tournament = new_tournament(club, organiser)
    lot = services.prize_add(by=organiser, tournament=tournament, rank_from=1, text="Un jambon")
    assert outsider_client.get(reverse("manage:prizes", args=[tournament.pk])).status_code == 403
    edit = reverse("manage:prize_edit", args=[tournament.pk, lot.pk])
    assert outsider_client.post(edit, {"rank_from": "1", "text": "Rien"}).status_code == 403
    assert outsider_client.post(reverse("manage:prize_delete", args=[tournament.pk, lot.pk])).status_code == 403
    lot.refresh_from_db()
    assert lot.text == "Un jambon"


def test_a_visitor_is_sent_to_log_in(club, organiser, client) -> None:
    tournament = new_tournament(club, organiser)
    response = client.get(reverse("manage:prizes", args=[tournament.pk]))
    assert response.status_code == 302 and "login" in response["Location"]
