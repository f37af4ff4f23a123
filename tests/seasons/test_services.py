"""Creating and editing a season: its checks in French beside each field, and who may."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from seasons.services import parse_placing_points, season_create, season_tournaments_set, season_update
from tests.factories import ClubFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    club = ClubFactory()
    user = UserFactory()
    club.organisers.add(user, through_defaults={"role": "organiser"})
    return club, user


def errors_of(call, **kwargs) -> dict[str, list[str]]:
    with translation.override("fr"), pytest.raises(ValidationError) as caught:
        call(**kwargs)
    return caught.value.message_dict


def test_a_season_takes_its_address_from_its_name_and_a_second_one_gets_a_suffix(director):
    club, user = director
    first = season_create(by=user, club=club, name="Saison d’hiver 2026", placing_points=[25, 20, 16])
    second = season_create(by=user, club=club, name="Saison d’hiver 2026")
    assert first.slug == "saison-dhiver-2026"
    assert second.slug == "saison-dhiver-2026-2"
    assert first.placing_points == [25, 20, 16]


def test_a_name_without_a_latin_letter_gets_a_plain_address(director):
    club, user = director
    assert season_create(by=user, club=club, name="冬季").slug == "saison"
    assert season_create(by=user, club=club, name="★").slug == "saison-2"


def test_a_season_without_a_name_is_refused_beside_the_name(director):
    club, user = director
    errors = errors_of(season_create, by=user, club=club, name="  ")
    assert errors["name"] == ["La saison doit avoir un nom."]


def test_a_season_ending_before_it_starts_is_refused_beside_the_end(director):
    club, user = director
    errors = errors_of(
        season_create, by=user, club=club, name="S", starts=datetime.date(2026, 9, 1), ends=datetime.date(2026, 8, 1)
    )
    assert list(errors) == ["ends"]


@pytest.mark.parametrize(
    "table",
    [[25, 30], [10, -1], ["10"], [True], list(range(101, 0, -1))],
    ids=["increasing", "negative", "text", "boolean", "101 places"],
)
def test_a_wrong_placing_table_is_refused_beside_the_table(director, table):
    club, user = director
    assert list(errors_of(season_create, by=user, club=club, name="S", placing_points=table)) == ["placing_points"]


def test_a_placing_table_of_equal_steps_and_a_hundred_places_is_accepted(director):
    club, user = director
    season = season_create(by=user, club=club, name="S", placing_points=[5, 5] + [0] * 98)
    assert len(season.placing_points) == 100


def test_the_placing_table_is_read_from_a_line_of_numbers():
    assert parse_placing_points("25, 20,16 ;13,") == [25, 20, 16, 13]
    with pytest.raises(ValidationError):
        parse_placing_points("25, vingt")


def test_an_update_changes_the_season_but_keeps_its_address(director):
    club, user = director
    season = season_create(by=user, club=club, name="Printemps")
    season_update(by=user, season=season, name="Printemps 2027", scheme="points", placing_points=[3, 2, 1])
    season.refresh_from_db()
    assert (season.name, season.slug, season.scheme, season.placing_points) == (
        "Printemps 2027",
        "printemps",
        "points",
        [3, 2, 1],
    )


def test_an_organiser_of_another_club_may_neither_create_nor_edit_a_season(director):
    club, user = director
    season = season_create(by=user, club=club, name="S")
    stranger = UserFactory()
    ClubFactory().organisers.add(stranger, through_defaults={"role": "admin"})
    with pytest.raises(PermissionDenied):
        season_create(by=stranger, club=club, name="Intrus")
    with pytest.raises(PermissionDenied):
        season_update(by=stranger, season=season, name="Intrus")
    with pytest.raises(PermissionDenied):
        season_tournaments_set(by=stranger, season=season, tournaments=[])


def test_a_season_counts_only_its_club_s_tournaments(director):
    club, user = director
    season = season_create(by=user, club=club, name="S")
    own = TournamentFactory(club=club)
    season_tournaments_set(by=user, season=season, tournaments=[own])
    assert list(season.tournaments.all()) == [own]
    errors = errors_of(season_tournaments_set, by=user, season=season, tournaments=[own, TournamentFactory()])
    assert list(errors) == ["tournaments"]
    assert list(season.tournaments.all()) == [own]


def test_a_season_whose_address_is_taken_meanwhile_is_refused_beside_the_name(director, monkeypatch):
    club, user = director
    season_create(by=user, club=club, name="Hiver")
    # Another request took the address between the look-up and the insert.
    monkeypatch.setattr("seasons.services._unique_slug", lambda name, exclude=None: "hiver")
    assert list(errors_of(season_create, by=user, club=club, name="Hiver")) == ["name"]
