"""A tournament's results file: what it carries, that it follows its published JSON Schema, and its CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

import jsonschema
import pytest

from results.building import SCHEMA_PATH, results_csv, results_file
from results.checking import check_file, schema
from scoring.models import Hand, TableResult
from tests.conftest import ROOT
from tests.results.conftest import text
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_built_file_validates_against_its_json_schema(results: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(schema())
    validator = jsonschema.Draft202012Validator(schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    assert list(validator.iter_errors(results)) == []
    assert results["format"] == "atout-results" and results["version"] == 1 and results["schema"] == SCHEMA_PATH


def test_the_file_carries_game_rules_players_with_licences_ranks_and_every_donne(
    tournament: Tournament, results: dict[str, Any]
) -> None:
    rules = results["tournament"]
    assert (rules["game"], rules["format"], rules["end"]) == ("belote_classique", "teams", {"donnes": 3})
    assert rules["options"]["capot_value"] == 250
    first = next(c for c in results["competitors"] if c["rank"] == 1)
    assert [p["licence"] for p in first["players"]] == sorted(
        tournament.competitors.get(number=first["number"]).players.values_list("licence", flat=True)
    )
    hands = [hand for table in results["tables"] for hand in table["hands"]]
    assert len(hands) == Hand.objects.filter(table__round__tournament=tournament).count()
    assert all(hand["input"] and len(hand["scores"]) == 2 for hand in hands)
    stored = {r.table.number: r.totals for r in TableResult.objects.filter(table__round__number=1)}
    assert {t["number"]: t["result"]["totals"] for t in results["tables"] if t["round"] == 1} == stored


def test_no_contact_data_or_secret_leaves_the_club(tournament: Tournament, results: dict[str, Any]) -> None:
    written = text(results)
    for player in tournament.competitors.first().players.all():
        assert player.email not in written and player.phone not in written
    table = tournament.rounds.first().tables.first()
    assert table.token not in written


def test_the_same_tournament_keeps_its_id_from_file_to_file(tournament: Tournament) -> None:
    assert results_file(tournament=tournament)["id"] == results_file(tournament=tournament)["id"]


def test_the_built_file_passes_every_check_of_an_import(results: dict[str, Any]) -> None:
    checked = check_file(text(results))
    assert len(checked.parties) == len(results["tables"])


def test_the_csv_has_one_row_per_side_of_every_table_with_the_rules_and_licences(results: dict[str, Any]) -> None:
    rows = list(csv.DictReader(io.StringIO(results_csv(results).lstrip("\ufeff")), delimiter=";"))
    assert len(rows) == sum(len(table["seats"]) for table in results["tables"])
    row = rows[0]
    assert row["game"] == "belote_classique" and '"capot_value": 250' in row["options"]
    table = results["tables"][0]
    assert row["table_total"] == str(table["result"]["totals"][0])
    competitor = next(c for c in results["competitors"] if c["number"] == int(row["competitor"]))
    assert row["licences"] == " / ".join(p["licence"] for p in competitor["players"])
    assert row["rank"] == str(competitor["rank"])


def test_the_documented_example_is_a_file_an_import_accepts() -> None:
    page = (ROOT / "docs" / "results-format.md").read_text(encoding="utf-8")
    example = page.split("## An example", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    checked = check_file(example)
    assert checked.data["tables"][0]["hands"][0]["scores"] == [102, 60]
