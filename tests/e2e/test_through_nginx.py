"""The live ranking and the projector opened through nginx, as a site serves them: the page
from the site, its polls answered by nginx itself from the files the site writes
(docker/nginx-live.conf, in serving/nginx.py's configuration; tests/nginx.py starts it in
front of the live server, its live root this test's own).

- on a 390 px phone, the ranking polls its file: 304 from nginx while nothing moves; a
  donne entered by the table's referee (the referee's form, through nginx too) moves it
  on the same page load, the new file served by nginx; Django never sees a poll (at most
  the first, were the file missing);
- the projector at 1280×720 polls its own file the same way, and a donne entered at a
  table moves it;
- a tournament made private is no longer served: its folder is gone, its file's address
  is passed to the site, which answers 404, and so does its page.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest

from scoring.services import hand_submit
from scoring.standings import standings_rebuild
from tests.e2e.conftest import PHONE, screenshot
from tests.e2e.test_live_ranking import points_of, tap
from tests.e2e.test_projector_room import concours_in_play
from tests.nginx import NginxProxy
from tests.scoring.tables import SOUND_HANDS, make_table
from tournaments.services import tournament_update

PROJECTOR = {"width": 1280, "height": 720}


def live_path(slug: str, kind: str) -> str:
    return f"/live/{slug}/fr-{kind}.html"


def wait_until(page, condition: Callable[[], bool], what: str, seconds: float = 15.0) -> None:
    """Wait (the page's event loop running) until `condition` holds; fail saying `what` if it never does."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting after {seconds:g} s: {what}")
        page.wait_for_timeout(100)


def answered_by_nginx(proxy: NginxProxy, path: str, status: int) -> int:
    return sum(1 for line in proxy.logged_at(path) if line.status == status and line.by_nginx)


def assert_polls_were_nginxs(proxy: NginxProxy, path: str, site_requests: list[str]) -> None:
    """Every poll of `path` answered 200 or 304; all by nginx itself but perhaps the first
    (its file missing), and Django saw exactly the ones nginx passed on, no other /live/ one."""
    lines = proxy.logged_at(path)
    assert lines and {line.status for line in lines} <= {200, 304}, lines
    passed = [line for line in lines if not line.by_nginx]
    assert len(passed) <= 1 and (not passed or passed[0] is lines[0]), passed
    assert site_requests.count(path) == len(passed)
    assert [seen for seen in site_requests if seen.startswith("/live/") and seen != path] == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_phone_polls_the_ranking_file_from_nginx_and_a_donne_moves_it_without_a_reload(
    browser, nginx, site_requests
) -> None:
    table = make_table()
    tournament = table.round.tournament
    standings_rebuild(tournament_id=tournament.pk)
    path = live_path(tournament.slug, "ranking")

    viewer = browser.new_context(viewport=PHONE, locale="fr-FR", device_scale_factor=2, has_touch=True).new_page()
    viewer.set_default_timeout(10_000)
    opened = viewer.goto(f"{nginx.url}/t/{tournament.slug}/")
    assert opened is not None and opened.status == 200
    viewer.evaluate("window.openedOnce = true")
    ranking = viewer.locator("#ranking")
    assert ranking.get_attribute("hx-get") == path
    first = int(ranking.get_attribute("data-version") or "")
    assert points_of(viewer, "C1") == "0"

    # Nothing moved: nginx answers the polls 304 itself, and the ranking stays on screen.
    wait_until(viewer, lambda: answered_by_nginx(nginx, path, 304) >= 2, "two polls answered 304 by nginx")
    assert points_of(viewer, "C1") == "0"
    screenshot(viewer, "through-nginx-phone-ranking-before")

    referee = browser.new_context(viewport=PHONE, locale="fr-FR", has_touch=True).new_page()
    referee.set_default_timeout(10_000)
    referee.goto(f"{nginx.url}/r/{table.token}/")
    tap(referee, "taker", "C1")
    tap(referee, "contract", "cœur")
    referee.locator("#id_points_taker").fill("102")
    referee.locator("#hand-form button[type=submit]").click()
    referee.get_by_text("La donne 1 est enregistrée.").wait_for()
    referee.context.close()

    # The open ranking shows the donne, on the same page load, from the new file.
    viewer.wait_for_function(
        "() => [...document.querySelectorAll('#ranking tbody tr')].some(r => r.innerText.includes('102'))",
        timeout=10_000,
    )
    assert points_of(viewer, "C1") == "102" and points_of(viewer, "C2") == "60"
    assert viewer.evaluate("window.openedOnce") is True
    assert int(viewer.locator("#ranking").get_attribute("data-version") or "") > first
    assert viewer.locator("#ranking").get_attribute("hx-get") == path
    screenshot(viewer, "through-nginx-phone-ranking-after-a-donne")

    # The new file went out from nginx too (a 200 it answered itself), and 304s before it.
    assert answered_by_nginx(nginx, path, 200) >= 1
    assert_polls_were_nginxs(nginx, path, site_requests)
    assert nginx.errors() == ""
    viewer.context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_projector_polls_its_file_from_nginx_and_a_donne_moves_it(browser, nginx, site_requests) -> None:
    tournament, _director = concours_in_play()
    path = live_path(tournament.slug, "projector")
    page = browser.new_context(viewport=PROJECTOR, locale="fr-FR").new_page()
    page.set_default_timeout(10_000)
    opened = page.goto(f"{nginx.url}/t/{tournament.slug}/projector/")
    assert opened is not None and opened.status == 200
    page.wait_for_selector("#ranking tbody tr")
    page.evaluate("window.openedOnce = true")
    ranking = page.locator("#ranking")
    assert ranking.get_attribute("hx-get") == path
    first = int(ranking.get_attribute("data-version") or "")
    wait_until(page, lambda: answered_by_nginx(nginx, path, 304) >= 1, "a poll answered 304 by nginx")
    screenshot(page, "through-nginx-projector-1280x720-before")

    # A donne at a table that had none yet (every other one has its first).
    table = tournament.rounds.get(number=1).tables.order_by("number")[1]
    seat = table.seats.order_by("side", "position").first()
    assert seat is not None
    # The row of that table's first competitor, by its name not followed by a digit ("Nom8 –
    # Nom9" is in "Nom8 – Nom91" too). The factories' names are words, spaces and a dash:
    # nothing to escape for the browser's regex.
    assert re.fullmatch(r"[\w –]+", seat.competitor.name), seat.competitor.name
    name = re.compile(rf"{seat.competitor.name}(?!\d)")
    before = page.locator("#ranking tbody tr", has_text=name).text_content()
    hand, _scores = SOUND_HANDS["belote_classique"]
    hand_submit(table=table, raw=hand)

    page.wait_for_function(
        "first => Number(document.querySelector('#ranking').dataset.version) > first", arg=first, timeout=10_000
    )
    after = page.locator("#ranking tbody tr", has_text=name).text_content()
    assert after != before and ("102" in (after or "") or "60" in (after or "")), (before, after)
    assert page.evaluate("window.openedOnce") is True
    screenshot(page, "through-nginx-projector-1280x720-after-a-donne")
    assert answered_by_nginx(nginx, path, 200) >= 1
    assert_polls_were_nginxs(nginx, path, site_requests)
    page.context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_tournament_made_private_is_no_longer_served(browser, nginx, site_requests) -> None:
    # Made through the services (the director's settings are then the ones it can change).
    tournament, director = concours_in_play(teams=8)
    path = live_path(tournament.slug, "ranking")
    viewer = browser.new_context(viewport=PHONE, locale="fr-FR", device_scale_factor=2).new_page()
    viewer.set_default_timeout(10_000)
    viewer.goto(f"{nginx.url}/t/{tournament.slug}/")
    wait_until(viewer, lambda: answered_by_nginx(nginx, path, 304) >= 1, "a poll answered 304 by nginx")
    assert (nginx.live_root / tournament.slug).is_dir()

    # The director unticks « Classement et tirage publics ».
    tournament_update(by=director, tournament=tournament, is_public=False)
    wait_until(viewer, lambda: not (nginx.live_root / tournament.slug).exists(), "the tournament's folder removed")
    served = len(nginx.logged_at(path))

    # The file's address: no file, so nginx asks the site, which answers 404.
    asked = viewer.request.get(f"{nginx.url}{path}")
    assert asked.status == 404
    last = nginx.logged_once(path, served + 1)[-1]
    assert (last.status, last.by_nginx) == (404, False)
    assert path in site_requests
    # The open page's polls get the same 404 from the site, none served by nginx any more.
    wait_until(viewer, lambda: len(nginx.logged_at(path)) >= served + 2, "the open page's next poll")
    assert all(line.status == 404 and not line.by_nginx for line in nginx.logged_at(path)[-2:])

    # The page itself is gone.
    gone = viewer.goto(f"{nginx.url}/t/{tournament.slug}/")
    assert gone is not None and gone.status == 404
    assert viewer.locator("#ranking").count() == 0
    screenshot(viewer, "through-nginx-private-tournament")
    viewer.context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_phone_turns_the_pages_of_a_long_ranking_each_polled_as_its_own_file(
    browser, nginx, site_requests, settings
) -> None:
    settings.RANKING_PAGE_ROWS = 5
    table = make_table(tables=6)  # twelve teams: places 1–5, 6–10, 11–12
    tournament = table.round.tournament
    standings_rebuild(tournament_id=tournament.pk)
    viewer = browser.new_context(viewport=PHONE, locale="fr-FR", device_scale_factor=2, has_touch=True).new_page()
    viewer.set_default_timeout(10_000)
    opened = viewer.goto(f"{nginx.url}/t/{tournament.slug}/")
    assert opened is not None and opened.status == 200
    assert viewer.locator("#ranking tbody tr").count() == 5
    numbers = "() => [...document.querySelectorAll('#ranking tbody tr td:nth-child(2)')].map(td => td.innerText)"
    on_first = set(viewer.evaluate(numbers))
    pager = viewer.get_by_role("navigation", name="Pages du classement", exact=True)
    assert pager.get_by_role("link").all_text_contents() == ["1–5", "6–10", "11–12"]
    screenshot(viewer, "through-nginx-phone-ranking-pages-first")

    pager.get_by_role("link", name="6–10").click()
    viewer.wait_for_url(f"{nginx.url}/t/{tournament.slug}/?page=2")
    path = f"/live/{tournament.slug}/fr-ranking-2.html"
    ranking = viewer.locator("#ranking")
    assert ranking.get_attribute("hx-get") == path
    assert viewer.locator("#ranking tbody tr").count() == 5
    assert not on_first & set(viewer.evaluate(numbers))  # other teams than the first page's
    first = int(ranking.get_attribute("data-version") or "")
    wait_until(viewer, lambda: answered_by_nginx(nginx, path, 304) >= 1, "a poll of page 2 answered 304 by nginx")

    hand, _scores = SOUND_HANDS["belote_classique"]
    hand_submit(table=table, raw=hand)
    viewer.wait_for_function(
        "first => Number(document.querySelector('#ranking').dataset.version) > first", arg=first, timeout=10_000
    )
    # Still the second page, polling its own file; its rows are places 6 to 10.
    assert viewer.locator("#ranking").get_attribute("hx-get") == path
    assert viewer.locator("#ranking tbody tr").count() == 5
    current = viewer.locator('.ranking-pages a[aria-current="page"]').first
    assert current.text_content() == "6–10"
    screenshot(viewer, "through-nginx-phone-ranking-pages-second")
    assert answered_by_nginx(nginx, path, 200) >= 1
    assert_polls_were_nginxs(nginx, path, site_requests)
    viewer.context.close()
