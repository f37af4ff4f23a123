"""« Ma soirée » on a small phone: found from the seat finder by a name typed without its
accents, it shows the table and the opponents, then moves by itself when a donne is
entered at the table and when the director draws the next round, never reloaded."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from rounds.services import round_close, round_draw
from scoring.standings import standings_rebuild
from tests.e2e.conftest import screenshot
from tests.e2e.test_accessibility import serious_violations
from tests.factories import PlayerFactory
from tests.scoring.tables import director_of, make_table

SMALL_PHONE = {"width": 360, "height": 740}


def tap(page, field: str, label: str) -> None:
    page.locator(f"#f-{field} label.chip", has_text=label).first.click()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_my_evening_found_by_name_follows_the_score_and_the_next_round_without_reloading(
    browser, live_server, phone_page
) -> None:
    table = make_table(tables=2)
    tournament = table.round.tournament
    team = tournament.competitors.get(number=1)
    team.players.set(
        [
            PlayerFactory(club=tournament.club, first_name="Hélène", last_name="Lefèvre"),
            PlayerFactory(club=tournament.club, first_name="Jean", last_name="Bérard"),
        ]
    )
    standings_rebuild(tournament_id=tournament.pk)

    context = browser.new_context(viewport=SMALL_PHONE, locale="fr-FR", device_scale_factor=2, has_touch=True)
    player = context.new_page()
    player.set_default_timeout(10_000)
    player.goto(f"{live_server.url}/t/{tournament.slug}/seat/")
    player.get_by_role("searchbox").fill("helene lefevre")
    player.get_by_role("button", name="Trouver").click()
    player.get_by_role("link", name="Ma soirée").click()
    player.locator("#soiree").wait_for()
    headline = player.locator(".soiree-headline")
    assert headline.inner_text() == "Ronde 1 : table 1, contre C2"
    assert "Adversaires : C2" in player.locator(".soiree-now").inner_text()
    assert player.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    assert serious_violations(Axe(), player) == []
    screenshot(player, "soiree-phone-found")
    player.evaluate("window.openedOnce = true")

    # The referee enters a donne at table 1: the score moves on the player's phone.
    referee = phone_page
    referee.goto(f"{live_server.url}/r/{table.token}/")
    tap(referee, "taker", "C1")
    tap(referee, "contract", "cœur")
    referee.locator("#id_points_taker").fill("102")
    referee.locator("#hand-form button[type=submit]").click()
    referee.get_by_text("La donne 1 est enregistrée.").wait_for()
    own = player.locator(".soiree-score li.own .soiree-total")
    player.wait_for_function(
        "() => (document.querySelector('.soiree-score li.own .soiree-total') || {}).innerText === '102'",
        timeout=10_000,
    )
    assert own.inner_text() == "102"
    assert "1 donne jouée" in player.locator(".soiree-partie").inner_text()
    player.locator(".soiree-in-play", has_text="en cours, 1 donne").wait_for(timeout=10_000)
    screenshot(player, "soiree-phone-score")

    # The director closes round 1 and draws round 2: it shows at the top.
    director = director_of(tournament)
    round_close(by=director, round=table.round, force=True)
    drawn = round_draw(by=director, tournament=tournament, seed=11)
    seat = drawn.seats.get(competitor=team)
    player.locator(".soiree-headline", has_text="Ronde 2 :").wait_for(timeout=10_000)
    assert headline.inner_text().startswith(f"Ronde 2 : table {seat.table.number}, contre ")
    assert "Ronde 1 · table 1 · gagnée" in player.locator(".soiree-past").inner_text()
    assert player.evaluate("window.openedOnce") is True
    assert player.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    assert serious_violations(Axe(), player) == []
    screenshot(player, "soiree-phone-next-round")
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_director_opens_the_receipt_from_the_dashboard_then_withdraws_the_link(
    browser, live_server, phone_page
) -> None:
    table = make_table(tables=2)
    tournament = table.round.tournament
    team = tournament.competitors.get(number=1)
    director = director_of(tournament)
    director.set_password("secret-pass-123")
    director.save()
    desk = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR").new_page()
    desk.goto(f"{live_server.url}/login/")
    desk.fill("input[name=username]", director.username)
    desk.fill("input[name=password]", "secret-pass-123")
    desk.locator("main button[type=submit]").click()
    desk.wait_for_load_state()
    desk.goto(f"{live_server.url}/manage/tournament/{tournament.pk}/")
    desk.locator("#competitors tr", has_text="C1").get_by_role("link", name="Reçu · Ma soirée").click()
    desk.get_by_role("heading", name="N° 1 · C1").wait_for()
    shown = desk.locator(".receipt-link a").inner_text()
    assert shown.endswith(f"/soiree/{team.link_token}/")
    screenshot(desk, "soiree-receipt")

    player = phone_page
    player.goto(shown)
    assert player.locator(".soiree-headline").inner_text() == "Ronde 1 : table 1, contre C2"

    # Withdrawn: the page left open on the phone says so by itself at its next poll.
    desk.get_by_role("button", name="Retirer le lien").click()
    desk.get_by_text("Le lien personnel de C1 ne fonctionne plus.").wait_for()
    player.get_by_role("heading", name="Ce lien a été retiré").wait_for(timeout=10_000)
    screenshot(player, "soiree-withdrawn")

    desk.get_by_role("button", name="Donner un nouveau lien").click()
    desk.get_by_text("C1 a un nouveau lien personnel").wait_for()
    renewed = desk.locator(".receipt-link a").inner_text()
    assert renewed != shown
    player.goto(renewed)
    player.locator("#soiree").wait_for()
    desk.context.close()
