"""The settings page in a browser: whatever the tournament's status, "Enregistrer" pressed
without touching anything is accepted and changes nothing; the date is shown; what the
status fixes is greyed out with its reason."""

from __future__ import annotations

import pytest
from django.forms.models import model_to_dict

from tests.factories import ClubFactory, UserFactory
from tests.tournaments.conftest import STATES, tournament_in
from tournaments.models import Tournament


def log_in(page, base_url: str) -> None:
    page.goto(base_url + "/login/")
    page.fill("input[name=username]", "directrice")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_settings_saved_untouched_in_every_status_change_nothing(phone_page, live_server) -> None:
    club = ClubFactory(name="Belote Club de Rodez")
    director = UserFactory(username="directrice")
    club.organisers.add(director)
    page = phone_page
    log_in(page, live_server.url)
    for state in STATES:
        tournament = tournament_in(state, club, director, name=f"Concours {state}")
        before = model_to_dict(Tournament.objects.get(pk=tournament.pk))
        page.goto(f"{live_server.url}/manage/tournament/{tournament.pk}/edit/")
        assert page.locator("input[name=date]").input_value() == "2026-12-05", state
        game = page.locator("select[name=game]")
        if state in ("draft", "registration"):
            assert game.is_enabled() and page.locator(".frozen").count() == 0, state
        else:
            assert game.is_disabled(), state
            reason = page.locator("#field-game .frozen")
            assert reason.is_visible() and reason.inner_text().startswith("Figé :"), state
        page.get_by_role("button", name="Enregistrer", exact=True).click()
        page.get_by_text("Tournoi enregistré.").wait_for()
        assert page.url.endswith(f"/manage/tournament/{tournament.pk}/"), state
        assert model_to_dict(Tournament.objects.get(pk=tournament.pk)) == before, state


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_running_tournament_s_name_changes_and_its_date_stays(phone_page, live_server) -> None:
    club = ClubFactory(name="Belote Club de Rodez")
    director = UserFactory(username="directrice")
    club.organisers.add(director)
    tournament = tournament_in("running-drawn", club, director)
    page = phone_page
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/manage/tournament/{tournament.pk}/edit/")
    assert page.locator("#field-end_value .frozen").inner_text() == "Figé : la ronde 1 est tirée."
    page.fill("input[name=name]", "Concours de la Sainte-Barbe")
    page.get_by_role("button", name="Enregistrer", exact=True).click()
    page.get_by_text("Tournoi enregistré.").wait_for()
    tournament.refresh_from_db()
    assert (tournament.name, str(tournament.date), tournament.game) == (
        "Concours de la Sainte-Barbe",
        "2026-12-05",
        "belote_classique",
    )
