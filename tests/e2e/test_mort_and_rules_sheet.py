"""A tarot à 4 evening of nine players with the federation's table of five (issue 27): on
a phone, the referee of the table of five sees who is « mort » for each donne, enters a
donne, and the deal turns; the tournament's printable « Règlement du concours » renders;
on the rules form a preset sets every option and a changed option shows « modifié »."""

from __future__ import annotations

import datetime

import pytest

from rounds.services import round_draw
from scoring.models import Hand
from tests.e2e.conftest import screenshot
from tests.e2e.test_referee import STORED_TIMEOUT, tap
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Competitor, Table


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_referee_sees_the_mort_at_a_table_of_five_and_the_rules_sheet_renders(
    browser, phone_page, live_server
) -> None:
    club = ClubFactory(name="Tarot Club de Millau", town="Millau")
    director = UserFactory(username="directeur-tarot")
    club.organisers.add(director)
    tournament = services.tournament_create(
        by=director,
        club=club,
        name="Soirée tarot fédérale",
        date=datetime.date(2026, 12, 12),
        game="tarot_a_quatre",
        format="individual",
        end_value=4,
        preset="fft",
        entry_fee=5,
    )
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    for n in range(9):
        player = PlayerFactory(club=club, last_name=f"Joueur{n}", first_name="Luc", licence="")
        services.competitor_register(by=director, tournament=tournament, players=[player], checked_in=True)
    services.tournament_set_status(by=director, tournament=tournament, status="running")
    rnd = round_draw(by=director, tournament=tournament, seed=3)
    five = next(table for table in Table.objects.filter(round=rnd) if table.seats.count() == 5)
    seated = [seat.competitor.name for seat in five.seats.order_by("side")]

    referee = phone_page
    referee.goto(f"{live_server.url}/r/{five.token}/")
    note = referee.locator("#mort-note")
    assert note.inner_text() == f"Mort de cette donne : {seated[0]}, qui donne, ne joue pas et marque 0."
    screenshot(referee, "tarot-mort-donne-1")
    tap(referee, "taker", seated[2])
    tap(referee, "contract", "garde")
    tap(referee, "oudlers", "2")
    referee.locator("#id_points").fill("46")
    referee.locator("#hand-form button[type=submit]").click()
    referee.get_by_text("La donne 1 est enregistrée.").wait_for(timeout=STORED_TIMEOUT)
    hand = Hand.objects.get(table=five)
    assert (hand.raw["mort"], hand.scores) == (0, [0, -60, 180, -60, -60])
    # The deal has turned: the second seat is mort for donne 2.
    referee.wait_for_function("name => document.querySelector('#mort-note strong').textContent === name", arg=seated[1])
    # A half point is refused beside the points at four players.
    tap(referee, "taker", seated[0])
    tap(referee, "contract", "petite")
    tap(referee, "oudlers", "1")
    referee.locator("#id_points").fill("52,5")
    referee.locator("#hand-form button[type=submit]").click()
    referee.locator("#err-points .error").first.wait_for()
    assert "a un demi-point" in referee.locator("#err-points").inner_text()
    screenshot(referee, "tarot-mort-donne-2")

    page = browser.new_context(viewport={"width": 1000, "height": 1300}, locale="fr-FR").new_page()
    page.goto(f"{live_server.url}/t/{tournament.slug}/rules/")
    sheet = page.locator("article.rules-sheet")
    sheet.wait_for()
    # text_content: the kicker is upper-cased by the stylesheet, not in the page.
    text = " ".join(sheet.text_content().split())
    assert "Règlement du concours" in text and "Soirée tarot fédérale" in text
    assert "Règles : Fédération (FFT)." in text
    assert "À une table de cinq, le donneur ne joue pas la donne (le mort)" in text
    assert "la partie y dure 5 donnes" in text
    assert "Inscription : 5,00 € par joueur." in text
    screenshot(page, "rules-sheet")
    page.emulate_media(media="print")
    assert page.locator(".site-header").is_hidden()
    screenshot(page, "rules-sheet-print")
    assert Competitor.objects.filter(tournament=tournament).count() == 9

    # The director's rules form: a preset in one step, then one option changed.
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "directeur-tarot")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/manage/club/{club.pk}/tournaments/new/")
    page.emulate_media(media="screen")
    page.select_option("select[name=game]", "belote_contree")
    page.locator("select[name=option_chute]").wait_for()
    preset = page.locator("select[name=preset]")
    assert preset.input_value() == "concours"
    preset.select_option(label="Fédération (FFB)")
    assert page.locator("select[name=option_capot_value]").input_value() == "252"
    assert page.locator("select[name=option_announcements]").input_value() == "on"
    page.select_option("select[name=option_rounding]", "none")
    assert preset.input_value() == ""
    assert preset.locator("option:checked").inner_text() == "Fédération (FFB) (modifié)"
    page.locator("details.preset-list summary").click()
    screenshot(page, "rules-form-presets")
