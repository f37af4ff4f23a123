"""A table of five at a tarot à 4 tournament with `table_de_cinq: mort` (issue 27): the
dealer sits each donne out and scores 0, the four others play tarot à 4, the deal turns,
the partie lasts a quarter longer; and tarot à 4's whole points on the referee's form."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import rescoring
from scoring.models import Hand, TableResult
from scoring.partie import table_end, table_game, tournament_options
from scoring.services import hand_submit
from tests.scoring.test_referee_pages import beside, post, text
from tests.scoring.test_tarot_tables import tarot_evening
from tournaments import games, selectors

pytestmark = pytest.mark.django_db

# Garde, 2 oudlers, 46 points: made by 5, D = 60; as the referee's form sends it.
GARDE = {"contract": "garde", "oudlers": 2, "points": 46}
TYPED = {"contract": "garde", "oudlers": "2", "points": "46"}


def test_with_the_mort_a_table_of_five_plays_tarot_a_4_and_a_table_of_four_is_unchanged() -> None:
    four, five = tarot_evening(table_de_cinq="mort")
    assert (table_game(four).code, table_game(five).code) == ("tarot_a_quatre", "tarot_a_quatre_mort")
    # A tarot à 5 tournament's tables of five play tarot à 5 whatever the setting.
    (alone,) = tarot_evening("tarot_a_cinq", (5,), table_de_cinq="mort")
    assert table_game(alone).code == "tarot_a_cinq"


def test_the_mort_scores_0_and_the_four_others_score_tarot_a_4() -> None:
    _four, five = tarot_evening(table_de_cinq="mort")
    hand_submit(table=five, raw={"mort": 0, "taker": 2, **GARDE})
    hand_submit(table=five, raw={"mort": 1, "taker": 0, **GARDE})
    assert [hand.scores for hand in Hand.objects.filter(table=five).order_by("number")] == [
        [0, -60, 180, -60, -60],
        [180, 0, -60, -60, -60],
    ]
    assert TableResult.objects.get(table=five).totals == [180, -60, 120, -120, -120]


def test_a_partie_of_5_donnes_lasts_7_at_the_table_of_five_so_that_each_plays_as_many() -> None:
    four, five = tarot_evening(table_de_cinq="mort")
    tournament = five.round.tournament
    assert (tournament.end_value, table_end(tournament, table_game(five)).donnes) == (5, 7)
    assert table_end(tournament, table_game(four)).donnes == 5
    assert games.table_donnes(tournament, 5) == 7 and games.table_donnes(tournament, 4) == 5
    for number in range(6):
        hand_submit(table=five, raw={"mort": number % 5, "taker": (number + 1) % 5, **GARDE})
    assert not TableResult.objects.get(table=five).finished
    hand_submit(table=five, raw={"mort": 1, "taker": 3, **GARDE})
    result = TableResult.objects.get(table=five)
    assert result.finished and result.donnes_played == 7


def test_rescoring_scores_the_table_of_five_with_its_mort_and_its_longer_partie() -> None:
    four, five = tarot_evening(table_de_cinq="mort")
    hand_submit(table=four, raw={"taker": 1, **GARDE})
    hand_submit(table=five, raw={"mort": 4, "taker": 0, **GARDE})
    tournament = four.round.tournament
    scorer = rescoring.TableScorer.of(tournament, tournament_options(tournament))
    outcomes = {o.work.table_id: o for o in map(scorer.score, rescoring.load_tables(tournament.pk))}
    assert outcomes[five.pk].errors == []
    assert outcomes[five.pk].result["totals"] == [180, -60, -60, -60, 0]
    assert outcomes[four.pk].result["totals"] == [-60, 180, -60, -60]


def test_the_referee_form_names_the_mort_and_the_deal_turns(client: Client) -> None:
    _four, five = tarot_evening(table_de_cinq="mort")
    page = text(client.get(reverse("referee:table", args=[five.token])))
    # Donne 1: the first seat deals and sits out.
    assert "Mort de cette donne : <strong>C5</strong>" in page
    assert "Mort (le donneur, qui ne joue pas cette donne)" in page
    response = post(
        client, five, {"mort": "0", "taker": "2", "contract": "garde", "oudlers": "2", "points": "46"}, number=1
    )
    assert response.status_code == 302, beside(text(response), "__all__")
    assert Hand.objects.get(table=five, number=1).scores == [0, -60, 180, -60, -60]
    # Donne 2: the deal has turned to the second seat; the sheet names donne 1's mort.
    page = text(client.get(reverse("referee:table", args=[five.token])))
    assert "Mort de cette donne : <strong>C6</strong>" in page
    assert "mort : C5" in page


def test_the_mort_cannot_take_and_is_told_beside_the_taker(client: Client) -> None:
    _four, five = tarot_evening(table_de_cinq="mort")
    refused = text(post(client, five, {"mort": "2", "taker": "2", **TYPED}, number=1))
    assert "est le mort de cette donne et ne joue pas" in beside(refused, "taker")
    assert not Hand.objects.filter(table=five).exists()


def test_a_half_point_at_four_is_refused_beside_the_points_in_french_and_english() -> None:
    four, _five = tarot_evening()
    entry = {"taker": "1", "contract": "garde", "oudlers": "2", "points": "45,5"}
    french = text(post(Client(), four, entry, number=1))
    assert beside(french, "points") == (
        "À quatre joueurs, les points du preneur sont un nombre entier (il a un nombre pair de cartes) : "
        "45,5 a un demi-point."
    )
    # What was typed stays in the field.
    assert 'value="45,5"' in french or 'value="45.5"' in french
    with translation.override("en"):
        english = text(post(Client(HTTP_ACCEPT_LANGUAGE="en"), four, entry, number=1, HTTP_ACCEPT_LANGUAGE="en"))
    assert "45.5 has a half point" in english
    assert not Hand.objects.filter(table=four).exists()
    # At five (tarot à 5) the half point exists.
    assert Client().get(reverse("referee:table", args=[four.token])).status_code == 200


def test_a_late_table_of_five_with_a_mort_has_more_donnes_to_play() -> None:
    four, _five = tarot_evening(table_de_cinq="mort")
    tournament = four.round.tournament
    assert [selectors.donnes_to_play(tournament, size) for size in (4, 5)] == [5, 7]
