"""Importing a club's player list from CSV: previews, bad files, duplicates, all or nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tests.factories import PlayerFactory
from tournaments import csv_import, services
from tournaments.models import Player

pytestmark = pytest.mark.django_db

GOOD = (
    "nom;prénom;club;licence\nMartin;Jean;Belote Club de Rodez;0101\nDurand;Hélène;;0102\nVidal;Paul;ABC Millau;0103\n"
)


def preview_of(club, organiser, raw: bytes) -> csv_import.ImportPreview:
    return services.players_import_preview(by=organiser, club=club, text=csv_import.decode(raw))


def test_an_excel_file_in_windows_1252_with_semicolons_is_read(club, organiser) -> None:
    preview = preview_of(club, organiser, GOOD.encode("cp1252"))
    assert preview.valid
    assert [(r.line, r.last_name, r.first_name) for r in preview.to_import] == [
        (2, "Martin", "Jean"),
        (3, "Durand", "Hélène"),
        (4, "Vidal", "Paul"),
    ]


def test_a_utf8_file_with_a_byte_order_mark_and_commas_is_read(club, organiser) -> None:
    raw = "\ufeffNom,Prénom,Club,N° licence\r\nDurand,Hélène,,0102\r\n".encode()
    preview = preview_of(club, organiser, raw)
    assert preview.valid
    assert (preview.rows[0].first_name, preview.rows[0].licence) == ("Hélène", "0102")


def test_importing_a_valid_file_creates_every_player_with_their_club(club, organiser) -> None:
    created = services.players_import(by=organiser, club=club, text=GOOD)
    assert len(created) == 3
    players = {p.last_name: p for p in Player.objects.filter(club=club)}
    assert players["Martin"].affiliation == ""  # the importing club itself
    assert players["Vidal"].affiliation == "ABC Millau"
    assert players["Durand"].licence == "0102"


def test_a_file_that_is_neither_utf8_nor_windows_1252_is_refused(club, organiser) -> None:
    with pytest.raises(csv_import.ImportFileError, match="encod"):
        csv_import.decode(b"nom;pr\x81nom\n\x8dMartin;Jean\n")


def test_a_spreadsheet_saved_as_xlsx_is_not_taken_for_text(club, organiser) -> None:
    with pytest.raises(csv_import.ImportFileError, match="CSV"):
        csv_import.decode(b"PK\x03\x04\x14\x00\x00\x00\x08\x00")


def test_a_missing_column_is_named(club, organiser) -> None:
    preview = preview_of(club, organiser, b"nom;club;licence\nMartin;Rodez;1\n")
    assert not preview.valid
    assert "prénom" in preview.file_errors[0]


def test_an_empty_file_and_a_header_alone_are_refused(club, organiser) -> None:
    assert not preview_of(club, organiser, b"\n\n").valid
    header_only = preview_of(club, organiser, b"nom;prenom\n")
    assert not header_only.valid and header_only.file_errors


def test_every_bad_row_is_reported_with_its_line_and_nothing_is_written(club, organiser) -> None:
    text = "nom;prénom;club;licence\nMartin;Jean;;1\n\n;Paul;;2\nDurand;;;3\nVidal;Léa;;1\nRoux;Marc;;4;extra\n"
    preview = services.players_import_preview(by=organiser, club=club, text=text)
    errors = {row.line: row.errors for row in preview.bad_rows}
    assert set(errors) == {4, 5, 6, 7}  # line 3 is blank and skipped, not renumbered
    assert "nom" in errors[4][0]
    assert "prénom" in errors[5][0]
    assert "line 2" in errors[6][0] or "ligne 2" in errors[6][0]
    assert "5" in errors[7][0]
    with pytest.raises(ValidationError) as error:
        services.players_import(by=organiser, club=club, text=text)
    assert any("4" in message for message in error.value.messages)
    assert not Player.objects.filter(club=club).exists()


def test_the_same_player_twice_in_the_file_is_an_error(club, organiser) -> None:
    preview = services.players_import_preview(
        by=organiser, club=club, text="nom;prénom\nMartin;Jean\nMARTIN;Jean\nMartin;Jeanne\n"
    )
    assert [row.line for row in preview.bad_rows] == [3]


def test_namesakes_with_different_licences_are_two_players(club, organiser) -> None:
    preview = services.players_import_preview(
        by=organiser, club=club, text="nom;prénom;licence\nMartin;Jean;100\nMartin;Jean;200\n"
    )
    assert preview.valid and len(preview.to_import) == 2


def test_players_already_in_the_club_are_flagged_and_skipped(club, organiser) -> None:
    PlayerFactory(club=club, last_name="Martin", first_name="Jean", licence="0101")
    PlayerFactory(club=club, last_name="Durand", first_name="Hélène", licence="")
    preview = services.players_import_preview(by=organiser, club=club, text=GOOD)
    assert preview.valid
    # Line 2 has Martin's licence; line 3 has Durand's name, and neither has a licence to tell them apart.
    assert [(row.line, "licence" in row.flags[0]) for row in preview.flagged] == [(2, True), (3, False)]
    created = services.players_import(by=organiser, club=club, text=GOOD)
    assert [p.last_name for p in created] == ["Vidal"]
    assert Player.objects.filter(club=club).count() == 3


def test_a_name_typed_in_the_other_order_or_without_accents_is_the_same_player(club, organiser) -> None:
    # The rule the director's forms share (tests/tournaments/test_one_person.py).
    PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="")
    text = "nom;prénom\nHelene;LEFEVRE\nLefevre;Helene\n"
    preview = services.players_import_preview(by=organiser, club=club, text=text)
    assert [row.line for row in preview.bad_rows] == [3]
    assert [row.line for row in preview.flagged] == [2]


def test_another_clubs_organiser_cannot_preview_nor_import(club, outsider) -> None:
    with pytest.raises(PermissionDenied):
        services.players_import_preview(by=outsider, club=club, text=GOOD)
    with pytest.raises(PermissionDenied):
        services.players_import(by=outsider, club=club, text=GOOD)
    assert not Player.objects.exists()
