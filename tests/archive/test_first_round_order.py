"""The order of round 1 and a round drawn by rating travel in archives; an archive from
before the setting imports as a random round 1."""

from __future__ import annotations

import json

import pytest

from archive.exporting import archive_dumps, archive_export
from archive.importing import archive_import
from tests.archive.test_archive import build_night, reseal, wipe
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def test_the_order_of_round_1_travels_and_an_older_archive_imports_as_random() -> None:
    night = build_night()
    Tournament.objects.filter(pk=night.pk).update(first_round_order="rating")
    Round.objects.filter(tournament=night, number=1).update(method="seeded")
    archive = json.loads(archive_dumps(archive_export(tournament=Tournament.objects.get(pk=night.pk))))
    assert archive["content"]["tournament"]["first_round_order"] == "rating"
    wipe()
    imported = archive_import(text=json.dumps(archive)).tournament
    assert imported.first_round_order == "rating"
    assert imported.rounds.get(number=1).method == "seeded"
    # An Atout from before the setting wrote no such field: round 1 was drawn at random.
    del archive["content"]["tournament"]["first_round_order"]
    wipe()
    assert archive_import(text=reseal(archive)).tournament.first_round_order == "random"
