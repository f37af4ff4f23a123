"""Tournament archives: export, import elsewhere, import again, refuse damaged files."""

from __future__ import annotations

import copy
import datetime as dt
import json
import stat
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import models

from archive.exporting import archive_dumps, archive_export, checksum
from archive.fields import ArchiveError
from archive.importing import archive_import
from archive.models import ArchiveIdentity
from scoring.models import Hand, HandRevision, StandingsSnapshot, TableResult
from scoring.partie import partie_play, score_fields, tournament_options
from tests.factories import (
    ClubFactory,
    CompetitorFactory,
    PlayerFactory,
    TournamentFactory,
    competitors_for,
    round_with_tables,
)
from tournaments.models import Bye, Club, Competitor, ForbiddenPair, Player, Round, Seat, Table, Tournament

pytestmark = pytest.mark.django_db

ARCHIVED: list[type[models.Model]] = [
    Club, Player, Tournament, Competitor, ForbiddenPair, Round, Table, Seat, Bye,
    Hand, HandRevision, TableResult, ArchiveIdentity,
]  # fmt: skip
T0 = dt.datetime(2026, 12, 5, 20, 30, tzinfo=dt.UTC)


# What build_night's archive holds, found here unchanged when it is imported a second time.
ALL_HERE = {
    "clubs": 2, "players": 10, "competitors": 5, "forbidden pairs": 1, "rounds": 2, "tables": 4,
    "hands": 4, "revisions": 3,
}  # fmt: skip


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in ARCHIVED}


# Entries the engine accepts (belote classique); scored by it in _hand, as a referee's would be.
RAWS = {
    1: {"taker": "A", "contract": "hearts", "points": {"A": 92, "B": 70}, "belote": ["A"]},
    2: {"taker": "B", "contract": "spades", "points": {"A": 70, "B": 92}},
    3: {"taker": "B", "contract": "clubs", "points": {"A": 50, "B": 112}},
}


def _hand(table: Table, number: int, **extra: Any) -> Hand:
    """Donne `number` of `table`, entered as RAWS gives it and scored by the engine."""
    tournament = table.round.tournament
    earlier = list(Hand.objects.filter(table=table).order_by("number"))
    raw = RAWS[number]
    score = partie_play(tournament, [hand.raw for hand in earlier] + [raw]).scores[-1]
    fields: dict[str, Any] = {
        "raw": raw,
        "options": tournament_options(tournament),
        **score_fields(score, earlier[-1].reserve_out if earlier else 0),
        "entered_via": "referee",
        **extra,
    }
    hand = Hand.objects.create(table=table, number=number, **fields)
    Hand.objects.filter(pk=hand.pk).update(created_at=T0 + dt.timedelta(minutes=number))
    return hand


def _revision(hand: Hand | None, table: Table, number: int, action: str, minutes: int, **extra: Any) -> None:
    revision = HandRevision.objects.create(table=table, hand=hand, number=number, action=action, **extra)
    HandRevision.objects.filter(pk=revision.pk).update(at=T0 + dt.timedelta(minutes=minutes))


def build_night() -> Tournament:
    """A concours in its second round: two clubs, five teams, a bye, corrections, a deleted hand."""
    club = ClubFactory(name="Belote Club de Rodez", slug="bc-rodez")
    visitors = ClubFactory(name="Amicale de Millau", slug="amicale-millau")
    tournament = TournamentFactory(
        club=club, slug="concours-de-noel", status="running", rounds_planned=3,
        criteria=["wins", "points"], match_points={"win": 2, "loss": 0}, rule_options={"capot_value": 252},
    )  # fmt: skip
    teams = competitors_for(tournament, 4)
    guest = CompetitorFactory(
        tournament=tournament, number=5, name="Les Millavois", club=visitors, affiliation="Amicale de Millau",
        players=[PlayerFactory(club=visitors, licence="", email="", phone=""), PlayerFactory(club=visitors)],
    )  # fmt: skip
    teams.append(guest)
    ForbiddenPair.objects.create(tournament=tournament, first=teams[0], second=teams[1], reason="same household")

    first = round_with_tables(tournament, teams[:4], number=1)
    Round.objects.filter(pk=first.pk).update(status="closed", closed_at=T0 + dt.timedelta(hours=1))
    Bye.objects.create(round=first, competitor=guest, reason="draw")
    table = first.tables.get(number=1)
    _hand(table, 1)
    corrected = _hand(table, 2, version=2)
    _hand(table, 3, status="pending", idempotency_key="phone-7f3a-3", entered_side=0)
    # No password: hashing one would cost more than the rest of this builder.
    director = get_user_model().objects.create(username="arbitre-principal")
    _revision(corrected, table, 2, "create", 2, after={"scores": [112, 50]}, author_label="Table 1")
    _revision(corrected, table, 2, "update", 9, before={"scores": [112, 50]}, after={"scores": [20, 142]},
              reason="points inversés", author=director)  # fmt: skip
    _revision(None, table, 4, "delete", 11, before={"scores": [80, 82]}, reason="donne annulée", author_label="Table 1")
    TableResult.objects.create(table=table, totals=[244, 262], donnes_played=3, winner_side=1, finished=True)

    second = round_with_tables(tournament, [teams[4], teams[1], teams[2], teams[0]], number=2)
    Round.objects.filter(pk=second.pk).update(
        conflicts=[[teams[0].pk, teams[1].pk]], repeats=[[teams[1].pk, teams[4].pk]]
    )
    Bye.objects.create(round=second, competitor=teams[3], reason="draw")
    _hand(second.tables.get(number=2), 1)
    return Tournament.objects.get(pk=tournament.pk)


def wipe() -> None:
    """An empty Atout, as far as tournaments go (seats and byes first: they protect competitors)."""
    Seat.objects.all().delete()
    Bye.objects.all().delete()
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()


def reseal(archive: dict[str, Any]) -> str:
    """The archive as text with its checksum recomputed: damaged on purpose, but consistently."""
    archive["checksum"] = checksum(archive["content"])
    return json.dumps(archive)


@pytest.fixture
def night() -> Tournament:
    return build_night()


@pytest.fixture
def archive(night: Tournament) -> dict[str, Any]:
    return json.loads(archive_dumps(archive_export(tournament=night)))


# -- what an archive holds ---------------------------------------------------------------


def test_an_archive_holds_the_club_players_settings_draw_and_every_hand_with_its_revisions(
    archive: dict[str, Any],
) -> None:
    content = archive["content"]
    assert [club["slug"] for club in content["clubs"]] == ["amicale-millau", "bc-rodez"]
    assert len(content["players"]) == 10
    assert content["tournament"]["rule_options"] == {"capot_value": 252}
    assert content["tournament"]["criteria"] == ["wins", "points"]
    assert content["forbidden_pairs"] == [{"first": 1, "second": 2, "reason": "same household"}]
    first, second = content["rounds"]
    assert first["status"] == "closed" and first["byes"] == [{"competitor": 5, "reason": "draw"}]
    # Competitors are named by their numbers, never by ids of this database.
    assert second["conflicts"] == [[1, 2]] and second["repeats"] == [[2, 5]]
    table = first["tables"][0]
    assert [hand["number"] for hand in table["hands"]] == [1, 2, 3]
    assert table["hands"][2]["idempotency_key"] == "phone-7f3a-3"
    assert [(r["number"], r["action"]) for r in table["revisions"]] == [(2, "create"), (2, "update"), (4, "delete")]
    assert table["revisions"][2]["hand"] is False
    assert table["result"]["totals"] == [244, 262]
    assert len(table["token"]) >= 24


def test_players_travel_with_their_contact_data(archive: dict[str, Any], night: Tournament) -> None:
    player = night.competitors.get(number=1).players.order_by("pk").first()
    (exported,) = [p for p in archive["content"]["players"] if p["licence"] == player.licence]
    assert exported["email"] == player.email and exported["phone"] == player.phone


def test_the_author_of_a_correction_travels_by_name(archive: dict[str, Any]) -> None:
    revisions = archive["content"]["rounds"][0]["tables"][0]["revisions"]
    assert revisions[1]["author_label"] == "arbitre-principal"
    assert "author" not in revisions[1]


def test_exporting_twice_gives_the_same_archive_id_and_content(night: Tournament, archive: dict[str, Any]) -> None:
    again = archive_export(tournament=night)
    assert again["archive_id"] == archive["archive_id"]
    assert again["content"] == archive["content"] and again["checksum"] == archive["checksum"]


# -- importing ------------------------------------------------------------------------------


def test_an_archive_imported_into_an_empty_atout_gives_back_the_same_tournament(archive: dict[str, Any]) -> None:
    before = counts()
    wipe()
    assert Tournament.objects.count() == 0
    report = archive_import(text=json.dumps(archive))
    assert report.created and report.tournament.slug == "concours-de-noel"
    assert counts() == before
    # Exported again from the copy, it is the same archive: nothing lost, even the times.
    again = archive_export(tournament=report.tournament)
    assert again["content"] == archive["content"]
    assert again["archive_id"] == archive["archive_id"]


def test_the_standings_are_rebuilt_from_the_imported_results(
    archive: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    wipe()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        report = archive_import(text=json.dumps(archive))
    # The rebuild waits for the import's commit (and may queue its own follow-ups).
    assert callbacks
    assert StandingsSnapshot.objects.filter(tournament=report.tournament).exists()


def test_the_late_policy_travels_and_an_archive_from_before_it_imports_as_absent(night: Tournament) -> None:
    Tournament.objects.filter(pk=night.pk).update(late_policy="bye")
    archive = json.loads(archive_dumps(archive_export(tournament=Tournament.objects.get(pk=night.pk))))
    assert archive["content"]["tournament"]["late_policy"] == "bye"
    wipe()
    assert archive_import(text=json.dumps(archive)).tournament.late_policy == "bye"
    # An Atout from before the setting wrote no such field: the default, `absent`, applies.
    del archive["content"]["tournament"]["late_policy"]
    wipe()
    assert archive_import(text=reseal(archive)).tournament.late_policy == "absent"


def test_importing_the_same_archive_twice_doubles_nothing(archive: dict[str, Any]) -> None:
    wipe()
    archive_import(text=json.dumps(archive))
    after_first = counts()
    report = archive_import(text=json.dumps(archive))
    assert not report.created
    assert counts() == after_first
    assert report.headline() == "Tournament concours-de-noel unchanged: nothing written, the archive holds nothing new."


def test_importing_into_the_atout_it_came_from_changes_nothing(archive: dict[str, Any]) -> None:
    before = counts()
    report = archive_import(text=json.dumps(archive))
    assert not report.created and counts() == before


def test_a_later_archive_adds_the_new_hands_and_an_older_one_removes_nothing(night: Tournament) -> None:
    early = archive_dumps(archive_export(tournament=night))
    table = Table.objects.get(round__tournament=night, round__number=2, number=2)
    _hand(table, 2)
    _revision(Hand.objects.get(table=table, number=2), table, 2, "create", 40, author_label="Table 2")
    Round.objects.filter(tournament=night, number=2).update(status="closed")
    later = archive_dumps(archive_export(tournament=night))
    wipe()
    archive_import(text=early)
    assert Hand.objects.count() == 4
    archive_import(text=later)
    assert Hand.objects.count() == 5 and HandRevision.objects.count() == 4
    assert Round.objects.get(number=2).status == "closed"
    archive_import(text=early)
    assert Hand.objects.count() == 5 and HandRevision.objects.count() == 4


def test_a_hand_corrected_here_since_is_not_overwritten_by_an_older_archive(archive: dict[str, Any]) -> None:
    wipe()
    archive_import(text=json.dumps(archive))
    Hand.objects.filter(number=2, table__number=1, table__round__number=1).update(version=3, scores=[0, 162])
    report = archive_import(text=json.dumps(archive))
    assert report.counts["hands kept as here"] == 1
    assert Hand.objects.get(number=2, table__number=1, table__round__number=1).scores == [0, 162]


def test_a_player_already_here_is_found_by_licence_and_only_gains_what_was_missing(archive: dict[str, Any]) -> None:
    exported = next(p for p in archive["content"]["players"] if p["licence"] and p["club"] == "bc-rodez")
    wipe()
    club = ClubFactory(name="Belote Club de Rodez", slug="bc-rodez")
    known = PlayerFactory(
        club=club, licence=exported["licence"], last_name="Autre-Nom", first_name="X", email="", phone="05 00 00 00 00"
    )
    archive_import(text=json.dumps(archive))
    known.refresh_from_db()
    assert known.email == exported["email"]  # was missing: filled in
    assert known.phone == "05 00 00 00 00"  # known here: kept
    assert Player.objects.filter(licence=exported["licence"]).count() == 1


def test_a_player_without_licence_is_found_by_name_whatever_the_case(archive: dict[str, Any]) -> None:
    exported = next(p for p in archive["content"]["players"] if not p["licence"])
    wipe()
    club = ClubFactory(name="Amicale de Millau", slug="amicale-millau")
    known = PlayerFactory(
        club=club, licence="", last_name=exported["last_name"].upper(), first_name=exported["first_name"].lower()
    )
    archive_import(text=json.dumps(archive))
    guest = Competitor.objects.get(number=5)
    assert known in guest.players.all()


def test_referee_links_keep_working_unless_their_token_is_taken_here(archive: dict[str, Any]) -> None:
    tokens = [t["token"] for rnd in archive["content"]["rounds"] for t in rnd["tables"]]
    wipe()
    other = TournamentFactory(slug="autre-concours")
    taken = Table.objects.create(round=Round.objects.create(tournament=other, number=1, method="random", seed=1),
                                 number=1, token=tokens[0])  # fmt: skip
    report = archive_import(text=json.dumps(archive))
    imported = list(
        Table.objects.filter(round__tournament=report.tournament)
        .order_by("round__number", "number")
        .values_list("token", flat=True)
    )
    assert imported[1:] == tokens[1:]
    assert imported[0] != tokens[0] and Table.objects.get(pk=taken.pk).token == tokens[0]
    assert report.counts["table tokens replaced"] == 1


def test_a_different_tournament_with_the_same_address_is_never_overwritten(archive: dict[str, Any]) -> None:
    wipe()
    TournamentFactory(slug="concours-de-noel", name="Un autre concours")
    before = counts()
    with pytest.raises(ArchiveError, match="--slug"):
        archive_import(text=json.dumps(archive))
    assert counts() == before
    report = archive_import(text=json.dumps(archive), slug="concours-de-noel-rodez")
    assert report.created and report.tournament.slug == "concours-de-noel-rodez"
    # Imported again without --slug, it is found by its archive id and keeps its address here.
    again = archive_import(text=json.dumps(archive))
    assert not again.created and again.tournament.pk == report.tournament.pk
    assert again.tournament.slug == "concours-de-noel-rodez"


def _state_of(tournament: Tournament) -> dict[str, Any]:
    """Everything of a tournament an import could touch, as its own export shows it."""
    tournament = Tournament.objects.get(pk=tournament.pk)
    return {
        "slug": tournament.slug,
        "content": archive_export(tournament=tournament)["content"],
        "tokens": sorted(Table.objects.filter(round__tournament=tournament).values_list("token", flat=True)),
    }


def test_importing_with_slug_an_archive_of_a_tournament_here_makes_a_new_copy_and_leaves_it_untouched(
    night: Tournament, archive: dict[str, Any]
) -> None:
    before = _state_of(night)
    report = archive_import(text=json.dumps(archive), slug="concours-de-noel-copie")
    assert report.created and report.copy_of == night
    copy = report.tournament
    assert copy.pk != night.pk and copy.slug == "concours-de-noel-copie"
    # The live tournament keeps its address (and so its links and posters), and every row.
    assert _state_of(night) == before
    assert Tournament.objects.filter(slug="concours-de-noel").get().pk == night.pk
    # The copy holds the same night, with referee links of its own.
    copied = _state_of(copy)
    assert copied["content"]["rounds"][0]["tables"][0]["hands"] == archive["content"]["rounds"][0]["tables"][0]["hands"]
    assert Hand.objects.filter(table__round__tournament=copy).count() == 4
    assert not set(copied["tokens"]) & set(before["tokens"])
    # A tournament of its own from now on: the archive's id stays with the original.
    assert copy.archive_identity.archive_id != night.archive_identity.archive_id
    assert report.headline() == (
        "Tournament concours-de-noel-copie created, a new copy: concours-de-noel, "
        "the tournament this archive came from, is left as it was."
    )
    # Imported again without --slug, the archive updates the original, not the copy.
    again = archive_import(text=json.dumps(archive))
    assert again.tournament.pk == night.pk and not again.created


@pytest.mark.parametrize(
    ("slug", "message"),
    [
        ("concours-de-noel", "'concours-de-noel' is already this archive's tournament here: import without --slug"),
        ("autre-concours", "'autre-concours' is already taken here by the tournament 'Un autre concours'"),
        ("pas une adresse", "--slug 'pas une adresse' is not an address"),
    ],
)
def test_a_slug_already_taken_or_not_an_address_is_refused_and_nothing_is_written(
    night: Tournament, tmp_path: Path, slug: str, message: str
) -> None:
    TournamentFactory(slug="autre-concours", name="Un autre concours")
    path = tmp_path / "noel.json"
    call_command("export_tournament", "concours-de-noel", "-o", str(path), stderr=StringIO())
    before, state = counts(), _state_of(night)
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path), "--slug", slug, stdout=StringIO())
    assert "not imported, nothing was written" in str(refused.value) and message in str(refused.value)
    assert refused.value.returncode != 0
    assert counts() == before and _state_of(night) == state


def test_the_report_of_a_first_import_counts_every_row_created(archive: dict[str, Any]) -> None:
    wipe()
    report = archive_import(text=json.dumps(archive))
    assert report.lines() == [
        "Tournament concours-de-noel created.",
        "competitors: 5 created, 0 updated, 0 unchanged",
        "rounds: 2 created, 0 updated, 0 unchanged, 2 seated",
        "tables: 4 created, 0 updated, 0 unchanged",
        "hands: 4 created, 0 updated, 0 unchanged",
        "revisions: 3 created, 0 unchanged",
        "clubs: 2 created, 0 unchanged",
        "players: 10 created, 0 completed, 0 unchanged",
        "forbidden pairs: 1 created, 0 updated, 0 unchanged",
        "table results: 1 created",
    ]


def test_the_report_of_a_re_import_with_one_hand_changed_says_so_and_no_more(archive: dict[str, Any]) -> None:
    wipe()
    archive_import(text=json.dumps(archive))
    hand = _first_table(archive)["hands"][2]
    hand["raw"] = {"taker": "A", "contract": "clubs", "points": {"A": 112, "B": 50}}
    hand.update(scores=[112, 50], outcome="made", version=2)
    report = archive_import(text=reseal(archive))
    assert report.lines() == [
        "Tournament concours-de-noel updated, its settings unchanged.",
        "competitors: 0 created, 0 updated, 5 unchanged",
        "rounds: 0 created, 0 updated, 2 unchanged",
        "tables: 0 created, 0 updated, 4 unchanged",
        "hands: 0 created, 1 updated, 3 unchanged",
        "revisions: 0 created, 3 unchanged",
        "clubs: 0 created, 2 unchanged",
        "players: 0 created, 0 completed, 10 unchanged",
        "forbidden pairs: 0 created, 0 updated, 1 unchanged",
    ]


def test_the_report_says_when_the_tournaments_settings_changed(archive: dict[str, Any]) -> None:
    wipe()
    archive_import(text=json.dumps(archive))
    archive["content"]["tournament"]["name"] = "Concours de Noël (résultats corrigés)"
    report = archive_import(text=reseal(archive))
    assert report.headline() == "Tournament concours-de-noel updated, its settings included."
    assert Tournament.objects.get().slug == "concours-de-noel"


# -- damaged archives ---------------------------------------------------------------------


def _damage(archive: dict[str, Any], how: str) -> str:
    content = archive["content"]
    table = content["rounds"][0]["tables"][0]
    if how == "truncated":
        return json.dumps(archive)[:5000]
    if how == "altered":
        table["hands"][0]["scores"] = [162, 0]
        return json.dumps(archive)  # the checksum no longer matches
    if how == "not-an-archive":
        return json.dumps({"format": "something-else", "content": {}})
    if how == "newer":
        archive["version"] = 99
        return json.dumps(archive)
    if how == "unknown-field":
        table["hands"][0]["bonus"] = 10
    elif how == "bad-choice":
        content["tournament"]["game"] = "poker"
    elif how == "bad-type":
        table["hands"][1]["number"] = "deux"
    elif how == "missing-field":
        del content["tournament"]["date"]
    elif how == "unknown-player":
        content["competitors"][0]["players"] = [999]
    elif how == "twice-the-same-donne":
        table["hands"][1]["number"] = 1
    elif how == "naive-time":
        table["revisions"][0]["at"] = "2026-12-05T20:32:00"
    elif how == "seated-twice":
        content["rounds"][0]["byes"].append({"competitor": 1, "reason": "draw"})
    return reseal(archive)


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("truncated", "not valid JSON"),
        ("altered", "checksum does not match"),
        ("not-an-archive", "not an Atout tournament archive"),
        ("newer", "newer Atout"),
        ("unknown-field", "rounds[0].tables[0].hands[0]: unknown field(s) bonus"),
        ("bad-choice", "tournament.game: 'poker' is not one of"),
        ("bad-type", "rounds[0].tables[0].hands[1].number"),
        ("missing-field", "tournament: missing field(s) date"),
        ("unknown-player", "competitors[0].players[0]"),
        ("twice-the-same-donne", "donne 1 appears twice"),
        ("naive-time", "rounds[0].tables[0].revisions[0].at: a date and time must give its UTC offset"),
        ("seated-twice", "rounds[0]: competitor 1 appears twice"),
    ],
)
def test_a_damaged_archive_is_refused_with_where_and_why_and_nothing_is_written(
    archive: dict[str, Any], how: str, message: str
) -> None:
    text = _damage(copy.deepcopy(archive), how)
    wipe()
    before = counts()
    with pytest.raises(ArchiveError) as refused:
        archive_import(text=text)
    assert message in str(refused.value)
    assert counts() == before


def test_a_conflict_found_while_writing_undoes_everything_written_before_it(archive: dict[str, Any]) -> None:
    hands = archive["content"]["rounds"][0]["tables"][0]["hands"]
    hands[0]["idempotency_key"] = hands[2]["idempotency_key"]  # the database refuses the second
    wipe()
    before = counts()
    with pytest.raises(ArchiveError, match="conflicts with data already here"):
        archive_import(text=reseal(archive))
    # The clubs, players and tournament written before the hands are gone too.
    assert counts() == before


# -- the commands ----------------------------------------------------------------------------


def test_the_commands_export_to_a_file_and_import_it(night: Tournament, tmp_path: Path) -> None:
    path = tmp_path / "noel.json"
    call_command("export_tournament", "concours-de-noel", "-o", str(path), stderr=StringIO())
    assert json.loads(path.read_text())["content"]["tournament"]["slug"] == "concours-de-noel"
    before = counts()
    wipe()
    out = StringIO()
    call_command("import_tournament", str(path), stdout=out)
    assert "Tournament concours-de-noel created." in out.getvalue().splitlines()
    assert "hands: 4 created, 0 updated, 0 unchanged" in out.getvalue().splitlines()
    assert "revisions: 3 created, 0 unchanged" in out.getvalue().splitlines()
    assert counts() == before


def test_the_import_command_says_a_damaged_file_was_not_imported(night: Tournament, tmp_path: Path) -> None:
    path = tmp_path / "damaged.json"
    path.write_text('{"format": "atout-tournament", "version": 1, "content": {')
    with pytest.raises(CommandError, match=r"not imported, nothing was written\. the file is not valid JSON"):
        call_command("import_tournament", str(path))


def test_the_export_command_names_an_unknown_tournament() -> None:
    with pytest.raises(CommandError, match="no tournament with the address 'nulle-part'"):
        call_command("export_tournament", "nulle-part")


def test_imported_times_are_the_archives_not_the_import_time(archive: dict[str, Any]) -> None:
    wipe()
    archive_import(text=json.dumps(archive))
    hand = Hand.objects.get(table__round__number=1, table__number=1, number=1)
    assert hand.created_at == T0 + dt.timedelta(minutes=1)
    revision = HandRevision.objects.get(action="update")
    assert revision.at == T0 + dt.timedelta(minutes=9)


# -- every hand through the engine ----------------------------------------------------------


def _first_table(archive: dict[str, Any]) -> dict[str, Any]:
    table: dict[str, Any] = archive["content"]["rounds"][0]["tables"][0]
    return table


def _stored_hands() -> list[tuple[int, Any, Any]]:
    return list(Hand.objects.order_by("pk").values_list("number", "raw", "scores"))


@pytest.mark.parametrize("into", ["empty", "the-same-atout"])
def test_a_hand_the_engine_refuses_is_refused_with_its_place_and_the_engines_message(
    archive: dict[str, Any], into: str
) -> None:
    hand = _first_table(archive)["hands"][1]
    hand["raw"]["points"] = {"A": 999_999, "B": -5}
    hand["scores"] = [999_999, -5]
    hand["version"] = 9  # newer than here: it would overwrite the stored donne
    if into == "empty":
        wipe()
    before, hands_before = counts(), _stored_hands()
    with pytest.raises(ArchiveError) as refused:
        archive_import(text=reseal(archive))
    message = str(refused.value)
    assert message.startswith("rounds[0].tables[0].hands[1].raw.points")
    assert "(round 1, table 1, donne 2)" in message
    # The engine's own words for the entry.
    game_errors = partie_play(Tournament(game="belote_classique", end_rule="donnes", end_value=12), [hand["raw"]])
    assert game_errors.errors and game_errors.errors[0].message in message
    assert counts() == before and _stored_hands() == hands_before


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("scores", "rounds[0].tables[0].hands[0].scores (round 1, table 1, donne 1): the file says [162, 0], "
                   "the engine gives [112, 70] for this entry"),
        ("reserve", "rounds[0].tables[0].hands[2].reserve_in (round 1, table 1, donne 3): the file says 40"),
        ("options", "rounds[0].tables[0].hands[0].options (round 1, table 1, donne 1): scored with other rule "
                    "options than the tournament's"),
        ("bad-options", "tournament.rule_options: The game belote_classique has no option “belote_rebelote”."),
        ("gap", "rounds[0].tables[0].hands[2].number (round 1, table 1): donne 4 found where donne 3 should be"),
        ("after-the-end", "rounds[0].tables[0].hands[2].raw (round 1, table 1, donne 3): The partie is over"),
    ],
)  # fmt: skip
def test_a_hand_scored_otherwise_than_the_engine_scores_it_is_refused(
    archive: dict[str, Any], how: str, message: str
) -> None:
    content = archive["content"]
    hands = _first_table(archive)["hands"]
    if how == "scores":
        hands[0]["scores"] = [162, 0]
    elif how == "reserve":
        hands[2]["reserve_in"] = 40
    elif how == "options":
        hands[0]["options"] = {**hands[0]["options"], "capot_value": 250}
    elif how == "bad-options":
        content["tournament"]["rule_options"] = {"belote_rebelote": True}
    elif how == "gap":
        hands[2]["number"] = 4
    elif how == "after-the-end":
        content["tournament"]["end_value"] = 2
    wipe()
    with pytest.raises(ArchiveError) as refused:
        archive_import(text=reseal(archive))
    assert message in str(refused.value)
    assert counts() == {model.__name__: 0 for model in ARCHIVED}


def test_the_report_counts_what_was_written_and_what_was_already_here(archive: dict[str, Any]) -> None:
    wipe()
    first = archive_import(text=json.dumps(archive))
    assert first.counts["hands created"] == 4 and not first.unchanged
    # Another entry for donne 3 (as a later correction would make it), scored by the engine.
    hands = _first_table(archive)["hands"]
    hands[2]["raw"] = {"taker": "A", "contract": "clubs", "points": {"A": 112, "B": 50}}
    hands[2].update(scores=[112, 50], outcome="made", version=2)
    # Donne 1 differs only by its times: nothing to write.
    hands[0]["updated_at"] = (T0 + dt.timedelta(hours=5)).isoformat()
    report = archive_import(text=reseal(archive))
    assert +report.counts == {"hands updated": 1}
    assert report.unchanged == {**ALL_HERE, "hands": 3}
    stored = Hand.objects.get(table__round__number=1, table__number=1, number=3)
    assert stored.raw == hands[2]["raw"] and stored.scores == [112, 50] and stored.version == 2
    untouched = Hand.objects.get(table__round__number=1, table__number=1, number=1)
    assert untouched.updated_at != T0 + dt.timedelta(hours=5)
    again = archive_import(text=reseal(archive))
    assert +again.counts == {} and again.unchanged == ALL_HERE


def test_the_import_command_says_what_was_already_here(night: Tournament, tmp_path: Path) -> None:
    path = tmp_path / "noel.json"
    call_command("export_tournament", "concours-de-noel", "-o", str(path), stderr=StringIO())
    out = StringIO()
    call_command("import_tournament", str(path), stdout=out)
    assert out.getvalue().splitlines() == [
        "Tournament concours-de-noel unchanged: nothing written, the archive holds nothing new.",
        "competitors: 0 created, 0 updated, 5 unchanged",
        "rounds: 0 created, 0 updated, 2 unchanged",
        "tables: 0 created, 0 updated, 4 unchanged",
        "hands: 0 created, 0 updated, 4 unchanged",
        "revisions: 0 created, 3 unchanged",
        "clubs: 0 created, 2 unchanged",
        "players: 0 created, 0 completed, 10 unchanged",
        "forbidden pairs: 0 created, 0 updated, 1 unchanged",
    ]


def test_the_import_command_names_the_hand_the_engine_refuses(archive: dict[str, Any], tmp_path: Path) -> None:
    _first_table(archive)["hands"][0]["raw"]["points"] = {"A": -5, "B": 167}
    path = tmp_path / "altered.json"
    path.write_text(reseal(archive))
    with pytest.raises(CommandError, match=r"not imported, nothing was written\. rounds\[0\]\.tables\[0\]\.hands\[0\]"):
        call_command("import_tournament", str(path))


@pytest.mark.parametrize("exists", [False, True])
def test_an_archive_file_is_readable_by_its_owner_only(night: Tournament, tmp_path: Path, exists: bool) -> None:
    path = tmp_path / "noel.json"
    if exists:
        path.write_text("old")
        path.chmod(0o644)
    err = StringIO()
    call_command("export_tournament", "concours-de-noel", "-o", str(path), stderr=err)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text())["format"] == "atout-tournament"
    assert "readable by you only" in err.getvalue()
