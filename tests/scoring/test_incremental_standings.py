"""The live ranking kept incrementally equals the ranking rebuilt from every round.

A stored hand updates the ranking from the closed rounds' stored totals
(scoring/standings/base.py) plus the rounds in play; the full rebuild reads every round.
After any sequence of entries, corrections, deletions, withdrawals, late arrivals and
round closes, made through the services as on the night, every stored snapshot (the
live one and each round's) holds exactly the rows the full rebuild computes now.
PostgreSQL, with real commits: the refresh runs when the services' transactions commit.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rounds.services import round_close, round_draw
from scoring.models import Hand, StandingsBase, StandingsSnapshot
from scoring.services import HandRefused, hand_correct, hand_delete, hand_submit
from scoring.standings import load, rank_rows, snapshots
from scoring.standings.ranking import ranking_config
from tests.tiers import examples
from tests.tournaments.conftest import club, organiser, register_many, running
from tournaments import services
from tournaments.models import Competitor, Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

# The tournaments' personas and builders (tests/tournaments/conftest.py), as fixtures here.
__all__ = ["club", "organiser", "running"]

RAWS = [
    {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}},
    {"taker": "B", "contract": "spades", "points": {"A": 40, "B": 122}},
    {"taker": "A", "contract": "clubs", "points": {"A": 81, "B": 81}},
    {"taker": "B", "contract": "diamonds", "points": {"A": 90, "B": 72}},
]

CRITERIA = [
    ["wins", "points", "difference"],
    ["match_points", "buchholz", "points"],
    ["wins", "head_to_head", "against"],
]

entry = st.tuples(st.just("enter"), st.integers(0, 9), st.integers(0, len(RAWS) - 1))
# Entries are most of a night: three times as likely as any other step.
operation = st.one_of(
    entry,
    entry,
    entry,
    st.tuples(st.just("correct"), st.integers(0, 99), st.integers(0, len(RAWS) - 1)),
    st.tuples(st.just("delete"), st.integers(0, 99), st.just(0)),
    st.tuples(st.just("withdraw"), st.integers(0, 9), st.just(0)),
    st.tuples(st.just("late"), st.just(0), st.just(0)),
    st.tuples(st.just("close"), st.just(0), st.just(0)),
)


def ranked_as_rebuilt(tournament: Tournament) -> None:
    """Every round's newest snapshot holds the rows a full rebuild computes from every round."""
    tournament.refresh_from_db()
    loaded = load(tournament)
    criteria, match_points = ranking_config(tournament)
    for number in loaded.rounds:
        stored = (
            StandingsSnapshot.objects.filter(tournament=tournament, after_round=number).order_by("-version").first()
        )
        assert stored is not None, f"no ranking after round {number}"
        assert stored.rows == rank_rows(loaded, number, criteria, match_points), f"after round {number}"
    live = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").first()
    assert live is not None and live.after_round == loaded.rounds[-1]


def play(tournament: Tournament, organiser: Any, step: tuple[str, int, int]) -> None:
    """One step of the night through the services; a step the services refuse changes nothing."""
    kind, index, choice = step
    open_round = Round.objects.filter(tournament=tournament, status=Round.Status.OPEN).first()
    hands = list(Hand.objects.filter(table__round__tournament=tournament).order_by("pk"))
    try:
        if kind == "enter" and open_round is not None:
            tables = list(open_round.tables.order_by("number"))
            if tables:
                hand_submit(table=tables[index % len(tables)], raw=RAWS[choice])
        elif kind == "correct" and hands:
            hand_correct(hand=hands[index % len(hands)], raw=RAWS[choice], reason="erreur de saisie", by=organiser)
        elif kind == "delete" and hands:
            hand_delete(hand=hands[index % len(hands)], reason="donne en trop", by=organiser)
        elif kind == "withdraw":
            active = list(tournament.competitors.exclude(status=Competitor.Status.WITHDRAWN).order_by("number"))
            if len(active) > 3:
                services.competitor_withdraw(by=organiser, competitor=active[index % len(active)])
        elif kind == "late":
            register_many(tournament, organiser, 1)
        elif kind == "close" and open_round is not None:
            round_close(by=organiser, round=open_round, force=True)
            if Round.objects.filter(tournament=tournament).count() < tournament.rounds_planned:
                round_draw(by=organiser, tournament=tournament)
    except (ValidationError, HandRefused):
        # Refused: a closed round, a hand after the partie's end (a partie of one donne
        # entered twice), a rule broken.
        pass


# Hypothesis plays the nights inside the test: the property tier (tests/tiers.py).
@pytest.mark.property
def test_the_live_ranking_kept_incrementally_equals_the_full_rebuild(
    running: Any, organiser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths: Counter[str] = Counter()
    live_update = snapshots.live_update

    def counted(*args: Any, **kwargs: Any) -> Any:
        outcome = live_update(*args, **kwargs)
        paths["full" if outcome is snapshots.FULL else "incremental"] += 1
        return outcome

    monkeypatch.setattr(snapshots, "live_update", counted)

    @settings(
        max_examples=examples(40),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        criteria=st.sampled_from(CRITERIA),
        bye_policy=st.sampled_from(["average_win", "fixed", "none"]),
        late_policy=st.sampled_from(["absent", "bye"]),
        donnes=st.sampled_from([1, 2, 3]),
        steps=st.lists(operation, min_size=1, max_size=14),
    )
    def night(
        criteria: list[str], bye_policy: str, late_policy: str, donnes: int, steps: list[tuple[str, int, int]]
    ) -> None:
        tournament, _teams = running(
            5, criteria=criteria, bye_policy=bye_policy, bye_points=500, late_policy=late_policy,
            end_rule="donnes", end_value=donnes, rounds_planned=3,
        )  # fmt: skip
        round_draw(by=organiser, tournament=tournament)
        ranked_as_rebuilt(tournament)
        for step in steps:
            play(tournament, organiser, step)
            ranked_as_rebuilt(tournament)

    night()
    # The property says something only if refreshes went both ways.
    assert paths["incremental"] > 0 and paths["full"] > 0


def test_a_correction_in_a_closed_round_drops_the_stored_totals_and_the_ranking_follows(
    running: Any, organiser: Any
) -> None:
    tournament, _teams = running(4, criteria=["wins", "points"], end_rule="donnes", end_value=1)
    first = round_draw(by=organiser, tournament=tournament)
    for table in first.tables.all():
        hand_submit(table=table, raw=RAWS[0])
    round_close(by=organiser, round=first)
    round_draw(by=organiser, tournament=tournament)
    base = StandingsBase.objects.get(tournament=tournament)
    assert (base.through_round, bool(base.token)) == (1, True)
    hand = Hand.objects.filter(table__round=first).order_by("pk").first()
    assert hand is not None
    hand_correct(hand=hand, raw=RAWS[1], reason="erreur de saisie", by=organiser)
    ranked_as_rebuilt(tournament)
    # The refresh after the correction read every round again and stored the totals anew.
    base.refresh_from_db()
    assert base.through_round == 1 and base.token and base.generation >= 1
