"""One person never sits twice in a tournament, whichever form or service registers them.

« Lefevre Helene » typed while « Hélène Lefèvre » plays is the same person, as the CSV
import finds (accents, case and word order aside, or the same licence): every way of
registering refuses the second seat, and the forms offer the player the club has.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import PlayerFactory
from tests.tournaments.conftest import new_tournament
from tournaments import services
from tournaments.models import Competitor, Player, Tournament

pytestmark = pytest.mark.django_db

# The same person as Hélène Lefèvre, typed in each way a busy director types her.
SAME_HELENE = [
    {"last_name": "Lefevre", "first_name": "Helene"},
    {"last_name": "LEFÈVRE", "first_name": "hélène"},
    {"last_name": "Helene", "first_name": "Lefevre"},
    {"last_name": "Martin", "first_name": "Ève", "licence": "L 0042"},
]


def _open(club, organiser) -> Tournament:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    return tournament


@pytest.fixture
def helene_plays(club, organiser) -> tuple[Tournament, Player]:
    """A teams tournament where Hélène Lefèvre (licence L0042) is registered with a partner."""
    tournament = _open(club, organiser)
    helene = PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="L0042")
    services.competitor_register(
        by=organiser, tournament=tournament, players=[helene, PlayerFactory(club=club)], checked_in=True
    )
    return tournament, helene


def _codes(error: pytest.ExceptionInfo[ValidationError], key: str) -> list[str | None]:
    return [problem.code for problem in error.value.error_dict[key]]


@pytest.mark.parametrize("typed", SAME_HELENE)
def test_the_service_refuses_to_register_the_same_person_typed_again(helene_plays, organiser, typed) -> None:
    tournament, _helene = helene_plays
    with pytest.raises(ValidationError) as error:
        services.competitor_register(
            by=organiser,
            tournament=tournament,
            players=[PlayerFactory(club=tournament.club), services.NewPlayer(**typed)],
        )
    assert _codes(error, "player_2") == ["already_registered"]
    assert tournament.competitors.count() == 1
    assert Player.objects.filter(club=tournament.club).count() == 3


def test_a_second_record_of_the_same_person_made_before_the_rule_cannot_be_registered(helene_plays, organiser) -> None:
    tournament, _helene = helene_plays
    # A record typed before names were compared folded: the club has her twice.
    twin = Player.objects.create(club=tournament.club, last_name="Lefevre", first_name="Helene")
    with pytest.raises(ValidationError) as error:
        services.competitor_register(
            by=organiser, tournament=tournament, players=[twin, PlayerFactory(club=tournament.club)]
        )
    assert _codes(error, "player_1") == ["already_registered"]


def test_the_same_person_twice_in_one_team_is_refused(club, organiser) -> None:
    tournament = _open(club, organiser)
    helene = PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="")
    with pytest.raises(ValidationError) as error:
        services.competitor_register(
            by=organiser,
            tournament=tournament,
            players=[helene, services.NewPlayer(last_name="Lefevre", first_name="Helene")],
        )
    assert "__all__" in error.value.error_dict or "player_2" in error.value.error_dict
    assert not tournament.competitors.exists()


def test_homonyms_told_apart_by_their_licences_both_play(helene_plays, organiser) -> None:
    tournament, _helene = helene_plays
    other = services.competitor_register(
        by=organiser,
        tournament=tournament,
        players=[
            PlayerFactory(club=tournament.club),
            services.NewPlayer(last_name="Lefèvre", first_name="Hélène", licence="L9999"),
        ],
    )
    assert other.number == 2


def test_a_name_the_club_has_is_refused_with_that_player_named_for_the_form_to_offer(club, organiser) -> None:
    tournament = _open(club, organiser)
    helene = PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="")
    with pytest.raises(ValidationError) as error:
        services.competitor_register(
            by=organiser,
            tournament=tournament,
            players=[PlayerFactory(club=club), services.NewPlayer(last_name="Helene", first_name="Lefevre")],
        )
    (problem,) = error.value.error_dict["player_2"]
    assert problem.code == services.SAME_PERSON and problem.params["player_id"] == helene.pk


# -- the director's forms ----------------------------------------------------------------


@pytest.mark.parametrize("checked_in", ["", "on"], ids=["registration", "check-in at registration"])
def test_the_registration_form_refuses_her_beside_the_name_and_keeps_what_was_typed(
    helene_plays, organiser_client, checked_in
) -> None:
    tournament, _helene = helene_plays
    partner = PlayerFactory(club=tournament.club)
    response = organiser_client.post(
        reverse("manage:register", args=[tournament.pk]),
        {
            "player_1": partner.pk,
            "last_name_2": "Lefevre",
            "first_name_2": "Helene",
            "affiliation_2": "ABC Millau",
            "name": "Les Deux",
            "checked_in": checked_in,
        },
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors["last_name_2"] == ["Hélène Lefèvre a déjà une inscription (n°\u00a01)."]
    html = response.content.decode()
    for kept in ('value="Lefevre"', 'value="Helene"', 'value="ABC Millau"', 'value="Les Deux"'):
        assert kept in html
    assert tournament.competitors.count() == 1


def test_the_registration_form_offers_the_clubs_player_and_registers_her_in_one_click(
    club, organiser, organiser_client
) -> None:
    tournament = _open(club, organiser)
    helene = PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="")
    partner = PlayerFactory(club=club)
    url = reverse("manage:register", args=[tournament.pk])
    typed = {"player_1": partner.pk, "last_name_2": "lefevre", "first_name_2": "HELENE", "checked_in": "on"}
    response = organiser_client.post(url, typed)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Hélène Lefèvre figure déjà dans la liste du club." in html
    assert f'name="use_2" value="{helene.pk}"' in html
    assert 'value="lefevre"' in html
    # The button sends the form as typed, with the existing player chosen.
    response = organiser_client.post(url, {**typed, "use_2": helene.pk})
    assert response.status_code == 302
    team = Competitor.objects.get(tournament=tournament)
    assert set(team.players.all()) == {partner, helene} and team.status == "checked_in"
    assert Player.objects.filter(club=club).count() == 2


def test_adding_her_to_the_clubs_list_again_is_refused_with_her_record_offered(club, organiser_client) -> None:
    helene = PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="")
    response = organiser_client.post(
        reverse("manage:player_add", args=[club.pk]), {"last_name": "Helene", "first_name": "Lefevre"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["last_name"]
    assert reverse("manage:player_edit", args=[club.pk, helene.pk]) in response.content.decode()
    assert Player.objects.filter(club=club).count() == 1


def test_checking_in_a_second_registration_of_the_same_person_is_refused(club, organiser, organiser_client) -> None:
    tournament = _open(club, organiser)
    helene = PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="")
    partner = PlayerFactory(club=club)
    first = services.competitor_register(by=organiser, tournament=tournament, players=[helene, partner])
    # A registration made twice before names were compared folded.
    twin = Player.objects.create(club=club, last_name="LEFEVRE", first_name="Helene")
    second = Competitor.objects.create(tournament=tournament, number=2, name="Bis", club=club)
    second.players.set([twin, PlayerFactory(club=club)])

    dashboard = reverse("manage:dashboard", args=[tournament.pk])
    response = organiser_client.post(reverse("manage:check_in_all", args=[tournament.pk]), follow=True)
    assert "figure dans deux inscriptions (n° 1 et n° 2)" in response.content.decode()
    assert not tournament.competitors.filter(status="checked_in").exists()

    organiser_client.post(reverse("manage:check_in", args=[tournament.pk, first.pk]))
    response = organiser_client.post(reverse("manage:check_in", args=[tournament.pk, second.pk]), follow=True)
    assert response.redirect_chain[-1][0] == dashboard
    assert "figure déjà dans le n° 1, pointé" in response.content.decode()
    assert Competitor.objects.get(pk=second.pk).status == "registered"
