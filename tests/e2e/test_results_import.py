"""A league's manager imports clubs' results files on the season's page, on a laptop and a
390 px phone: a file edited by hand is refused with the place of its problem, nothing
kept; the club's good file is then imported and listed. Axe clean at each step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from results.building import results_dumps, results_file
from seasons.models import Season
from tests.e2e.conftest import LAPTOP, PHONE, screenshot
from tests.e2e.test_accessibility import serious_violations
from tests.factories import ClubFactory, UserFactory
from tests.results.conftest import edited, played_tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_league_manager_sees_a_bad_file_refused_then_imports_the_good_one(
    browser, live_server, tmp_path: Path, viewport: dict[str, int]
) -> None:
    data = results_file(tournament=played_tournament(ClubFactory(name="Belote Club de Vannes")))
    league = ClubFactory(name="Ligue de Bretagne")
    manager = UserFactory(username="ligue")
    league.organisers.add(manager)
    season = Season.objects.create(club=league, name="Saison 2026", slug="saison-2026")

    def cheat(copy: dict[str, Any]) -> None:
        copy["tables"][1]["hands"][0]["scores"][1] += 10

    bad, good = tmp_path / "modifie.json", tmp_path / "vannes.json"
    bad.write_text(edited(data, cheat), encoding="utf-8")
    good.write_text(results_dumps(data), encoding="utf-8")

    context = browser.new_context(viewport=viewport, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(10_000)
    axe = Axe()
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "ligue")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/manage/s/{season.slug}/")
    page.get_by_role("link", name="Importer les fichiers de résultats des clubs").click()
    page.wait_for_load_state()
    assert serious_violations(axe, page) == []

    page.get_by_label("Fichier de résultats (JSON)").set_input_files(str(bad))
    page.get_by_role("button", name="Importer le fichier").click()
    page.wait_for_load_state()
    assert "Le fichier est refusé : 1 problème," in page.locator("#field-file .error").inner_text()
    problem = page.locator(".import-problems tbody tr")
    assert problem.count() == 1
    assert problem.locator("code").inner_text() == "/tables/1/hands/0/scores"
    assert "Le moteur compte cette donne" in problem.locator("td").nth(1).inner_text()
    assert "Aucun pour l’instant." in page.content()
    assert serious_violations(axe, page) == []
    name = "laptop" if viewport == LAPTOP else "phone"
    screenshot(page, f"results-import-refused-{name}")

    page.get_by_label("Fichier de résultats (JSON)").set_input_files(str(good))
    page.get_by_role("button", name="Importer le fichier").click()
    page.wait_for_load_state()
    assert "est importé dans la saison" in page.locator(".messages").inner_text()
    imported = page.get_by_role("region", name="Tournois importés dans cette saison")
    assert data["tournament"]["name"] in imported.inner_text() and "Belote Club de Vannes" in imported.inner_text()
    assert serious_violations(axe, page) == []
    screenshot(page, f"results-import-done-{name}")
    assert season.tournaments.count() == 1
    context.close()
