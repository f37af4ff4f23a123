"""The draw on the room's screen turns its pages, and a phone finds a player's table."""

from __future__ import annotations

import pytest

from rounds.services import round_draw
from tests.e2e.conftest import PHONE, screenshot
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.conftest import new_tournament, register_many
from tournaments import services


def drawn_concours(teams: int):
    club = ClubFactory(name="Amicale de Millau")
    director = UserFactory(username="directeur-projecteur")
    club.organisers.add(director)
    tournament = new_tournament(club, director, name="Concours de la Saint-Nicolas")
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    competitors = register_many(tournament, director, teams)
    services.tournament_set_status(by=director, tournament=tournament, status="running")
    round_draw(by=director, tournament=tournament)
    return tournament, competitors


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_twelve_table_draw_pages_through_every_table_at_1280_by_720(browser, live_server) -> None:
    tournament, _ = drawn_concours(24)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
    page = context.new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/t/{tournament.slug}/round/1/draw/")

    def visible_numbers() -> list[int]:
        texts = page.evaluate(
            "[...document.querySelectorAll('.draw-tables > li')].filter(t => !t.hidden)"
            ".map(t => t.querySelector('.draw-number').innerText)"
        )
        return [int(text.split()[-1]) for text in texts]

    first = visible_numbers()
    assert 0 < len(first) < 12, "the first screen shows part of the draw, not all twelve tables"
    for table in page.locator(".draw-tables > li:not([hidden])").all():
        box = table.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 720
    assert "Page 1 /" in page.locator(".projector-page").inner_text()
    screenshot(page, "draw-projector-page-1")

    seen = set(first)
    for _ in range(6):
        page.clock.fast_forward(10_500)
        seen.update(visible_numbers())
        if seen == set(range(1, 13)):
            break
    assert seen == set(range(1, 13)), "every table shows on some page"
    screenshot(page, "draw-projector-page-2")
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_finds_their_table_on_a_phone_by_typing_their_name(browser, live_server) -> None:
    tournament, teams = drawn_concours(6)
    player = teams[3].players.first()
    player.first_name, player.last_name = "Hélène", "Bérard"
    player.save()
    seat = teams[3].seats.get()
    context = browser.new_context(viewport=PHONE, locale="fr-FR", has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{tournament.slug}/seat/")
    page.get_by_role("searchbox").fill("helene")
    page.get_by_role("button", name="Trouver").click()
    page.get_by_text(f"Table {seat.table.number}", exact=True).wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "seat-finder-phone")
    context.close()
