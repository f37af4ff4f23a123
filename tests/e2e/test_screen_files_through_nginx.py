"""The projector's strip of messages and round clock through nginx (scoring/live_screens.py):
the page from the site, wrapping the files; their polls answered by nginx itself.

On a projector whose own clock runs ten minutes fast, the clock counts down the server's
time left, from the page's time on the first load and from the answer's Date header when
htmx swaps the clock's file in; a message the director posts appears on the same page
load, from the strip's new file, and Django never sees a poll.
"""

from __future__ import annotations

import re

import pytest

from rounds.services import round_clock_start
from tests.e2e.conftest import screenshot
from tests.e2e.test_projector_room import concours_in_play
from tests.e2e.test_through_nginx import PROJECTOR, answered_by_nginx, assert_polls_were_nginxs, live_path, wait_until
from tournaments.services import screen_message_post

LEFT = ".round-clock .clock-left"
MESSAGE = "Ronde 2 à 22 h 30 : buvette ouverte"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_message_reaches_the_projector_from_nginx_and_its_clock_counts_the_servers_time(
    browser, nginx, site_requests
) -> None:
    tournament, director = concours_in_play(teams=8)
    rnd = tournament.rounds.get(number=1)
    round_clock_start(by=director, round=rnd, minutes=30)
    screen, clock = live_path(tournament.slug, "screen"), live_path(tournament.slug, "clock")
    context = browser.new_context(viewport=PROJECTOR, locale="fr-FR")
    # The projector's own clock runs ten minutes ahead of the server's.
    context.add_init_script("(() => { const real = Date.now; Date.now = () => real() + 600000; })()")
    page = context.new_page()
    page.set_default_timeout(10_000)
    opened = page.goto(f"{nginx.url}/t/{tournament.slug}/projector/")
    assert opened is not None and opened.status == 200
    page.evaluate("window.openedOnce = true")
    assert page.locator("#screen-messages").get_attribute("hx-get") == screen
    assert page.locator(".round-clock-slot").get_attribute("hx-get") == clock
    # The first load counts from the page's own time (the frame around the clock's file).
    page.locator(".round-clock[data-clock-offset]").wait_for()
    assert re.fullmatch(r"29:\d\d|30:00", page.locator(LEFT).inner_text()), page.locator(LEFT).inner_text()

    # Nothing posted yet: nginx answers the strip's polls 304 itself.
    wait_until(page, lambda: answered_by_nginx(nginx, screen, 304) >= 1, "a poll of the strip answered 304 by nginx")
    assert page.locator(".screen-message").count() == 0
    screen_message_post(by=director, tournament=tournament, text=MESSAGE)
    page.locator(".screen-message", has_text=MESSAGE).wait_for(timeout=15_000)
    assert page.evaluate("window.openedOnce") is True
    assert answered_by_nginx(nginx, screen, 200) >= 1
    screenshot(page, "through-nginx-projector-screen-message")

    # The director gives the round ten minutes from now; the clock's file, swapped in by
    # htmx, carries no time: the answer's Date header gives it (the page's own is set
    # aside here, so only the header can make the count right).
    round_clock_start(by=director, round=rnd, minutes=10)
    page.evaluate("document.querySelector('.round-clock-frame').dataset.clockOffset = '0'")
    page.evaluate(f"htmx.ajax('GET', '{clock}', {{target: '.round-clock-slot', swap: 'outerHTML'}})")
    page.wait_for_function("() => /^(9:\\d\\d|10:00)$/.test(document.querySelector('.clock-left').textContent.trim())")
    left = page.locator(LEFT).inner_text()
    assert re.fullmatch(r"9:\d\d|10:00", left), left
    assert page.locator(".round-clock-slot").get_attribute("hx-get") == clock

    assert_polls_were_nginxs(nginx, screen, [seen for seen in site_requests if seen != clock])
    assert clock not in site_requests
    assert [seen for seen in site_requests if seen.endswith(("/screen/", "/clock/"))] == []
    assert nginx.errors() == ""
    context.close()
