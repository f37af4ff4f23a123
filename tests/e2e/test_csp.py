"""The Content-Security-Policy: every kind of page lives with it in a real browser.

Chromium tells of each thing the policy blocks (an inline script or style, eval, a font or
script from elsewhere) twice: a line on the console, and a `securitypolicyviolation` event
in the page. A page of each kind is opened, used where htmx or a script has work to do,
and neither may show up, after the swaps as much as on the first load.

Styles a page is given through the CSSOM (`el.style.x = ...`) are allowed; a style
*attribute* set by a script (`setAttribute("style", ...)`) is not. Browser add-ons (a
password manager, a translator), the browser's autofill and Playwright's own screenshots
(which hide the caret) write the former on a page's fields; htmx, when it settled the style
attribute of an element it swapped, copied them with the latter: 30 and more refusals on
each donne sent. The tests here write such styles before every swap, as those do.

Every other browser test is watched too (tests/e2e/conftest.py, `csp_watch`): a refusal
fails it, whatever page it walks through.
"""

from __future__ import annotations

import datetime
import random
import re
from typing import Any

import pytest

from rounds.services import round_clock_start, round_close, round_draw
from scoring.management.commands.simulate_round import Command as SimulateRound
from scoring.models import Hand
from scoring.partie import table_game
from scoring.services import HandRefused, hand_submit
from scoring.standings import standings_rebuild
from tests.e2e.conftest import PHONE, csp_watch, screenshot
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.tables import director_of, make_table
from tournaments import services
from tournaments.models import Round, Table, Tournament

PASSWORD = "Belote-et-rebelote-42"

# What an add-on, autofill or a screenshot does to the fields and the swapped parts of a
# page: a style written through the CSSOM, which the policy allows.
STYLE_THE_FIELDS = """() => {
  for (const element of document.querySelectorAll("[id], input, select, textarea, button")) {
    element.style.setProperty("caret-color", "transparent", "important");
  }
}"""


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
    watch = csp_watch(context)
    page = context.new_page()
    page.set_default_timeout(15_000)

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
    assert watch.violations == [] and watch.errors == []


def night_under_way(game: str, *, competitors: int, confirmation: bool, entry_fee: int = 0) -> tuple[Tournament, Any]:
    """A night under way, as the referees and the director find it: round 1 played and
    closed, round 2 drawn with its clock running, two donnes in at the referee's table and,
    where the other side confirms them, a third waiting for its confirmation."""
    director = UserFactory(password=PASSWORD)
    club = ClubFactory()
    club.organisers.add(director)
    tournament = services.tournament_create(
        by=director, club=club, name=f"Concours {game}", date=datetime.date(2026, 12, 5), game=game,
        confirmation_required=confirmation, entry_fee=entry_fee,
    )  # fmt: skip
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    size = 2 if tournament.format == "teams" else 1
    for _ in range(competitors):
        players = PlayerFactory.create_batch(size, club=club)
        services.competitor_register(by=director, tournament=tournament, players=players, checked_in=True)
    services.tournament_set_status(by=director, tournament=tournament, status="running")
    first = round_draw(by=director, tournament=tournament, seed=7)
    for table in first.tables.all():
        SimulateRound.play_table(tournament, table, first.seed, None)
    round_close(by=director, round=first)
    second = round_draw(by=director, tournament=tournament, seed=8)
    round_clock_start(by=director, round=second, minutes=45)
    table = referee_table(second)
    SimulateRound.play_table(tournament, table, second.seed, 2)
    if confirmation:
        enter_unconfirmed(table)
    standings_rebuild(tournament_id=tournament.pk)
    return tournament, director


def referee_table(rnd: Round) -> Table:
    """The round's table with the most seats (a tarot à 4 table of five, with its mort)."""
    return max(rnd.tables.order_by("number"), key=lambda table: (table.seats.count(), -table.number))


def enter_unconfirmed(table: Table) -> None:
    """The next donne, sent by the first side's referee and not yet confirmed by the other."""
    game = table_game(table)
    number = Hand.objects.filter(table=table).count() + 1
    rng = random.Random(f"unconfirmed:{table.pk}")
    for _ in range(200):
        try:
            hand_submit(table=table, raw=game.random_hand(rng), expected_number=number, entered_side=0)
        except HandRefused:
            continue
        return
    raise AssertionError("no valid random donne")


def tap(page, field: str, label: str = "", nth: int = 0) -> None:
    chips = page.locator(f"#f-{field} label.chip")
    (chips.filter(has_text=label).first if label else chips.nth(nth)).click()


def type_a_donne(page, game: str) -> None:
    """Types a sound donne of `game` on the referee's form, the engine checking as it goes."""
    if page.locator("#f-entered_side").count():
        tap(page, "entered_side")
    if page.locator("#f-mort").count():
        tap(page, "mort", nth=4)
    tap(page, "taker")
    if game == "tarot_a_cinq":
        tap(page, "partner", nth=3)
    if game.startswith("tarot"):
        tap(page, "contract", "garde")
        tap(page, "oudlers", "2")
        points = {"id_points": "45"}
    elif game == "belote_a_trois":
        tap(page, "contract", "pique")
        points = {"id_points_0": "80", "id_points_1": "50", "id_points_2": "20"}
    elif game == "belote_contree":
        tap(page, "bid", "120")
        tap(page, "contract", "pique")
        points = {"id_points_taker": "130"}
    else:
        tap(page, "contract", "cœur")
        points = {"id_points_taker": "102"}
    for field, value in points.items():
        # The engine's checks come back as a fragment (htmx), swapped under the fields.
        with page.expect_response(lambda response: "/validate/" in response.url):
            page.locator(f"#{field}").fill(value)


def settle(page) -> None:
    # A violation is told in a task of its own, after the swap that made it.
    page.wait_for_timeout(300)


REFEREE_PAGES = [
    pytest.param("belote_classique", 8, True, id="belote"),
    pytest.param("belote_moderne", 8, False, id="belote-moderne"),
    pytest.param("belote_contree", 8, True, id="contree"),
    pytest.param("belote_a_trois", 6, False, id="belote-a-trois"),
    pytest.param("tarot_a_trois", 6, False, id="tarot-a-trois"),
    pytest.param("tarot_a_quatre", 9, True, id="tarot-a-quatre-table-of-five"),
    pytest.param("tarot_a_cinq", 10, False, id="tarot-a-cinq"),
]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("game", "competitors", "confirmation"), REFEREE_PAGES)
def test_a_referee_page_of_a_round_under_way_is_refused_no_style_loaded_or_swapped(
    browser, live_server, game: str, competitors: int, confirmation: bool
) -> None:
    tournament, _director = night_under_way(game, competitors=competitors, confirmation=confirmation)
    table = referee_table(tournament.rounds.get(number=2))
    context = browser.new_context(viewport=PHONE, locale="fr-FR", device_scale_factor=2, has_touch=True)
    watch = csp_watch(context)
    page = context.new_page()
    page.set_default_timeout(15_000)

    visit(page, f"{live_server.url}/r/{table.token}/")
    page.locator(".round-clock .clock-left").wait_for()
    screenshot(page, f"csp-referee-{game}")
    # Every style there, the page fits the phone: five players' totals side by side too.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    if confirmation:
        # The donne the other side sent waits for this side's confirmation: confirmed (htmx).
        page.evaluate(STYLE_THE_FIELDS)
        page.get_by_role("button", name=re.compile("^Confirmer pour")).first.click()
        page.get_by_text("La donne 3 est confirmée.").wait_for()
    number = Hand.objects.filter(table=table).count() + 1

    page.evaluate(STYLE_THE_FIELDS)
    type_a_donne(page, game)
    page.evaluate(STYLE_THE_FIELDS)
    page.locator("#hand-form button[type=submit]").click()
    page.get_by_text(f"La donne {number} est enregistrée.").wait_for()
    if confirmation:
        page.evaluate(STYLE_THE_FIELDS)
        page.get_by_role("button", name=re.compile("^Confirmer pour")).first.click()
        page.get_by_text(f"La donne {number} est confirmée.").wait_for()
    # The last donne opened again for a correction: the form comes back filled in (htmx).
    page.evaluate(STYLE_THE_FIELDS)
    page.get_by_role("link", name=f"Corriger la donne {number}").click()
    page.locator("#hand-form[data-mode=correct]").wait_for()
    settle(page)
    screenshot(page, f"csp-referee-{game}-correcting")

    context.close()
    assert Hand.objects.filter(table=table, number=number).exists()
    assert watch.violations == [] and watch.errors == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_dashboard_of_a_running_tournament_is_refused_no_style_loaded_or_swapped(browser, live_server) -> None:
    tournament, director = night_under_way("belote_classique", competitors=8, confirmation=True, entry_fee=8)
    context = browser.new_context(viewport=PHONE, locale="fr-FR", device_scale_factor=2, has_touch=True)
    watch = csp_watch(context)
    page = context.new_page()
    page.set_default_timeout(15_000)
    visit(page, f"{live_server.url}/login/")
    page.fill("input[name=username]", director.username)
    page.fill("input[name=password]", PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    page.wait_for_url(lambda url: "/login/" not in url)

    visit(page, f"{live_server.url}/manage/tournament/{tournament.pk}/")
    page.locator(".round-clock .clock-left").wait_for()
    screenshot(page, "csp-dashboard")
    # Five minutes added to the clock, a team's entry fee recorded, a team that has played
    # checked out by mistake (refused beside the list): three htmx swaps, the last with the
    # round's tables out of band.
    page.evaluate(STYLE_THE_FIELDS)
    page.get_by_label("Minutes à ajouter (négatif : à retirer)").fill("5")
    page.get_by_role("button", name="Modifier le temps").click()
    page.get_by_text("50 minutes, de").wait_for()
    page.evaluate(STYLE_THE_FIELDS)
    competitors = page.locator("#competitors")
    with page.expect_response(lambda response: "/payment/" in response.url):
        competitors.locator("select[name=payment]").first.select_option(index=1)
    page.evaluate(STYLE_THE_FIELDS)
    competitors.get_by_role("button", name="✓ Présent").last.click()
    competitors.get_by_text("a déjà joué").wait_for()
    settle(page)
    screenshot(page, "csp-dashboard-after-swaps")
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, "csp-dashboard-laptop")

    context.close()
    assert watch.violations == [] and watch.errors == []
