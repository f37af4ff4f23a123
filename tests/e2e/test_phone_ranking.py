"""The public ranking on a small phone: no sideways swipe, the points always in view, the
parties still in play marked."""

from __future__ import annotations

import pytest

from scoring.services import hand_submit
from scoring.standings import standings_rebuild
from tests.e2e.conftest import screenshot
from tests.scoring.tables import SOUND_HANDS, make_table


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [360, 390])
def test_the_ranking_fits_a_small_phone_with_its_points_column(browser, live_server, width) -> None:
    table = make_table(tables=4)
    tournament = table.round.tournament
    # Five criteria: more columns than a phone can hold side by side.
    tournament.criteria = ["wins", "points", "difference", "against", "match_points"]
    tournament.save(update_fields=["criteria"])
    hand, _ = SOUND_HANDS["belote_classique"]
    hand_submit(table=table, raw=hand)
    standings_rebuild(tournament_id=tournament.pk)

    context = browser.new_context(viewport={"width": width, "height": 800}, locale="fr-FR", has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{tournament.slug}/")
    page.locator("#ranking tbody tr").first.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    scroller = page.locator("#ranking .table-scroll")
    screenshot(page, f"ranking-phone-{width}")
    widths = scroller.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert widths[0] <= widths[1], "the table scrolls sideways inside its box"
    headers = [h.strip() for h in page.locator("#ranking thead th").all_inner_texts() if h.strip()]
    assert "Points" in " ".join(headers)
    points = page.locator("#ranking thead th", has_text="Points").first
    box = points.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width
    # Mid-round, what the ranking counts is said above it, and each partie still in play
    # is marked under its competitors' names, inside the phone's width.
    assert page.locator("#ranking .ranking-progress").inner_text() == "Ronde 1 en cours"
    played = page.locator("#ranking .in-play", has_text="en cours, 1 donne")
    assert played.count() == 2
    assert page.locator("#ranking .in-play", has_text="pas commencée").count() == 6
    for badge in [*played.all(), page.locator("#ranking .in-play", has_text="pas commencée").first]:
        assert badge.is_visible()
        badge_box = badge.bounding_box()
        assert badge_box is not None and badge_box["x"] + badge_box["width"] <= width
    screenshot(page, f"ranking-phone-{width}")
    context.close()
