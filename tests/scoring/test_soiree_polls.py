"""« Ma soirée »'s poll is cheap (issue 28's night: one page per team polling every 3 s)
and never stale: its ETag is made of what the competitor sees, not of the ranking's
version, so a hand elsewhere that leaves the competitor's row as it was answers 304; and
the page still moves when its rank changes, when a donne is entered at its table, when
the next round is drawn, when it is renamed, when a closed round is corrected, when the
tournament finishes. The served ranking's rows are kept per process and version
(scoring.live_ranking.read_rows), bounded.

Personas: the *player* polls their page by its personal link; the *referee* enters
donnes; the *director* draws, closes, corrects and finishes.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rounds.services import round_close, round_draw
from scoring import live_ranking
from scoring.models import Hand
from scoring.services import hand_correct, hand_submit
from tests.factories import CompetitorFactory
from tests.scoring.tables import director_of, make_table
from tournaments import services
from tournaments.models import Bye, Competitor, Table

pytestmark = pytest.mark.django_db

WIN_A = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}
BIG_WIN_A = {"taker": "A", "contract": "hearts", "points": {"A": 152, "B": 10}}
SMALL_WIN_B = {"taker": "B", "contract": "spades", "points": {"A": 70, "B": 92}}


def enter(table: Table, raw: dict, capture) -> None:
    with capture(execute=True):
        hand_submit(table=table, raw=raw)


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


class Phone:
    """A « Ma soirée » page left open: it polls with the ETag it was last drawn with."""

    def __init__(self, competitor: Competitor) -> None:
        competitor.refresh_from_db()
        self.address = reverse("soiree:page", args=[competitor.link_token])
        self.client = Client()
        self.etag = self.client.get(self.address, headers={"HX-Request": "true"})["ETag"]

    def poll(self):
        response = self.client.get(self.address, headers={"HX-Request": "true", "If-None-Match": self.etag})
        assert response.status_code in (200, 304)
        if response.status_code == 200:
            assert response["ETag"] != self.etag
            self.etag = response["ETag"]
        return response


@pytest.fixture
def night() -> Table:
    """Table 1 of round 1 of a concours of six teams: C1 against C2; C3–C4, C5–C6 elsewhere."""
    return make_table(tables=3)


def other(night: Table, number: int) -> Table:
    return Table.objects.get(round=night.round, number=number)


def test_a_hand_elsewhere_that_leaves_my_row_as_it_was_answers_304(
    night: Table, django_capture_on_commit_callbacks
) -> None:
    enter(night, BIG_WIN_A, django_capture_on_commit_callbacks)
    phone = Phone(night.round.tournament.competitors.get(number=1))
    # C5 wins less than C1 did: C1 stays first, its points and partie as they were.
    enter(other(night, 3), WIN_A, django_capture_on_commit_callbacks)
    assert phone.poll().status_code == 304


def test_my_rank_moved_by_a_hand_elsewhere_moves_the_page(night: Table, django_capture_on_commit_callbacks) -> None:
    enter(night, WIN_A, django_capture_on_commit_callbacks)
    phone = Phone(night.round.tournament.competitors.get(number=1))
    assert phone.poll().status_code == 304
    enter(other(night, 2), BIG_WIN_A, django_capture_on_commit_callbacks)
    moved = phone.poll()
    assert moved.status_code == 200 and re.search(r"Rang 2 Points 102", text(moved))
    assert phone.poll().status_code == 304


def test_a_donne_at_my_table_moves_the_page(night: Table, django_capture_on_commit_callbacks) -> None:
    phone = Phone(night.round.tournament.competitors.get(number=1))
    enter(night, WIN_A, django_capture_on_commit_callbacks)
    moved = phone.poll()
    assert moved.status_code == 200 and "1 donne jouée" in text(moved)
    enter(night, SMALL_WIN_B, django_capture_on_commit_callbacks)
    moved = phone.poll()
    assert moved.status_code == 200 and "2 donnes jouées" in text(moved)


def test_the_next_round_a_rename_and_the_end_move_the_page(night: Table, django_capture_on_commit_callbacks) -> None:
    tournament = night.round.tournament
    director = director_of(tournament)
    enter(night, WIN_A, django_capture_on_commit_callbacks)
    phone = Phone(tournament.competitors.get(number=1))
    with django_capture_on_commit_callbacks(execute=True):
        round_close(by=director, round=night.round, force=True)
    assert "Cette ronde est terminée" in text(phone.poll())
    with django_capture_on_commit_callbacks(execute=True):
        round_draw(by=director, tournament=tournament, seed=7)
    moved = phone.poll()
    assert moved.status_code == 200 and "Ronde 2 : table" in text(moved)
    assert "102 points, 60 contre" in text(moved)
    assert phone.poll().status_code == 304

    # Renamed: the ETag moves (the name heads the page).
    Competitor.objects.filter(tournament=tournament, number=1).update(name="Les As")
    assert phone.poll().status_code == 200

    with django_capture_on_commit_callbacks(execute=True):
        for rnd in tournament.rounds.filter(status="open"):
            round_close(by=director, round=rnd, force=True)
        services.tournament_set_status(by=director, tournament=tournament, status="finished")
    moved = phone.poll()
    assert moved.status_code == 200 and "Classement final" in text(moved)


def test_a_correction_in_a_closed_round_moves_the_page(django_capture_on_commit_callbacks) -> None:
    night = make_table(tables=3, end_value=1)
    tournament = night.round.tournament
    director = director_of(tournament)
    for number in (1, 2, 3):
        enter(other(night, number), WIN_A, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(by=director, round=night.round)
        round_draw(by=director, tournament=tournament, seed=7)
    phone = Phone(tournament.competitors.get(number=1))
    assert phone.poll().status_code == 304
    # The director corrects the closed round's donne: the past round shows it.
    with django_capture_on_commit_callbacks(execute=True):
        hand_correct(hand=Hand.objects.get(table=night), raw=BIG_WIN_A, reason="mal saisie", by=director)
    moved = phone.poll()
    assert moved.status_code == 200 and "152 points, 10 contre" in text(moved)


def test_a_poll_reads_the_served_rows_once_per_version(night: Table, django_capture_on_commit_callbacks) -> None:
    enter(night, WIN_A, django_capture_on_commit_callbacks)
    phones = [Phone(night.round.tournament.competitors.get(number=n)) for n in (1, 2, 3)]
    with CaptureQueriesContext(connection) as queries:
        for phone in phones:
            assert phone.poll().status_code == 304
    assert not [q for q in queries.captured_queries if "standingssnapshot" in q["sql"] and '"rows"' in q["sql"]]


def test_the_rows_kept_are_bounded_and_expire(monkeypatch) -> None:
    monkeypatch.setattr(live_ranking, "READ_ROWS", 10)
    live_ranking.keep_read_rows(1, 1, "first", rows=6)
    live_ranking.keep_read_rows(1, 2, "second", rows=6)
    assert live_ranking.read_rows(1, 1) is None and live_ranking.read_rows(1, 2) == "second"
    monkeypatch.setattr(live_ranking, "READ_SECONDS", -1.0)
    live_ranking.keep_read_rows(2, 1, "gone", rows=1)
    assert live_ranking.read_rows(2, 1) is None


def test_my_partie_finishing_shows_in_my_rounds_played_at_once(django_capture_on_commit_callbacks) -> None:
    """The page is drawn in layers (scoring/views/soiree_parts.py): a donne at its table
    redraws its partie, and the donne that ends the partie redraws its past rounds too."""
    night = make_table(tables=3, end_value=1)
    phone = Phone(night.round.tournament.competitors.get(number=1))
    enter(night, WIN_A, django_capture_on_commit_callbacks)
    moved = phone.poll()
    assert moved.status_code == 200 and "102 points, 60 contre" in text(moved)


def test_a_round_i_sit_out_shows_its_points_as_the_round_is_played(django_capture_on_commit_callbacks) -> None:
    """A bye scores by the winners of its round: the other tables' results move it, and
    the page's past rounds with it, not only its rank."""
    night = make_table(tables=2, end_value=1)
    tournament = night.round.tournament
    exempt = CompetitorFactory(tournament=tournament, number=5, name="Les Exemptés")
    Bye.objects.create(round=night.round, competitor=exempt)
    phone = Phone(exempt)
    enter(night, BIG_WIN_A, django_capture_on_commit_callbacks)
    moved = phone.poll()
    assert moved.status_code == 200 and "Ronde 1 · Exempt 152 points, 0 contre" in text(moved)
    # Table 2 ends on 102: the bye scores the mean of the two winners.
    enter(other(night, 2), WIN_A, django_capture_on_commit_callbacks)
    again = phone.poll()
    assert again.status_code == 200 and "Ronde 1 · Exempt 127 points, 0 contre" in text(again)
