"""A player's data rights: anonymised on request by a club administrator, their name
gone from every tournament, ranking and season, their results kept."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import StandingsSnapshot, TableResult
from scoring.standings import standings_rebuild
from seasons import ranking
from seasons.models import Season, SeasonSnapshot
from tests.factories import (
    ClubFactory,
    CompetitorFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    round_with_tables,
)
from tournaments import services
from tournaments.models import Competitor, Player, Table

pytestmark = pytest.mark.django_db


def played_concours(club, teams: list[list[Player]], totals: list[list[int]]):
    """A finished one-round concours of `teams`, each named by its players' last names."""
    tournament = TournamentFactory(club=club, status="finished", criteria=["wins", "points"])
    competitors = [
        CompetitorFactory(
            tournament=tournament, number=i + 1, name=" – ".join(p.last_name for p in players), players=players
        )
        for i, players in enumerate(teams)
    ]
    rnd = round_with_tables(tournament, competitors)
    for number, score in enumerate(totals, start=1):
        TableResult.objects.create(
            table=Table.objects.get(round=rnd, number=number),
            totals=score,
            finished=True,
            winner_side=score.index(max(score)),
            donnes_played=12,
        )
    standings_rebuild(tournament_id=tournament.pk)
    return tournament


@pytest.fixture
def evening():
    """Two finished concours and a season; Jeanne Bérard won the first and lost the second."""
    club = ClubFactory(name="Belote Club de Rodez")
    admin = UserFactory(username="presidente")
    club.organisers.add(admin, through_defaults={"role": "admin"})
    jeanne = PlayerFactory(
        club=club, first_name="Jeanne", last_name="Bérard", licence="L-4242", email="jeanne@example.org"
    )
    paul, rose, marc = (PlayerFactory(club=club, first_name=n, last_name=n + "son") for n in ("Paul", "Rose", "Marc"))
    first = played_concours(club, [[jeanne, paul], [rose, marc]], [[900, 700]])
    second = played_concours(club, [[rose, paul], [jeanne, marc]], [[1000, 800]])
    season = Season.objects.create(club=club, name="Saison", slug="saison", scheme="points")
    season.tournaments.set([first, second])
    ranking.season_snapshot_write(season=season)
    return club, admin, jeanne, [first, second], season


def results(tournament) -> list[tuple]:
    """The latest ranking's results, names aside."""
    rows = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").first().rows
    return [(row["competitor"], row["rank"], row["points"], row["wins"]) for row in rows]


def everything_stored(tournaments, season) -> str:
    """Every name a ranking or a competitor keeps, as one text to search."""
    texts = [json.dumps(s.rows) for s in StandingsSnapshot.objects.filter(tournament__in=tournaments)]
    texts += [json.dumps(s.rows) for s in SeasonSnapshot.objects.filter(season=season)]
    texts += list(Competitor.objects.filter(tournament__in=tournaments).values_list("name", flat=True))
    texts += [" ".join(p) for p in Player.objects.values_list("first_name", "last_name", "licence", "email", "phone")]
    return "\n".join(texts)


def test_anonymising_erases_the_name_and_contact_details_everywhere_and_keeps_the_results(evening) -> None:
    _club, admin, jeanne, tournaments, season = evening
    before = [results(t) for t in tournaments]
    season_points = {row["player"]: row["points"] for row in SeasonSnapshot.objects.get(season=season).rows}
    assert "Bérard" in everything_stored(tournaments, season)

    # The administrator reads the site in English; the name stored is in the site's language.
    with translation.override("en"):
        services.player_anonymise(by=admin, player=jeanne)

    jeanne.refresh_from_db()
    label = f"Joueur anonymisé {jeanne.pk}"
    assert (jeanne.full_name, jeanne.licence, jeanne.email, jeanne.phone) == (label, "", "", "")
    assert jeanne.anonymised_at is not None
    stored = everything_stored(tournaments, season)
    assert "Bérard" not in stored and "Jeanne" not in stored and "L-4242" not in stored and "jeanne@" not in stored
    assert [results(t) for t in tournaments] == before
    rows = SeasonSnapshot.objects.get(season=season).rows
    assert {row["player"]: row["points"] for row in rows} == season_points
    assert next(row["name"] for row in rows if row["player"] == jeanne.pk) == label
    team = Competitor.objects.get(tournament=tournaments[0], players=jeanne)
    assert team.name == f"{label} – Paulson"


def test_the_public_ranking_and_its_exports_show_the_anonymous_name(evening) -> None:
    _club, admin, jeanne, tournaments, _season = evening
    client = Client()
    slug = tournaments[0].slug
    assert "Bérard" in client.get(reverse("public:ranking", kwargs={"slug": slug})).content.decode()
    services.player_anonymise(by=admin, player=jeanne)
    for name in ("ranking", "ranking_csv", "ranking_print"):
        body = client.get(reverse(f"public:{name}", kwargs={"slug": slug})).content.decode()
        assert "Bérard" not in body and "anonymisé" in body, name


def test_only_a_club_administrator_anonymises_and_their_own_clubs_players_only(evening) -> None:
    club, _admin, jeanne, _tournaments, _season = evening
    organiser = UserFactory()
    club.organisers.add(organiser)
    other_admin = UserFactory()
    ClubFactory().organisers.add(other_admin, through_defaults={"role": "admin"})
    for intruder in (organiser, other_admin):
        with pytest.raises(PermissionDenied):
            services.player_anonymise(by=intruder, player=jeanne)
    assert Player.objects.get(pk=jeanne.pk).last_name == "Bérard"


def test_an_anonymised_player_stays_anonymous(evening) -> None:
    _club, admin, jeanne, _tournaments, _season = evening
    services.player_anonymise(by=admin, player=jeanne)
    again = services.player_anonymise(by=admin, player=jeanne)
    assert again.last_name == f"Joueur anonymisé {jeanne.pk}"
    with pytest.raises(ValidationError):
        services.player_update(by=admin, player=again, last_name="Bérard", first_name="Jeanne")
    assert Player.objects.get(pk=jeanne.pk).last_name == f"Joueur anonymisé {jeanne.pk}"


def test_an_anonymised_player_keeps_keyed_digests_of_who_they_were_and_nothing_else(evening, settings) -> None:
    club, admin, jeanne, _tournaments, _season = evening
    services.player_anonymise(by=admin, player=jeanne)
    jeanne.refresh_from_db()
    assert set(jeanne.erased_identity) == {"name", "licence", "email"}
    kept = json.dumps(jeanne.erased_identity).casefold()
    assert not any(part in kept for part in ("bérard", "berard", "jeanne", "4242", "example.org"))
    # Keyed with the site's secret: what is kept differs under another key.
    before = jeanne.erased_identity
    assert (
        services.identity_digests(
            last_name="Bérard", first_name="Jeanne", licence="L-4242", email="jeanne@example.org", secret="x" * 50
        ).keys()
        == before.keys()
    )
    assert (
        services.identity_digests(
            last_name="Bérard", first_name="Jeanne", licence="L-4242", email="jeanne@example.org", secret="x" * 50
        )
        != before
    )

    erased = services.ErasedPlayers(club)
    # Accents, case and spaces aside, by name (no licence given), by licence or by e-mail.
    assert erased.find(last_name=" BERARD", first_name="jeanne ", licence="", email="") == jeanne
    assert erased.find(last_name="Autre", first_name="Nom", licence="l-4242", email="") == jeanne
    assert erased.find(last_name="Autre", first_name="Nom", licence="", email="Jeanne@Example.org") == jeanne
    # A namesake with another licence is someone else; another club's records are its own.
    assert erased.find(last_name="Bérard", first_name="Jeanne", licence="L-7777", email="") is None
    assert (
        services.ErasedPlayers(ClubFactory()).find(last_name="Bérard", first_name="Jeanne", licence="L-4242", email="")
        is None
    )

    # A new key with the old one among the fallbacks still recognises her; without it, no longer.
    old = settings.SECRET_KEY
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "n" * 50, [old]
    assert services.ErasedPlayers(club).find(last_name="Bérard", first_name="Jeanne", licence="", email="") == jeanne
    settings.SECRET_KEY_FALLBACKS = []
    assert services.ErasedPlayers(club).find(last_name="Bérard", first_name="Jeanne", licence="", email="") is None
