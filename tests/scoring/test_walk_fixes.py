"""Small things every player saw on the walk of issue 28: the ranking file marks a withdrawn
team as the page does, and the final ranking's PDF says it is final."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.exports import ranking_csv
from scoring.pdf import ranking_pdf
from scoring.services import hand_submit
from scoring.standings import standings_rebuild
from tests.scoring.tables import director_of, make_table
from tournaments import services
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db

WIN_A = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}


@pytest.fixture
def played(django_capture_on_commit_callbacks) -> Table:
    table = make_table(tables=2)
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=table, raw=WIN_A)
    return table


def test_the_ranking_csv_marks_a_withdrawn_team_as_the_page_and_the_pdf_do(played: Table, client: Client) -> None:
    tournament = played.round.tournament
    gone = tournament.competitors.order_by("number").last()
    services.competitor_withdraw(by=director_of(tournament), competitor=gone)
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    names = [line.split(";")[2] for line in ranking_csv(snapshot).lstrip("\ufeff").splitlines()[1:]]
    assert f"{gone.name} (abandon)" in names
    assert sum("(abandon)" in name for name in names) == 1
    page = client.get(reverse("public:ranking", kwargs={"slug": tournament.slug})).content.decode()
    assert "(abandon)" in page
    assert f"({gone.name} \\(abandon\\))" in ranking_pdf(tournament, snapshot, compress=False).decode("latin-1")


def test_the_final_rankings_pdf_says_classement_final_not_the_last_round(played: Table) -> None:
    tournament = played.round.tournament
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    running = ranking_pdf(tournament, snapshot, compress=False).decode("latin-1")
    assert "Ronde 1" in running and "Classement final" not in running
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    tournament.refresh_from_db()
    final = ranking_pdf(tournament, snapshot, compress=False).decode("latin-1")
    assert "Classement final" in final and "Ronde 1" not in final
