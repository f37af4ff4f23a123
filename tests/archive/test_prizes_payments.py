"""The entry fee, the payments recorded at check-in and the lots travel in an archive and
come back as they were; an archive whose lots share a rank is refused."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

import pytest

from archive.exporting import archive_dumps, archive_export
from archive.fields import ArchiveError
from archive.importing import archive_import
from tests.archive.test_archive import build_night, reseal, wipe
from tournaments.models import Competitor, Prize, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def night_with_money() -> Tournament:
    night = build_night()
    Tournament.objects.filter(pk=night.pk).update(entry_fee=Decimal("8.00"))
    Competitor.objects.filter(tournament=night, number=1).update(
        payment_status="paid", payment_method="cash", amount_paid=Decimal("8.00")
    )
    Competitor.objects.filter(tournament=night, number=2).update(
        payment_status="paid", payment_method="card", amount_paid=Decimal("6.50")
    )
    Competitor.objects.filter(tournament=night, number=3).update(payment_status="free")
    Prize.objects.create(tournament=night, rank_from=1, rank_to=1, text="Un jambon", value=Decimal("60"))
    Prize.objects.create(tournament=night, rank_from=2, rank_to=4, text="Une bouteille de Marcillac")
    return Tournament.objects.get(pk=night.pk)


def exported(tournament: Tournament) -> dict[str, Any]:
    return json.loads(archive_dumps(archive_export(tournament=tournament)))


def money(tournament: Tournament) -> tuple[Any, ...]:
    payments = list(
        tournament.competitors.order_by("number").values_list(
            "number", "payment_status", "payment_method", "amount_paid"
        )
    )
    lots = list(tournament.prizes.order_by("rank_from").values_list("rank_from", "rank_to", "text", "value"))
    return tournament.entry_fee, payments, lots


def test_an_archive_holds_the_fee_the_payments_and_the_lots(night_with_money: Tournament) -> None:
    content = exported(night_with_money)["content"]
    assert content["tournament"]["entry_fee"] == "8.00"
    assert content["competitors"][1]["payment_method"] == "card"
    assert content["competitors"][1]["amount_paid"] == "6.50"
    assert content["prizes"] == [
        {"rank_from": 1, "rank_to": 1, "text": "Un jambon", "value": "60.00"},
        {"rank_from": 2, "rank_to": 4, "text": "Une bouteille de Marcillac", "value": None},
    ]


def test_fee_payments_and_lots_come_back_as_they_were_and_a_second_import_doubles_nothing(
    night_with_money: Tournament,
) -> None:
    before = money(night_with_money)
    archive = exported(night_with_money)
    wipe()
    report = archive_import(text=json.dumps(archive))
    assert report.count("prizes", "created") == 2
    assert money(report.tournament) == before
    assert exported(report.tournament)["content"] == archive["content"]
    again = archive_import(text=json.dumps(archive))
    assert again.count("prizes", "unchanged") == 2 and not again.wrote
    assert Prize.objects.count() == 2


def test_a_lot_changed_in_the_archive_updates_the_one_of_the_same_first_rank(night_with_money: Tournament) -> None:
    archive = exported(night_with_money)
    archive["content"]["prizes"][1].update(rank_to=3, text="Un saucisson")
    report = archive_import(text=reseal(archive))
    assert report.count("prizes", "updated") == 1
    lot = Prize.objects.get(tournament=night_with_money, rank_from=2)
    assert (lot.rank_to, lot.text) == (3, "Un saucisson")


def test_an_archive_made_before_the_lots_imports_with_none_and_nothing_paid(night_with_money: Tournament) -> None:
    archive = exported(night_with_money)
    del archive["content"]["prizes"]
    del archive["content"]["tournament"]["entry_fee"]
    for competitor in archive["content"]["competitors"]:
        for name in ("payment_status", "payment_method", "amount_paid"):
            del competitor[name]
    wipe()
    tournament = archive_import(text=reseal(archive)).tournament
    assert money(tournament) == (
        Decimal("0"),
        [(number, "unpaid", "", Decimal("0")) for number in range(1, 6)],
        [],
    )


@pytest.mark.parametrize(
    ("lot", "why"),
    [
        ({"rank_from": 3, "rank_to": 5, "text": "X"}, "prizes[2]: ranks 3 to 5 overlap another lot"),
        ({"rank_from": 7, "rank_to": 6, "text": "X"}, "prizes[2]: ranks 7 to 6 are not in order"),
        ({"rank_from": 7, "rank_to": 7, "text": "X", "colour": "red"}, "prizes[2]: unknown field(s) colour"),
    ],
)
def test_an_archive_whose_lots_cannot_stand_is_refused_and_nothing_is_written(
    night_with_money: Tournament, lot: dict[str, Any], why: str
) -> None:
    archive = exported(night_with_money)
    archive["content"]["prizes"].append(lot)
    wipe()
    with pytest.raises(ArchiveError, match=re.escape(why)):
        archive_import(text=reseal(archive))
    assert not Tournament.objects.exists()


def test_a_lot_here_that_would_share_a_rank_with_the_archives_is_an_error(night_with_money: Tournament) -> None:
    archive = exported(night_with_money)
    # A lot added in the other Atout since; here, the lots were replaced by one of ranks 4 to 6.
    archive["content"]["prizes"].append({"rank_from": 5, "rank_to": 5, "text": "Un jambon", "value": None})
    Prize.objects.filter(tournament=night_with_money).delete()
    Prize.objects.create(tournament=night_with_money, rank_from=4, rank_to=6, text="Un panier")
    with pytest.raises(ArchiveError, match=re.escape("prizes[2]: ranks 5 to 5 overlap the lot of ranks 4 to 6")):
        archive_import(text=reseal(archive))
    assert list(night_with_money.prizes.values_list("text", flat=True)) == ["Un panier"]


def test_lots_deleted_here_since_the_archive_was_made_are_not_brought_back(night_with_money: Tournament) -> None:
    archive = exported(night_with_money)
    Prize.objects.filter(tournament=night_with_money).delete()
    Prize.objects.create(tournament=night_with_money, rank_from=4, rank_to=6, text="Un panier")
    report = archive_import(text=json.dumps(archive))
    assert list(night_with_money.prizes.values_list("text", flat=True)) == ["Un panier"]
    assert report.count("prizes", "left out") == 2
    assert [entry.place for entry in report.left_out] == ["prizes[0]", "prizes[1]"]
    assert report.left_out[0].why == "deleted here since this archive was made: not brought back"
