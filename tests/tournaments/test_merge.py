"""Two records of one player merged into one, with a preview, and a line in the club's log.

Jean Dupond was typed by hand at one concours and imported as « Jean DUPONT L0042 » for
the next: the director merges the first into the second. Everything moves (registrations,
results, arrivals, the e-mail the kept record lacked), the ratings are rebuilt, the
merged record is gone, the log says who did it. Two people who played one same
tournament are never merged.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from ratings.models import PlayerRating
from rounds.services import round_draw
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.conftest import client_for, new_tournament
from tournaments import services
from tournaments.models import Arrival, ClubLogEntry, Competitor, Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def dupond(club) -> Player:
    return PlayerFactory(club=club, last_name="Dupond", first_name="Jean", licence="", email="jean@example.org")


@pytest.fixture
def dupont(club) -> Player:
    return PlayerFactory(club=club, last_name="Dupont", first_name="Jean", licence="L0042", email="", phone="")


def _played(club, organiser, player: Player, name: str) -> Competitor:
    """`player` plays a drawn mêlée of eight at a concours called `name`."""
    tournament = new_tournament(club, organiser, name=name, format="melee")
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    competitor = services.competitor_register(by=organiser, tournament=tournament, players=[player], checked_in=True)
    for other in PlayerFactory.create_batch(7, club=club):
        services.competitor_register(by=organiser, tournament=tournament, players=[other], checked_in=True)
    Arrival.objects.create(competitor=competitor, player=player)
    services.tournament_set_status(by=organiser, tournament=tournament, status="running")
    round_draw(by=organiser, tournament=Tournament.objects.get(pk=tournament.pk))
    return competitor


def test_the_preview_tells_what_moves_and_writes_nothing(club, organiser, dupond, dupont) -> None:
    _played(club, organiser, dupond, "Concours de la Saint-Jean")

    preview = services.players_merge_preview(by=organiser, kept=dupont, merged=dupond)

    assert [(r.tournament, r.competitor) for r in preview.registrations] == [
        ("Concours de la Saint-Jean", "Jean Dupond")
    ]
    assert preview.parties == 1 and preview.arrivals == 1
    assert ("e-mail", "jean@example.org") in preview.details
    assert Player.objects.filter(pk=dupond.pk).exists()
    assert not ClubLogEntry.objects.exists()


def test_merging_moves_everything_to_the_kept_record_and_logs_it(
    club, organiser, dupond, dupont, django_capture_on_commit_callbacks
) -> None:
    competitor = _played(club, organiser, dupond, "Concours de la Saint-Jean")
    PlayerRating.objects.create(player=dupond, mu=25, sigma=8, ordinal=1, parties=3)
    PlayerRating.objects.create(player=dupont, mu=25, sigma=8, ordinal=2, parties=5)

    with django_capture_on_commit_callbacks(execute=True):
        services.players_merge(by=organiser, kept=dupont, merged=dupond)

    assert not Player.objects.filter(pk=dupond.pk).exists()
    assert list(competitor.players.all()) == [dupont]
    assert Arrival.objects.get(competitor=competitor).player == dupont
    # Named after the merged record by default: the kept one's name now.
    competitor.refresh_from_db()
    assert competitor.name == "Jean Dupont"
    dupont.refresh_from_db()
    assert (dupont.licence, dupont.email) == ("L0042", "jean@example.org")
    # Rebuilt from the finished tournaments' results (none here): no stale rating remains.
    assert not PlayerRating.objects.exists()
    entry = ClubLogEntry.objects.get(club=club)
    assert (entry.by, entry.player, entry.action) == (organiser, dupont, "players_merged")
    assert entry.text == (
        f"Jean Dupond (fiche {dupond.pk}) fusionné dans Jean Dupont (L0042) (fiche {dupont.pk})\xa0: "
        "1 inscription, 1 partie."
    )


def test_two_people_who_played_one_same_tournament_are_never_merged(club, organiser, dupond, dupont) -> None:
    tournament = new_tournament(club, organiser, name="Concours d’été", format="melee")
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    for player in (dupond, dupont):
        services.competitor_register(by=organiser, tournament=tournament, players=[player])

    with pytest.raises(ValidationError) as error:
        services.players_merge(by=organiser, kept=dupont, merged=dupond)

    assert error.value.message_dict["merged"] == [
        "Jean Dupont et Jean Dupond ont tous deux joué à « Concours d’été » : une personne ne joue jamais deux "
        "fois dans un tournoi, ce sont donc deux personnes."
    ]
    assert Player.objects.filter(pk=dupond.pk).exists()


def test_records_of_two_clubs_an_anonymised_one_or_one_record_twice_are_not_merged(
    club, organiser, dupond, dupont
) -> None:
    elsewhere = PlayerFactory(club=ClubFactory())
    elsewhere.club.organisers.add(organiser)
    with pytest.raises(ValidationError, match="clubs différents"):
        services.players_merge(by=organiser, kept=dupont, merged=elsewhere)
    with pytest.raises(ValidationError, match="deux joueurs différents"):
        services.players_merge(by=organiser, kept=dupont, merged=dupont)
    admin = UserFactory(username="presidente")
    club.organisers.add(admin, through_defaults={"role": "admin"})
    services.player_anonymise(by=admin, player=dupond)
    with pytest.raises(ValidationError, match="une fiche effacée n’est jamais fusionnée"):
        services.players_merge(by=organiser, kept=dupont, merged=Player.objects.get(pk=dupond.pk))


def test_anonymising_the_kept_player_erases_their_names_from_the_log(club, organiser, dupond, dupont) -> None:
    services.players_merge(by=organiser, kept=dupont, merged=dupond)
    admin = UserFactory(username="presidente")
    club.organisers.add(admin, through_defaults={"role": "admin"})

    services.player_anonymise(by=admin, player=dupont)

    text = ClubLogEntry.objects.get(club=club).text
    assert "Dupon" not in text and "L0042" not in text
    assert text == f"Deux fiches de Joueur anonymisé {dupont.pk} ont été fusionnées en une."


def test_a_player_whose_record_was_not_public_keeps_the_merged_record_private(club, organiser, dupond, dupont) -> None:
    Player.objects.filter(pk=dupond.pk).update(public_history=False)
    services.players_merge(by=organiser, kept=dupont, merged=Player.objects.get(pk=dupond.pk))
    dupont.refresh_from_db()
    assert not dupont.public_history


def test_an_organiser_of_another_club_cannot_merge(club, outsider, dupond, dupont) -> None:
    with pytest.raises(PermissionDenied):
        services.players_merge(by=outsider, kept=dupont, merged=dupond)
    assert Player.objects.filter(pk=dupond.pk).exists()


# -- the pages --------------------------------------------------------------------------------


def test_the_merge_page_previews_then_merges_on_confirmation_only(
    club, organiser, organiser_client, dupond, dupont
) -> None:
    _played(club, organiser, dupond, "Concours de la Saint-Jean")
    url = reverse("manage:players_merge", args=[club.pk])

    preview = organiser_client.post(url, {"kept": dupont.pk, "merged": dupond.pk})
    body = preview.content.decode()
    assert "Ce qui passe de Jean Dupond à Jean Dupont" in body
    assert "Concours de la Saint-Jean" in body
    assert Player.objects.filter(pk=dupond.pk).exists()

    # Confirmed for another pair than the one previewed: previewed again, nothing merged.
    other = PlayerFactory(club=club)
    again = organiser_client.post(
        url, {"kept": dupont.pk, "merged": other.pk, "confirmed": "1", "previewed": f"{dupont.pk}:{dupond.pk}"}
    )
    assert again.status_code == 200 and Player.objects.filter(pk=other.pk).exists()

    done = organiser_client.post(
        url, {"kept": dupont.pk, "merged": dupond.pk, "confirmed": "1", "previewed": f"{dupont.pk}:{dupond.pk}"}
    )
    assert done.status_code == 302
    assert not Player.objects.filter(pk=dupond.pk).exists()


def test_a_refused_merge_is_said_beside_the_choice_with_both_choices_kept(
    club, organiser, organiser_client, dupond, dupont
) -> None:
    tournament = new_tournament(club, organiser, name="Concours d’été", format="melee")
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    for player in (dupond, dupont):
        services.competitor_register(by=organiser, tournament=tournament, players=[player])
    page = organiser_client.post(
        reverse("manage:players_merge", args=[club.pk]), {"kept": dupont.pk, "merged": dupond.pk}
    )
    body = page.content.decode()
    assert "ce sont donc deux personnes" in body
    assert f'<option value="{dupond.pk}" selected>' in body


def test_the_club_log_is_for_its_administrators(club, organiser, organiser_client, dupond, dupont) -> None:
    services.players_merge(by=organiser, kept=dupont, merged=dupond)
    url = reverse("manage:club_log", args=[club.pk])
    assert organiser_client.get(url).status_code == 403
    admin = UserFactory(username="presidente")
    club.organisers.add(admin, through_defaults={"role": "admin"})
    page = client_for(admin).get(url)
    assert page.status_code == 200
    assert "Joueurs fusionnés" in page.content.decode() and "fusionné dans Jean Dupont" in page.content.decode()


def test_turning_a_public_page_on_needs_the_players_agreement(club, organiser, organiser_client) -> None:
    player = services.players_import(by=organiser, club=club, text="nom;prénom\nBérard;Anne\n")[0]
    url = reverse("manage:player_edit", args=[club.pk, player.pk])
    values = {"last_name": "Bérard", "first_name": "Anne", "public_history": "on"}

    refused = organiser_client.post(url, values)
    assert "La page publique ne s’ouvre qu’avec l’accord du joueur" in refused.content.decode()
    player.refresh_from_db()
    assert not player.public_history

    assert organiser_client.post(url, {**values, "consent": "on"}).status_code == 302
    player.refresh_from_db()
    assert player.public_history


def test_a_season_of_those_tournaments_is_ranked_again_with_one_line_for_the_player(
    club, organiser, dupond, dupont
) -> None:
    # Imported here: seasons are above tournaments; the receiver is the seasons' own.
    from seasons.models import SeasonSnapshot
    from seasons.ranking import season_snapshot_write
    from seasons.services import season_create, season_tournaments_set

    competitor = _played(club, organiser, dupond, "Concours de la Saint-Jean")
    season = season_create(by=organiser, club=club, name="Saison 2026")
    season_tournaments_set(by=organiser, season=season, tournaments=[competitor.tournament])
    season_snapshot_write(season=season)

    services.players_merge(by=organiser, kept=dupont, merged=dupond)

    latest = SeasonSnapshot.objects.filter(season=season).order_by("-version").first()
    assert latest is not None and latest.version == 2
    assert all(row["player"] != dupond.pk for row in latest.rows)
