"""The ranking's projector fits the room: at 1280×720 at least 15 competitors a page, at
1920×1080 at least 24, the title on one line, compact rows (a partie in play and a lot
are small marks beside the name, not boxes under it); the lots appear only once the final
ranking is published."""

from __future__ import annotations

import pytest

from rounds.services import round_close, round_draw
from scoring.services import hand_submit
from scoring.standings import standings_rebuild
from tests.e2e.conftest import screenshot
from tests.factories import ClubFactory, UserFactory
from tests.scoring.tables import SOUND_HANDS
from tests.tournaments.conftest import new_tournament, register_many
from tournaments import services
from tournaments.models import Tournament

LONG_NAME = "Grand concours de belote du Comité des fêtes de Saint-Geniez-d’Olt-et-d’Aubrac"


def concours_in_play(teams: int = 40) -> tuple[Tournament, object]:
    """A concours of `teams` teams, round 1 in play, a donne entered at every other table, lots recorded."""
    club = ClubFactory(name="Comité des fêtes")
    director = UserFactory(username="directeur-salle")
    club.organisers.add(director)
    tournament = new_tournament(club, director, name=LONG_NAME, rounds_planned=1, is_public=True)
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    register_many(tournament, director, teams)
    services.tournament_set_status(by=director, tournament=tournament, status="running")
    rnd = round_draw(by=director, tournament=tournament, seed=5)
    hand, _scores = SOUND_HANDS["belote_classique"]
    for table in rnd.tables.order_by("number")[::2]:
        hand_submit(table=table, raw=hand)
    services.prize_add(by=director, tournament=tournament, rank_from=1, text="Un jambon de pays", value="60")
    services.prize_add(by=director, tournament=tournament, rank_from=2, rank_to=5, text="Une bouteille de marcillac")
    standings_rebuild(tournament_id=tournament.pk)
    return tournament, director


def first_page(page) -> dict:
    """What the projector shows on its first page: rows fully on screen, rows hidden, row heights, the title."""
    return page.evaluate(
        """() => {
          const rows = [...document.querySelectorAll('#ranking tbody tr')];
          const shown = rows.filter(r => !r.hidden);
          const title = document.querySelector('.projector-head h1');
          const lineHeight = parseFloat(getComputedStyle(title).lineHeight);
          return {
            onScreen: shown.filter(r => r.getBoundingClientRect().bottom <= window.innerHeight).length,
            shown: shown.length,
            total: rows.length,
            heights: shown.map(r => Math.round(r.getBoundingClientRect().height)),
            titleLines: Math.round(title.getBoundingClientRect().height / lineHeight),
            titleFits: title.scrollWidth <= title.clientWidth + 1,
            lots: document.querySelectorAll('#ranking .prize-lot').length,
            winners: rows.filter(r => parseInt(r.querySelector('td.rank').textContent) <= 5).length,
            scrollY: document.documentElement.scrollHeight - window.innerHeight,
          };
        }"""
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("width", "height", "at_least"), [(1280, 720, 15), (1920, 1080, 24)])
def test_the_projector_shows_a_room_sized_page_of_the_ranking(browser, live_server, width, height, at_least) -> None:
    tournament, director = concours_in_play()
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{tournament.slug}/projector/")
    page.wait_for_selector("#ranking tbody tr")
    seen = first_page(page)
    screenshot(page, f"projector-{width}x{height}-in-play")
    assert seen["onScreen"] >= at_least, seen
    # Every row shown is on the screen: the page never cuts a row or scrolls.
    assert seen["onScreen"] == seen["shown"] and seen["shown"] < seen["total"], seen
    assert seen["titleLines"] == 1, seen
    # A partie in play is a mark beside the name: every row is one line high.
    assert max(seen["heights"]) - min(seen["heights"]) <= 2, seen
    # The round is in play: no lot promised yet, although the lots are recorded.
    assert seen["lots"] == 0, seen

    round_close(by=director, round=tournament.rounds.get(number=1), force=True)
    services.tournament_set_status(by=director, tournament=tournament, status="finished")
    standings_rebuild(tournament_id=tournament.pk)
    page.goto(f"{live_server.url}/t/{tournament.slug}/projector/")
    page.wait_for_selector("#ranking .prize-lot")
    final = first_page(page)
    screenshot(page, f"projector-{width}x{height}-final")
    assert final["lots"] == final["winners"] > 0 and final["onScreen"] >= at_least, final
    assert max(final["heights"]) - min(final["heights"]) <= 2, final
    context.close()
