"""One check of a tournament's rules (tournaments.rules), for its settings and for the
standings page alike: what the standings page stores, the tournament's settings keep.

The regression: once a director chose Buchholz (or any criterion outside the three of the
creation form) on the standings page, every later edit of the tournament failed, even a
rename."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring import jobs
from scoring.models import Job
from tests.scoring.tables import director_of, make_table
from tournaments import services
from tournaments.forms import TournamentForm
from tournaments.models import Tournament
from tournaments.rules import rules_check

pytestmark = pytest.mark.django_db

CHOSEN = ["wins", "buchholz", "head_to_head"]
NEW_DATE = datetime.date(2026, 12, 6)


@pytest.fixture(params=["registration", "running"])
def tournament(request: pytest.FixtureRequest) -> Tournament:
    """A belote concours with round 1 drawn, before and after its start."""
    tournament = make_table().round.tournament
    tournament.status = request.param
    tournament.save()
    return tournament


def test_the_standings_page_choice_of_buchholz_and_head_to_head_survives_a_rename_and_a_new_date(
    tournament: Tournament, django_capture_on_commit_callbacks
) -> None:
    director = director_of(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        jobs.standings_rules_change(
            by=director, tournament=tournament, config={**jobs.tournament_config(tournament), "criteria": CHOSEN}
        )
    tournament.refresh_from_db()
    assert tournament.criteria == CHOSEN
    services.tournament_update(by=director, tournament=tournament, name="Grand concours d'hiver", date=NEW_DATE)
    tournament.refresh_from_db()
    assert (tournament.name, tournament.date, tournament.criteria) == ("Grand concours d'hiver", NEW_DATE, CHOSEN)


def test_the_same_through_the_pages(tournament: Tournament, client: Client, django_capture_on_commit_callbacks) -> None:
    client.force_login(director_of(tournament))
    standings = reverse("standings_manage:index", kwargs={"slug": tournament.slug})
    shown = client.get(standings).context["form"]
    form = {name: value for name, value in shown.initial.items() if value is not None}
    form.update(criterion_1="wins", criterion_2="buchholz", criterion_3="head_to_head")
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(standings, form).status_code == 302
    assert Job.objects.get().status == "done"

    edit = reverse("manage:tournament_edit", args=[tournament.pk])
    page = client.get(edit)
    # The edit page shows the tournament's own order, chosen, with its words.
    assert '<option value="wins,buchholz,head_to_head" selected>' in page.content.decode()
    assert "Parties gagnées, Buchholz, Confrontation directe" in page.content.decode()
    posted = _as_posted(page.context["form"])
    posted.update(name="Grand concours d'hiver", date=NEW_DATE.isoformat())
    response = client.post(edit, posted)
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    assert (tournament.name, tournament.date, tournament.criteria) == ("Grand concours d'hiver", NEW_DATE, CHOSEN)


def _as_posted(form: TournamentForm) -> dict[str, Any]:
    """What the browser sends back for the form as shown: every field's initial value."""
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = str(value)
    return data


# -- the one check ------------------------------------------------------------------------


def test_the_rules_are_resolved_with_the_game_defaults() -> None:
    rules, errors = rules_check(
        game="tarot_a_trois", rule_options={"primes": "fft"}, criteria=None, bye_policy="none", bye_points=None
    )
    assert errors == {} and rules is not None
    assert rules.criteria == ["points", "wins"]
    assert rules.rule_options == {"half_points": "to_winner", "primes": "fft"}
    assert rules.bye_points == 0
    assert rules.late_policy == "absent"


def test_the_late_policy_is_checked_beside_the_bye_policy() -> None:
    common = {"game": "belote_classique", "rule_options": {}, "criteria": None, "bye_policy": "average_win"}
    rules, _ = rules_check(**common, bye_points=0, late_policy="bye")
    assert rules is not None and rules.late_policy == "bye"
    rules, errors = rules_check(**common, bye_points=0, late_policy="credited")
    assert rules is None and list(errors) == ["late_policy"]


def test_every_criterion_of_the_engine_is_allowed_each_once() -> None:
    every = ["wins", "match_points", "points", "difference", "against", "buchholz", "head_to_head"]
    assert rules_check(game="belote_a_trois", rule_options={}, criteria=every, bye_policy="none", bye_points=0)[0]
    _, errors = rules_check(
        game="belote_classique", rule_options={}, criteria=["wins", "wins"], bye_policy="fixed", bye_points=-1
    )
    assert set(errors) == {"criteria", "bye_points"}


def test_an_unknown_game_is_the_only_error_said() -> None:
    rules, errors = rules_check(game="poker", rule_options={"x": 1}, criteria=["luck"], bye_policy="?", bye_points=0)
    assert rules is None and list(errors) == ["game"]
