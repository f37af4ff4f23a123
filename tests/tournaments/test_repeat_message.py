"""When no draw can avoid a meeting again, the director reads who meets whom, and why."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rounds.services import round_close, round_draw

pytestmark = pytest.mark.django_db


def test_the_dashboard_names_the_two_teams_meeting_again_and_why(organiser_client, running, organiser) -> None:
    tournament, teams = running(2)
    first = round_draw(by=organiser, tournament=tournament)
    round_close(by=organiser, round=first, force=True)
    second = round_draw(by=organiser, tournament=tournament)
    assert second.repeats
    html = organiser_client.get(reverse("manage:dashboard", args=[tournament.pk])).content.decode()
    names = sorted(team.name for team in teams)
    assert "Une revoyure qu’aucun tirage ne pouvait éviter" in html
    assert any(
        f"{a} et {b} se retrouvent (déjà à la même table à la ronde 1)." in html for a, b in (names, names[::-1])
    )
    assert "avait déjà rencontré 1 des 1 autres" in html
