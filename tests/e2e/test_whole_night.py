"""The whole night, end to end, on production-like processes (gunicorn and a Celery worker
with DEBUG off, PostgreSQL, Redis) in Debian's Chromium:

the director creates a concours of 8 teams, checks them in and draws round 1; four
referees enter their parties on phone-sized pages; the director corrects one hand, closes
the round and draws round 2; the public ranking, open in projector mode the whole time,
follows every step without being reloaded. Each step leaves a screenshot in
test-results/screenshots/whole-night-*.png.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import PHONE, register_and_check_in_eight_teams, screenshot
from tests.production.processes import Stack, manage, production_stack

NAME = "Concours de la Saint-Nicolas"
DONNES = 4


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    # A browser speaks plain HTTP to the stack: no TLS proxy in front of it here.
    with production_stack(
        tmp_path / "static",
        BEHIND_TLS_PROXY="false",
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        SECURE_HSTS_SECONDS="0",
    ) as running:
        manage(running.env, "demo")
        yield running


def query(stack: Stack, sql: str, *params: object) -> list[tuple[object, ...]]:
    return stack.postgres.query(stack.database, sql, params)


def ranking_version(page) -> int:
    return int(page.locator("#ranking").get_attribute("data-version") or 0)


def wait_for_ranking_past(page, version: int) -> int:
    """Wait until the projector, left alone, shows a ranking newer than `version`."""
    page.wait_for_function(
        f"() => Number(document.querySelector('#ranking')?.dataset.version || 0) > {version}", timeout=20_000
    )
    return ranking_version(page)


def projector_points(page) -> dict[str, int]:
    """Team name -> points as the projector shows them (the points column by its header).

    Read in one script run: the projector swaps its ranking by itself, and reading row by row
    could mix rows of two versions.
    """
    rows = page.evaluate(
        """() => {
            const table = document.querySelector('#ranking');
            const headers = [...table.querySelectorAll('thead th')].map((h) => h.textContent.trim());
            const points = headers.indexOf('Points');
            return [...table.querySelectorAll('tbody tr')].map((row) => {
                const cells = [...row.querySelectorAll('td')];
                // The name without the partie's mark under it ("en cours, 3 donnes").
                let name = cells[2].textContent;
                for (const mark of row.querySelectorAll('td .in-play')) name = name.replace(mark.textContent, '');
                return [name.trim(), cells[points].textContent.trim()];
            });
        }"""
    )
    return {name: int(points) for name, points in rows}


def wait_for_points(page, expected: Callable[[dict[str, int]], bool], timeout: float = 20) -> dict[str, int]:
    """Read the projector until its points satisfy `expected` (it refreshes by itself)."""
    deadline = time.monotonic() + timeout
    shown = projector_points(page)
    while not expected(shown):
        assert time.monotonic() < deadline, f"the projector still shows {shown}"
        page.wait_for_timeout(500)
        shown = projector_points(page)
    return shown


def log_in(page, base: str) -> None:
    page.goto(base + "/login/")
    page.fill("input[name=username]", "demo")
    page.fill("input[name=password]", "demo-atout")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()


def create_concours(page, base: str) -> None:
    page.goto(base + "/manage/")
    page.get_by_role("link", name="Belote Club de Démo").first.click()
    page.get_by_role("link", name="Nouveau tournoi").click()
    page.fill("input[name=name]", NAME)
    page.fill("input[name=date]", "2026-12-05")
    page.fill("input[name=end_value]", str(DONNES))
    page.get_by_role("button", name="Créer le tournoi").click()
    page.get_by_role("button", name="Ouvrir les inscriptions").click()


def play_partie(page, base: str, token: str, table_number: int) -> None:
    """A referee enters a whole partie of DONNES donnes at one table, with a thumb."""
    page.goto(f"{base}/r/{token}/")
    for donne in range(1, DONNES + 1):
        # Takers alternate; the contract is the donne's suit; the taker makes it or not.
        page.locator("#f-taker label.chip").nth(donne % 2).click()
        page.locator("#f-contract label.chip").nth(donne % 4).click()
        taker_points = 82 + 10 * ((donne + table_number) % 6) if donne != 3 else 60
        page.locator("#id_points_taker").fill(str(taker_points))
        page.locator("#hand-form button[type=submit]").click()
        if donne < DONNES:
            page.get_by_text(f"La donne {donne} est enregistrée.").wait_for()
    page.get_by_text(re.compile("Partie terminée")).wait_for()
    assert page.locator("#hand-form").count() == 0


@pytest.mark.browser
def test_the_whole_night_from_an_empty_concours_to_round_2_with_the_projector_following(browser, stack) -> None:
    base = stack.url
    director = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR").new_page()
    director.set_default_timeout(15_000)
    log_in(director, base)
    create_concours(director, base)
    register_and_check_in_eight_teams(director)
    director.get_by_role("button", name="Lancer le tournoi").click()
    director.get_by_role("button", name="Tirage de la ronde 1").click()
    director.wait_for_load_state()
    assert director.locator("#round table.tables tbody tr").count() == 4
    screenshot(director, "whole-night-01-round-1-drawn")

    [(slug,)] = query(stack, "SELECT slug FROM tournaments_tournament WHERE name = %s", NAME)
    projector = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR").new_page()
    projector.set_default_timeout(20_000)
    projector.goto(f"{base}/t/{slug}/projector/")
    # The draw's ranking (everyone at 0) is built by the worker; the page picks it up itself.
    # Large type may page the ranking (rows hidden, not gone): wait for them to be there.
    projector.locator("#ranking tbody tr").nth(7).wait_for(state="attached")
    assert projector.locator("#ranking tbody tr").count() == 8
    version = ranking_version(projector)
    screenshot(projector, "whole-night-02-projector-before-play")

    tokens = query(
        stack,
        "SELECT t.number, t.token FROM tournaments_table t JOIN tournaments_round r ON r.id = t.round_id "
        "JOIN tournaments_tournament tt ON tt.id = r.tournament_id WHERE tt.slug = %s AND r.number = 1 "
        "ORDER BY t.number",
        slug,
    )
    assert len(tokens) == 4
    for number, token in tokens:
        referee = browser.new_context(viewport=PHONE, locale="fr-FR", has_touch=True).new_page()
        referee.set_default_timeout(15_000)
        play_partie(referee, base, str(token), int(number))
        screenshot(referee, f"whole-night-03-referee-table-{number}")
        referee.context.close()
        # The projector follows each table's partie without anyone touching it.
        version = wait_for_ranking_past(projector, version)
    # Every donne counted: 162 points each, whatever the outcomes.
    before = wait_for_points(projector, lambda shown: sum(shown.values()) == 4 * DONNES * 162)
    stored = query(stack, "SELECT count(*) FROM scoring_hand h JOIN tournaments_table t ON t.id = h.table_id "
                   "JOIN tournaments_round r ON r.id = t.round_id JOIN tournaments_tournament tt "
                   "ON tt.id = r.tournament_id WHERE tt.slug = %s AND r.number = 1", slug)  # fmt: skip
    assert stored == [(4 * DONNES,)]
    screenshot(projector, "whole-night-04-projector-after-round-1")

    # The director corrects donne 1 of table 1: the taker made 20 points fewer.
    table_1 = query(
        stack,
        "SELECT t.id FROM tournaments_table t JOIN tournaments_round r ON r.id = t.round_id "
        "JOIN tournaments_tournament tt ON tt.id = r.tournament_id WHERE tt.slug = %s AND r.number = 1 "
        "AND t.number = 1",
        slug,
    )[0][0]
    director.goto(f"{base}/manage/t/{slug}/hands/table/{table_1}/")
    director.get_by_role("link", name="Corriger").first.click()
    taker_points = int(director.locator("#id_points_taker").input_value())
    defence_points = int(director.locator("#id_points_defence").input_value())
    director.locator("#id_points_taker").fill(str(taker_points - 20))
    director.locator("#id_points_defence").fill(str(defence_points + 20))
    director.locator("[name=reason]").fill("Erreur de saisie : 20 points comptés en trop")
    director.get_by_role("button", name="Enregistrer la correction").click()
    director.wait_for_load_state()
    screenshot(director, "whole-night-05-hand-corrected")
    # The taker's team shows 20 fewer, its opponents 20 more, without a reload.
    after = wait_for_points(projector, lambda shown: shown != before and sum(shown.values()) == sum(before.values()))
    moved = sorted(after[name] - before[name] for name in before if after[name] != before[name])
    assert moved == [-20, 20]
    version = ranking_version(projector)
    history = query(stack, "SELECT action, reason FROM scoring_handrevision WHERE action = 'update'")
    assert history == [("update", "Erreur de saisie : 20 points comptés en trop")]

    # Close round 1, draw round 2: the projector still follows, nothing reloaded by hand.
    director.goto(f"{base}/manage/")
    director.get_by_role("link", name="Belote Club de Démo").first.click()
    director.get_by_role("link", name=NAME).first.click()
    director.get_by_role("button", name="Clore la ronde 1").click()
    director.wait_for_load_state()
    director.get_by_role("button", name="Tirage de la ronde 2").click()
    director.wait_for_load_state()
    assert director.locator("#round h2").inner_text().startswith("Ronde 2")
    screenshot(director, "whole-night-06-round-2-drawn")
    rounds = query(
        stack,
        "SELECT r.number, r.status FROM tournaments_round r JOIN tournaments_tournament t ON t.id = r.tournament_id "
        "WHERE t.slug = %s ORDER BY r.number",
        slug,
    )
    assert rounds == [(1, "closed"), (2, "open")]
    wait_for_ranking_past(projector, version)
    assert projector.locator("#ranking tbody tr").count() == 8
    assert projector_points(projector) == after
    path = screenshot(projector, "whole-night-07-projector-round-2")
    assert path.stat().st_size > 20_000
