"""Roles came after the plain list of organisers: a database made before keeps everyone,
each organiser of before becoming an administrator of their club."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournaments import access
from tournaments.models import Club, Membership

BEFORE_ROLES = [("tournaments", "0007_tarot_seating")]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_organisers_of_before_become_their_clubs_administrators() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_ROLES)
    before = MigrationExecutor(connection).loader.project_state(BEFORE_ROLES[0]).apps
    user = before.get_model("auth", "User").objects.create(username="directrice")
    club = before.get_model("tournaments", "Club").objects.create(name="Belote Club de Rodez", slug="bc-rodez")
    club.organisers.add(user)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    rodez = Club.objects.get(slug="bc-rodez")
    membership = Membership.objects.get(club=rodez)
    assert (membership.user.username, membership.role) == ("directrice", "admin")
    assert access.is_organiser(membership.user, rodez) and access.is_club_admin(membership.user, rodez)
