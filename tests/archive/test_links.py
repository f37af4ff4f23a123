"""An import never brings back a referee link this Atout revoked or renewed.

A leaked QR code is dealt with by revoking or renewing the table's link; an archive
exported before that still holds the old link, and importing it must not revive it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from scoring.services import table_token_renew, table_token_revoke
from tests.archive.test_archive import build_night, wipe
from tests.archive.test_erasure import export, import_file
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Competitor, Table, Tournament

pytestmark = pytest.mark.django_db


def referee_page(token: str) -> int:
    return Client().get(reverse("referee:table", kwargs={"token": token})).status_code


def round_2(tournament: Tournament) -> tuple[Table, Table]:
    first, second = Table.objects.filter(round__tournament=tournament, round__number=2).order_by("number")
    return first, second


@pytest.fixture
def night() -> Tournament:
    return build_night()


@pytest.mark.parametrize("ledger", ["with", "without"])
def test_links_revoked_or_renewed_here_stay_dead_after_importing_an_earlier_export(
    night: Tournament, tmp_path: Path, ledger: str
) -> None:
    revoked, renewed = round_2(night)
    leaked = renewed.token
    assert referee_page(revoked.token) == referee_page(leaked) == 200
    path = export(night.slug, tmp_path / "noel.json")
    if ledger == "without":
        # As for a tournament exchanged before the ledger: the rule for links stands alone.
        from archive.models import SeenVersion

        SeenVersion.objects.all().delete()
    table_token_revoke(table=revoked)
    fresh = table_token_renew(table=renewed).token

    lines = import_file(path)

    assert referee_page(revoked.token) == 403
    assert referee_page(leaked) == 404
    assert referee_page(fresh) == 200
    assert not Table.objects.filter(token=leaked).exists()
    assert "tables: 0 created, 0 updated, 2 unchanged, 2 links kept as here" in lines
    said = [line for line in lines if ".token (round 2, table" in line]
    assert said == [
        "  rounds[1].tables[0].token (round 2, table 1): the table's referee link was revoked here: it stays "
        "revoked; an import never revives a link",
        "  rounds[1].tables[1].token (round 2, table 2): the table's referee link here is not the archive's "
        "(renewed here, or in the other Atout): the link here is kept; an import never brings back a link "
        "this Atout replaced",
    ]


def test_a_link_revoked_in_the_other_atout_is_revoked_here_too(night: Tournament, tmp_path: Path) -> None:
    first = export(night.slug, tmp_path / "first.json")
    table, _other = round_2(night)
    table_token_revoke(table=table)
    later = export(night.slug, tmp_path / "later.json")
    wipe()
    import_file(first)
    token = json.loads(first.read_text())["content"]["rounds"][1]["tables"][0]["token"]
    assert referee_page(token) == 200

    assert "tables: 0 created, 1 updated, 3 unchanged" in import_file(later)
    assert referee_page(token) == 403


def test_an_archive_revoking_an_older_link_does_not_kill_the_one_renewed_here(
    night: Tournament, tmp_path: Path
) -> None:
    table, _other = round_2(night)
    table_token_revoke(table=table)
    path = export(night.slug, tmp_path / "noel.json")
    fresh = table_token_renew(table=table).token

    import_file(path)

    assert referee_page(fresh) == 200


def test_a_new_table_takes_the_archives_link_unless_it_is_used_here(night: Tournament, tmp_path: Path) -> None:
    path = export(night.slug, tmp_path / "noel.json")
    archive = json.loads(path.read_text())
    tokens = [table["token"] for rnd in archive["content"]["rounds"] for table in rnd["tables"]]
    # Imported as a copy beside the original: every link is taken, every table gets its own.
    lines = import_file(path, "--slug", "noel-copie")
    assert "tables: 4 created, 0 updated, 0 unchanged, 4 tokens replaced" in lines
    copied = Table.objects.filter(round__tournament__slug="noel-copie").values_list("token", flat=True)
    assert not set(copied) & set(tokens)


def test_a_competitors_personal_link_never_travels_and_one_found_here_keeps_its_own(
    night: Tournament, tmp_path: Path
) -> None:
    """« Ma soirée »'s link opens this Atout's page only: an archive carries none, a
    competitor imported afresh gets a new one, and one found here keeps (and stays
    withdrawn with) the link it had."""
    here = {c.number: c.link_token for c in Competitor.objects.filter(tournament=night)}
    path = export(night.slug, tmp_path / "noel.json")
    assert all(token not in path.read_text() for token in here.values())
    assert "link_token" not in path.read_text() and "link_revoked" not in path.read_text()
    first = Competitor.objects.get(tournament=night, number=1)
    director = UserFactory()
    night.club.organisers.add(director)
    services.competitor_link_revoke(by=director, competitor=first)
    import_file(path)
    again = {c.number: (c.link_token, c.link_revoked) for c in Competitor.objects.filter(tournament=night)}
    assert again == {number: (token, number == 1) for number, token in here.items()}
    wipe()
    import_file(path)
    fresh = {c.number: c.link_token for c in Competitor.objects.filter(tournament__slug=night.slug)}
    assert fresh.keys() == here.keys() and not set(fresh.values()) & set(here.values())
