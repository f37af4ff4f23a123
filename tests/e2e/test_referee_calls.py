"""Calling the referee and the messages on the screens, in the browser (issue 28, items 4
and 5): a referee on a phone calls with « Litige »; the director's dashboard, open on a
laptop, shows the call without a reload, the director marks it handled and it goes; the
director posts a message and the projector, open in the room, shows it without a reload."""

from __future__ import annotations

import datetime

import pytest

from rounds.services import round_draw
from scoring.models import RefereeCall
from tests.e2e.conftest import PHONE, director_desk, screenshot
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import ScreenMessage, Tournament

LAPTOP = {"width": 1366, "height": 900}
PROJECTOR = {"width": 1280, "height": 720}
# Polls come every few seconds: enough to wait for several of them.
POLLS = 30_000


def _drawn_round(director) -> Tournament:
    """A running belote tournament of 4 teams, round 1 drawn: 2 tables."""
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
    round_draw(by=director, tournament=tournament, seed=5)
    return tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_phone_calls_the_referee_and_the_director_posts_a_message_to_the_projector(browser, live_server) -> None:
    director = UserFactory(username="directrice")
    tournament = _drawn_round(director)
    table = tournament.rounds.get(number=1).tables.get(number=1)

    desk = director_desk(browser, live_server, tournament, viewport=LAPTOP)
    calls = desk.locator("#referee-calls")
    assert "Aucune table n’appelle." in calls.inner_text()

    # The sound's toggle is kept across reloads (and is the gesture that lets it play).
    sound = desk.locator("#calls-sound")
    assert sound.get_attribute("aria-pressed") == "true"
    sound.click()
    assert sound.get_attribute("aria-pressed") == "false" and sound.inner_text() == "Son coupé : activer"
    desk.reload()
    assert desk.locator("#calls-sound").get_attribute("aria-pressed") == "false"
    desk.locator("#calls-sound").click()
    assert desk.locator("#calls-sound").get_attribute("aria-pressed") == "true"

    phone_context = browser.new_context(viewport=PHONE, locale="fr-FR", device_scale_factor=2, has_touch=True)
    phone = phone_context.new_page()
    phone.set_default_timeout(10_000)
    phone.goto(f"{live_server.url}/r/{table.token}/")
    phone.locator("#referee-call").get_by_text("Litige", exact=True).click()
    phone.get_by_role("button", name="Appeler l’arbitre").click()
    phone.get_by_text("L’arbitre est appelé.").wait_for()
    assert "Litige · Appelé à" in phone.locator("#referee-call").inner_text()
    screenshot(phone, "referee-call-phone")
    assert RefereeCall.objects.get(table=table).reason == "dispute"

    # The dashboard was not reloaded: its poll brings the call.
    call = calls.locator(".call")
    call.wait_for(timeout=POLLS)
    assert "Table 1 · Litige" in call.inner_text() and "à l’instant" in call.inner_text()
    screenshot(desk, "referee-call-dashboard")
    call.get_by_role("button", name="Traité").click()
    desk.get_by_text("Aucune table n’appelle.").wait_for()
    assert RefereeCall.objects.get(table=table).handled_at is not None

    # The projector is open in the room before the message is written.
    room_context = browser.new_context(viewport=PROJECTOR, locale="fr-FR")
    room = room_context.new_page()
    room.set_default_timeout(10_000)
    room.goto(f"{live_server.url}/t/{tournament.slug}/projector/")
    assert room.locator(".screen-message").count() == 0

    desk.get_by_label("Message sur les écrans").fill("Ronde 2 dans 5 minutes")
    desk.get_by_label("Pendant (minutes)").fill("10")
    desk.get_by_role("button", name="Afficher sur les écrans").click()
    desk.get_by_text("Le message est sur les écrans.").wait_for()
    assert ScreenMessage.objects.get(tournament=tournament).expires_at is not None
    screenshot(desk, "screen-message-dashboard")

    shown = room.locator(".screen-message")
    shown.wait_for(timeout=POLLS)
    assert shown.inner_text() == "Ronde 2 dans 5 minutes"
    box = shown.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PROJECTOR["height"]
    screenshot(room, "screen-message-projector")

    # Withdrawn on the dashboard, it leaves the projector on its next poll.
    desk.locator("#screen-panel").get_by_role("button", name="Retirer").click()
    desk.get_by_text("Aucun message sur les écrans.").wait_for()
    room.locator(".screen-message").wait_for(state="detached", timeout=POLLS)
    for context in (desk.context, phone_context, room_context):
        context.close()
