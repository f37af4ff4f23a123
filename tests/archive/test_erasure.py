"""Erasure is for good: an archive made before a player was anonymised never brings them back.

Each test writes a real archive file with `export_tournament`, anonymises a player here,
and reads the file back with `import_tournament`, as a club would.
"""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from archive.exporting import checksum
from tests.archive.test_archive import build_night, wipe
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Competitor, Player, Seat, Tournament

pytestmark = pytest.mark.django_db

JEANNE = {"first_name": "Jeanne", "last_name": "Bérard", "licence": "L-4242", "email": "jeanne@example.org"}
PHONE = "06 11 22 33 44"


@pytest.fixture
def night() -> tuple[Tournament, User, Player]:
    """build_night's concours; Jeanne Bérard plays in team 1, named after her."""
    tournament = build_night()
    admin = UserFactory(username="presidente")
    tournament.club.organisers.add(admin, through_defaults={"role": "admin"})
    team = Competitor.objects.get(tournament=tournament, number=1)
    jeanne = team.players.order_by("pk").first()
    assert jeanne is not None
    Player.objects.filter(pk=jeanne.pk).update(**JEANNE, phone=PHONE)
    Competitor.objects.filter(pk=team.pk).update(name="Bérard – Paulson")
    jeanne.refresh_from_db()
    return tournament, admin, jeanne


def export(slug: str, path: Path) -> Path:
    call_command("export_tournament", slug, "-o", str(path), stderr=StringIO())
    return path


def import_file(path: Path, *args: str) -> list[str]:
    out = StringIO()
    call_command("import_tournament", str(path), *args, stdout=out)
    return out.getvalue().splitlines()


def nowhere_named() -> None:
    """No player, competitor or ranking here holds Jeanne's name, licence, e-mail or phone."""
    for player in Player.objects.all():
        stored = " ".join((player.first_name, player.last_name, player.licence, player.email, player.phone))
        for secret in (*JEANNE.values(), PHONE):
            assert secret not in stored, (player.pk, stored)
    for name in Competitor.objects.values_list("name", flat=True):
        assert "Bérard" not in name


def test_an_archive_exported_before_the_erasure_brings_the_player_back_erased(
    night: tuple[Tournament, User, Player], tmp_path: Path
) -> None:
    tournament, admin, jeanne = night
    path = export(tournament.slug, tmp_path / "noel.json")
    services.player_anonymise(by=admin, player=jeanne)
    players = Player.objects.count()

    lines = import_file(path)

    assert Player.objects.count() == players
    nowhere_named()
    assert "players: 0 created, 0 completed, 9 unchanged, 1 kept erased" in lines
    jeanne.refresh_from_db()
    assert jeanne.anonymised_at is not None and jeanne.full_name == f"Joueur anonymisé {jeanne.pk}"
    team = Competitor.objects.get(tournament=tournament, number=1)
    assert jeanne in team.players.all()
    # The report says what it left out and why, by its place in the file, never by name.
    (line,) = [line for line in lines if "erased here" in line]
    assert line.startswith("  players[") and "(a player of competitor 1)" in line
    assert "Bérard" not in "\n".join(lines)
    assert Client().get(reverse("player_public", kwargs={"player_id": jeanne.pk})).status_code == 404


def test_she_is_recognised_in_another_tournaments_archive_by_the_digest_of_her_identity(
    night: tuple[Tournament, User, Player], tmp_path: Path
) -> None:
    """Nothing here links the archive's tournament to her any more: only the digests do."""
    tournament, admin, jeanne = night
    path = export(tournament.slug, tmp_path / "noel.json")
    # She stays a player of the club (another night); this tournament goes.
    Seat.objects.filter(round__tournament=tournament).delete()
    tournament.rounds.all().delete()
    Tournament.objects.filter(pk=tournament.pk).delete()
    services.player_anonymise(by=admin, player=jeanne)
    players = Player.objects.count()

    lines = import_file(path)

    assert "Tournament concours-de-noel created." in lines
    assert Player.objects.count() == players
    nowhere_named()
    assert "players: 0 created, 0 completed, 9 unchanged, 1 kept erased" in lines
    team = Competitor.objects.get(tournament__slug="concours-de-noel", number=1)
    assert jeanne in team.players.all()
    assert team.name == f"Joueur anonymisé {jeanne.pk} – {team.players.exclude(pk=jeanne.pk).get().last_name}"


def test_her_name_written_otherwise_is_still_her(night: tuple[Tournament, User, Player], tmp_path: Path) -> None:
    """Without a licence, a name matches accents, case and spaces aside; so does an e-mail."""
    tournament, admin, jeanne = night
    path = export(tournament.slug, tmp_path / "noel.json")
    archive = json.loads(path.read_text())
    (record,) = [p for p in archive["content"]["players"] if p["licence"] == "L-4242"]
    record.update(last_name="  BERARD ", first_name="jeanne", licence="")
    archive["checksum"] = checksum(archive["content"])
    path.write_text(json.dumps(archive))
    services.player_anonymise(by=admin, player=jeanne)

    lines = import_file(path)

    nowhere_named()
    assert "players: 0 created, 0 completed, 9 unchanged, 1 kept erased" in lines


def test_a_player_erased_where_the_archive_was_made_is_imported_erased_once(
    night: tuple[Tournament, User, Player], tmp_path: Path
) -> None:
    tournament, admin, jeanne = night
    services.player_anonymise(by=admin, player=jeanne)
    path = export(tournament.slug, tmp_path / "noel.json")
    # A file altered to name her again, as erased: still imported erased.
    archive = json.loads(path.read_text())
    (record,) = [p for p in archive["content"]["players"] if p["anonymised_at"]]
    record.update(JEANNE, phone=PHONE)
    archive["checksum"] = checksum(archive["content"])
    path.write_text(json.dumps(archive))
    wipe()

    first, again = import_file(path), import_file(path)

    nowhere_named()
    erased = Player.objects.get(anonymised_at__isnull=False)
    assert erased.full_name == f"Joueur anonymisé {erased.pk}"
    assert Player.objects.count() == 10
    assert "players: 10 created, 0 completed, 0 unchanged" in first
    assert "players: 0 created, 0 completed, 10 unchanged" in again


def test_a_player_erased_before_digests_were_kept_is_known_by_their_team(
    night: tuple[Tournament, User, Player], tmp_path: Path
) -> None:
    tournament, admin, jeanne = night
    path = export(tournament.slug, tmp_path / "noel.json")
    services.player_anonymise(by=admin, player=jeanne)
    Player.objects.filter(pk=jeanne.pk).update(erased_identity={})

    lines = import_file(path)

    nowhere_named()
    assert "players: 0 created, 0 completed, 9 unchanged, 1 kept erased" in lines


def test_a_player_who_came_back_keeps_their_new_record_for_nights_after_the_erasure_only(
    night: tuple[Tournament, User, Player], tmp_path: Path
) -> None:
    tournament, admin, jeanne = night
    Tournament.objects.filter(pk=tournament.pk).update(date=dt.date(2026, 11, 1))
    before = export(tournament.slug, tmp_path / "before.json")
    services.player_anonymise(by=admin, player=jeanne)
    # She came back, and the club registered her again.
    back = Player.objects.create(club=tournament.club, **JEANNE)
    # A night after her erasure (the same file, dated so), imported as a tournament of its own.
    archive = json.loads(before.read_text())
    archive["content"]["tournament"]["date"] = (dt.date.today() + dt.timedelta(days=30)).isoformat()
    archive["checksum"] = checksum(archive["content"])
    after = tmp_path / "after.json"
    after.write_text(json.dumps(archive))

    import_file(before)
    import_file(after, "--slug", "concours-de-janvier")

    assert jeanne in Competitor.objects.get(tournament=tournament, number=1).players.all()
    assert back not in Competitor.objects.get(tournament=tournament, number=1).players.all()
    later = Competitor.objects.get(tournament__slug="concours-de-janvier", number=1)
    assert back in later.players.all() and jeanne not in later.players.all()
