"""Every value of an archive goes through the checks the site's own forms and models make.

An archive whose tournament address was `../../etc/passwd` was imported, and from then on
every page linking to the tournament answered 500. Each case here is a real export with
one value changed (the checksum made again, as anyone can), imported with the command:
refused in one line naming the place in the file, nothing written, the site unharmed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from archive.exporting import checksum
from tests.archive.test_archive import build_night, counts, wipe
from tests.archive.test_erasure import export
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db

Change = Callable[[dict[str, Any]], None]


def _table(content: dict[str, Any]) -> dict[str, Any]:
    table: dict[str, Any] = content["rounds"][0]["tables"][0]
    return table


def _set(*path: Any, value: Any) -> Change:
    def change(content: dict[str, Any]) -> None:
        node = content
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


CASES: list[tuple[str, Change, str]] = [
    ("tournament-slug", _set("tournament", "slug", value="../../etc/passwd"),
     "tournament.slug: Enter a valid “slug” consisting of letters, numbers, underscores or hyphens."),
    ("club-slug", _set("clubs", 1, "slug", value="bc rodez/.."),
     "clubs[1].slug: Enter a valid “slug” consisting of letters, numbers, underscores or hyphens."),
    ("slug-too-long", _set("tournament", "slug", value="x" * 81),
     "tournament.slug: Ensure this value has at most 80 characters (it has 81)."),
    ("empty-name", _set("tournament", "name", value=""), "tournament.name: a value is required"),
    ("rounds", _set("tournament", "rounds_planned", value=31), "tournament.rounds_planned: Between 1 and 30 rounds."),
    ("format", _set("tournament", "format", value="individual"),
     "tournament.format: This game is played in these formats only:"),
    ("criteria", _set("tournament", "criteria", value=["points", "points"]),
     "tournament.criteria: Choose the ranking criteria, each once."),
    ("match-points", _set("tournament", "match_points", value={"win": "deux"}),
     "tournament.match_points.win: expected a number, found text"),
    ("number-as-text", _set("competitors", 2, "number", value="3"),
     "competitors[2].number: expected a whole number, found text"),
    ("competitor-0", _set("competitors", 0, "number", value=0), "competitors[0].number: 0 is not a number from 1"),
    ("round-0", _set("rounds", 1, "number", value=0), "rounds[1].number: 0 is not a number from 1"),
    ("token", lambda content: _table(content).update(token="../../admin"),
     "rounds[0].tables[0].token: '../../admin' is not a referee link this site makes"),
    ("position", lambda content: _table(content)["seats"][0].update(position="Z"),
     "rounds[0].tables[0].seats[0].position: 'Z' is not one of"),
    ("side", lambda content: _table(content)["seats"][0].update(side=7),
     "rounds[0].tables[0].seats[0].side: 7 is not a side of a table (0 to 1)"),
    ("bye", _set("rounds", 0, "byes", 0, "reason", value="vacances"),
     "rounds[0].byes[0].reason: 'vacances' is not one of draw, late"),
    ("licence", _set("players", 0, "licence", value="L" * 31),
     "players[0].licence: Ensure this value has at most 30 characters (it has 31)."),
    ("pair", _set("forbidden_pairs", 0, "second", value=1), "forbidden_pairs[0]: competitor 1 kept apart from itself"),
    ("hand-options", lambda content: _table(content)["hands"][0].update(options=["capot_value"]),
     "rounds[0].tables[0].hands[0].options: expected an object, found a list"),
    ("revision", lambda content: _table(content)["revisions"][0].update(after="tout"),
     "rounds[0].tables[0].revisions[0].after: expected an object or null, found text"),
    ("date-as-number", _set("tournament", "date", value=20261205), "tournament.date: expected a date, found a number"),
]  # fmt: skip


@pytest.mark.parametrize(("how", "change", "message"), CASES, ids=[case[0] for case in CASES])
def test_a_value_the_site_would_refuse_is_refused_in_one_line_and_nothing_is_written(
    tmp_path: Path, how: str, change: Change, message: str
) -> None:
    night = build_night()
    path = export(night.slug, tmp_path / "noel.json")
    archive = json.loads(path.read_text())
    change(archive["content"])
    archive["checksum"] = checksum(archive["content"])
    path.write_text(json.dumps(archive))
    wipe()
    # The club is here already, as it would be on the league's Atout.
    club = ClubFactory(name="Belote Club de Rodez", slug="bc-rodez")
    before = counts()

    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path), stdout=StringIO())

    said = str(refused.value)
    assert said.startswith(f"{path}: not imported, nothing was written. {message}"), said
    assert "\n" not in said
    assert counts() == before
    client = Client()
    assert client.get("/").status_code == 200
    assert client.get(reverse("club_public", kwargs={"slug": club.slug})).status_code == 200
