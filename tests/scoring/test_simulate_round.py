"""`manage.py simulate_round`: a round played out with random valid hands, through the
referee's service, and never twice."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from scoring.models import Hand, HandRevision, TableResult
from tests.scoring.tables import make_table
from tournaments.models import Round, Table

pytestmark = pytest.mark.django_db


def simulate(slug: str, *args: str) -> str:
    out = StringIO()
    call_command("simulate_round", slug, *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("game", ["belote_classique", "belote_moderne", "belote_a_trois", "tarot_a_trois"])
def test_every_table_of_the_round_is_played_to_the_end(game: str) -> None:
    table = make_table(game, end_value=6, tables=3)
    simulate(table.round.tournament.slug)
    for each in Table.objects.filter(round=table.round):
        result = TableResult.objects.get(table=each)
        assert result.finished and result.donnes_played == 6
        assert Hand.objects.filter(table=each, entered_via="simulation").count() >= 6
    assert HandRevision.objects.filter(table__round=table.round, action="create").count() == Hand.objects.count()


def test_running_it_again_adds_nothing() -> None:
    table = make_table(tables=2)
    simulate(table.round.tournament.slug)
    before = list(Hand.objects.order_by("table", "number").values_list("table", "number", "raw"))
    out = simulate(table.round.tournament.slug)
    assert "0 donnes added" in out.splitlines()[-1]
    assert list(Hand.objects.order_by("table", "number").values_list("table", "number", "raw")) == before


def test_a_partial_round_leaves_tables_untouched_halfway_and_finished_and_then_completes() -> None:
    table = make_table(tables=12)
    slug = table.round.tournament.slug
    simulate(slug, "--partial")
    counts = [Hand.objects.filter(table=each).count() for each in Table.objects.filter(round=table.round)]
    finished = TableResult.objects.filter(table__round=table.round, finished=True).count()
    assert 0 in counts and any(0 < count < 12 for count in counts) and finished >= 1
    again = list(Hand.objects.order_by("pk").values_list("pk", flat=True))
    simulate(slug, "--partial")
    assert list(Hand.objects.order_by("pk").values_list("pk", flat=True)) == again
    simulate(slug)
    assert TableResult.objects.filter(table__round=table.round, finished=True).count() == 12


def test_only_the_first_tables_when_asked() -> None:
    table = make_table(tables=3)
    simulate(table.round.tournament.slug, "--tables", "1")
    assert set(Hand.objects.values_list("table__number", flat=True)) == {1}


def test_a_tournament_without_an_open_round_is_a_clear_error() -> None:
    table = make_table()
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    with pytest.raises(CommandError, match="no round is open"):
        simulate(table.round.tournament.slug)
    with pytest.raises(CommandError, match="no tournament"):
        simulate("nowhere")


def test_the_demo_concours_gets_round_1_partly_played_and_a_rerun_changes_nothing() -> None:
    call_command("demo", stdout=StringIO())
    out = simulate_demo()
    assert "round 1:" in out
    tables = Table.objects.filter(round__number=1, round__tournament__game="belote_classique")
    counts = sorted(Hand.objects.filter(table=table).count() for table in tables)
    assert counts[0] < 12 and sum(counts) > 0, "partly played: some tables not finished, some hands in"
    # The tarot à 4 evening: each table's donnes are of the tarot of its size.
    tarot = Hand.objects.filter(table__round__tournament__game="tarot_a_quatre").select_related("table")
    assert tarot.exists()
    assert all(len(hand.scores) == hand.table.seats.count() for hand in tarot)
    before = Hand.objects.count()
    assert "0 donnes added" in simulate_demo()
    assert Hand.objects.count() == before
    Round.objects.filter(tournament__game="belote_classique", number=1).update(status=Round.Status.CLOSED)
    assert "nothing to simulate" in simulate_demo()


def simulate_demo() -> str:
    out = StringIO()
    call_command("simulate_round", "--demo", "--round", "1", "--partial", stdout=out)
    return out.getvalue()
