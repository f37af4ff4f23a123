"""Names the French way: a director types without accents and reads lists in French order."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from tests.factories import PlayerFactory
from tests.tournaments.conftest import new_tournament, register_many
from tournaments import selectors, services
from tournaments.models import Competitor
from tournaments.text import fold, matches, sort_key


def test_folding_drops_accents_case_and_ligatures() -> None:
    assert fold("  Hélène  BÉRARD ") == "helene berard"
    assert fold("Œuf Cœur Æsop Straße François") == "oeuf coeur aesop strasse francois"


def test_every_word_typed_must_be_found_accents_aside() -> None:
    assert matches("helene ber", "Hélène", "Bérard")
    assert not matches("helene boyer", "Hélène", "Bérard")
    assert matches("", "x")  # an empty query matches everything


def test_a_python_sort_puts_berard_before_boyer() -> None:
    assert sorted(["Boyer", "Bérard", "Zola", "Émile"], key=sort_key) == ["Bérard", "Boyer", "Émile", "Zola"]


@pytest.mark.django_db
def test_the_database_sorts_the_french_way(club) -> None:
    for last in ("Boyer", "Zola", "Bérard", "émile", "Édith", "Abel"):
        PlayerFactory(club=club, last_name=last, first_name="X")
    names = list(selectors.club_players(club).values_list("last_name", flat=True))
    assert names == ["Abel", "Bérard", "Boyer", "Édith", "émile", "Zola"]


@pytest.mark.django_db
def test_a_search_typed_without_accents_finds_the_accented_name(club) -> None:
    helene = PlayerFactory(club=club, last_name="Bérard", first_name="Hélène")
    PlayerFactory(club=club, last_name="Boyer", first_name="Hélios")
    assert list(selectors.club_players(club, "helene")) == [helene]
    assert list(selectors.club_players(club, "BERARD hel")) == [helene]
    assert list(selectors.club_players(club, "Hélène")) == [helene]
    assert list(selectors.club_players(club, helene.licence)) == [helene]


@pytest.mark.django_db
def test_the_players_page_finds_helene_typed_without_accent(organiser_client, club) -> None:
    PlayerFactory(club=club, last_name="Bérard", first_name="Hélène")
    PlayerFactory(club=club, last_name="Boyer", first_name="Paul")
    html = organiser_client.get(reverse("manage:players", args=[club.pk]), {"q": "helene"}).content.decode()
    assert "Hélène" in html and "Boyer" not in html


@pytest.mark.django_db
def test_the_registration_picker_lists_players_in_french_order_with_a_search_box(
    organiser_client, organiser, club
) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    for last in ("Boyer", "Bérard"):
        PlayerFactory(club=club, last_name=last, first_name="Anne", licence="")
    html = organiser_client.get(reverse("manage:register", args=[tournament.pk])).content.decode()
    assert html.index("Bérard Anne") < html.index("Boyer Anne")
    assert 'data-filters="id_player_1"' in html and "js/picker" in html


@pytest.mark.django_db
def test_everyone_registered_is_checked_in_at_once_before_the_draw(organiser_client, organiser, club) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    register_many(tournament, organiser, 5, checked_in=False)
    dashboard = organiser_client.get(reverse("manage:dashboard", args=[tournament.pk])).content.decode()
    assert "Tout pointer (5 inscriptions)" in dashboard
    response = organiser_client.post(reverse("manage:check_in_all", args=[tournament.pk]))
    assert response.status_code == 302
    assert set(tournament.competitors.values_list("status", flat=True)) == {Competitor.Status.CHECKED_IN}


@pytest.mark.django_db
def test_checking_everyone_in_is_refused_once_the_tournament_runs(organiser, running) -> None:
    tournament, _ = running(4)
    before = sorted(tournament.competitors.values_list("pk", "status"))
    with pytest.raises(ValidationError, match="inscriptions"):
        services.competitors_check_in_all(by=organiser, tournament=tournament)
    assert sorted(tournament.competitors.values_list("pk", "status")) == before


@pytest.mark.django_db
def test_checking_everyone_in_needs_an_organiser_of_the_club(outsider, organiser, club) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    register_many(tournament, organiser, 2, checked_in=False)
    with pytest.raises(PermissionDenied):
        services.competitors_check_in_all(by=outsider, tournament=tournament)
