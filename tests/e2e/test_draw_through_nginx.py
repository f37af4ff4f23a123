"""The draw on the room's screen, opened through nginx as a site serves it: the page from
the site, its polls of the round's file answered by nginx itself (docker/nginx-live.conf,
tests/nginx.py), Django never seeing one.

At 1280×720, the projector shows round 1's tables; a late team arrives (the director's
desk seats it from round 2: it sits out round 1, « Exempt ») and then the director draws
the round again: each shows on the open page within a few seconds, without a reload, from
the new file nginx sends; 304 from nginx in between.
"""

from __future__ import annotations

import pytest

from rounds.services import round_redraw
from tests.e2e.conftest import screenshot
from tests.e2e.test_draw_projector import drawn_concours
from tests.e2e.test_through_nginx import PROJECTOR, answered_by_nginx, wait_until
from tests.tournaments.conftest import register_many
from tournaments.models import Round, Seat


def names_at(page, number: int) -> list[str]:
    """The names the screen shows at table `number`."""
    return page.evaluate(
        """number => [...document.querySelectorAll('.draw-tables > li')]
             .filter(t => t.querySelector('.draw-number').innerText.split(/\\s+/).pop() === String(number))
             .flatMap(t => [...t.querySelectorAll('.draw-name')].map(n => n.innerText.trim()))""",
        number,
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_draw_on_the_projector_follows_a_late_team_and_a_redraw_from_nginx(
    browser, nginx, site_requests, settings
) -> None:
    settings.DRAW_POLL_SECONDS = 1
    tournament, _teams = drawn_concours(8)
    director = tournament.club.organisers.get()
    path = f"/live/{tournament.slug}/fr-draw-1.html"

    page = browser.new_context(viewport=PROJECTOR, locale="fr-FR").new_page()
    page.set_default_timeout(10_000)
    opened = page.goto(f"{nginx.url}/t/{tournament.slug}/round/1/draw/")
    assert opened is not None and opened.status == 200
    page.wait_for_selector(".draw-tables > li")
    page.evaluate("window.openedOnce = true")
    assert page.locator("#draw-live").get_attribute("hx-get") == path
    assert page.locator(".draw-byes").count() == 0
    wait_until(page, lambda: answered_by_nginx(nginx, path, 304) >= 2, "two polls answered 304 by nginx")
    screenshot(page, "draw-through-nginx-1280x720-before")

    # A late team checked in at the desk: it sits out round 1, and the screen says so.
    late = register_many(tournament, director, 1)[0]
    # In the page (projector.js may show it on the screen's next page, in turn).
    page.locator(".draw-byes", has_text=late.name).wait_for(state="attached", timeout=5_000)
    assert page.evaluate("window.openedOnce") is True
    screenshot(page, "draw-through-nginx-1280x720-a-late-team")

    # The director draws round 1 again: the new tables are on the screen within seconds.
    round_one = Round.objects.get(tournament=tournament, number=1)
    before = {number: names_at(page, number) for number in (1, 2, 3, 4)}
    seed = 11
    while True:
        round_redraw(by=director, round=round_one, seed=seed)
        seated = {
            number: [
                seat.competitor.name
                for seat in Seat.objects.filter(round=round_one, table__number=number)
                .select_related("competitor")
                .order_by("side", "position")
            ]
            for number in (1, 2, 3, 4)
        }
        if seated != before:
            break
        seed += 1
    wait_until(page, lambda: {number: names_at(page, number) for number in (1, 2, 3, 4)} == seated, "the new draw")
    assert page.evaluate("window.openedOnce") is True
    assert page.locator(".draw-byes", has_text=late.name).count() == 1
    # Everything fits the screen: no table cut by its bottom edge.
    for table in page.locator(".draw-tables > li:not([hidden])").all():
        box = table.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PROJECTOR["height"]
    screenshot(page, "draw-through-nginx-1280x720-drawn-again")

    # Each new file went out from nginx (200s it answered itself), 304s in between; Django
    # never saw a poll of the draw (the page's load had published its file).
    lines = nginx.logged_at(path)
    assert lines and {line.status for line in lines} <= {200, 304}, lines
    assert all(line.by_nginx for line in lines), [line for line in lines if not line.by_nginx]
    assert answered_by_nginx(nginx, path, 200) >= 2
    assert [seen for seen in site_requests if seen.startswith("/live/")] == []
    assert nginx.errors() == ""
    page.context.close()
