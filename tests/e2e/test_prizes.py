"""The director's prizes and entry fees in a phone's browser: the lots recorded on their
page (an overlap refused beside the field), the payments taken at check-in (cash, card,
free), the cash summary on the dashboard, and the final ranking with each rank's lot."""

from __future__ import annotations

import datetime

import pytest

from rounds.services import round_close, round_draw
from scoring.services import hand_submit
from scoring.standings import standings_rebuild
from tests.e2e.conftest import screenshot
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.tables import SOUND_HANDS
from tournaments import services
from tournaments.models import Tournament

HTMX_IDLE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


def ready_tournament() -> tuple[Tournament, object]:
    """A concours of four registered teams (none checked in), at 8 € a team."""
    club = ClubFactory(name="Belote Club de Rodez")
    director = UserFactory(username="directrice")
    club.organisers.add(director)
    tournament = services.tournament_create(
        by=director, club=club, name="Concours du Téléthon", date=datetime.date(2026, 12, 5),
        game="belote_classique", rounds_planned=1, end_value=2, entry_fee="8",
    )  # fmt: skip
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    for family in ("Aubert", "Barre", "Costes", "Durand"):
        players = [
            PlayerFactory(club=club, last_name=family, first_name="Paul"),
            PlayerFactory(club=club, last_name=f"{family}-Fils", first_name="Lucie"),
        ]
        services.competitor_register(by=director, tournament=tournament, players=players, name=f"Les {family}")
    return tournament, director


def play_the_night(tournament: Tournament, director) -> None:
    """Start, draw round 1, one donne at one table, close it, finish: the ranking is final."""
    services.tournament_set_status(by=director, tournament=tournament, status="running")
    rnd = round_draw(by=director, tournament=tournament, seed=11)
    hand, _scores = SOUND_HANDS["belote_classique"]
    hand_submit(table=rnd.tables.get(number=1), raw=hand)
    round_close(by=director, round=rnd, force=True)
    services.tournament_set_status(by=director, tournament=tournament, status="finished")
    standings_rebuild(tournament_id=tournament.pk)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_director_records_lots_and_payments_and_the_final_ranking_shows_the_lots(phone_page, live_server) -> None:
    tournament, director = ready_tournament()
    page = phone_page
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "directrice")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()
    dashboard = f"{live_server.url}/manage/tournament/{tournament.pk}/"

    # The lots, from the dashboard's hub.
    page.goto(dashboard)
    page.get_by_role("link", name="Lots (palmarès du classement final)").click()
    for rank_from, rank_to, text, value in (("1", "", "Un jambon", "60"), ("2", "3", "Un saucisson", "")):
        page.fill("input[name=rank_from]", rank_from)
        page.fill("input[name=rank_to]", rank_to)
        page.fill("input[name=text]", text)
        page.fill("input[name=value]", value)
        page.get_by_role("button", name="Ajouter le lot").click()
        page.wait_for_load_state()
    page.fill("input[name=rank_from]", "3")
    page.fill("input[name=text]", "Une bouteille")
    page.get_by_role("button", name="Ajouter le lot").click()
    page.wait_for_load_state()
    error = page.locator("#field-rank_from .error")
    assert error.inner_text() == "Les rangs 2–3 ont déjà un lot (Un saucisson)."
    assert page.locator("table.prizes tbody tr").all_inner_texts()[0].startswith("1")
    assert page.locator("table.prizes tbody tr").count() == 2
    screenshot(page, "prizes-page")

    # Check-in with the payment beside it: cash, card, free, and one left to pay.
    page.goto(dashboard)
    competitors = page.locator("#competitors")
    for name, payment in (
        ("Les Aubert", "paid:cash"),
        ("Les Barre", "paid:card"),
        ("Les Costes", "free"),
        ("Les Durand", None),
    ):
        row = competitors.locator("tbody tr", has_text=name)
        row.get_by_role("button", name="Pointer", exact=True).click()
        row = competitors.locator("tbody tr", has_text=name)
        row.get_by_role("button", name="Présent").wait_for()
        # The list is swapped in place (htmx): act on it once the swap has settled.
        page.wait_for_function(HTMX_IDLE)
        if payment is not None:
            row.get_by_label(f"Droit d’inscription de {name}").select_option(payment)
            page.wait_for_function(
                "([name, value]) => [...document.querySelectorAll('#competitors tbody tr')]"
                ".some(tr => tr.textContent.includes(name) && tr.querySelector('select').value === value"
                " && tr.querySelector('option[selected]')?.value === value)",
                arg=[name, payment],
            )
            page.wait_for_function(HTMX_IDLE)
    cash = page.locator("#competitors .cash")
    assert cash.locator(".cash-received").inner_text() == "16 €"
    assert cash.locator(".cash-expected").inner_text() == "24 €"
    assert [m.inner_text() for m in cash.locator(".cash-method").all()] == ["8 € (1)", "8 € (1)"]
    unpaid = cash.locator(".cash-unpaid").inner_text()
    assert unpaid.startswith("1 concurrent (8 €)") and "Les Durand" in unpaid
    assert "Les Costes" in cash.locator(".cash-free").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "dashboard-cash")

    # The night is played; the final ranking carries each rank's lot.
    play_the_night(tournament, director)
    page.goto(f"{live_server.url}/t/{tournament.slug}/")
    page.locator("#ranking tbody tr").first.wait_for()
    rows = page.locator("#ranking tbody tr")
    first = rows.nth(0)
    assert first.locator("td.rank").inner_text() == "1"
    # Read aloud as "Lot : Un jambon" (the label is for screen readers only).
    assert first.locator(".prize-lot").text_content() == "Lot : Un jambon"
    lots = {
        rows.nth(i).locator("td.rank").inner_text(): [
            " ".join(text.split()) for text in rows.nth(i).locator(".prize-lot").all_text_contents()
        ]
        for i in range(rows.count())
    }
    # The two tied 3rd hold places 3 and 4, and only place 3 wins a lot: theirs to share.
    shared = "Lot : Un saucisson, à partager entre les 2 ex aequo"
    for rank, texts in lots.items():
        expected = {"1": ["Lot : Un jambon"], "2": ["Lot : Un saucisson"], "3": [shared]}.get(rank, [])
        assert texts == expected, (rank, texts)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "ranking-palmares-phone")

    page.goto(f"{live_server.url}/t/{tournament.slug}/projector/")
    page.locator("#ranking tbody tr").first.wait_for()
    assert "Un jambon" in page.locator("#ranking").inner_text()
