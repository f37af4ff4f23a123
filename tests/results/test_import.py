"""Importing results files into a league's season: a copy ranked as the club ranked it,
never twice, and a file edited by hand refused with the place of every problem."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from results.building import results_dumps, results_file
from results.checking import ResultsRefused, check_file
from results.importing import results_import
from results.models import ResultsImport
from scoring.models import Hand, StandingsSnapshot
from seasons.models import Season, SeasonSnapshot
from tests.factories import ClubFactory, PlayerFactory
from tests.results.conftest import edited, played_tournament, text
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


def refused(raw: str | bytes) -> dict[str, str]:
    """The problems of a refused file, by place."""
    with pytest.raises(ResultsRefused) as caught:
        check_file(raw)
    return {problem.pointer: problem.message for problem in caught.value.problems}


def import_refused(season: Season, by: Any, raw: str) -> dict[str, str]:
    with pytest.raises(ResultsRefused) as caught:
        results_import(by=by, season=season, raw=raw)
    return {problem.pointer: problem.message for problem in caught.value.problems}


def ranking(tournament: Tournament) -> dict[int, tuple[int, Any]]:
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").first()
    assert snapshot is not None
    return {row["number"]: (row["rank"], row["points"]) for row in snapshot.rows}


# -- a good file ------------------------------------------------------------------------------


def test_an_imported_file_becomes_a_tournament_of_the_season_ranked_as_its_club_ranked_it(
    tournament: Tournament,
    results: dict[str, Any],
    season: Season,
    league_manager: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        outcome = results_import(by=league_manager, season=season, raw=results_dumps(results))
    copy = outcome.tournament
    assert outcome.done == "created"
    assert copy.club == season.club and copy.pk != tournament.pk and copy.status == "finished"
    assert list(season.tournaments.all()) == [copy]
    assert ranking(copy) == ranking(tournament)
    assert (
        Hand.objects.filter(table__round__tournament=copy, entered_via="import").count()
        == Hand.objects.filter(table__round__tournament=tournament).count()
    )
    # The league's players, with the licences and the club they play for.
    licences = set(Player.objects.filter(club=season.club).values_list("licence", flat=True))
    assert licences == set(Player.objects.filter(club=tournament.club).values_list("licence", flat=True))
    assert set(Player.objects.filter(club=season.club).values_list("affiliation", flat=True)) == {tournament.club.name}
    # The season's ranking is rebuilt with it (tasks run eagerly here).
    rows = SeasonSnapshot.objects.get(season=season).rows
    assert {row["rank"] for row in rows} and all(row["results"][0]["name"] == copy.name for row in rows)


def test_the_same_file_twice_is_imported_once(results: dict[str, Any], season: Season, league_manager: Any) -> None:
    first = results_import(by=league_manager, season=season, raw=text(results))
    again = results_import(by=league_manager, season=season, raw=results_dumps({**results, "exported_at": "x"}))
    assert again.done == "unchanged" and again.tournament == first.tournament
    assert Tournament.objects.filter(club=season.club).count() == 1
    assert Player.objects.filter(club=season.club).count() == 8


def test_a_newer_file_of_the_same_tournament_updates_its_copy(
    tournament: Tournament, results: dict[str, Any], season: Season, league_manager: Any
) -> None:
    first = results_import(by=league_manager, season=season, raw=text(results))

    def renamed(data: dict[str, Any]) -> None:
        data["tournament"]["name"] = "Concours de la Saint-Nicolas"
        data["competitors"][0]["name"] = "Les As"

    again = results_import(by=league_manager, season=season, raw=edited(results, renamed))
    assert again.done == "updated" and again.tournament.pk == first.tournament.pk
    assert again.tournament.name == "Concours de la Saint-Nicolas"
    assert again.tournament.competitors.get(number=1).name == "Les As"
    assert ResultsImport.objects.count() == 1 and ranking(again.tournament) == ranking(tournament)


def test_files_of_several_clubs_make_one_season(
    season: Season, league_manager: Any, django_capture_on_commit_callbacks: Any
) -> None:
    vannes, lorient = ClubFactory(name="Vannes"), ClubFactory(name="Lorient")
    for club in (vannes, lorient):
        raw = text(results_file(tournament=played_tournament(club)))
        with django_capture_on_commit_callbacks(execute=True):
            results_import(by=league_manager, season=season, raw=raw)
    assert season.tournaments.count() == 2
    assert set(ResultsImport.objects.values_list("source_club", flat=True)) == {"Vannes", "Lorient"}
    assert len(SeasonSnapshot.objects.filter(season=season).order_by("-version").first().rows) == 16


def test_players_already_known_to_the_league_are_matched_by_licence(
    tournament: Tournament, results: dict[str, Any], season: Season, league_manager: Any
) -> None:
    licence = results["competitors"][0]["players"][0]["licence"]
    known = PlayerFactory(club=season.club, licence=licence.lower(), last_name="Autre", first_name="Nom")
    copy = results_import(by=league_manager, season=season, raw=text(results)).tournament
    assert known in copy.competitors.get(number=results["competitors"][0]["number"]).players.all()


def test_a_file_of_the_clubs_own_tournament_adds_that_tournament(
    tournament: Tournament, results: dict[str, Any], director: Any
) -> None:
    own = Season.objects.create(club=tournament.club, name="Saison du club", slug="saison-club")
    outcome = results_import(by=director, season=own, raw=text(results))
    assert outcome.done == "own" and outcome.tournament == tournament
    assert Tournament.objects.count() == 1


def test_only_the_leagues_organisers_import_into_its_season(
    results: dict[str, Any], season: Season, director: Any
) -> None:
    with pytest.raises(PermissionDenied):
        results_import(by=director, season=season, raw=text(results))


# -- a file edited by hand, refused with its place ---------------------------------------------


def test_a_score_the_engine_does_not_give_is_refused_at_its_donne(results: dict[str, Any]) -> None:
    def cheat(data: dict[str, Any]) -> None:
        data["tables"][1]["hands"][2]["scores"][0] += 10

    problems = refused(edited(results, cheat))
    assert list(problems) == ["/tables/1/hands/2/scores"]
    assert "Le moteur compte cette donne" in problems["/tables/1/hands/2/scores"]


def test_a_donne_the_engine_refuses_is_refused_at_its_field(results: dict[str, Any]) -> None:
    def cheat(data: dict[str, Any]) -> None:
        points = data["tables"][0]["hands"][0]["input"]["points"]
        points["A"] += 5

    problems = refused(edited(results, cheat))
    assert "/tables/0/hands/0/input/points" in problems
    assert "162" in problems["/tables/0/hands/0/input/points"]


def test_totals_the_donnes_do_not_make_are_refused(results: dict[str, Any]) -> None:
    def cheat(data: dict[str, Any]) -> None:
        data["tables"][0]["result"]["totals"][1] += 100

    assert list(refused(edited(results, cheat))) == ["/tables/0/result/totals"]


def test_a_competitor_twice_is_refused_at_the_second(results: dict[str, Any]) -> None:
    def twice(data: dict[str, Any]) -> None:
        data["competitors"].append(dict(data["competitors"][0]))

    problems = refused(edited(results, twice))
    assert problems["/competitors/4/number"] == "Le concurrent numéro 1 figure déjà en /competitors/0."
    assert problems["/competitors/4/players/0"] == "Ce joueur figure déjà en /competitors/0/players/0."


def test_a_player_in_two_teams_is_refused(results: dict[str, Any]) -> None:
    def twice(data: dict[str, Any]) -> None:
        data["competitors"][3]["players"][1] = dict(data["competitors"][1]["players"][0])

    assert list(refused(edited(results, twice))) == ["/competitors/3/players/1"]


def test_a_rank_or_points_the_donnes_do_not_give_are_refused_and_nothing_stays(
    results: dict[str, Any], season: Season, league_manager: Any
) -> None:
    def cheat(data: dict[str, Any]) -> None:
        data["competitors"][2]["points"] += 1
        data["competitors"][3]["rank"] = 1

    problems = import_refused(season, league_manager, edited(results, cheat))
    assert set(problems) == {"/competitors/2/points", "/competitors/3/rank"}
    assert not Tournament.objects.filter(club=season.club).exists()
    assert not Player.objects.filter(club=season.club).exists() and not ResultsImport.objects.exists()


def test_another_version_is_refused_at_version(results: dict[str, Any]) -> None:
    problems = refused(text({**results, "version": 2}))
    assert list(problems) == ["/version"] and "version 1" in problems["/version"]


def test_another_format_is_refused_at_format(results: dict[str, Any]) -> None:
    assert list(refused(text({**results, "format": "atout-tournament"}))) == ["/format"]


def test_broken_json_is_refused_with_its_line(results: dict[str, Any]) -> None:
    broken = results_dumps(results).replace('"version": 1,', '"version": 1', 1)
    problems = refused(broken)
    assert list(problems) == [""] and "ligne 4" in problems[""]
    assert "UTF-8" in refused(b"\xff\xfe{}")[""]


def test_a_file_off_the_schema_is_refused_at_each_place(results: dict[str, Any]) -> None:
    def wrong(data: dict[str, Any]) -> None:
        data["tournament"]["date"] = "5 décembre"
        del data["competitors"][1]["name"]
        data["tables"][2]["seats"][0]["side"] = "A"
        data["tables"][0]["colour"] = "red"

    problems = refused(edited(results, wrong))
    assert set(problems) == {
        "/tournament/date",
        "/competitors/1/name",
        "/tables/2/seats/0/side",
        "/tables/0/colour",
    }
    assert problems["/competitors/1/name"] == "Ce champ manque."


def test_a_seat_for_no_competitor_and_a_table_twice_are_refused(results: dict[str, Any]) -> None:
    def wrong(data: dict[str, Any]) -> None:
        data["tables"][0]["seats"][0]["competitor"] = 99
        data["tables"].append(json.loads(json.dumps(data["tables"][1])))

    problems = refused(edited(results, wrong))
    assert "/tables/0/seats/0/competitor" in problems and "/tables/4/number" in problems


def test_settings_the_tournament_form_refuses_are_refused_at_their_place(results: dict[str, Any]) -> None:
    def wrong(data: dict[str, Any]) -> None:
        data["tournament"]["criteria"] = ["wins", "luck"]
        data["tournament"]["format"] = "individual"

    assert set(refused(edited(results, wrong))) == {"/tournament/criteria", "/tournament/format"}


def test_a_nul_character_is_refused_before_anything_reads_it(results: dict[str, Any]) -> None:
    def wrong(data: dict[str, Any]) -> None:
        data["tables"][0]["hands"][0]["input"]["note"] = "a\x00b"

    assert list(refused(edited(results, wrong))) == ["/tables/0/hands/0/input/note"]


def test_players_without_licence_are_matched_by_name_and_club(
    results: dict[str, Any], season: Season, league_manager: Any
) -> None:
    player = results["competitors"][1]["players"][0]
    known = PlayerFactory(
        club=season.club, licence="", last_name=player["last_name"].upper(), first_name=player["first_name"],
        affiliation=player["club"],
    )  # fmt: skip

    def unlicensed(data: dict[str, Any]) -> None:
        data["competitors"][1]["players"][0]["licence"] = ""

    copy = results_import(by=league_manager, season=season, raw=edited(results, unlicensed)).tournament
    assert known in copy.competitors.get(number=results["competitors"][1]["number"]).players.all()


def test_a_table_with_a_side_left_empty_is_refused(results: dict[str, Any]) -> None:
    def wrong(data: dict[str, Any]) -> None:
        data["tables"][0]["seats"][1]["side"] = 0

    assert list(refused(edited(results, wrong))) == ["/tables/0/seats"]
