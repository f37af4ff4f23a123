"""The API's games with their options, settings and presets; a tournament created or
changed with a preset; the tarot à 4 setting `table_de_cinq` (issue 27)."""

from __future__ import annotations

import pytest

from tests.api.conftest import API
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NEW = {"club": "bc-rodez", "name": "Concours de Noël", "date": "2026-12-19", "game": "belote_contree"}


def test_the_games_list_their_options_settings_and_presets(anonymous) -> None:
    response = anonymous.get(f"{API}/games/")
    assert response.status_code == 200 and response.headers["ETag"]
    games = {game["code"]: game for game in response.json()}
    assert set(games) == {code for code, _label in Tournament.Game.choices}
    contree = games["belote_contree"]
    assert [preset["code"] for preset in contree["presets"]] == [
        "concours",
        "ffb",
        "chute_162",
        "points_faits",
        "faits_seuls",
        "contrat_seul",
    ]
    ffb = contree["presets"][1]
    assert ffb["name"] == "Fédération (FFB)"
    assert ffb["options"]["capot_value"] == 252 and len(ffb["options"]) == len(contree["options"])
    chute = next(option for option in contree["options"] if option["name"] == "chute")
    assert (chute["default"], chute["choices"]) == (160, [160, 162])
    assert chute["choice_labels"] == ["160 + l’enchère", "162 + l’enchère"]
    tarot = games["tarot_a_quatre"]
    assert tarot["settings"][0]["name"] == "table_de_cinq"
    assert tarot["settings"][0]["choices"] == ["mort", "tarot_a_cinq"]
    assert tarot["presets"][1]["settings"] == {"table_de_cinq": "mort"}
    english = anonymous.get(f"{API}/games/", {"game": "belote_contree"}, HTTP_ACCEPT_LANGUAGE="en").json()
    assert [g["code"] for g in english] == ["belote_contree"]
    assert english[0]["presets"][1]["name"] == "Federation (FFB)"
    unknown = anonymous.get(f"{API}/games/", {"game": "poker"})
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["field"] == "game"


def test_a_tournament_created_with_a_preset_takes_its_options_and_says_so(api, anonymous) -> None:
    response = api.post(f"{API}/tournaments/", {**NEW, "preset": "faits_seuls"}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["rule_options"]["marque"] == "faits_seuls" and body["rule_options"]["defence_capot"] == 250
    assert (body["preset"], body["preset_modified"]) == ("faits_seuls", False)
    # rule_options replaces the tournament's options: the preset's, with one changed.
    options = {**body["rule_options"], "chute": 162}
    changed = api.patch(f"{API}/tournaments/{body['slug']}/", {"rule_options": options}, format="json")
    assert changed.status_code == 200
    assert (changed.json()["preset"], changed.json()["preset_modified"]) == ("faits_seuls", True)
    again = api.patch(f"{API}/tournaments/{body['slug']}/", {"preset": "ffb"}, format="json").json()
    assert (again["preset"], again["preset_modified"], again["rule_options"]["chute"]) == ("ffb", False, 160)


def test_an_unknown_preset_is_a_400_on_its_field(api) -> None:
    response = api.post(f"{API}/tournaments/", {**NEW, "preset": "fft"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "preset" and "no preset" in error["message"]


def test_the_table_de_cinq_is_set_and_shown(api) -> None:
    tarot = {**NEW, "game": "tarot_a_quatre", "format": "individual"}
    body = api.post(f"{API}/tournaments/", tarot, format="json").json()
    assert body["table_de_cinq"] == "mort"
    body = api.post(f"{API}/tournaments/", {**tarot, "table_de_cinq": "tarot_a_cinq"}, format="json").json()
    assert body["table_de_cinq"] == "tarot_a_cinq"
    refused = api.post(f"{API}/tournaments/", {**tarot, "table_de_cinq": "trois"}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "table_de_cinq"
