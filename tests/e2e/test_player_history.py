"""A player's history in the browser: the organiser opens a player from the club's list and
reads each tournament's rank, points and partners; an anonymous visitor on a 390 px phone
reads the public page (public tournaments only); once the player opts out, the public
page is gone, and the visitor gets the site's 404 page in French."""

from __future__ import annotations

import pytest

from scoring.selectors.history import player_history
from tests.e2e.conftest import PHONE, screenshot
from tests.e2e.test_season import finished_concours
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Tournament


def _rank_points(played) -> tuple[str, str]:
    """A history line's rank and points as the French page writes them."""
    return f"{played.rank} sur {played.ranked}", str(played.points)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_organiser_reads_a_players_history_and_the_public_page_goes_when_they_opt_out(
    browser, phone_page, live_server
) -> None:
    club = ClubFactory(name="Belote Club de Rodez")
    director = UserFactory(username="directrice")
    club.organisers.add(director)
    teams = [
        [PlayerFactory(club=club, last_name=family, first_name=first) for first in ("Paul", "Lucie")]
        for family in ("Aubert", "Barre", "Costes", "Durand")
    ]
    lucie = teams[0][1]
    january = finished_concours(club, director, "Concours de janvier", 10, teams)
    # Lucie changes partner in February: the history names each night's partner.
    february = finished_concours(club, director, "Concours de février", 20, [teams[1], teams[0][::-1], *teams[2:]])
    private = finished_concours(club, director, "Entraînement du club", 25, teams)
    Tournament.objects.filter(pk=private.pk).update(is_public=False)
    expected = {played.tournament.name: played for played in player_history(lucie)}
    assert set(expected) == {january.name, february.name, private.name}

    # The organiser: the club's player list, the player, their tournaments.
    page = phone_page
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "directrice")
    page.fill("input[name=password]", "secret-pass-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/manage/club/{club.pk}/players/")
    page.get_by_role("link", name="Aubert Lucie", exact=True).click()
    page.wait_for_load_state()
    page.get_by_role("link", name="Classements, points et partenaires").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Lucie Aubert"
    rows = page.locator("table.data tbody tr")
    # Newest first, the private training night included.
    assert [row.locator("td").nth(1).inner_text() for row in rows.all()] == [
        "Entraînement du club",
        "Concours de février",
        "Concours de janvier",
    ]
    for row in rows.all():
        cells = [cell.inner_text() for cell in row.locator("td").all()]
        played = expected[cells[1]]
        rank, points = _rank_points(played)
        assert cells[3].startswith(rank) and "définitif" in cells[3]
        assert cells[4] == points
        assert cells[5] == "Paul Aubert"
    screenshot(page, "player-history-organiser")

    # An anonymous visitor on a phone: name, club, public tournaments only.
    visitor_context = browser.new_context(viewport=PHONE, locale="fr-FR", device_scale_factor=2, has_touch=True)
    visitor = visitor_context.new_page()
    visitor.set_default_timeout(10_000)
    public_url = f"{live_server.url}/joueur/{lucie.pk}/"
    response = visitor.goto(public_url)
    assert response is not None and response.status == 200
    assert visitor.locator("h1").inner_text() == "Lucie Aubert"
    assert "Belote Club de Rodez" in visitor.locator("main").inner_text()
    public_rows = visitor.locator("table.data tbody tr")
    assert [row.locator("td").nth(1).inner_text() for row in public_rows.all()] == [
        "Concours de février",
        "Concours de janvier",
    ]
    cells = [cell.inner_text() for cell in public_rows.first.locator("td").all()]
    assert cells[3].startswith(_rank_points(expected["Concours de février"])[0]) and cells[5] == "Paul Aubert"
    assert "Entraînement" not in visitor.content() and lucie.licence not in visitor.content()
    # The page fits the phone: no sideways scrolling of the whole page, nor of the table,
    # which reads as one card per tournament, each value with its column's name.
    assert visitor.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    wrapper = visitor.locator(".table-scroll")
    assert wrapper.evaluate("(box) => box.scrollWidth <= box.clientWidth")
    label = public_rows.first.locator("td").nth(3).evaluate("(cell) => getComputedStyle(cell, '::before').content")
    assert label == '"Rang"'
    screenshot(visitor, "player-history-public-phone")

    # The player asks to be taken down: the organiser unticks the public page on their form.
    page.get_by_role("link", name="Retour à la fiche du joueur").click()
    page.wait_for_load_state()
    page.get_by_label("Afficher ses résultats sur une page publique").uncheck()
    page.get_by_role("button", name="Enregistrer", exact=True).click()
    page.wait_for_load_state()
    lucie.refresh_from_db()
    assert lucie.public_history is False

    gone = visitor.goto(public_url)
    assert gone is not None and gone.status == 404
    assert visitor.locator("html").get_attribute("lang") == "fr"
    assert visitor.locator("h1").inner_text() == "Page introuvable"
    assert "Cette page n’existe pas, ou n’est plus publique." in visitor.locator("main").inner_text()
    assert "Lucie" not in visitor.content() and "Concours" not in visitor.content()
    screenshot(visitor, "player-history-public-gone")
    visitor_context.close()
