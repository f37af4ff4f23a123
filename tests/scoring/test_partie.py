"""One reading of a partie (scoring.partie): the hands that count, read alike by the table
result and the public sheet; a referee's entry played by the engine once; one writer of
TableResult."""

from __future__ import annotations

import ast
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import engine.match
from scoring.models import Hand, TableResult
from scoring.partie import counted_count, table_result_refresh
from scoring.selectors.standings import table_sheet_public
from scoring.services import hand_confirm, hand_submit
from tests.api.conftest import API, referee
from tests.conftest import ROOT
from tests.scoring.tables import SOUND_HANDS, make_table
from tournaments.models import Table

pytestmark = pytest.mark.django_db

HAND = SOUND_HANDS["belote_classique"][0]  # scores [102, 60]


def public_sheet(table: Table) -> dict[str, Any]:
    return table_sheet_public(table.round.tournament, table.round.number, table.number)


# -- which hands count --------------------------------------------------------------------


def test_without_confirmation_every_hand_counts_with_it_the_confirmed_prefix() -> None:
    statuses = ["confirmed", "pending", "confirmed"]
    assert counted_count(False, statuses) == 3
    assert counted_count(True, statuses) == 1
    assert counted_count(True, ["pending"]) == 0


def test_the_public_sheet_counts_the_hands_the_table_result_counts() -> None:
    table = make_table(confirmation=True)
    hand_submit(table=table, raw=HAND, entered_side=0)
    hand_submit(table=table, raw=HAND, entered_side=0)
    hand_confirm(hand=Hand.objects.get(table=table, number=1), side=1)
    sheet = public_sheet(table)
    assert [(row["counted"], row["running"]) for row in sheet["hands"]] == [(True, [102, 60]), (False, [102, 60])]
    assert TableResult.objects.get(table=table).totals == [102, 60]


def test_once_the_tournament_stops_asking_for_confirmation_the_public_sheet_counts_every_hand() -> None:
    table = make_table(confirmation=True)
    hand_submit(table=table, raw=HAND, entered_side=0)
    assert public_sheet(table)["hands"][0]["counted"] is False
    tournament = table.round.tournament
    tournament.confirmation_required = False
    tournament.save()
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    assert table_result_refresh(table).totals == [102, 60]
    # The hand is still stored as pending, but no confirmation is asked any more: it counts.
    assert Hand.objects.get(table=table).status == "pending"
    assert [(row["counted"], row["running"]) for row in public_sheet(table)["hands"]] == [(True, [102, 60])]


# -- a referee's entry plays the partie once ------------------------------------------------


@pytest.fixture
def engine_plays(monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    """How many times the engine's partie (engine.match.play) ran: a counting wrapper
    around the real function, which still does all the work."""
    calls = [0]
    real = engine.match.play

    def counting(*args: Any, **kwargs: Any) -> engine.match.MatchResult:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(engine.match, "play", counting)
    return lambda: calls[0]


@pytest.mark.parametrize("confirmation", [False, True])
def test_a_referee_entry_plays_the_partie_once_in_the_service(engine_plays, confirmation: bool) -> None:
    table = make_table(confirmation=confirmation)
    hand_submit(table=table, raw=HAND, entered_side=0)
    before = engine_plays()
    outcome = hand_submit(table=table, raw=HAND, entered_side=0)
    assert engine_plays() - before == 1
    assert outcome.played is not None and outcome.result is not None
    # Both donnes are on the sheet; with confirmation asked, neither counts yet.
    assert list(outcome.played.totals) == [204, 120]
    assert outcome.result.totals == ([0, 0] if confirmation else [204, 120])


@pytest.mark.parametrize("confirmation", [False, True])
def test_a_referee_entry_from_the_page_plays_the_partie_once(client: Client, engine_plays, confirmation: bool) -> None:
    table = make_table(confirmation=confirmation)
    before = engine_plays()
    body = {
        "mode": "new",
        "expected_number": "1",
        "idempotency_key": uuid.uuid4().hex,
        "taker": "A",
        "contract": "hearts",
        "points_taker": "102",
        "entered_side": "0",
    }
    response = client.post(reverse("referee:submit", args=[table.token]), body, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "La donne 1 est" in response.content.decode()
    assert Hand.objects.filter(table=table).count() == 1
    assert engine_plays() - before == 1


def test_a_referee_entry_through_the_api_plays_the_partie_once(engine_plays) -> None:
    table = make_table()
    before = engine_plays()
    response = referee(table).post(f"{API}/table/hands/", {"raw": HAND, "expected_number": 1}, format="json")
    assert response.status_code == 201 and response.json()["result"]["totals"] == [102, 60]
    assert engine_plays() - before == 1


# -- one writer ---------------------------------------------------------------------------

WRITES = {"create", "get_or_create", "update_or_create", "bulk_create", "bulk_update", "update", "delete", "save"}


def _table_result_writes(path: Path) -> list[int]:
    """Lines of `path` that write TableResult rows: `TableResult(...)` built, or a write
    method called on a chain that starts at `TableResult` (`TableResult.objects....update()`)."""

    def root(node: ast.AST) -> ast.AST:
        while isinstance(node, ast.Attribute | ast.Call):
            node = node.value if isinstance(node, ast.Attribute) else node.func
        return node

    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        built = isinstance(func, ast.Name) and func.id == "TableResult"
        written = isinstance(func, ast.Attribute) and func.attr in WRITES
        if built or (written and isinstance(r := root(func), ast.Name) and r.id == "TableResult"):
            lines.append(node.lineno)
    return lines


def test_only_scoring_partie_writes_table_results() -> None:
    writers = {}
    for app in ("api", "atout", "scoring", "tournaments"):
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts and (lines := _table_result_writes(path)):
                writers[str(path.relative_to(ROOT))] = lines
    assert list(writers) == ["scoring/partie.py"]
