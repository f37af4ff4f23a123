"""Several players registered at once: ticked in the club's list, or pasted as names.

Each line of a pasted list is matched as the CSV import matches (accents, case, word
order aside; the licence first), a new player is created only when the director says so
(and not public), teams form two by two in the order given, and one person never sits
twice: someone already in is said so, not registered again.
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


def _open(club, organiser, **values) -> Tournament:
    tournament = new_tournament(club, organiser, **values)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    return tournament


@pytest.fixture
def helene(club) -> Player:
    return PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="L0042")


def test_ticked_players_of_a_melee_are_registered_each_alone_and_one_already_in_is_said_so(
    club, organiser, helene
) -> None:
    tournament = _open(club, organiser, format="melee")
    services.competitor_register(by=organiser, tournament=tournament, players=[helene])
    others = PlayerFactory.create_batch(3, club=club)

    result = services.competitors_register_many(by=organiser, tournament=tournament, players=[*others, helene])

    assert [c.players.get() for c in result.added] == others
    assert result.already == ["Hélène Lefèvre (L0042)"]
    assert result.refused == []
    assert tournament.competitors.count() == 4


def test_a_teams_tournament_makes_teams_two_by_two_in_the_order_given_and_refuses_a_lone_player(
    club, organiser
) -> None:
    tournament = _open(club, organiser)
    a, b, c, d, e = (
        PlayerFactory(club=club, last_name=name) for name in ("Arnaud", "Blanc", "Caron", "Durand", "Ebrard")
    )

    result = services.competitors_register_many(by=organiser, tournament=tournament, players=[a, b, c, d, e])

    assert [c.name for c in result.added] == ["Arnaud – Blanc", "Caron – Durand"]
    assert len(result.refused) == 1
    assert result.refused[0][0].startswith(e.full_name)
    assert "une équipe se compose de deux joueurs" in result.refused[0][1]


def test_the_same_person_typed_another_way_is_not_registered_twice(club, organiser, helene) -> None:
    tournament = _open(club, organiser, format="melee")
    services.competitor_register(by=organiser, tournament=tournament, players=[helene])
    typed = services.NewPlayer(last_name="HELENE", first_name="lefevre", public_history=False)

    result = services.competitors_register_many(by=organiser, tournament=tournament, players=[typed])

    assert result.added == []
    assert result.already == ["lefevre HELENE"]
    assert tournament.competitors.count() == 1


def test_a_team_with_a_player_already_in_is_refused_with_the_reason_and_the_next_team_registered(
    club, organiser, helene
) -> None:
    tournament = _open(club, organiser)
    services.competitor_register(by=organiser, tournament=tournament, players=[helene, PlayerFactory(club=club)])
    partner, third, fourth = PlayerFactory.create_batch(3, club=club)

    result = services.competitors_register_many(
        by=organiser, tournament=tournament, players=[helene, partner, third, fourth]
    )

    assert len(result.added) == 1 and set(result.added[0].players.all()) == {third, fourth}
    assert "Hélène Lefèvre a déjà une inscription (n°\xa01)." in result.refused[0][1]


def test_nobody_is_registered_while_registration_is_closed(club, organiser) -> None:
    tournament = new_tournament(club, organiser, format="melee")
    with pytest.raises(ValidationError, match="inscriptions ne sont pas ouvertes"):
        services.competitors_register_many(
            by=organiser, tournament=tournament, players=PlayerFactory.create_batch(2, club=club)
        )
    assert not Competitor.objects.filter(tournament=tournament).exists()


def test_pasted_lines_are_matched_as_the_import_matches(club, organiser, helene) -> None:
    martin_1 = PlayerFactory(club=club, last_name="Martin", first_name="Jean", licence="A1")
    martin_2 = PlayerFactory(club=club, last_name="Martin", first_name="Jean", licence="A2")
    text = "\n".join(
        [
            "helene LEFEVRE",  # word order, accents and case aside
            "Quelqu'un 0042 ",  # one word of name: unreadable
            "",
            "Jean Martin",  # two namesakes: to choose
            "MARTIN Jean; A2",  # the licence tells
            "Zoé Nouvelle 99887",  # nobody: new, with a licence
            "Dupont\tPaul",  # a spreadsheet's cells: « Nom <tab> Prénom »
        ]
    )

    lines = services.pasted_lines_read(by=organiser, club=club, text=text)

    assert [(line.line, line.status) for line in lines] == [
        (1, "found"),
        (2, "error"),
        (4, "choose"),
        (5, "found"),
        (6, "new"),
        (7, "new"),
    ]
    assert lines[0].found == helene
    assert set(lines[2].candidates) == {martin_1, martin_2}
    assert lines[3].found == martin_2
    assert (lines[4].first_name, lines[4].last_name, lines[4].licence) == ("Zoé", "Nouvelle", "99887")
    assert (lines[5].first_name, lines[5].last_name) == ("Paul", "Dupont")


def test_players_imported_from_a_file_are_not_public_until_they_agree(club, organiser) -> None:
    created = services.players_import(by=organiser, club=club, text="nom;prénom\nBérard;Anne\n")
    assert [p.public_history for p in created] == [False]
    # Added by hand, as before: public.
    assert services.player_create(by=organiser, club=club, last_name="Boyer", first_name="Luc").public_history


# -- the registration page -------------------------------------------------------------------


def test_the_registration_page_lists_the_club_players_to_tick_found_without_accents(
    club, organiser, organiser_client, helene
) -> None:
    tournament = _open(club, organiser)
    boyer = PlayerFactory(club=club, last_name="Boyer", first_name="Luc")
    page = organiser_client.get(reverse("manage:register", args=[tournament.pk]), {"q": "lefevre"})
    body = page.content.decode()
    assert page.status_code == 200
    assert f'name="players" value="{helene.pk}"' in body
    assert f'name="players" value="{boyer.pk}"' not in body
    assert "deux par deux dans l’ordre donné" in body


def test_ticked_players_are_registered_from_the_page_with_a_summary(club, organiser, organiser_client) -> None:
    tournament = _open(club, organiser, format="melee")
    first, second = PlayerFactory.create_batch(2, club=club)
    page = organiser_client.post(
        reverse("manage:register_ticked", args=[tournament.pk]),
        {"players": [second.pk, first.pk], "checked_in": "on"},
    )
    assert page.status_code == 200
    assert "2 inscriptions faites" in page.content.decode()
    assert [c.players.get() for c in tournament.competitors.order_by("number")] == [second, first]
    assert set(tournament.competitors.values_list("status", flat=True)) == {"checked_in"}


def test_nothing_ticked_says_so_beside_the_list(club, organiser, organiser_client) -> None:
    tournament = _open(club, organiser, format="melee")
    PlayerFactory(club=club)
    page = organiser_client.post(reverse("manage:register_ticked", args=[tournament.pk]), {})
    assert page.status_code == 200
    assert "Cochez au moins un joueur." in page.content.decode()
    assert not tournament.competitors.exists()


def test_a_pasted_list_is_checked_then_registered_once_every_line_is_settled(
    club, organiser, organiser_client, helene
) -> None:
    tournament = _open(club, organiser)
    namesake = PlayerFactory(club=club, last_name="Martin", first_name="Jean", licence="A1")
    PlayerFactory(club=club, last_name="Martin", first_name="Jean", licence="A2")
    url = reverse("manage:register_pasted", args=[tournament.pk])
    text = "Helene Lefevre\nJean Martin\nZoé Nouvelle\nPaul Dupont"

    checked = organiser_client.post(url, {"text": text, "step": "check"})
    body = checked.content.decode()
    assert "lequel ?" in body and "Absent de la liste du club." in body
    assert 'value="Nouvelle"' in body  # a new player's name as read, to correct if need be
    assert not tournament.competitors.exists()

    # Registering with lines unsettled: an error beside each, the text as typed, nothing written.
    unsettled = organiser_client.post(url, {"text": text, "read": text, "step": "register"})
    body = unsettled.content.decode()
    assert "Choisissez le joueur que désigne cette ligne." in body
    assert "Pas dans le club : cochez pour créer la fiche, ou retirez la ligne." in body
    assert "Zoé Nouvelle" in body
    assert not tournament.competitors.exists()

    settled = organiser_client.post(
        url,
        {
            "text": text,
            "read": text,
            "step": "register",
            "choice_2": namesake.pk,
            "create_3": "on",
            "first_3": "Zoé",
            "last_3": "Nouvelle",
            "create_4": "on",
            "first_4": "Paul",
            "last_4": "Dupont",
        },
    )
    assert "2 inscriptions faites" in settled.content.decode()
    teams = [set(c.players.all()) for c in tournament.competitors.order_by("number")]
    zoe = Player.objects.get(club=club, last_name="Nouvelle")
    paul = Player.objects.get(club=club, last_name="Dupont")
    assert teams == [{helene, namesake}, {zoe, paul}]
    assert not zoe.public_history and not paul.public_history


def test_a_text_changed_after_its_check_is_checked_again_not_registered(club, organiser, organiser_client) -> None:
    tournament = _open(club, organiser, format="melee")
    PlayerFactory(club=club, last_name="Boyer", first_name="Luc")
    url = reverse("manage:register_pasted", args=[tournament.pk])
    page = organiser_client.post(url, {"text": "Luc Boyer", "read": "Anne Bérard", "step": "register"})
    assert page.status_code == 200
    assert "Inscrire ces joueurs" in page.content.decode()
    assert not tournament.competitors.exists()
