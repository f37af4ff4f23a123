"""A whole night from the player's side (issue 28's walk), in French and in English.

Hélène arrives with her partner, scans the « Pointage » poster with her 360 px phone and
checks the team in at the door; she finds « Ma soirée » by her name typed without its
accents and sees her table and opponents; she asks to be told of the next round (headless
Chromium reaches no push service: the page says so in one line, and the service worker is
checked with the real message a local push service receives); her table's referee calls
the director, whose dashboard shows the call; the director's message reaches her page and
the projector (1280×720); the director draws round 2 and her page, and the notification,
give her new table; the night ends on her final rank and lot. Every page she sees is axe
clean; the director's laptop stays in French, the player's phone and the projector speak
the language of the run. Screenshots: test-results/screenshots/player-night-*.png.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from rounds.services import round_close, round_draw
from scoring.services import hand_submit
from scoring.standings import standings_rebuild
from tests.e2e.conftest import PHONE, director_desk, screenshot
from tests.e2e.test_accessibility import serious_violations
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.push.conftest import LocalPushService, ServiceWorkerPush, subscribe
from tournaments import services
from tournaments.models import Competitor, Tournament

SMALL_PHONE = {"width": 360, "height": 740}
PROJECTOR = {"width": 1280, "height": 720}
# Pages poll every few seconds: long enough for several polls.
POLLS = 30_000
HAND = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}
LOTS = {1: "Un jambon de pays", 2: "Une bouteille de marcillac", 3: "Un fromage de Laguiole", 4: "Un couteau"}

TEXTS = {
    "fr": {
        "locale": "fr-FR",
        "door_title": "Pointage",
        "both_here": "Nous sommes là tous les deux",
        "checked_in": "Pointage fait : bon tournoi !",
        "owed": "À régler à la table de l’organisateur : 10 €",
        "find": "Trouver",
        "my_evening": "Ma soirée",
        "round": "Ronde {number} : table {table}, contre {opponents}",
        "notify": "Me prévenir",
        "unavailable": "Notifications indisponibles ici",
        "final": "Classement final : {rank}",
        "lot": "Lot : {lot}",
    },
    "en": {
        "locale": "en-GB",
        "door_title": "Check-in",
        "both_here": "We are both here",
        "checked_in": "Checked in: enjoy the tournament!",
        "owed": "To pay at the organiser’s table: 10 €",
        "find": "Find",
        "my_evening": "My evening",
        "round": "Round {number}: table {table}, against {opponents}",
        "notify": "Notify me",
        "unavailable": "Notifications are unavailable here",
        "final": "Final ranking: {rank}",
        "lot": "Lot: {lot}",
    },
}


def _concours(director: Any) -> tuple[Tournament, Competitor]:
    """Registration open, self check-in on (one player says both are here), 10 € a team, 2
    rounds of one donne, a lot for every rank; Hélène Lefèvre and Jean Bérard, and three
    other teams."""
    club = ClubFactory(name="Belote Club de Rodez")
    club.organisers.add(director)
    tournament = services.tournament_create(
        by=director,
        club=club,
        name="Concours du samedi",
        date=datetime.date(2026, 12, 5),
        game="belote_classique",
        rounds_planned=2,
        end_value=1,
        entry_fee=Decimal("10"),
        self_check_in=True,
        door_rule="one",
    )
    for rank, lot in LOTS.items():
        services.prize_add(by=director, tournament=tournament, rank_from=rank, text=lot)
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    helene = services.competitor_register(
        by=director,
        tournament=tournament,
        players=[
            PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène"),
            PlayerFactory(club=club, last_name="Bérard", first_name="Jean"),
        ],
    )
    for _ in range(3):
        others = services.competitor_register(
            by=director, tournament=tournament, players=PlayerFactory.create_batch(2, club=club)
        )
        services.competitor_check_in(by=director, competitor=others)
    return tournament, helene


def _opponents(tournament: Tournament, number: int, competitor: Competitor) -> tuple[int, str]:
    seat = tournament.rounds.get(number=number).seats.select_related("table").get(competitor=competitor)
    others = seat.table.seats.exclude(side=seat.side).select_related("competitor").order_by("position")
    return seat.table.number, ", ".join(other.competitor.name for other in others)


def _play_round(tournament: Tournament, number: int) -> None:
    for table in tournament.rounds.get(number=number).tables.all():
        if not table.hands.exists():
            hand_submit(table=table, raw=HAND)


def _clean(page: Any, axe: Axe) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert serious_violations(axe, page) == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_player_s_whole_night_from_the_door_to_the_final_rank(
    browser: Any, live_server: Any, push_service: LocalPushService, local_push: None, language: str
) -> None:
    texts = TEXTS[language]
    axe = Axe()
    director = UserFactory(username="directrice")
    tournament, helene = _concours(director)
    door = services.door_open(by=director, tournament=tournament)

    # -- the door: the poster's QR opens the door on Hélène's phone --------------------------
    phone_context = browser.new_context(
        viewport=SMALL_PHONE, locale=texts["locale"], device_scale_factor=2, has_touch=True
    )
    phone_context.grant_permissions(["notifications"], origin=live_server.url)
    phone = phone_context.new_page()
    phone.set_default_timeout(10_000)
    phone.goto(f"{live_server.url}/door/{door.token}/")
    assert phone.locator("h1").inner_text() == texts["door_title"]
    phone.locator("#door-q").fill("helene")
    phone.locator(".door-person", has_text="Hélène Lefèvre").click()
    phone.get_by_role("button", name=texts["both_here"]).click()
    done = phone.locator(".door-done")
    done.wait_for()
    assert texts["checked_in"] in done.inner_text() and texts["owed"] in done.inner_text()
    _clean(phone, axe)
    screenshot(phone, f"player-night-{language}-door")
    helene.refresh_from_db()
    assert helene.status == Competitor.Status.CHECKED_IN and helene.self_checked_in

    # -- round 1 drawn: « Ma soirée » found by name -------------------------------------------
    services.tournament_set_status(by=director, tournament=tournament, status="running")
    round_draw(by=director, tournament=tournament, seed=3)
    phone.goto(f"{live_server.url}/t/{tournament.slug}/seat/")
    phone.get_by_role("searchbox").fill("lefevre")
    phone.get_by_role("button", name=texts["find"]).click()
    phone.get_by_role("link", name=texts["my_evening"]).click()
    headline = phone.locator(".soiree-headline")
    table, opponents = _opponents(tournament, 1, helene)
    assert headline.inner_text() == texts["round"].format(number=1, table=table, opponents=opponents)
    _clean(phone, axe)
    screenshot(phone, f"player-night-{language}-round-1")
    phone.evaluate("window.neverReloaded = true")

    # -- « Me prévenir »: unavailable here, in one line; the worker is registered ------------
    phone.get_by_role("button", name=texts["notify"], exact=True).click()
    status = phone.locator("[data-push-status]")
    status.filter(has_text=texts["unavailable"]).wait_for(timeout=40_000)
    assert len(status.inner_text().splitlines()) == 1
    _clean(phone, axe)
    worker = ServiceWorkerPush(phone_context, phone)
    # What a browser that could reach its push service would have sent the site.
    reader = subscribe(helene, push_service, "helene", language=language)

    # -- the director's laptop, and the projector in the room -------------------------------
    desk = director_desk(browser, live_server, tournament)
    room_context = browser.new_context(viewport=PROJECTOR, locale=texts["locale"])
    room = room_context.new_page()
    room.set_default_timeout(10_000)
    room.goto(f"{live_server.url}/t/{tournament.slug}/projector/")

    # -- her table's referee calls the director: the dashboard shows it ---------------------
    referee_context = browser.new_context(viewport=PHONE, locale="fr-FR", device_scale_factor=2, has_touch=True)
    referee = referee_context.new_page()
    referee.set_default_timeout(10_000)
    own_table = tournament.rounds.get(number=1).tables.get(number=table)
    referee.goto(f"{live_server.url}/r/{own_table.token}/")
    referee.locator("#referee-call").get_by_text("Carte tombée", exact=True).click()
    referee.get_by_role("button", name="Appeler l’arbitre").click()
    referee.get_by_text("L’arbitre est appelé.").wait_for()
    call = desk.locator("#referee-calls .call")
    call.wait_for(timeout=POLLS)
    assert f"Table {table} · Carte tombée" in call.inner_text()
    screenshot(desk, f"player-night-{language}-call")
    call.get_by_role("button", name="Traité").click()
    desk.get_by_text("Aucune table n’appelle.").wait_for()

    # -- the director's message, on her phone and on the projector --------------------------
    desk.get_by_label("Message sur les écrans").fill("La buvette ferme à minuit")
    desk.get_by_label("Pendant (minutes)").fill("30")
    desk.get_by_role("button", name="Afficher sur les écrans").click()
    desk.get_by_text("Le message est sur les écrans.").wait_for()
    for page in (phone, room):
        page.locator(".screen-message", has_text="La buvette ferme à minuit").wait_for(timeout=POLLS)
    _clean(phone, axe)
    box = room.locator(".screen-message").bounding_box()
    assert box is not None and box["y"] + box["height"] <= PROJECTOR["height"]
    screenshot(phone, f"player-night-{language}-message")
    assert room.locator("#ranking .prize-lot").count() == 0
    screenshot(room, f"player-night-{language}-projector-message")

    # -- round 1 played and closed, round 2 drawn: her page and the notification -------------
    _play_round(tournament, 1)
    round_close(by=director, round=tournament.rounds.get(number=1))
    drawn = round_draw(by=director, tournament=tournament, seed=4)
    table_2, opponents_2 = _opponents(tournament, 2, helene)
    expected = texts["round"].format(number=2, table=table_2, opponents=opponents_2)
    phone.locator(".soiree-headline", has_text=expected).wait_for(timeout=POLLS)
    assert phone.evaluate("window.neverReloaded") is True
    message = reader.read(push_service.next().body)
    assert message["body"] == expected
    assert [(n["title"], n["body"]) for n in worker.deliver_until_shown(message)] == [(tournament.name, expected)]
    _clean(phone, axe)
    screenshot(phone, f"player-night-{language}-round-2")

    # -- the last round played, the tournament finished: her final rank and lot -------------
    _play_round(tournament, 2)
    round_close(by=director, round=drawn)
    services.tournament_set_status(by=director, tournament=tournament, status="finished")
    standings_rebuild(tournament_id=tournament.pk)
    final = phone.locator(".soiree-final")
    final.wait_for(timeout=POLLS)
    rank = int(phone.locator("#soiree .rank").inner_text())
    assert texts["final"].format(rank=rank) in final.inner_text()
    assert texts["lot"].format(lot=LOTS[rank]) in final.inner_text().replace("\xa0", " ")
    assert phone.evaluate("window.neverReloaded") is True
    _clean(phone, axe)
    screenshot(phone, f"player-night-{language}-final")
    # The projector shows the lots beside the final ranking, not before.
    room.locator("#ranking .prize-lot").first.wait_for(timeout=POLLS)
    assert serious_violations(axe, room) == []
    screenshot(room, f"player-night-{language}-projector-final")
    for context in (phone_context, desk.context, room_context, referee_context):
        context.close()
