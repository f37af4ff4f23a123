"""« Ma soirée »'s notifications in Chromium on a 360 px phone, in French and in English.

Headless Chromium reaches no push service (no network, no Google account): the click on
« Me prévenir » must end on the page's one line saying notifications are unavailable
here, the page still live. The service worker is then checked for real: the round drawn
sends its message to a push service the test runs on 127.0.0.1 (encrypted for a browser
the test plays), the test decrypts it and hands it to the page's service worker with
DevTools' `ServiceWorker.deliverPushMessage`, as a push service would, and the
notification shown is read back from the page (`registration.getNotifications()`).
"""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from push.models import Subscription
from rounds.services import round_close, round_draw
from tests.e2e.conftest import screenshot
from tests.e2e.test_accessibility import serious_violations
from tests.push.conftest import LocalPushService, ServiceWorkerPush, subscribe
from tests.scoring.tables import director_of, make_table

SMALL_PHONE = {"width": 360, "height": 740}
TEXTS = {
    "fr": {
        "locale": "fr-FR",
        "button": "Me prévenir",
        "unavailable": "Notifications indisponibles ici",
        "drawn": "Ronde 2 : table",
        "against": "contre",
    },
    "en": {
        "locale": "en-GB",
        "button": "Notify me",
        "unavailable": "Notifications are unavailable here",
        "drawn": "Round 2: table",
        "against": "against",
    },
}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["fr", "en"])
def test_notify_me_says_unavailable_then_the_worker_shows_the_next_round(
    browser: Any, live_server: Any, push_service: LocalPushService, local_push: None, language: str
) -> None:
    texts = TEXTS[language]
    table = make_table(tables=2)
    tournament = table.round.tournament
    team = tournament.competitors.get(number=1)
    context = browser.new_context(viewport=SMALL_PHONE, locale=texts["locale"], device_scale_factor=2, has_touch=True)
    context.grant_permissions(["notifications"], origin=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/soiree/{team.link_token}/")
    page.locator("#soiree").wait_for()

    page.get_by_role("button", name=texts["button"], exact=True).click()
    status = page.locator("[data-push-status]")
    status.filter(has_text=texts["unavailable"]).wait_for(timeout=40_000)
    assert page.get_by_role("button", name=texts["button"], exact=True).is_hidden()
    assert len(status.inner_text().splitlines()) == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    assert serious_violations(Axe(), page) == []
    screenshot(page, f"push-unavailable-{language}")
    # Nothing reached the site: the browser never subscribed.
    assert not Subscription.objects.exists()

    # The service worker, registered by the click, at the site's root.
    worker = ServiceWorkerPush(context, page)
    assert worker.scope == f"{live_server.url}/"

    # A browser that did subscribe (the test's), for the same competitor: the director
    # draws round 2 and the site sends it the real message.
    player = subscribe(team, push_service, "phone", language=language, by_link=True)
    director = director_of(tournament)
    round_close(by=director, round=table.round, force=True)
    drawn = round_draw(by=director, tournament=tournament, seed=7)
    message = player.read(push_service.next().body)
    seat = drawn.seats.select_related("table").get(competitor=team)
    opponents = ", ".join(
        s.competitor.name for s in seat.table.seats.exclude(side=seat.side).select_related("competitor")
    )
    body = f"{texts['drawn']} {seat.table.number}, {texts['against']} {opponents}"
    assert message["body"] == body

    assert worker.deliver_until_shown(message) == [{"title": tournament.name, "body": body, "tag": f"round-{drawn.pk}"}]
    # The page itself moved on without a reload, as it always does.
    page.locator(".soiree-headline", has_text=texts["drawn"]).wait_for(timeout=10_000)
    assert serious_violations(Axe(), page) == []
    screenshot(page, f"push-next-round-{language}")
    context.close()
