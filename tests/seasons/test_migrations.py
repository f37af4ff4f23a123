"""Seasons moved from scoring/ to their own app: a database made before keeps every season row.

The tables stay where they were (`scoring_season`, `scoring_seasonsnapshot`,
`scoring_season_tournaments`); the season a season job rebuilds moves from
`scoring_job.season_id` to `seasons.SeasonJob`, and back when the migrations are undone.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.models import Job
from seasons import ranking, selectors
from seasons.models import Season, SeasonJob, SeasonSnapshot
from tests.factories import ClubFactory, TournamentFactory, UserFactory

# The migrations as they stood before the move: scoring held the models, seasons/ had none.
BEFORE_THE_MOVE = [("scoring", "0009_standings_base"), ("seasons", None)]
ROWS = [
    {"player": 7, "name": "Ann X", "rank": 1, "points": 16, "played": 2, "best": 1, "results": []},
    {"player": 8, "name": "Bob X", "rank": 2, "points": 10, "played": 1, "best": 1, "results": []},
]


def migrate(targets: list[tuple[str, str | None]] | None = None) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(targets if targets is not None else executor.loader.graph.leaf_nodes())


@pytest.fixture
def before_the_move() -> Iterator[object]:
    """The historical models as they were before the move; the schema is brought back to
    the latest migrations afterwards, whatever the test did."""
    migrate(BEFORE_THE_MOVE)
    try:
        yield MigrationExecutor(connection).loader.project_state(("scoring", "0009_standings_base")).apps
    finally:
        migrate()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_seasons_their_rankings_tournaments_and_jobs_stored_before_the_move_are_read_after_it(
    before_the_move,
) -> None:
    club, user = ClubFactory(), UserFactory()
    first, second = TournamentFactory(club=club), TournamentFactory(club=club)
    old = before_the_move
    old_season, old_snapshot, old_job = (old.get_model("scoring", name) for name in ("Season", "SeasonSnapshot", "Job"))
    winter = old_season.objects.create(
        club_id=club.pk,
        name="Saison d’hiver",
        slug="hiver",
        scheme="placing",
        placing_points=[10, 6],
        starts=datetime.date(2026, 1, 1),
        ends=datetime.date(2026, 3, 31),
    )
    winter.tournaments.set([first.pk, second.pk])
    summer = old_season.objects.create(club_id=club.pk, name="Été", slug="ete", scheme="points")
    for version in (1, 2):
        old_snapshot.objects.create(season_id=winter.pk, version=version, rows=ROWS[:version])
    season_job = old_job.objects.create(kind="season", season_id=winter.pk, status="done", created_by_id=user.pk)
    child = old_job.objects.create(kind="rescore", tournament_id=first.pk, params={"season_job": season_job.pk})

    migrate()

    after = MigrationExecutor(connection).loader.project_state().apps
    with pytest.raises(LookupError):
        after.get_model("scoring", "Season")
    assert after.get_model("seasons", "Season")._meta.db_table == "scoring_season"
    assert "season" not in {field.name for field in after.get_model("scoring", "Job")._meta.get_fields()}
    season = Season.objects.get(slug="hiver")
    assert (season.pk, season.club, season.name, season.scheme, season.placing_points) == (
        winter.pk,
        club,
        "Saison d’hiver",
        "placing",
        [10, 6],
    )
    assert (season.starts, season.ends) == (datetime.date(2026, 1, 1), datetime.date(2026, 3, 31))
    assert set(season.tournaments.all()) == {first, second} and list(first.seasons.all()) == [season]
    assert set(club.seasons.all()) == {season, Season.objects.get(pk=summer.pk)}
    assert [(s.version, s.rows) for s in SeasonSnapshot.objects.filter(season=season)] == [(2, ROWS), (1, ROWS[:1])]
    # The season job still knows its season, and its tournament's job its season job.
    assert list(selectors.season_jobs(season)) == [Job.objects.get(pk=season_job.pk)]
    assert ranking.season_of(Job.objects.get(pk=season_job.pk)) == season
    assert Job.objects.get(pk=child.pk).params == {"season_job": season_job.pk}
    assert not selectors.season_jobs(Season.objects.get(pk=summer.pk)).exists()
    # New rows go on from the old ones: the tables' sequences came along.
    assert Season.objects.create(club=club, name="Printemps", slug="printemps").pk > summer.pk


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_undoing_the_move_gives_each_season_job_its_season_column_back(before_the_move) -> None:
    migrate()
    club = ClubFactory()
    season = Season.objects.create(club=club, name="Saison", slug="saison")
    job = ranking.season_rebuild_launch(season=season, rescore=False)
    assert SeasonJob.objects.get().job == job

    migrate(BEFORE_THE_MOVE)

    old = MigrationExecutor(connection).loader.project_state(("scoring", "0009_standings_base")).apps
    assert old.get_model("scoring", "Job").objects.get(pk=job.pk).season_id == season.pk
    assert old.get_model("scoring", "Season").objects.get(pk=season.pk).name == "Saison"
