"""The belote form as a referee meets it: a capot needs no points, an error stays beside
what the referee typed, announcements say what each chip is, diamonds and hearts are red."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import Hand
from tests.scoring.tables import make_table
from tests.scoring.test_referee_pages import beside, post, text

pytestmark = pytest.mark.django_db


def test_a_capot_is_stored_with_its_points_though_none_were_typed(client) -> None:
    table = make_table()
    response = post(client, table, {"taker": "A", "contract": "hearts", "capot": "A"}, number=1)
    assert response.status_code == 302, beside(text(response), "points_taker")
    hand = Hand.objects.get(table=table)
    assert hand.raw["points"] == {"A": 162, "B": 0} and hand.raw["capot"] == "A"


def test_a_capot_by_the_defence_gives_it_every_point(client) -> None:
    table = make_table()
    assert post(client, table, {"taker": "A", "contract": "spades", "capot": "B"}, number=1).status_code == 302
    assert Hand.objects.get(table=table).raw["points"] == {"A": 0, "B": 162}


def test_points_out_of_range_are_flagged_beside_the_typed_field_only(client) -> None:
    table = make_table()
    page = text(post(client, table, {"taker": "A", "contract": "hearts", "points_taker": "170"}, number=1))
    assert "170" in beside(page, "points_taker") or beside(page, "points_taker")
    assert beside(page, "points_defence") == ""
    assert not Hand.objects.filter(table=table).exists()


def test_defence_points_typed_by_the_referee_keep_their_own_error(client) -> None:
    table = make_table()
    entry = {"taker": "A", "contract": "hearts", "points_taker": "100", "points_defence": "100"}
    page = text(post(client, table, entry, number=1))
    assert beside(page, "points_defence") or beside(page, "points_taker")


def test_the_announcements_are_labelled_chips_and_the_red_suits_are_red(client) -> None:
    table = make_table()
    page = text(client.get(reverse("referee:table", args=[table.token])))
    assert page.count("<legend>Annonce</legend>") == 6 and "<legend>Carte haute</legend>" in page
    assert "<legend>Couleur</legend>" in page
    assert re.search(r'<input type="radio" name="ann_A_0_kind" value="tierce"', page)
    assert "<select" not in page
    assert re.search(r'<span class="suit-red">♥ cœur</span>', page)
    assert re.search(r'<span class="suit-red">♦</span>', page)
    assert not re.search(r'<span class="suit-red">♠', page)


def test_defence_points_the_page_filled_in_are_not_flagged_as_the_referees(client) -> None:
    table = make_table()
    entry = {"taker": "A", "contract": "hearts", "points_taker": "170", "points_defence": "-8", "defence_auto": "1"}
    page = text(post(client, table, entry, number=1))
    assert beside(page, "points_taker") and beside(page, "points_defence") == ""
