"""ArchiveIdentity moved from the atout app to archive/: a database made before keeps its rows."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from archive.models import ArchiveIdentity
from tests.factories import TournamentFactory

# The migrations as they stood before the move: atout held the model, archive/ had none.
BEFORE_THE_MOVE = [("atout", "0002_archive_identity"), ("archive", None)]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_identity_stored_before_the_move_is_the_same_row_after_it() -> None:
    tournament = TournamentFactory()
    known = uuid.uuid4()
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_THE_MOVE)
    before = MigrationExecutor(connection).loader.project_state(("atout", "0002_archive_identity")).apps
    before.get_model("atout", "ArchiveIdentity").objects.create(tournament_id=tournament.pk, archive_id=known)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    after = MigrationExecutor(connection).loader.project_state().apps
    assert after.get_model("archive", "ArchiveIdentity")._meta.db_table == "atout_archiveidentity"
    with pytest.raises(LookupError):
        after.get_model("atout", "ArchiveIdentity")
    identity = ArchiveIdentity.objects.get(archive_id=known)
    assert identity.tournament_id == tournament.pk
    assert tournament.archive_identity == identity
