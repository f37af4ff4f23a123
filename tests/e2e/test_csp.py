"""The Content-Security-Policy: every kind of page lives with it in a real browser.

Chromium logs each thing the policy blocks (an inline script or style, eval, a font or
script from elsewhere) on the console; a page of each kind is opened, used where htmx or
a script has work to do, and the console must hold no such line.
"""

from __future__ import annotations

import pytest

from scoring.standings import standings_rebuild
from tests.e2e.conftest import PHONE
from tests.factories import UserFactory
from tests.scoring.tables import director_of, make_table

PASSWORD = "Belote-et-rebelote-42"


class Console:
    """What a page logged that the policy refused, and any script error."""

    def __init__(self, page) -> None:
        self.violations: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.violations.append(f"page error: {error}"))

    def _console(self, message) -> None:
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.violations.append(f"{message.page.url if message.page else ''}: {text}")


def visit(page, url: str, settle_ms: int = 500) -> None:
    response = page.goto(url)
    assert response is not None and response.status < 400, (url, response and response.status)
    assert "Content-Security-Policy" in response.headers or "content-security-policy" in response.headers
    # "load", not "networkidle": the live pages poll, and a busy machine may never be idle.
    page.wait_for_load_state("load")
    page.wait_for_timeout(settle_ms)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_no_page_of_the_site_logs_a_content_security_policy_violation(browser, live_server, settings) -> None:
    # The address phones use: the poster and the table sheets show their QR codes (opened at
    # localhost without it, they show a warning instead).
    settings.ATOUT_PUBLIC_URL = live_server.url
    table = make_table()
    tournament = table.round.tournament
    standings_rebuild(tournament_id=tournament.pk)
    director = director_of(tournament)
    director.set_password(PASSWORD)
    director.save()
    UserFactory(username="admin", password=PASSWORD, is_staff=True, is_superuser=True)
    base, slug = live_server.url, tournament.slug
    competitor = tournament.competitors.get(number=1)

    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    console = Console(page)

    # The public pages, the projector (its own script), the poster and the draw.
    for path in (
        "/", f"/t/{slug}/", f"/t/{slug}/round/1/", f"/t/{slug}/round/1/table/1/", f"/t/{slug}/c/1/",
        f"/t/{slug}/after/1/", f"/t/{slug}/print/", f"/t/{slug}/round/1/draw/",
        f"/t/{slug}/c/1/soiree/", f"/soiree/{competitor.link_token}/",
    ):  # fmt: skip
        visit(page, base + path)
    visit(page, f"{base}/t/{slug}/projector/", settle_ms=1500)
    # The print button works from the site's script (an inline onclick would be refused).
    visit(page, f"{base}/t/{slug}/poster/")
    page.evaluate("window.print = () => { window.printed = true; }")
    page.get_by_role("button", name="Imprimer").click()
    assert page.evaluate("window.printed === true")

    # The referee's page, with htmx at work: the engine checks as the referee types, then the donne goes in.
    visit(page, f"{base}/r/{table.token}/")
    page.locator("#f-taker label.chip", has_text="C1").first.click()
    page.locator("#f-contract label.chip", has_text="cœur").first.click()
    page.locator("#id_points_taker").fill("102")
    page.wait_for_timeout(800)
    page.locator("#hand-form button[type=submit]").click()
    page.get_by_text("La donne 1 est enregistrée.").wait_for()

    # The organiser's pages, after the login page.
    visit(page, f"{base}/login/")
    page.fill("input[name=username]", director.username)
    page.fill("input[name=password]", PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.wait_for_url(lambda url: "/login/" not in url)
    for path in (
        f"/manage/tournament/{tournament.pk}/", f"/manage/tournament/{tournament.pk}/edit/",
        f"/manage/t/{slug}/standings/", f"/manage/t/{slug}/hands/", f"/manage/t/{slug}/hands/sheets/",
        f"/manage/tournament/{tournament.pk}/rounds/1/print/",
        f"/manage/tournament/{tournament.pk}/competitors/{competitor.pk}/receipt/",
    ):  # fmt: skip
        visit(page, base + path)

    # The API's documentation: Swagger UI and Redoc render the schema.
    visit(page, f"{base}/api/docs/", settle_ms=1000)
    page.locator(".swagger-ui .opblock").first.wait_for()
    visit(page, f"{base}/api/redoc/", settle_ms=1000)
    page.locator("redoc h1, #redoc-container h1, .api-content h1").first.wait_for()

    # The admin's login, and the admin itself.
    context.clear_cookies()
    visit(page, f"{base}/admin/login/")
    page.fill("input[name=username]", "admin")
    page.fill("input[name=password]", PASSWORD)
    page.locator("input[type=submit]").click()
    page.wait_for_url("**/admin/")
    visit(page, f"{base}/admin/axes/accessattempt/")

    context.close()
    assert console.violations == []
