"""The season ranking: a club's players over several tournaments, by placing or by points."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Job, TableResult
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
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def played_concours(club, teams: list[list], totals: list[list[int]]) -> object:
    """A finished one-round concours of `teams` (lists of players), tables in order."""
    tournament = TournamentFactory(club=club, status="finished", criteria=["wins", "points"])
    competitors = [
        CompetitorFactory(tournament=tournament, number=i + 1, name=f"T{i + 1}", players=players)
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
def club_season():
    club = ClubFactory()
    ann, bob, cat, dan, eve, fay = (PlayerFactory(club=club, first_name=n, last_name="X") for n in "ABCDEF")
    # Concours 1: Ann & Bob beat Cat & Dan. Concours 2: Eve & Fay beat Ann & Cat (who changed partners).
    first = played_concours(club, [[ann, bob], [cat, dan]], [[900, 700]])
    second = played_concours(club, [[ann, cat], [eve, fay]], [[800, 1000]])
    season = Season.objects.create(club=club, name="Saison", slug="saison", scheme="placing", placing_points=[10, 6])
    season.tournaments.set([first, second])
    return season, {p.first_name: p for p in (ann, bob, cat, dan, eve, fay)}


def organiser_of(club) -> object:
    user = UserFactory()
    club.organisers.add(user)
    return user


def by_name(snapshot: SeasonSnapshot) -> dict[str, dict]:
    return {row["name"].split()[0]: row for row in snapshot.rows}


def test_each_player_earns_the_points_of_their_team_placing_in_every_tournament(club_season) -> None:
    season, _players = club_season
    rows = by_name(ranking.season_snapshot_write(season=season))
    # Ann: 1st then 2nd (10 + 6); Bob: 1st (10); Cat: 2nd then 2nd (6 + 6); Eve and Fay: 1st (10).
    assert {name: row["points"] for name, row in rows.items()} == {
        "A": 16,
        "B": 10,
        "C": 12,
        "D": 6,
        "E": 10,
        "F": 10,
    }
    assert [rows[n]["rank"] for n in "ACBEFD"] == [1, 2, 3, 3, 3, 6]
    assert (rows["A"]["played"], rows["A"]["best"]) == (2, 1)


def test_a_season_by_total_points_adds_up_each_tournament_points(club_season) -> None:
    season, _players = club_season
    season.scheme = "points"
    season.save()
    rows = by_name(ranking.season_snapshot_write(season=season))
    assert (rows["A"]["points"], rows["C"]["points"], rows["E"]["points"]) == (1700, 1500, 1000)


def test_the_season_job_rescores_every_tournament_then_writes_the_season(
    club_season, django_capture_on_commit_callbacks
) -> None:
    season, _players = club_season
    with django_capture_on_commit_callbacks(execute=True):
        job = ranking.season_rebuild_launch(season=season, by=organiser_of(season.club))
    job.refresh_from_db()
    assert (job.status, job.progress, job.total) == ("done", 2, 2)
    assert Job.objects.filter(kind="rescore", status="done").count() == 2
    assert SeasonSnapshot.objects.filter(season=season).count() == 1


def test_the_season_page_is_public_and_the_rebuild_button_is_for_organisers(club_season, client: Client) -> None:
    season, _players = club_season
    ranking.season_snapshot_write(season=season)
    page = client.get(reverse("season:ranking", kwargs={"slug": season.slug}))
    assert page.status_code == 200 and "16" in page.content.decode()
    assert client.get("/s/no-such-season/").status_code == 404
    rebuild = reverse("season:rebuild", kwargs={"slug": season.slug})
    assert client.post(rebuild).status_code == 302 and not Job.objects.exists()
    client.force_login(organiser_of(ClubFactory()))
    assert client.post(rebuild).status_code == 403


def test_a_season_whose_tournament_messages_were_lost_completes_on_a_retry(
    club_season, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    from scoring import jobs

    season, _players = club_season
    # The season job ran and queued its tournament jobs, whose messages never arrived.
    with django_capture_on_commit_callbacks(execute=False):
        job = ranking.season_rebuild_launch(season=season)
    jobs.job_claim(job_id=job.pk, kinds=ranking.SEASON_KINDS)
    with django_capture_on_commit_callbacks(execute=False):
        ranking.season_job_run(job=Job.objects.get(pk=job.pk))
    assert Job.objects.filter(kind="rescore", status="queued").count() == 2
    monkeypatch.setattr(jobs, "STALE_AFTER", jobs.datetime.timedelta(0))
    with django_capture_on_commit_callbacks(execute=True):
        assert ranking.season_job_retry(job=Job.objects.get(pk=job.pk)) is True
    job.refresh_from_db()
    assert (job.status, job.progress, job.total) == ("done", 2, 2)
    assert SeasonSnapshot.objects.filter(season=season).exists()
