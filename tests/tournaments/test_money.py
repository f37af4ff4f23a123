"""Entry fees and prizes: the director records the lots by rank, the prize money (a share
of the takings or a fixed pool, split by place) and each competitor's payment at check-in;
the dashboard sums the cash, the treasurer reads the payments (page and CSV).

Personas (tests/tournaments/conftest.py): the *organiser* of the Rodez club, and an
*outsider* who organises another club.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone, translation

from tests.browser_form import as_post_data, form_as_sent
from tests.tournaments.conftest import new_tournament, register_many, tournament_in
from tournaments import services, treasury
from tournaments.models import Competitor, Prize, Tournament
from tournaments.palmares import Palmares, lots_text, place_amounts, pool_amount
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
    assert lots_text(tied_first) == "Un jambon + Un saucisson, à partager entre les 2 ex aequo"
    # Three tied 3rd hold places 3 to 5: one saucisson for the three of them.
    tied_third = palmares.award(3, 3)
    assert tied_third is not None and lots_text(tied_third) == "Un saucisson, à partager entre les 3 ex aequo"


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


# -- prize money: the split (tournaments/palmares.py) ------------------------------------------


def test_a_share_of_the_takings_is_rounded_down_and_the_cents_left_go_to_the_first_place() -> None:
    # 50 % of 20,03 € is 10,015 €: the pool is 10,01 €.
    pool = pool_amount("share", Decimal("50"), Decimal("20.03"))
    assert pool == Decimal("10.01")
    # 50 / 30 / 20 % of 10,01 € is 5,005 / 3,003 / 2,002: 5, 3 and 2 €, the cent left to the first.
    amounts = place_amounts(pool, "percent", [Decimal("50"), Decimal("30"), Decimal("20")])
    assert amounts == [Decimal("5.01"), Decimal("3.00"), Decimal("2.00")]
    assert sum(amounts) == pool


def test_percentages_under_100_leave_the_rest_to_the_club_and_fixed_amounts_stay_as_set() -> None:
    amounts = place_amounts(Decimal("99.99"), "percent", [Decimal("40"), Decimal("20")])
    # 60 % of 99,99 € is 59,994 €: 59,99 € promised, 39,996 + 19,998 -> 39,99 + 19,99, a cent to the first.
    assert amounts == [Decimal("40.00"), Decimal("19.99")]
    assert place_amounts(Decimal("10"), "amount", [Decimal("50"), Decimal("25.50")]) == [
        Decimal("50"),
        Decimal("25.50"),
    ]
    assert pool_amount("fixed", Decimal("300"), Decimal("0")) == Decimal("300")
    assert pool_amount("none", Decimal("50"), Decimal("1000")) == Decimal("0")


def test_tied_competitors_share_the_money_of_the_places_they_hold() -> None:
    palmares = Palmares(money=[Decimal("100"), Decimal("60"), Decimal("40"), Decimal("20")])
    assert getattr(palmares.award(1), "money", None) == Decimal("100.00")
    # Two tied 2nd hold places 2 and 3: (60 + 40) / 2 each.
    assert getattr(palmares.award(2, 2), "money", None) == Decimal("50.00")
    # Three tied 2nd hold places 2 to 4: (60 + 40 + 20) / 3 each.
    assert getattr(palmares.award(2, 3), "money", None) == Decimal("40.00")
    # Two tied 4th hold places 4 and 5, and only place 4 wins money: half of it each.
    assert getattr(palmares.award(4, 2), "money", None) == Decimal("10.00")
    assert palmares.award(5) is None
    # A ranking's ranks count the ties themselves: 1, 2, 2, 4 -> places 2 and 3 shared.
    awards = palmares.awards([1, 2, 2, 4, 5, None])
    assert {rank: award.money for rank, award in awards.items()} == {
        1: Decimal("100.00"),
        2: Decimal("50.00"),
        4: Decimal("20.00"),
    }


def test_a_tie_share_is_rounded_down_to_the_cent() -> None:
    palmares = Palmares(money=[Decimal("50.00"), Decimal("33.33"), Decimal("33.34")])
    # (33,33 + 33,34) / 2 = 33,335: 33,33 each, the odd cent stays in the takings.
    assert getattr(palmares.award(2, 2), "money", None) == Decimal("33.33")


def test_money_and_lots_go_together_in_one_award() -> None:
    lot = Prize(pk=1, rank_from=1, rank_to=1, text="Un jambon")
    award = Palmares(lots=[lot], money=[Decimal("80")]).award(1)
    assert award is not None and award.money == Decimal("80.00") and lots_text(award) == "Un jambon"
    assert not Palmares() and not Palmares(money=[Decimal("0")])


# -- prize money: the settings (services) -----------------------------------------------------


def test_the_director_sets_a_share_of_the_takings_split_by_percentages(club, organiser) -> None:
    tournament, competitors = open_tournament(club, organiser, count=4, fee="10")
    services.prize_money_set(
        by=organiser, tournament=tournament, pool_kind="share", pool_value="50", split_kind="percent",
        split=["50", "30,5", "19.5", "", ""],
    )  # fmt: skip
    tournament.refresh_from_db()
    assert (tournament.prize_pool_kind, tournament.prize_pool_value) == ("share", Decimal("50.00"))
    assert tournament.prize_split == ["50.00", "30.50", "19.50"]
    for competitor in competitors[:3]:
        services.competitor_set_payment(by=organiser, competitor=competitor, status="paid", method="cash")
    plan = treasury.money_plan(tournament)
    assert (plan.received, plan.expected, plan.pool_now, plan.pool_expected) == (
        Decimal("30.00"),
        Decimal("40.00"),
        Decimal("15.00"),
        Decimal("20.00"),
    )
    # 15 € split 50 / 30,5 / 19,5 %: 7,50, 4,575 -> 4,57 and 2,925 -> 2,92, the cent to the first.
    assert plan.places == [
        (1, Decimal("7.51"), Decimal("10.00")),
        (2, Decimal("4.57"), Decimal("6.10")),
        (3, Decimal("2.92"), Decimal("3.90")),
    ]
    assert plan.paid_out_now == Decimal("15.00")


def test_prize_money_settings_are_refused_beside_their_fields(club, organiser) -> None:
    tournament = new_tournament(club, organiser)

    def refused(**values) -> dict[str, list[str]]:
        settings = {"pool_kind": "share", "pool_value": "50", "split_kind": "percent", "split": ["60", "40"]}
        with translation.override("fr"), pytest.raises(ValidationError) as error:
            services.prize_money_set(by=organiser, tournament=tournament, **{**settings, **values})
        return error.value.message_dict

    assert refused(split=["60", "30", "20"]) == {"split": ["Les places totalisent 110 % : 100 % au plus."]}
    assert refused(pool_value="120") == {"pool_value": ["Un pourcentage supérieur à 0 et d’au plus 100."]}
    assert refused(pool_value="beaucoup") == {"pool_value": ["Indiquez un pourcentage, par exemple 40 ou 12,5."]}
    assert refused(split=["60", "", "10"]) == {
        "place_2": ["Indiquez la part de cette place, ou laissez vides les places suivantes."]
    }
    assert refused(split=["", ""]) == {"split": ["Indiquez au moins la part de la première place."]}
    assert refused(split=["-5"]) == {"place_1": ["Un pourcentage supérieur à 0 et d’au plus 100."]}
    assert refused(pool_kind="fixed", pool_value="100", split_kind="amount", split=["70", "40,50"]) == {
        "split": ["Les places totalisent 110,50 €, plus que la dotation de 100 €."]
    }
    assert refused(pool_kind="fixed", pool_value="0", split_kind="amount", split=["10"]) == {
        "pool_value": ["Un montant supérieur à 0 euro."]
    }
    assert "pool_kind" in refused(pool_kind="jackpot")
    tournament.refresh_from_db()
    assert tournament.prize_pool_kind == "none" and tournament.prize_split == []


def test_no_prize_money_keeps_the_split_for_next_time_and_only_organisers_set_it(club, organiser, outsider) -> None:
    tournament = new_tournament(club, organiser)
    services.prize_money_set(
        by=organiser, tournament=tournament, pool_kind="fixed", pool_value="200", split_kind="amount",
        split=["120", "80"],
    )  # fmt: skip
    services.prize_money_set(by=organiser, tournament=tournament, pool_kind="none", split_kind="amount", split=[])
    tournament.refresh_from_db()
    assert tournament.prize_pool_kind == "none" and tournament.prize_split == ["120.00", "80.00"]
    assert treasury.money_plan(tournament).places == []
    with pytest.raises(PermissionDenied):
        services.prize_money_set(
            by=outsider, tournament=tournament, pool_kind="fixed", pool_value="1", split_kind="amount", split=["1"]
        )


def test_a_payment_notes_when_and_by_whom_and_moves_a_palmares_that_follows_the_takings(club, organiser) -> None:
    tournament, (first, second, *_rest) = open_tournament(club, organiser)
    before = timezone.now()
    paid = services.competitor_set_payment(by=organiser, competitor=first, status="paid", method="cash")
    assert paid.paid_at is not None and paid.paid_at >= before and paid.payment_recorded_by == organiser
    free = services.competitor_set_payment(by=organiser, competitor=second, status="free")
    assert free.paid_at is None and free.payment_recorded_by == organiser
    back = services.competitor_set_payment(by=organiser, competitor=first, status="unpaid")
    assert back.paid_at is None
    services.prize_money_set(
        by=organiser, tournament=tournament, pool_kind="share", pool_value="50", split_kind="percent", split=["100"]
    )
    tournament.refresh_from_db()
    stamp = tournament.updated_at
    services.competitor_set_payment(by=organiser, competitor=first, status="paid", method="card")
    tournament.refresh_from_db()
    # The cached ranking pages and PDF are keyed by `updated_at`: the new amounts show.
    assert tournament.updated_at > stamp


def test_the_palmares_shows_money_only_once_the_tournament_is_finished(club, organiser) -> None:
    tournament, competitors = open_tournament(club, organiser, count=4, fee="10")
    for competitor in competitors:
        services.competitor_set_payment(by=organiser, competitor=competitor, status="paid", method="cash")
    services.prize_money_set(
        by=organiser, tournament=tournament, pool_kind="share", pool_value="60", split_kind="percent",
        split=["50", "30", "20"],
    )  # fmt: skip
    tournament.refresh_from_db()
    assert not treasury.palmares_shown(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    tournament.refresh_from_db()
    assert list(treasury.palmares_shown(tournament).money) == [Decimal("12.00"), Decimal("7.20"), Decimal("4.80")]


# -- prize money and payments: the pages ------------------------------------------------------


def test_the_prizes_page_saves_the_prize_money_and_keeps_what_was_typed_on_a_refusal(
    club, organiser, organiser_client
) -> None:
    tournament, competitors = open_tournament(club, organiser, count=2, fee="10")
    services.competitor_set_payment(by=organiser, competitor=competitors[0], status="paid", method="cash")
    page = reverse("manage:prizes", args=[tournament.pk])
    url = reverse("manage:prize_money", args=[tournament.pk])
    sent = {"pool_kind": "share", "pool_value": "80", "split_kind": "percent", "place_1": "70", "place_2": "50"}
    refused = organiser_client.post(url, sent, HTTP_ACCEPT_LANGUAGE="fr")
    assert refused.status_code == 200
    body = refused.content.decode()
    assert 'id="field-split"' in body and "Les places totalisent 120 % : 100 % au plus." in body
    assert 'value="70"' in body and 'value="50"' in body and 'value="80"' in body
    wrong_place = organiser_client.post(url, {**sent, "place_2": "cinquante"}, HTTP_ACCEPT_LANGUAGE="fr")
    fragment = wrong_place.content.decode().split('id="field-place_2"')[1].split("</div>")[0]
    assert "Indiquez un pourcentage, par exemple 40 ou 12,5." in fragment
    saved = organiser_client.post(url, {**sent, "place_2": "30"})
    assert saved.status_code == 302 and saved["Location"] == page
    tournament.refresh_from_db()
    assert tournament.prize_split == ["70.00", "30.00"]
    body = organiser_client.get(page, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    # 80 % of the 10 € received is 8 €: 5,60 € and 2,40 €; of the 20 € expected, 16 €.
    assert '<dd class="pool-now">8 € à ce jour, 16 € attendus</dd>' in body
    assert '<td class="num">1</td><td class="num">5,60</td><td class="num">11,20</td>' in body
    assert organiser_client.post(url, {"pool_kind": "<script>", "split_kind": "percent"}).status_code == 200


def test_another_clubs_organiser_cannot_set_the_prize_money_or_read_the_payments(
    club, organiser, outsider_client, client
) -> None:
    tournament = new_tournament(club, organiser)
    url = reverse("manage:prize_money", args=[tournament.pk])
    sent = {"pool_kind": "fixed", "pool_value": "100", "split_kind": "amount", "place_1": "100"}
    assert outsider_client.post(url, sent).status_code == 403
    for name in ("payments", "payments_csv"):
        assert outsider_client.get(reverse(f"manage:{name}", args=[tournament.pk])).status_code == 403
        visitor = client.get(reverse(f"manage:{name}", args=[tournament.pk]))
        assert visitor.status_code == 302 and "login" in visitor["Location"]
    tournament.refresh_from_db()
    assert tournament.prize_pool_kind == "none"


def paid_night(club, organiser):
    """Four teams at 8 €: paid in cash, by card (5 € only), free, and one still to pay."""
    tournament, competitors = open_tournament(club, organiser, count=4)
    first, second, third, _fourth = competitors
    Competitor.objects.filter(pk=first.pk).update(name="=SOMME(A1)")
    services.competitor_set_payment(by=organiser, competitor=first, status="paid", method="cash")
    services.competitor_set_payment(by=organiser, competitor=second, status="paid", method="card", amount="5")
    services.competitor_set_payment(by=organiser, competitor=third, status="free")
    return tournament, competitors


def test_the_payments_page_lists_who_paid_how_when_and_by_whom_and_what_is_owed(
    club, organiser, organiser_client
) -> None:
    organiser.first_name, organiser.last_name = "Hélène", "Bérard"
    organiser.save()
    tournament, _competitors = paid_night(club, organiser)
    dashboard = organiser_client.get(reverse("manage:dashboard", args=[tournament.pk])).content.decode()
    url = reverse("manage:payments", args=[tournament.pk])
    assert url in dashboard
    body = organiser_client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<dd class="payments-received">13,00 €</dd>' in body
    assert '<dd class="payments-owed">8,00 € (1 concurrent)</dd>' in body
    rows = body.split("<tbody>")[1].split("</tbody>")[0].split("</tr>")[:-1]
    assert len(rows) == 4
    assert "Payé" in rows[0] and "Espèces" in rows[0] and "8,00" in rows[0] and "Hélène Bérard" in rows[0]
    assert "<time datetime=" in rows[0]
    assert "Carte" in rows[1] and "5,00" in rows[1]
    assert "Gratuit" in rows[2] and "Hélène Bérard" in rows[2] and "<time" not in rows[2]
    assert "Non payé" in rows[3] and '<td class="num"></td>\n      <td class="num">8,00</td>' in rows[3]


def test_a_free_tournaments_payments_page_owes_nothing_and_says_no_one_unpaid(
    club, organiser, organiser_client
) -> None:
    tournament, _competitors = open_tournament(club, organiser, count=2, fee="0")
    body = organiser_client.get(reverse("manage:payments", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    rows = body.content.decode().split("<tbody>")[1].split("</tbody>")[0]
    assert "Non payé" not in rows and rows.count("<td>—</td>") == 2


def test_the_payments_csv_is_a_french_spreadsheet_with_the_totals(club, organiser, organiser_client) -> None:
    organiser.first_name, organiser.last_name = "Hélène", "Bérard"
    organiser.save()
    tournament, competitors = paid_night(club, organiser)
    response = organiser_client.get(reverse("manage:payments_csv", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="{tournament.slug}-paiements.csv"'
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    lines = [line.split(";") for line in text.lstrip("\ufeff").split("\r\n")]
    assert lines[0] == [
        "N°", "Nom", "Statut", "Droit d’inscription", "Moyen", "Montant payé (€)", "Payé le", "Enregistré par",
        "Reste dû (€)",
    ]  # fmt: skip
    first, second, third, fourth = lines[1:5]
    # A name a spreadsheet would take for a formula stays text.
    assert first[:6] == ["1", "'=SOMME(A1)", "Pointé", "Payé", "Espèces", "8,00"]
    paid_at = Competitor.objects.get(pk=competitors[0].pk).paid_at
    assert paid_at is not None and first[6] == timezone.localtime(paid_at).strftime("%Y-%m-%d %H:%M")
    assert first[7:] == ["Hélène Bérard", ""]
    assert second[3:6] == ["Payé", "Carte", "5,00"]
    assert third[3:] == ["Gratuit", "", "", "", "Hélène Bérard", ""]
    assert fourth[3:] == ["Non payé", "", "", "", "", "8,00"]
    assert lines[5] == [""]
    assert lines[6][1] == "Recette" and lines[6][5] == "13,00"
    assert lines[7][1] == "Reste dû" and lines[7][8] == "8,00"


def test_the_rules_sheet_gives_the_entry_fee_and_the_prize_money(club, organiser, organiser_client) -> None:
    tournament = new_tournament(club, organiser, entry_fee=Decimal("8"), format="teams")
    services.prize_money_set(
        by=organiser, tournament=tournament, pool_kind="share", pool_value="75", split_kind="percent",
        split=["50", "30", "20"],
    )  # fmt: skip
    url = reverse("draw:rules", kwargs={"slug": tournament.slug})
    words = " ".join(
        re.sub(r"<[^>]+>", " ", organiser_client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()).split()
    )
    assert "Inscription : 8,00 € par équipe." in words
    assert "Dotation : 75 % des droits d’inscription encaissés." in words
    assert "Répartition : place 1 : 50 %, place 2 : 30 %, place 3 : 20 %." in words
    assert "Des ex aequo se partagent les prix des places qu’ils occupent, l’argent à parts égales." in words
