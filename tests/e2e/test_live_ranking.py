"""The room's view: a ranking left open on a phone moves by itself when a referee enters a
donne at a table, and an unchanged ranking (304) never blanks the page."""

from __future__ import annotations

import pytest

from scoring.standings import standings_rebuild
from tests.e2e.conftest import PHONE, screenshot
from tests.scoring.tables import make_table


def tap(page, field: str, label: str) -> None:
    page.locator(f"#f-{field} label.chip", has_text=label).first.click()


def points_of(page, name: str) -> str:
    row = page.locator("#ranking tbody tr", has=page.get_by_role("link", name=name, exact=True))
    # Columns: rank, number, name, then the criteria (parties won, points, difference).
    return row.locator("td").nth(4).inner_text()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_donne_entered_at_a_table_appears_on_an_open_ranking_without_reloading(
    browser, phone_page, live_server
) -> None:
    table = make_table()
    tournament = table.round.tournament
    standings_rebuild(tournament_id=tournament.pk)

    viewer = browser.new_context(viewport=PHONE, locale="fr-FR").new_page()
    statuses: list[int] = []
    # The ranking polls its file (scoring/live_files.py), not the page.
    polled = f"/live/{tournament.slug}/fr-ranking.html"
    viewer.on("response", lambda response: statuses.append(response.status) if response.url.endswith(polled) else None)
    viewer.goto(f"{live_server.url}/t/{tournament.slug}/")
    viewer.evaluate("window.openedOnce = true")
    assert points_of(viewer, "C1") == "0"

    # Nothing moved: the polls answer 304 and the ranking stays on screen.
    viewer.wait_for_timeout(3500)
    assert 304 in statuses
    assert points_of(viewer, "C1") == "0"

    referee = phone_page
    referee.goto(f"{live_server.url}/r/{table.token}/")
    tap(referee, "taker", "C1")
    tap(referee, "contract", "cœur")
    referee.locator("#id_points_taker").fill("102")
    referee.locator("#hand-form button[type=submit]").click()
    referee.get_by_text("La donne 1 est enregistrée.").wait_for()

    # Within a few seconds the open ranking shows the donne, on the same page load.
    viewer.locator("#ranking tbody tr").first.get_by_text("C1").wait_for(timeout=8000)
    viewer.wait_for_function(
        "() => [...document.querySelectorAll('#ranking tbody tr')].some(r => r.innerText.includes('102'))",
        timeout=8000,
    )
    assert points_of(viewer, "C1") == "102" and points_of(viewer, "C2") == "60"
    assert viewer.evaluate("window.openedOnce") is True
    assert 200 in statuses
    screenshot(viewer, "live-ranking-after-a-donne")
    viewer.context.close()
