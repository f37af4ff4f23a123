"""Tarot à 4 and à 5 evenings in the files a director takes home: the ranking as CSV and
PDF, the table sheets and the table list, and the archive, exported and imported again.

A tarot à 4 evening of 9 players sits at a table of 4 and one of 5 (the table of 5
plays tarot à 5); a tarot à 5 evening of 10 players at two tables of 5. Each table
plays one donne, a garde with 2 oudlers and 46 points: D = 60, so at four the taker
scores 180 and each defender −60; at five the taker 120, the partner 60, each defender −60.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from archive.exporting import archive_dumps, archive_export, checksum
from archive.importing import archive_import
from rounds.services import round_close, round_draw
from scoring.models import Hand, StandingsSnapshot, TableResult
from scoring.pdf import ranking_pdf
from scoring.services import hand_submit
from tests.archive.test_archive import counts, wipe
from tests.tournaments.conftest import club, organiser, running
from tournaments.models import Seat, Table, Tournament

__all__ = ["club", "organiser", "running"]

pytestmark = pytest.mark.django_db

GARDE = {"contract": "garde", "oudlers": 2, "points": 46}
TOTALS = {4: [180, -60, -60, -60], 5: [120, 60, -60, -60, -60]}


@pytest.fixture
def evening(running, organiser, django_capture_on_commit_callbacks) -> Any:
    """Build a tarot evening of `count` players: round 1 drawn, one donne a table, closed."""

    def build(game: str, count: int, **seating: Any) -> Tournament:
        # Tables of five play tarot à 5 here (the mort: tests/archive/test_archive_table_de_cinq.py).
        tournament, _ = running(count, game=game, end_value=1, **{"table_de_cinq": "tarot_a_cinq", **seating})
        rnd = round_draw(by=organiser, tournament=tournament, seed=5)
        for table in Table.objects.filter(round=rnd).select_related("round__tournament"):
            raw = {"taker": 0, **GARDE} if table.seats.count() == 4 else {"taker": 0, "partner": 1, **GARDE}
            with django_capture_on_commit_callbacks(execute=True):
                hand_submit(table=table, raw=raw)
        with django_capture_on_commit_callbacks(execute=True):
            round_close(by=organiser, round=rnd)
        return Tournament.objects.get(pk=tournament.pk)

    return build


def seated(tournament: Tournament) -> dict[int, list[str]]:
    """Each table's competitors' names, in seat order."""
    tables: dict[int, list[str]] = {}
    for seat in Seat.objects.filter(round__tournament=tournament).select_related("table", "competitor"):
        tables.setdefault(seat.table.number, []).append((seat.side, seat.competitor.name))
    return {number: [name for _, name in sorted(seats)] for number, seats in tables.items()}


def expected_points(tournament: Tournament) -> dict[str, int]:
    """Each player's points: the donne's score of their seat, by the table's size."""
    points = {}
    for names in seated(tournament).values():
        points.update(zip(names, TOTALS[len(names)], strict=True))
    return points


def csv_points(client: Client, tournament: Tournament) -> dict[str, int]:
    text = client.get(reverse("public:ranking_csv", kwargs={"slug": tournament.slug})).content.decode()
    header, *rows = [line.split(";") for line in text.lstrip("\ufeff").splitlines()]
    name, points = header.index("Nom"), header.index("Points")
    return {row[name]: int(row[points]) for row in rows}


@pytest.mark.parametrize(("game", "count", "sizes"), [("tarot_a_quatre", 9, [4, 5]), ("tarot_a_cinq", 10, [5, 5])])
def test_the_ranking_exports_every_players_score_at_tables_of_4_and_5(evening, game, count, sizes) -> None:
    tournament = evening(game, count)
    assert sorted(len(names) for names in seated(tournament).values()) == sizes
    assert sorted(len(r.totals) for r in TableResult.objects.filter(table__round__tournament=tournament)) == sizes
    expected = expected_points(tournament)
    assert len(expected) == count and sum(expected.values()) == 0
    client = Client()
    assert csv_points(client, tournament) == expected
    response = client.get(reverse("public:ranking_pdf", kwargs={"slug": tournament.slug}))
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    text = ranking_pdf(tournament, StandingsSnapshot.objects.filter(tournament=tournament).latest("version"),
                       compress=False).decode("latin-1")  # fmt: skip
    for name, points in expected.items():
        # Text in the PDF's strings: letters beyond ASCII as octal escapes (é: \\351).
        escaped = "".join(c if c.isascii() else f"\\{c.encode('cp1252')[0]:o}" for c in name)
        assert f"({escaped})" in text and f"({points})" in text


@pytest.mark.parametrize(("game", "count"), [("tarot_a_quatre", 9), ("tarot_a_cinq", 10)])
def test_the_table_sheets_and_the_table_list_name_every_seat(evening, organiser, game, count) -> None:
    tournament = evening(game, count)
    client = Client()
    client.force_login(organiser)
    sheets = client.get(reverse("hands:sheets", args=[tournament.slug]), {"round": 1}).content.decode()
    listed = client.get(reverse("manage:round_print", args=[tournament.pk, 1])).content.decode()
    for number, names in seated(tournament).items():
        # A sheet's header names each seat; its paper rows have a column a player.
        sheet = sheets.split("print-sheet")[number]
        assert all(name in sheet for name in names)
        assert sheet.count("<td></td>") == len(names) + 1
        assert all(name in listed for name in names)
    assert listed.count("<tr") == count + 1


@pytest.mark.parametrize(
    ("game", "count", "seating"),
    [
        ("tarot_a_quatre", 9, {}),
        ("tarot_a_quatre", 9, {"table_preference": "five_first", "allow_tables_of_three": True}),
        ("tarot_a_cinq", 10, {}),
    ],
)
def test_an_archived_tarot_evening_comes_back_whole_with_its_seating(
    evening, django_capture_on_commit_callbacks, game, count, seating
) -> None:
    tournament = evening(game, count, **seating)
    preference = (tournament.table_preference, tournament.allow_tables_of_three)
    tables, points = seated(tournament), expected_points(tournament)
    archive = json.loads(archive_dumps(archive_export(tournament=tournament)))
    before = counts()
    wipe()
    with django_capture_on_commit_callbacks(execute=True):
        report = archive_import(text=json.dumps(archive))
    copy = report.tournament
    assert report.created and counts() == before
    assert (copy.table_preference, copy.allow_tables_of_three) == preference
    assert seated(copy) == tables
    for table in Table.objects.filter(round__tournament=copy):
        hand = Hand.objects.get(table=table)
        assert hand.scores == TOTALS[table.seats.count()] == TableResult.objects.get(table=table).totals
    # The standings are rebuilt from the imported hands: the same ranking file.
    assert csv_points(Client(), copy) == points
    assert archive_export(tournament=copy)["content"] == archive["content"]


def test_an_archive_written_before_the_seating_setting_takes_the_games_own(evening) -> None:
    tournament = evening("tarot_a_cinq", 9)
    archive = json.loads(archive_dumps(archive_export(tournament=tournament)))
    for field in ("table_preference", "allow_tables_of_three"):
        del archive["content"]["tournament"][field]
    archive["checksum"] = checksum(archive["content"])
    wipe()
    copy = archive_import(text=json.dumps(archive)).tournament
    assert (copy.table_preference, copy.allow_tables_of_three) == ("five_first", False)
    assert sorted(len(names) for names in seated(copy).values()) == [4, 5]
