"""The archive carries the tarot à 4 setting `table_de_cinq` and the new rule options; a
table of five with a mort comes back whole; an archive from before the setting imports
as its tables of five played, tarot à 5 (issue 27)."""

from __future__ import annotations

import json

import pytest

from archive.exporting import archive_dumps, archive_export, checksum
from archive.importing import archive_import
from rounds.services import round_draw
from scoring.models import Hand, TableResult
from scoring.partie import table_game
from scoring.services import hand_submit
from tests.archive.test_archive import wipe
from tests.tournaments.conftest import club, organiser, running
from tournaments.models import Table

__all__ = ["club", "organiser", "running"]

pytestmark = pytest.mark.django_db

GARDE = {"contract": "garde", "oudlers": 2, "points": 46}


def test_a_mort_evening_comes_back_with_its_setting_and_its_mort_hands(
    running, organiser, django_capture_on_commit_callbacks
) -> None:
    tournament, _ = running(9, game="tarot_a_quatre", end_value=4, preset="fft")
    rnd = round_draw(by=organiser, tournament=tournament, seed=5)
    five = next(t for t in Table.objects.filter(round=rnd).select_related("round__tournament") if t.seats.count() == 5)
    assert table_game(five).code == "tarot_a_quatre_mort"
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=five, raw={"mort": 0, "taker": 1, **GARDE})
        hand_submit(table=five, raw={"mort": 1, "taker": 2, **GARDE})
    archive = json.loads(archive_dumps(archive_export(tournament=tournament)))
    assert archive["content"]["tournament"]["table_de_cinq"] == "mort"
    assert archive["content"]["tournament"]["rule_options"]["primes"] == "fft"
    wipe()
    with django_capture_on_commit_callbacks(execute=True):
        copy = archive_import(text=json.dumps(archive)).tournament
    assert copy.table_de_cinq == "mort" and copy.rule_options["primes"] == "fft"
    table = Table.objects.get(round__tournament=copy, number=five.number)
    assert [hand.raw["mort"] for hand in Hand.objects.filter(table=table).order_by("number")] == [0, 1]
    assert TableResult.objects.get(table=table).totals == [-60, 180, 120, -120, -120]


def test_the_contree_readings_travel_in_the_rule_options(running, organiser) -> None:
    tournament, _ = running(4, game="belote_contree", preset="points_faits", rule_options={"chute": 162})
    archive = json.loads(archive_dumps(archive_export(tournament=tournament)))
    options = archive["content"]["tournament"]["rule_options"]
    assert (options["coinche_marque"], options["chute"]) == ("points_faits", 162)
    wipe()
    copy = archive_import(text=json.dumps(archive)).tournament
    assert (copy.rule_options["coinche_marque"], copy.rule_options["chute"]) == ("points_faits", 162)


def test_an_archive_from_before_the_setting_keeps_tarot_a_cinq_at_its_tables_of_five(running, organiser) -> None:
    tournament, _ = running(9, game="tarot_a_quatre", table_de_cinq="tarot_a_cinq")
    rnd = round_draw(by=organiser, tournament=tournament, seed=5)
    five = next(t for t in Table.objects.filter(round=rnd) if t.seats.count() == 5)
    hand_submit(table=five, raw={"taker": 0, "partner": 1, "contract": "garde", "oudlers": 2, "points": 45.5})
    archive = json.loads(archive_dumps(archive_export(tournament=tournament)))
    del archive["content"]["tournament"]["table_de_cinq"]
    archive["checksum"] = checksum(archive["content"])
    wipe()
    copy = archive_import(text=json.dumps(archive)).tournament
    assert copy.table_de_cinq == "tarot_a_cinq"
    table = Table.objects.get(round__tournament=copy, number=five.number)
    assert Hand.objects.get(table=table).scores == [120, 60, -60, -60, -60]
