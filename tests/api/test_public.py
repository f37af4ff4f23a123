"""The public reads: what anyone may see, filtered and paged, with ETags that hold until
something changes, and never a player's private data nor a table's secret."""

from __future__ import annotations

import datetime
import json

import pytest

from rounds.services import round_close
from scoring.models import StandingsSnapshot
from seasons.models import Season, SeasonSnapshot
from tests.api.conftest import API, enter, new_tournament, sound_hand
from tests.factories import ClubFactory, TournamentFactory
from tournaments import services
from tournaments.models import Player, Table

pytestmark = pytest.mark.django_db


def slugs(response) -> list[str]:
    return [row["slug"] for row in response.json()["results"]]


def test_the_list_shows_public_tournaments_past_their_draft_newest_first(anonymous, club) -> None:
    TournamentFactory(club=club, slug="old", date=datetime.date(2026, 1, 10), status="finished")
    TournamentFactory(club=club, slug="new", date=datetime.date(2026, 6, 1), status="running")
    TournamentFactory(club=club, slug="draft", status="draft")
    TournamentFactory(club=club, slug="private", is_public=False)
    response = anonymous.get(f"{API}/tournaments/")
    assert response.status_code == 200
    assert slugs(response) == ["new", "old"] and response.json()["count"] == 2


def test_the_list_filters_by_club_game_status_and_dates(anonymous, club) -> None:
    albi = ClubFactory(slug="albi")
    TournamentFactory(club=club, slug="rodez-belote", date=datetime.date(2026, 3, 1))
    TournamentFactory(club=club, slug="rodez-tarot", game="tarot_a_trois", format="individual", status="finished")
    TournamentFactory(club=albi, slug="albi-belote", date=datetime.date(2026, 9, 1))
    assert slugs(anonymous.get(f"{API}/tournaments/?club=albi")) == ["albi-belote"]
    assert slugs(anonymous.get(f"{API}/tournaments/?game=tarot_a_trois")) == ["rodez-tarot"]
    assert slugs(anonymous.get(f"{API}/tournaments/?status=finished")) == ["rodez-tarot"]
    window = anonymous.get(f"{API}/tournaments/?date_from=2026-02-01&date_to=2026-06-30")
    assert slugs(window) == ["rodez-belote"]
    bad = anonymous.get(f"{API}/tournaments/?date_from=soon&game=poker")
    assert bad.status_code == 400
    assert {error["field"] for error in bad.json()["errors"]} == {"date_from", "game"}


def test_lists_are_paged(anonymous, club) -> None:
    for day in range(1, 8):
        TournamentFactory(club=club, date=datetime.date(2026, 5, day))
    first = anonymous.get(f"{API}/tournaments/?page_size=5").json()
    assert first["count"] == 7 and len(first["results"]) == 5 and first["next"]
    second = anonymous.get(f"{API}/tournaments/?page_size=5&page=2").json()
    assert len(second["results"]) == 2 and second["next"] is None
    missing = anonymous.get(f"{API}/tournaments/?page=9")
    assert missing.status_code == 404 and missing.json()["errors"][0]["field"] is None


def test_a_draft_or_private_tournament_is_a_404_except_to_its_organisers(anonymous, api, outsider_api, club, organiser):
    draft = new_tournament(club, organiser)
    for client, status in ((anonymous, 404), (outsider_api, 404), (api, 200)):
        assert client.get(f"{API}/tournaments/{draft.slug}/").status_code == status
    assert anonymous.get(f"{API}/tournaments/{draft.slug}/standings/").json()["errors"][0]["code"] == "not_found"


def test_a_tournament_shows_its_settings_and_rounds(played, anonymous) -> None:
    tournament, _rnd = played(4)
    body = anonymous.get(f"{API}/tournaments/{tournament.slug}/").json()
    assert body["game"] == "belote_classique" and body["end_value"] == 2
    assert body["competitors_count"] == 4
    assert [(r["number"], r["status"], r["seed"]) for r in body["rounds"]] == [(1, "open", 7)]
    assert [r["number"] for r in anonymous.get(f"{API}/tournaments/{tournament.slug}/rounds/").json()] == [1]


def test_competitors_and_players_show_names_and_club_only(played, anonymous) -> None:
    tournament, _rnd = played(4)
    competitors = anonymous.get(f"{API}/tournaments/{tournament.slug}/competitors/").json()["results"]
    assert [c["number"] for c in competitors] == [1, 2, 3, 4]
    assert set(competitors[0]["players"][0]) == {"id", "first_name", "last_name", "club"}
    players = anonymous.get(f"{API}/tournaments/{tournament.slug}/players/").json()
    assert players["count"] == 8
    assert set(players["results"][0]) == {"id", "first_name", "last_name", "club", "competitor"}


def test_the_draw_shows_tables_seats_and_byes_never_a_secret(played, anonymous) -> None:
    tournament, rnd = played(5)
    response = anonymous.get(f"{API}/tournaments/{tournament.slug}/rounds/1/")
    body = response.json()
    assert len(body["tables"]) == 2 and len(body["byes"]) == 1
    assert {seat["position"] for table in body["tables"] for seat in table["seats"]} == {"NS", "EW"}
    seated = {seat["competitor"]["number"] for table in body["tables"] for seat in table["seats"]}
    assert seated | {body["byes"][0]["competitor"]["number"]} == {1, 2, 3, 4, 5}
    for token in Table.objects.filter(round=rnd).values_list("token", flat=True):
        assert token not in response.content.decode()
    assert anonymous.get(f"{API}/tournaments/{tournament.slug}/rounds/2/").status_code == 404


def test_a_table_shows_its_donnes_with_running_totals(played, anonymous) -> None:
    tournament, rnd = played(4, end_value=3)
    table = rnd.tables.get(number=1)
    enter(table, sound_hand())
    enter(table, {"taker": "B", "contract": "spades", "points": {"A": 40, "B": 122}})
    body = anonymous.get(f"{API}/tournaments/{tournament.slug}/rounds/1/tables/1/").json()
    assert [hand["running"] for hand in body["hands"]] == [[102, 60], [142, 182]]
    assert body["result"]["donnes_played"] == 2 and body["result"]["finished"] is False
    assert table.token not in json.dumps(body)
    assert anonymous.get(f"{API}/tournaments/{tournament.slug}/rounds/1/tables/9/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_standings_live_and_after_a_round(played, anonymous) -> None:
    tournament, rnd = played(4, end_value=1)
    url = f"{API}/tournaments/{tournament.slug}/standings/"
    # Drawn, nothing played: everyone is listed, nobody has won yet.
    assert all(row["wins"] == 0 for row in anonymous.get(url).json()["rows"])
    enter(rnd.tables.get(number=1), sound_hand())
    live = anonymous.get(url).json()
    assert live["version"] >= 1 and [c["key"] for c in live["columns"]] == ["wins", "points", "difference"]
    leader = live["rows"][0]
    assert leader["rank"] == 1 and leader["wins"] == 1 and leader["points"] == 102
    after = anonymous.get(f"{url}after/1/").json()
    assert after["after_round"] == 1 and after["rows"][0]["competitor"] == leader["competitor"]
    missing = anonymous.get(f"{url}after/3/")
    assert missing.status_code == 404 and missing.json()["errors"][0]["code"] == "not_found"


def test_clubs_and_seasons_are_listed_and_a_season_shows_its_ranking(club, anonymous, played) -> None:
    tournament, _rnd = played(4)
    season = Season.objects.create(club=club, name="Saison 2026", slug="saison-2026")
    season.tournaments.add(tournament)
    SeasonSnapshot.objects.create(
        season=season,
        version=1,
        rows=[
            {
                "player": 1,
                "name": "Rose Vidal",
                "rank": 1,
                "points": 25,
                "played": 1,
                "best": 1,
                "results": [{"tournament": tournament.slug, "name": tournament.name, "rank": 1, "points": 25}],
            }
        ],
    )
    assert anonymous.get(f"{API}/clubs/").json()["results"] == [{"name": club.name, "slug": club.slug}]
    assert [s["slug"] for s in anonymous.get(f"{API}/seasons/").json()["results"]] == ["saison-2026"]
    body = anonymous.get(f"{API}/seasons/saison-2026/").json()
    assert body["tournaments"] == [tournament.slug] and body["rows"][0]["name"] == "Rose Vidal"
    assert anonymous.get(f"{API}/seasons/nope/").status_code == 404


def test_an_unknown_api_path_is_a_404_in_the_api_shape(anonymous) -> None:
    response = anonymous.get("/api/v1/nothing/here/")
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"


# -- ETags -----------------------------------------------------------------------------


def conditional(client, url: str, etag: str, **headers):
    return client.get(url, HTTP_IF_NONE_MATCH=etag, **headers)


@pytest.mark.django_db(transaction=True)
def test_the_ranking_answers_304_until_a_new_version_is_built(played, anonymous) -> None:
    tournament, rnd = played(4, end_value=2)
    url = f"{API}/tournaments/{tournament.slug}/standings/"
    enter(rnd.tables.get(number=1), sound_hand())
    first = anonymous.get(url)
    etag = first.headers["ETag"]
    unchanged = conditional(anonymous, url, etag)
    assert unchanged.status_code == 304 and unchanged.content == b"" and unchanged.headers["ETag"] == etag
    assert conditional(anonymous, url, f"W/{etag}").status_code == 304
    assert conditional(anonymous, url, etag, HTTP_ACCEPT_LANGUAGE="en").status_code == 200
    enter(rnd.tables.get(number=1), sound_hand())
    moved = conditional(anonymous, url, etag)
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    assert moved.json()["version"] > first.json()["version"]


def test_a_poll_that_finds_nothing_new_reads_no_rows(played, anonymous, django_assert_max_num_queries) -> None:
    tournament, _rnd = played(4)
    StandingsSnapshot.objects.create(tournament=tournament, version=1, rows=[], criteria=["wins"])
    url = f"{API}/tournaments/{tournament.slug}/standings/"
    etag = anonymous.get(url).headers["ETag"]
    # The visible tournament (one query, for an anonymous visitor) and the version.
    with django_assert_max_num_queries(2):
        assert conditional(anonymous, url, etag).status_code == 304


def test_every_public_read_carries_an_etag_that_moves_with_its_data(played, anonymous, organiser) -> None:
    tournament, rnd = played(4)
    base = f"{API}/tournaments/{tournament.slug}"
    urls = [
        f"{API}/tournaments/",
        f"{base}/",
        f"{base}/competitors/",
        f"{base}/players/",
        f"{base}/rounds/",
        f"{base}/rounds/1/",
        f"{base}/rounds/1/tables/1/",
        f"{API}/clubs/",
        f"{API}/seasons/",
    ]
    tags = {url: anonymous.get(url).headers["ETag"] for url in urls}
    assert all(conditional(anonymous, url, tag).status_code == 304 for url, tag in tags.items())
    enter(rnd.tables.get(number=1), sound_hand())
    assert conditional(anonymous, f"{base}/rounds/1/tables/1/", tags[f"{base}/rounds/1/tables/1/"]).status_code == 200
    assert conditional(anonymous, f"{base}/rounds/1/", tags[f"{base}/rounds/1/"]).status_code == 200
    services.competitor_withdraw(by=organiser, competitor=tournament.competitors.get(number=3))
    assert conditional(anonymous, f"{base}/competitors/", tags[f"{base}/competitors/"]).status_code == 200
    round_close(by=organiser, round=rnd, force=True)
    for url in (f"{base}/", f"{base}/rounds/"):
        assert conditional(anonymous, url, tags[url]).status_code == 200, url
    # The list shows no rounds: only the tournament's own row moves it.
    assert conditional(anonymous, f"{API}/tournaments/", tags[f"{API}/tournaments/"]).status_code == 304
    services.tournament_set_status(by=organiser, tournament=tournament, status="finished")
    assert conditional(anonymous, f"{API}/tournaments/", tags[f"{API}/tournaments/"]).status_code == 200


# -- privacy ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_no_answer_ever_carries_a_licence_an_email_a_phone_or_a_table_secret(played, anonymous, api) -> None:
    tournament, rnd = played(4)
    for table in rnd.tables.all():
        enter(table, sound_hand())
    private = set()
    for player in Player.objects.all():
        private |= {player.licence, player.email, player.phone}
    private |= set(Table.objects.values_list("token", flat=True))
    private.discard("")
    base = f"{API}/tournaments/{tournament.slug}"
    answers = [
        client.get(url)
        for client in (anonymous, api)
        for url in (
            f"{API}/tournaments/",
            f"{base}/",
            f"{base}/competitors/",
            f"{base}/players/",
            f"{base}/rounds/",
            f"{base}/rounds/1/",
            f"{base}/rounds/1/tables/1/",
            f"{base}/rounds/1/tables/2/",
            f"{base}/standings/",
            f"{base}/standings/after/1/",
        )
    ]
    answers.append(api.post(f"{base}/competitors/1/check-in/", {"present": True}, format="json"))
    assert all(answer.status_code == 200 for answer in answers)
    for answer in answers:
        text = answer.content.decode()
        leaked = [value for value in private if value in text]
        assert not leaked, (answer.wsgi_request.path, leaked)
