"""Belote contrée at the table and on the director's pages: bids and coinches tapped on a
phone, a bad hand refused beside its field, the sheet showing the bid, a rule changed and
the concours re-scored."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Hand
from tests.scoring.tables import make_table
from tests.scoring.test_referee_pages import beside, post, text

pytestmark = pytest.mark.django_db


def test_the_referee_taps_a_bid_and_a_coinche_and_the_engine_scores_them(client) -> None:
    table = make_table("belote_contree", end_value=3)
    page = text(client.get(reverse("referee:table", args=[table.token])))
    assert 'name="bid" value="110"' in page and 'name="bid" value="capot"' in page
    assert 'name="coinche" value="1"' in page and "coinché (×2)" in page
    assert 'name="contract" value="sans_atout"' not in page  # suit contracts only by default
    made = {"taker": "A", "bid": "110", "contract": "hearts", "coinche": "0", "points_taker": "113"}
    assert post(client, table, made, number=1).status_code == 302
    coinched = {"taker": "A", "bid": "120", "contract": "spades", "coinche": "1", "points_taker": "130"}
    assert post(client, table, coinched, number=2).status_code == 302
    assert [hand.scores for hand in Hand.objects.filter(table=table).order_by("number")] == [[220, 50], [560, 0]]
    sheet = text(client.get(reverse("referee:table", args=[table.token])))
    assert "110 ♥ cœur" in sheet and "120 ♠ pique coinché" in sheet


def test_a_bid_out_of_steps_is_refused_beside_the_bid(client) -> None:
    table = make_table("belote_contree")
    page = text(
        post(client, table, {"taker": "A", "bid": "115", "contract": "hearts", "points_taker": "113"}, number=1)
    )
    assert beside(page, "bid")
    assert not Hand.objects.filter(table=table).exists()


def test_sans_atout_is_offered_when_the_tournament_plays_it(client) -> None:
    table = make_table("belote_contree", rule_options={"sans_atout_tout_atout": "on", "max_bid": 180})
    page = text(client.get(reverse("referee:table", args=[table.token])))
    assert 'name="contract" value="sans_atout"' in page and 'name="bid" value="180"' in page


def test_a_contree_option_changed_rescores_the_concours(django_capture_on_commit_callbacks) -> None:
    from scoring import jobs
    from scoring.services import hand_submit
    from tests.scoring.tables import director_of

    table = make_table("belote_contree")
    tournament = table.round.tournament
    # 113 + 110 = 223: 220 rounded (the default), 223 once rounding is off.
    hand = {"taker": "A", "bid": 110, "contract": "hearts", "coinche": 0, "points": {"A": 113, "B": 49}}
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=table, raw=hand)
    assert Hand.objects.get(table=table).scores == [220, 50]
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.standings_rules_change(
            by=director_of(tournament),
            tournament=tournament,
            config={**jobs.tournament_config(tournament), "rule_options": {"rounding": "none"}},
        )
    job.refresh_from_db()
    assert job.status == "done", job.error
    assert Hand.objects.get(table=table).scores == [223, 49]
