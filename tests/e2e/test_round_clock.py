"""The round's clock in the browser: the director starts it on the dashboard, it counts
down; once the time is up the table's phone says "Temps écoulé" in red and the dashboard
lists the tables still playing. A phone whose own clock is wrong counts from the server's."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone

from rounds.services import round_clock_start, round_draw
from tests.e2e.conftest import PHONE, screenshot
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Round, Tournament

LEFT = ".round-clock .clock-left"


def _seconds(label: str) -> int:
    parts = [int(part) for part in label.split(":")]
    return sum(value * 60**power for power, value in enumerate(reversed(parts)))


def _drawn_round(director) -> tuple[Tournament, Round]:
    """A running belote tournament of 4 teams, round 1 drawn: 2 tables of 12 donnes."""
    club = ClubFactory(name="Belote Club de Rodez")
    club.organisers.add(director)
    tournament = services.tournament_create(
        by=director, club=club, name="Concours du samedi", date=datetime.date(2026, 12, 5), game="belote_classique"
    )
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    for _ in range(4):
        players = PlayerFactory.create_batch(2, club=club)
        services.competitor_register(by=director, tournament=tournament, players=players, checked_in=True)
    services.tournament_set_status(by=director, tournament=tournament, status="running")
    return tournament, round_draw(by=director, tournament=tournament, seed=5)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_director_starts_a_clock_that_counts_down_then_the_late_tables_show(phone_page, live_server) -> None:
    director = UserFactory(username="directrice")
    tournament, rnd = _drawn_round(director)
    page = phone_page
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "directrice")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()

    page.goto(f"{live_server.url}/manage/tournament/{tournament.pk}/")
    page.get_by_label("Durée de la ronde (minutes)").fill("1")
    page.get_by_role("button", name="Lancer l’horloge").click()
    page.locator(LEFT).wait_for()
    assert Round.objects.get(pk=rnd.pk).clock_minutes == 1
    first = page.locator(LEFT).inner_text()
    assert re.fullmatch(r"[01]:\d\d", first), first
    # The countdown moves in the browser, without asking the server.
    page.wait_for_function(
        "(first) => document.querySelector('.round-clock .clock-left').textContent.trim() !== first", arg=first
    )
    second = page.locator(LEFT).inner_text()
    assert _seconds(second) < _seconds(first) <= 60
    screenshot(page, "round-clock-dashboard-running")

    # The round has been playing for two minutes: its time is up.
    Round.objects.filter(pk=rnd.pk).update(clock_started_at=timezone.now() - datetime.timedelta(minutes=2))
    table = rnd.tables.get(number=1)
    phone = page.context.new_page()
    phone.goto(f"{live_server.url}/r/{table.token}/")
    over = phone.locator(".round-clock.clock-over .clock-left")
    over.wait_for()
    assert over.inner_text() == "Temps écoulé"
    assert over.evaluate("el => getComputedStyle(el).color") == "rgb(179, 38, 30)"
    screenshot(phone, "round-clock-referee-time-up")

    page.reload()
    late = page.locator(".late-tables")
    assert "Temps écoulé : 2 tables jouent encore." in late.inner_text()
    assert late.locator("li").all_inner_texts() == ["Table 1 : 0 / 12 donnes jouées", "Table 2 : 0 / 12 donnes jouées"]
    screenshot(page, "round-clock-dashboard-late-tables")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_phone_ten_minutes_fast_still_shows_the_servers_time_left(browser, live_server) -> None:
    director = UserFactory(username="directrice")
    tournament, rnd = _drawn_round(director)
    round_clock_start(by=director, round=rnd, minutes=30)
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    # The phone's own clock runs ten minutes ahead of the server's.
    context.add_init_script("(() => { const real = Date.now; Date.now = () => real() + 600000; })()")
    try:
        for url in (
            f"/r/{rnd.tables.get(number=2).token}/",
            f"/t/{tournament.slug}/projector/",
            f"/t/{tournament.slug}/round/1/draw/",
        ):
            page = context.new_page()
            page.goto(live_server.url + url)
            # The countdown has taken over from the server's text (it keeps the offset it counts with).
            page.locator(".round-clock[data-clock-offset]").wait_for()
            left = page.locator(LEFT).inner_text()
            assert re.fullmatch(r"29:\d\d|30:00", left), (url, left)
            page.close()
    finally:
        context.close()
