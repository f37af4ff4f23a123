"""Deletions and corrections made here win over an older archive; a later one still brings news.

"Here" and "the other Atout" share one database in these tests: the night is exported
(the other Atout's files), then the database is emptied and the files imported, as
another Atout would. Every file is a real one, written by `export_tournament`.
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring.models import Hand, HandRevision, TableResult
from scoring.services import hand_correct, hand_delete
from tests.archive.test_archive import RAWS, _hand, _revision, build_night, wipe
from tests.archive.test_erasure import export, import_file
from tests.factories import ClubFactory, UserFactory
from tournaments import services
from tournaments.models import Competitor, ForbiddenPair, Prize, Round, Seat, Table, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def night() -> tuple[Tournament, User]:
    tournament = build_night()
    director = UserFactory(username="directrice")
    tournament.club.organisers.add(director, through_defaults={"role": "admin"})
    return tournament, director


def table(round_number: int, number: int) -> Table:
    return Table.objects.get(round__tournament__slug="concours-de-noel", round__number=round_number, number=number)


def sheet(round_number: int, number: int) -> list[tuple[int, Any]]:
    return list(Hand.objects.filter(table=table(round_number, number)).order_by("number").values_list("number", "raw"))


def test_a_donne_the_director_deleted_does_not_come_back(night: tuple[Tournament, User], tmp_path: Path) -> None:
    tournament, director = night
    path = export(tournament.slug, tmp_path / "noel.json")
    hand_delete(hand=Hand.objects.get(table=table(1, 1), number=3), reason="donne en trop", by=director)
    before, result = sheet(1, 1), TableResult.objects.get(table=table(1, 1)).totals

    lines = import_file(path)

    assert sheet(1, 1) == before and len(before) == 2
    assert TableResult.objects.get(table=table(1, 1)).totals == result
    assert "hands: 0 created, 0 updated, 3 unchanged, 1 left out" in lines
    assert (
        "  rounds[0].tables[0].hands (round 1, table 1, the archive's donne 3): changed here since this archive "
        "was made (donne 3 deleted): this table's donnes here are kept"
    ) in lines
    assert (
        lines[0]
        == "Tournament concours-de-noel unchanged: nothing written; what the archive holds otherwise was left out."
    )


def test_a_donne_deleted_in_the_middle_leaves_the_sheet_as_the_director_made_it(
    night: tuple[Tournament, User], tmp_path: Path
) -> None:
    tournament, director = night
    path = export(tournament.slug, tmp_path / "noel.json")
    hand_delete(hand=Hand.objects.get(table=table(1, 1), number=2), reason="donne annulée", by=director)
    before = sheet(1, 1)
    assert [raw for _number, raw in before] == [RAWS[1], RAWS[3]]

    lines = import_file(path)

    assert sheet(1, 1) == before
    assert "hands: 0 created, 0 updated, 2 unchanged, 1 kept as here, 1 left out" in lines


def test_a_correction_made_here_wins(night: tuple[Tournament, User], tmp_path: Path) -> None:
    tournament, director = night
    path = export(tournament.slug, tmp_path / "noel.json")
    corrected = {"taker": "B", "contract": "hearts", "points": {"A": 62, "B": 100}}
    hand_correct(hand=Hand.objects.get(table=table(2, 2), number=1), raw=corrected, reason="preneur", by=director)

    lines = import_file(path)

    assert sheet(2, 2) == [(1, corrected)]
    assert "hands: 0 created, 0 updated, 3 unchanged, 1 kept as here" in lines


def test_what_the_director_changed_or_removed_here_stays_so(night: tuple[Tournament, User], tmp_path: Path) -> None:
    tournament, director = night
    path = export(tournament.slug, tmp_path / "noel.json")
    Tournament.objects.filter(pk=tournament.pk).update(name="Concours de Noël 2026")
    Competitor.objects.filter(tournament=tournament, number=3).update(name="Les Ruthénois")
    services.forbidden_pair_remove(by=director, pair=ForbiddenPair.objects.get(tournament=tournament))
    # The seating of round 2, changed by hand: two competitors swap their tables.
    first, second = (
        Seat.objects.get(round__number=2, round__tournament=tournament, competitor__number=n) for n in (5, 1)
    )
    Seat.objects.filter(pk__in=[first.pk, second.pk]).delete()
    Seat.objects.create(
        round=first.round, table=second.table, competitor=first.competitor, side=second.side, position=second.position
    )
    Seat.objects.create(
        round=first.round, table=first.table, competitor=second.competitor, side=first.side, position=first.position
    )
    seating = set(Seat.objects.filter(round__tournament=tournament).values_list("table_id", "competitor_id"))

    lines = import_file(path)

    tournament.refresh_from_db()
    assert tournament.name == "Concours de Noël 2026"
    assert Competitor.objects.get(tournament=tournament, number=3).name == "Les Ruthénois"
    assert not ForbiddenPair.objects.filter(tournament=tournament).exists()
    assert set(Seat.objects.filter(round__tournament=tournament).values_list("table_id", "competitor_id")) == seating
    assert "competitors: 0 created, 0 updated, 4 unchanged, 1 kept as here" in lines
    assert "rounds: 0 created, 0 updated, 1 unchanged, 1 kept as here" in lines
    assert "forbidden pairs: 0 created, 0 updated, 0 unchanged, 1 left out" in lines
    left_out = lines[lines.index("Left out (4): this Atout's own data wins over the archive's.") + 1 :]
    assert left_out == [
        "  tournament (the tournament's settings): changed here since this archive was made: kept as it is here",
        "  competitors[2] (competitor 3): changed here since this archive was made: kept as it is here",
        "  forbidden_pairs[0] (competitors 1 and 2 kept apart): deleted here since this archive was made: "
        "not brought back",
        "  rounds[1] (round 2): changed here since this archive was made: kept as it is here",
    ]


def two_atouts(night: Tournament, tmp_path: Path) -> tuple[Path, Path]:
    """The other Atout's first export, and its later one: donne 2 entered at round 2's table 2,
    round 2 closed, competitor 4 renamed and donne 3 of round 1's table 1 deleted there."""
    first = export(night.slug, tmp_path / "first.json")
    later_table = table(2, 2)
    _hand(later_table, 2)
    _revision(Hand.objects.get(table=later_table, number=2), later_table, 2, "create", 40, author_label="Table 2")
    Round.objects.filter(tournament=night, number=2).update(status="closed")
    Competitor.objects.filter(tournament=night, number=4).update(name="Les Aveyronnais")
    hand_delete(hand=Hand.objects.get(table=table(1, 1), number=3), reason="donne en trop", by=None)
    later = export(night.slug, tmp_path / "later.json")
    wipe()
    import_file(first)
    return first, later


def test_a_later_archive_brings_what_changed_there_and_what_changed_here_stays(
    night: tuple[Tournament, User], tmp_path: Path
) -> None:
    _first, later = two_atouts(night[0], tmp_path)
    Competitor.objects.filter(number=3).update(name="Les Ruthénois")

    lines = import_file(later)

    assert sheet(2, 2) == [(1, RAWS[1]), (2, RAWS[2])]
    assert Round.objects.get(number=2).status == "closed"
    assert Competitor.objects.get(number=4).name == "Les Aveyronnais"
    assert Competitor.objects.get(number=3).name == "Les Ruthénois"
    # Deleted there, after the first export: deleted here too, its revision with it.
    assert sheet(1, 1) == [(1, RAWS[1]), (2, RAWS[2])]
    assert HandRevision.objects.filter(table=table(1, 1), action="delete", number=3).exists()
    assert "hands: 1 created, 0 updated, 3 unchanged, 1 deleted as in the archive" in lines
    assert "competitors: 0 created, 1 updated, 3 unchanged, 1 kept as here" in lines


def test_a_row_changed_on_both_sides_keeps_this_atouts_change(night: tuple[Tournament, User], tmp_path: Path) -> None:
    _first, later = two_atouts(night[0], tmp_path)
    Competitor.objects.filter(number=4).update(name="Les Millavois du Rouergue")
    hand_delete(hand=Hand.objects.get(table=table(1, 1), number=1), reason="erreur", by=None)
    kept = sheet(1, 1)

    lines = import_file(later)

    assert Competitor.objects.get(number=4).name == "Les Millavois du Rouergue"
    assert sheet(1, 1) == kept
    assert (
        "  competitors[3] (competitor 4): changed both here and in the other Atout since they last exchanged it: "
        "this Atout's own change wins"
    ) in lines
    assert any(
        line.startswith("  rounds[0].tables[0].hands (round 1, table 1, the archive's donnes 1, 2): changed both here")
        for line in lines
    )


def test_an_older_archive_imported_after_a_later_one_undoes_nothing(
    night: tuple[Tournament, User], tmp_path: Path
) -> None:
    first, later = two_atouts(night[0], tmp_path)
    import_file(later)

    lines = import_file(first)

    assert sheet(2, 2) == [(1, RAWS[1]), (2, RAWS[2])]
    assert sheet(1, 1) == [(1, RAWS[1]), (2, RAWS[2])]
    assert Round.objects.get(number=2).status == "closed"
    assert Competitor.objects.get(number=4).name == "Les Aveyronnais"
    assert "hands: 0 created, 0 updated, 3 unchanged, 1 left out" in lines


def test_an_export_and_the_same_file_read_back_cut_into_the_same_parts(night: tuple[Tournament, User]) -> None:
    """What the ledger compares: the parts of this Atout's state and of an archive it wrote are one."""
    from archive.exporting import archive_dumps, archive_export
    from archive.importing import archive_parts
    from archive.ledger import content_parts
    from archive.reading import read_archive

    tournament, director = night
    hand_delete(hand=Hand.objects.get(table=table(1, 1), number=2), reason="donne annulée", by=director)
    Tournament.objects.filter(pk=tournament.pk).update(entry_fee="7.50", late_policy="bye")
    Prize.objects.create(tournament=tournament, rank_from=1, rank_to=2, text="Un jambon", value="40.00")
    text = archive_dumps(archive_export(tournament=tournament))
    parts = content_parts(json.loads(text)["content"])
    assert archive_parts(read_archive(text)) == parts
    assert {part[0] for part in parts} == {"tournament", "competitor", "forbidden pair", "prize", "round", "partie"}


def test_an_amount_written_otherwise_is_the_same_amount(night: tuple[Tournament, User]) -> None:
    """8 and 8.00 are one entry fee: the same archive imported back changes and leaves out nothing."""
    from archive.exporting import archive_dumps, archive_export
    from archive.importing import archive_import

    tournament, _director = night
    Tournament.objects.filter(pk=tournament.pk).update(entry_fee=Decimal("8"))
    # In memory as a form leaves it; the database gives 8.00 back.
    tournament.entry_fee = Decimal("8")
    text = archive_dumps(archive_export(tournament=tournament))
    assert json.loads(text)["content"]["tournament"]["entry_fee"] == "8"

    report = archive_import(text=text)

    assert report.left_out == [] and not report.wrote


def test_a_time_written_with_another_offset_is_the_same_time(night: tuple[Tournament, User]) -> None:
    from archive.exporting import archive_dumps, archive_export, checksum
    from archive.importing import archive_import

    tournament, _director = night
    archive = json.loads(archive_dumps(archive_export(tournament=tournament)))
    closed = dt.datetime.fromisoformat(archive["content"]["rounds"][0]["closed_at"])
    paris = closed.astimezone(dt.timezone(dt.timedelta(hours=1))).isoformat()
    archive["content"]["rounds"][0]["closed_at"] = paris
    archive["checksum"] = checksum(archive["content"])

    first, again = archive_import(text=json.dumps(archive)), archive_import(text=json.dumps(archive))

    assert first.left_out == again.left_out == [] and not first.wrote and not again.wrote


def test_a_club_found_here_by_its_name_is_the_same_club(night: tuple[Tournament, User], tmp_path: Path) -> None:
    tournament, _director = night
    path = export(tournament.slug, tmp_path / "noel.json")
    wipe()
    # Here, the club has another address.
    ClubFactory(name="Belote Club de Rodez", slug="belote-rodez")

    first, again = import_file(path), import_file(path)

    assert Tournament.objects.get().club.slug == "belote-rodez"
    assert not any(line.startswith("Left out") for line in first + again)
    assert again[0] == "Tournament concours-de-noel unchanged: nothing written, the archive holds nothing new."
