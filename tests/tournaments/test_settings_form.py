"""The settings page of a tournament, sent back untouched, changes nothing and is accepted,
whatever the tournament's status; what the status fixes is shown disabled with its reason.

The form is read and posted as a browser would send it (tests/browser_form.py): a date
an `<input type=date>` cannot hold is sent empty, disabled fields are not sent.
"""

from __future__ import annotations

import pytest
from django.forms.models import model_to_dict
from django.urls import reverse

from tests.browser_form import as_post_data, form_as_sent
from tests.tournaments.conftest import STATES, tournament_in
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def stored(tournament: Tournament) -> dict:
    return model_to_dict(Tournament.objects.get(pk=tournament.pk))


def settings_page(client, tournament: Tournament) -> str:
    response = client.get(reverse("manage:tournament_edit", args=[tournament.pk]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("game", Tournament.Game.values)
@pytest.mark.parametrize("state", STATES)
def test_the_settings_sent_back_untouched_are_accepted_and_change_nothing(
    organiser_client, club, organiser, state, game
) -> None:
    tournament = tournament_in(state, club, organiser, game=game)
    before = stored(tournament)
    sent = form_as_sent(settings_page(organiser_client, tournament), css_class="form")
    assert ("date", "2026-12-05") in sent
    response = organiser_client.post(reverse("manage:tournament_edit", args=[tournament.pk]), as_post_data(sent))
    errors = response.context["form"].errors if response.status_code == 200 else {}
    assert response.status_code == 302, errors
    assert response["Location"] == reverse("manage:dashboard", args=[tournament.pk])
    assert stored(tournament) == before


def test_a_target_score_tournament_sent_back_untouched_keeps_its_target(organiser_client, club, organiser) -> None:
    tournament = tournament_in(
        "running-drawn", club, organiser, end_rule="target", end_value=1000, bye_policy="fixed", bye_points=500
    )
    before = stored(tournament)
    sent = form_as_sent(settings_page(organiser_client, tournament), css_class="form")
    response = organiser_client.post(reverse("manage:tournament_edit", args=[tournament.pk]), as_post_data(sent))
    assert response.status_code == 302 and stored(tournament) == before


def test_the_date_is_shown_as_a_date_input_holds_it_and_a_new_date_is_saved(organiser_client, club, organiser) -> None:
    tournament = tournament_in("draft", club, organiser)
    html = settings_page(organiser_client, tournament)
    assert 'type="date"' in html and 'value="2026-12-05"' in html and "05/12/2026" not in html
    sent = as_post_data(form_as_sent(html, css_class="form"))
    sent["date"] = ["2026-12-19"]
    organiser_client.post(reverse("manage:tournament_edit", args=[tournament.pk]), sent)
    assert str(Tournament.objects.get(pk=tournament.pk).date) == "2026-12-19"


@pytest.mark.parametrize(
    ("state", "reason"),
    [
        ("running", "Figé : le tournoi est lancé."),
        ("running-drawn", "Figé : la ronde 1 est tirée."),
        ("finished", "Figé : le tournoi est terminé."),
    ],
)
def test_what_the_status_fixes_is_shown_disabled_with_its_reason(
    organiser_client, club, organiser, state, reason
) -> None:
    tournament = tournament_in(state, club, organiser)
    form = organiser_client.get(reverse("manage:tournament_edit", args=[tournament.pk])).context["form"]
    frozen = {name for name, field in form.fields.items() if field.disabled}
    options = {name for name in form.fields if name.startswith("option_")}
    assert {"game", "format", "end_rule", "end_value", "criteria"} | options <= frozen
    assert {"name", "date", "is_public"}.isdisjoint(frozen)
    if state == "finished":
        assert {"rounds_planned", "pairing_method", "bye_policy", "confirmation_required"} <= frozen
    else:
        assert {"rounds_planned", "pairing_method", "bye_policy", "confirmation_required"}.isdisjoint(frozen)
    html = settings_page(organiser_client, tournament)
    assert html.count(reason) == len(frozen)
    sent = dict(form_as_sent(html, css_class="form"))
    assert frozen.isdisjoint(sent)


def test_nothing_is_fixed_before_the_tournament_starts(organiser_client, club, organiser) -> None:
    for state in ("draft", "registration"):
        form = organiser_client.get(
            reverse("manage:tournament_edit", args=[tournament_in(state, club, organiser).pk])
        ).context["form"]
        assert not any(field.disabled for field in form.fields.values()), state


def test_a_fixed_setting_posted_anyway_is_ignored_and_the_rest_is_saved(organiser_client, club, organiser) -> None:
    tournament = tournament_in("running-drawn", club, organiser)
    sent = as_post_data(form_as_sent(settings_page(organiser_client, tournament), css_class="form"))
    sent.update(name=["Concours de la Sainte-Barbe"], game=["belote_moderne"], end_value=["3"], format=["melee"])
    response = organiser_client.post(reverse("manage:tournament_edit", args=[tournament.pk]), sent)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.game, tournament.end_value, tournament.format) == (
        "Concours de la Sainte-Barbe",
        "belote_classique",
        12,
        "teams",
    )


def test_the_service_refuses_a_fixed_setting_with_the_reason_the_page_shows(club, organiser) -> None:
    tournament = tournament_in("running-drawn", club, organiser)
    with pytest.raises(Exception) as refused:
        services.tournament_update(by=organiser, tournament=tournament, game="belote_moderne")
    assert refused.value.message_dict["game"] == ["Figé : la ronde 1 est tirée."]
