"""The organiser's writes through the API: the site's club permissions, the services' rules."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from scoring.models import Hand, HandRevision
from tests.api.conftest import API, enter, new_tournament, play_table, sound_hand
from tests.factories import PlayerFactory
from tournaments import services
from tournaments.models import Competitor, Round, Tournament

pytestmark = pytest.mark.django_db

NEW = {"club": "bc-rodez", "name": "Concours de Noël", "date": "2026-12-19", "game": "belote_classique"}


def test_an_organiser_creates_a_tournament_in_draft_with_the_games_defaults(api) -> None:
    response = api.post(f"{API}/tournaments/", NEW, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "draft" and body["club"]["slug"] == "bc-rodez"
    assert body["format"] == "teams" and body["criteria"] == ["wins", "points", "difference"]
    assert Tournament.objects.get(slug=body["slug"]).created_by.username == "directrice"


def test_an_organiser_changes_what_the_status_still_allows_and_nothing_else(api, outsider_api, anonymous) -> None:
    slug = api.post(f"{API}/tournaments/", NEW, format="json").json()["slug"]
    url = f"{API}/tournaments/{slug}/"
    assert anonymous.patch(url, {"name": "x"}, format="json").status_code == 401
    assert outsider_api.patch(url, {"name": "x"}, format="json").status_code == 403
    changed = api.patch(url, {"rounds_planned": 5, "bye_policy": "fixed", "bye_points": 500}, format="json")
    assert changed.status_code == 200
    body = changed.json()
    # Only what was sent moved: the name and the game's defaults stayed.
    assert (body["rounds_planned"], body["bye_policy"], body["name"]) == (5, "fixed", "Concours de Noël")
    assert body["criteria"] == ["wins", "points", "difference"]
    bad = api.patch(url, {"rounds_planned": -1, "game": "poker"}, format="json")
    assert bad.status_code == 400 and {e["field"] for e in bad.json()["errors"]} == {"rounds_planned", "game"}
    tournament = Tournament.objects.get(slug=slug)
    tournament.status = "running"
    tournament.save()
    frozen = api.patch(url, {"end_value": 8, "name": "Concours de Noël (finale)"}, format="json")
    assert frozen.status_code == 400 and frozen.json()["errors"][0]["field"] == "end_value"
    assert Tournament.objects.get(slug=slug).name == "Concours de Noël"
    assert api.patch(url, {"name": "Concours de Noël (finale)"}, format="json").json()["name"].endswith("(finale)")


def test_the_late_policy_is_absent_unless_asked_and_frozen_once_the_tournament_runs(api, anonymous) -> None:
    assert api.post(f"{API}/tournaments/", NEW, format="json").json()["late_policy"] == "absent"
    created = api.post(f"{API}/tournaments/", {**NEW, "late_policy": "bye"}, format="json")
    assert created.status_code == 201 and created.json()["late_policy"] == "bye"
    url = f"{API}/tournaments/{created.json()['slug']}/"
    bad = api.patch(url, {"late_policy": "credited"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "late_policy"
    Tournament.objects.filter(slug=created.json()["slug"]).update(status="running")
    frozen = api.patch(url, {"late_policy": "absent"}, format="json")
    assert frozen.status_code == 400 and frozen.json()["errors"][0]["field"] == "late_policy"
    assert anonymous.get(url).json()["late_policy"] == "bye"


def test_nobody_logged_in_gets_401_and_an_outsider_403(club, anonymous, outsider_api) -> None:
    anonymous_answer = anonymous.post(f"{API}/tournaments/", NEW, format="json")
    assert anonymous_answer.status_code == 401
    assert anonymous_answer.headers["WWW-Authenticate"] == "Token"
    outsider_answer = outsider_api.post(f"{API}/tournaments/", NEW, format="json")
    assert outsider_answer.status_code == 403
    assert outsider_answer.json()["errors"][0]["code"] == "permission_denied"
    assert not Tournament.objects.exists()


def test_refusals_speak_the_callers_language(club, outsider_api) -> None:
    french = outsider_api.post(f"{API}/tournaments/", NEW, format="json").json()["errors"][0]["message"]
    english = outsider_api.post(f"{API}/tournaments/", NEW, format="json", HTTP_ACCEPT_LANGUAGE="en").json()
    assert french.startswith("Vous ne pouvez pas")
    assert english["errors"][0]["message"].startswith("You may not")


def test_the_session_of_the_site_works_too_with_its_csrf_check(organiser) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(organiser)
    assert client.post(f"{API}/tournaments/", NEW, format="json").status_code == 403
    client.get("/login/")
    csrf = client.cookies["csrftoken"].value
    assert client.post(f"{API}/tournaments/", NEW, format="json", HTTP_X_CSRFTOKEN=csrf).status_code == 201


def test_a_refused_tournament_names_each_field_from_the_service(api) -> None:
    response = api.post(
        f"{API}/tournaments/",
        {**NEW, "rounds_planned": 99, "game": "tarot_a_trois", "format": "teams", "rule_options": {"nope": 1}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    fields = {error["field"] for error in response.json()["errors"]}
    assert fields == {"rounds_planned", "format", "rule_options"}
    assert response.headers["Content-Language"] == "en"


def test_an_unknown_club_is_a_400_on_the_club_field(api) -> None:
    response = api.post(f"{API}/tournaments/", {**NEW, "club": "nowhere"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "club"


def test_registration_opens_then_players_register_and_check_in(api, club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    url = f"{API}/tournaments/{tournament.slug}"
    closed = api.post(f"{url}/competitors/", {"players": [{"last_name": "A", "first_name": "B"}] * 2}, format="json")
    assert closed.status_code == 400
    assert api.post(f"{url}/status/", {"status": "registration"}, format="json").json()["status"] == "registration"
    known = PlayerFactory(club=club)
    response = api.post(
        f"{url}/competitors/",
        {"players": [{"id": known.pk}, {"last_name": "Vidal", "first_name": "Rose", "licence": "L-77"}]},
        format="json",
    )
    assert response.status_code == 201
    competitor = response.json()
    assert competitor["status"] == "registered" and len(competitor["players"]) == 2
    checked = api.post(f"{url}/competitors/{competitor['number']}/check-in/", {}, format="json")
    assert checked.status_code == 200 and checked.json()["status"] == "checked_in"


def test_errors_about_the_nth_player_name_players_n(api, club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    other = PlayerFactory()
    url = f"{API}/tournaments/{tournament.slug}/competitors/"
    unknown = api.post(url, {"players": [{"id": PlayerFactory(club=club).pk}, {"id": other.pk}]}, format="json")
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["field"] == "players.1.id"
    blank = api.post(url, {"players": [{"last_name": "", "first_name": "Rose"}, {"id": 1}]}, format="json")
    assert blank.status_code == 400
    two = [{"last_name": "", "first_name": "x"}, {"last_name": "y", "first_name": "z"}]
    empty = api.post(url, {"players": two}, format="json")
    assert empty.status_code == 400
    assert [error["field"] for error in empty.json()["errors"]] == ["players.0"]


def test_an_outsider_cannot_register_check_in_draw_close_or_correct(played, outsider_api) -> None:
    tournament, rnd = played(4)
    url = f"{API}/tournaments/{tournament.slug}"
    team = {"players": [{"last_name": "X", "first_name": "Y"}] * 2}
    attempts = [
        outsider_api.post(f"{url}/competitors/", team, format="json"),
        outsider_api.post(f"{url}/competitors/1/check-in/", {"present": False}, format="json"),
        outsider_api.post(f"{url}/competitors/1/withdraw/"),
        outsider_api.post(f"{url}/status/", {"status": "finished"}, format="json"),
        outsider_api.post(f"{url}/rounds/", {}, format="json"),
        outsider_api.post(f"{url}/rounds/1/close/", {"force": True}, format="json"),
        outsider_api.put(f"{url}/rounds/1/tables/1/hands/1/", {"raw": sound_hand(), "reason": "x"}, format="json"),
    ]
    assert [answer.status_code for answer in attempts] == [403] * 7
    assert Competitor.objects.filter(tournament=tournament).count() == 4
    assert Round.objects.get(pk=rnd.pk).status == "open"


def test_anonymous_writes_are_401_everywhere(played, anonymous) -> None:
    tournament, _rnd = played(4)
    url = f"{API}/tournaments/{tournament.slug}"
    for path in ("competitors/", "competitors/1/check-in/", "status/", "rounds/", "rounds/1/close/"):
        assert anonymous.post(f"{url}/{path}", {}, format="json").status_code == 401, path


def test_drawing_while_a_round_is_in_play_is_a_409(played, api) -> None:
    tournament, _rnd = played(4)
    response = api.post(f"{API}/tournaments/{tournament.slug}/rounds/", {}, format="json")
    assert response.status_code == 409
    assert response.json()["errors"][0]["field"] is None


def test_closing_a_round_with_tables_playing_is_a_409_unless_forced(played, api) -> None:
    tournament, _rnd = played(4)
    url = f"{API}/tournaments/{tournament.slug}/rounds/1/close/"
    assert api.post(url, {}, format="json").status_code == 409
    forced = api.post(url, {"force": True}, format="json")
    assert forced.status_code == 200
    assert forced.json()["status"] == "closed" and forced.json()["forced"] is True
    drawn = api.post(f"{API}/tournaments/{tournament.slug}/rounds/", {"seed": 11}, format="json")
    assert drawn.status_code == 201 and drawn.json()["number"] == 2 and drawn.json()["seed"] == 11


def test_a_withdrawal_is_recorded_once(played, api) -> None:
    tournament, _rnd = played(4)
    url = f"{API}/tournaments/{tournament.slug}/competitors/2/withdraw/"
    first = api.post(url)
    assert first.status_code == 200 and first.json()["status"] == "withdrawn"
    assert api.post(url).status_code == 409


def test_a_withdrawal_is_taken_back_once_before_the_next_draw(played, api, outsider_api) -> None:
    tournament, _rnd = played(4)
    base = f"{API}/tournaments/{tournament.slug}/competitors/2"
    assert api.post(f"{base}/withdraw/").status_code == 200
    assert outsider_api.post(f"{base}/reinstate/").status_code == 403
    back = api.post(f"{base}/reinstate/")
    assert back.status_code == 200 and back.json()["status"] == "checked_in"
    again = api.post(f"{base}/reinstate/")
    assert again.status_code == 409 and again.json()["errors"][0]["message"]


def test_the_director_corrects_a_donne_with_a_reason_and_the_history_keeps_it(played, api) -> None:
    tournament, rnd = played(4)
    table = rnd.tables.get(number=1)
    play_table(table, 2)
    url = f"{API}/tournaments/{tournament.slug}/rounds/1/tables/1/hands/1/"
    corrected = {"taker": "B", "contract": "spades", "points": {"A": 40, "B": 122}}
    no_reason = api.put(url, {"raw": corrected, "reason": " "}, format="json")
    assert no_reason.status_code == 400
    assert no_reason.json()["errors"][0] == {
        "field": "reason",
        "code": "reason_required",
        "message": no_reason.json()["errors"][0]["message"],
    }
    response = api.put(url, {"raw": corrected, "reason": "Mauvaise équipe"}, format="json")
    assert response.status_code == 200
    assert response.json()["hand"]["scores"] == [40, 122]
    assert response.json()["result"]["totals"] == [142, 182]
    revision = HandRevision.objects.filter(hand__number=1, hand__table=table, action="update").get()
    assert revision.reason == "Mauvaise équipe"
    assert revision.author == get_user_model().objects.get(username="directrice")


def test_the_director_deletes_a_donne_with_a_reason_and_the_later_ones_move_up(played, api, outsider_api) -> None:
    tournament, rnd = played(4, end_value=4)
    table = rnd.tables.get(number=1)
    play_table(table, 3)
    url = f"{API}/tournaments/{tournament.slug}/rounds/1/tables/1/hands/2/"
    assert outsider_api.delete(url, {"reason": "x"}, format="json").status_code == 403
    no_reason = api.delete(url, {"reason": ""}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["errors"][0]["field"] == "reason"
    response = api.delete(url, {"reason": "Donne jouée deux fois"}, format="json")
    assert response.status_code == 200
    assert response.json()["result"]["totals"] == [204, 120] and response.json()["result"]["donnes_played"] == 2
    assert list(Hand.objects.filter(table=table).order_by("number").values_list("number", flat=True)) == [1, 2]
    revision = HandRevision.objects.get(table=table, action="delete")
    assert (revision.number, revision.reason) == (2, "Donne jouée deux fois")
    assert api.delete(f"{API}/tournaments/{tournament.slug}/rounds/1/tables/1/hands/9/", {"reason": "x"},
                      format="json").status_code == 404  # fmt: skip


def test_a_correction_that_breaks_a_rule_names_the_field_under_raw(played, api) -> None:
    tournament, rnd = played(4)
    enter(rnd.tables.get(number=1), sound_hand())
    url = f"{API}/tournaments/{tournament.slug}/rounds/1/tables/1/hands/1/"
    bad = {"taker": "A", "contract": "hearts", "points": {"A": 1}}
    response = api.put(url, {"raw": bad, "reason": "x"}, format="json")
    assert response.status_code == 400
    assert all(error["field"].startswith("raw") for error in response.json()["errors"])
    assert Hand.objects.get(table__round=rnd, table__number=1).scores == [102, 60]


def test_only_the_organisers_read_a_rounds_table_secrets(played, api, outsider_api, anonymous) -> None:
    tournament, rnd = played(4)
    url = f"{API}/tournaments/{tournament.slug}/rounds/1/secrets/"
    secrets = api.get(url)
    assert secrets.status_code == 200 and secrets.headers["Cache-Control"] == "no-store"
    assert [(s["table"], s["token"]) for s in secrets.json()] == list(
        rnd.tables.order_by("number").values_list("number", "token")
    )
    assert outsider_api.get(url).status_code == 403
    assert anonymous.get(url).status_code == 401


def test_a_tarot_evening_shows_sets_and_freezes_its_seating_through_the_api(api, anonymous, organiser) -> None:
    created = api.post(f"{API}/tournaments/", {**NEW, "game": "tarot_a_cinq"}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert (body["table_preference"], body["allow_tables_of_three"]) == ("five_first", False)
    url = f"{API}/tournaments/{body['slug']}/"
    changed = api.patch(url, {"table_preference": "four_first", "allow_tables_of_three": True}, format="json")
    assert changed.status_code == 200
    assert (changed.json()["table_preference"], changed.json()["allow_tables_of_three"]) == ("four_first", True)
    tournament = Tournament.objects.get(slug=body["slug"])
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    for _ in range(7):
        services.competitor_register(
            by=organiser, tournament=tournament, players=[PlayerFactory(club=tournament.club)], checked_in=True
        )
    services.tournament_set_status(by=organiser, tournament=tournament, status="running")
    drawn = api.post(f"{API}/tournaments/{body['slug']}/rounds/", format="json")
    assert drawn.status_code == 201
    # Seven players, tables of 3 allowed: a table of 4 and one of 3.
    assert sorted(len(table["seats"]) for table in drawn.json()["tables"]) == [3, 4]
    frozen = api.patch(url, {"allow_tables_of_three": False}, format="json")
    assert frozen.status_code == 400
    assert frozen.json()["errors"] == [
        {"field": "allow_tables_of_three", "code": "invalid", "message": "Figé une fois la première ronde tirée."}
    ]
    public = anonymous.get(url).json()
    assert (public["table_preference"], public["allow_tables_of_three"]) == ("four_first", True)


def test_a_belote_concours_has_no_seating_to_choose(api) -> None:
    body = api.post(f"{API}/tournaments/", NEW, format="json").json()
    assert (body["table_preference"], body["allow_tables_of_three"]) == ("", False)
    refused = api.post(f"{API}/tournaments/", {**NEW, "allow_tables_of_three": True}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "allow_tables_of_three"
