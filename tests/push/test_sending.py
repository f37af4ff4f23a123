"""Sending « Ma soirée »'s notifications, to a push service the test runs on 127.0.0.1.

Each message is the real one: encrypted for the subscription's browser, which the test
plays (tests/push/conftest.py: its private key decrypts what the service received), and
signed with the site's VAPID key. The draw, the clock and the finish go through their
services, their signals and push/'s tasks (with no broker: a thread of their own, never
the request), and the clock's re-checks through the service the task calls.
"""

from __future__ import annotations

import datetime
import logging
import time
from typing import Any

import pytest
from django.utils import timezone

from push import services
from push.keys import vapid_keys
from push.models import Notice, Subscription
from push.parsing import Subscribed
from push.sender import Outcome
from push.tasks import clock_warning
from rounds.services import round_clock_adjust, round_clock_start, round_clock_stop, round_close, round_draw
from scoring.standings import standings_rebuild
from tests.factories import CompetitorFactory, TournamentFactory
from tests.push.conftest import Browser, LocalPushService, subscribe
from tests.scoring.tables import director_of, make_table
from tournaments.models import Competitor, Round, Tournament
from tournaments.services import prize_add, tournament_set_status


def wait_until(check: Any, timeout: float = 15) -> None:
    """Wait for `check()` to hold (a thread of the site's works meanwhile)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.05)


@pytest.mark.django_db(transaction=True)
def test_the_next_round_drawn_tells_each_subscriber_its_table_and_opponents(push_service: LocalPushService) -> None:
    table = make_table(tables=2)
    tournament = table.round.tournament
    director = director_of(tournament)
    first = tournament.competitors.get(number=1)
    second = tournament.competitors.get(number=2)
    french = subscribe(first, push_service, "first")
    english = subscribe(second, push_service, "second", language="en")
    round_close(by=director, round=table.round, force=True)

    drawn = round_draw(by=director, tournament=tournament, seed=5)

    received = {item.path: item for item in (push_service.next(), push_service.next())}
    expected = (
        (first, french, "first", ("Ronde 2 : table", "contre")),
        (second, english, "second", ("Round 2: table", "against")),
    )
    for competitor, browser, name, words in expected:
        request = received[f"/push/{name}"]
        seat = drawn.seats.select_related("table").get(competitor=competitor)
        opponents = [s.competitor.name for s in seat.table.seats.exclude(side=seat.side).select_related("competitor")]
        message = browser.read(request.body)
        assert message == {
            "title": tournament.name,
            "body": f"{words[0]} {seat.table.number}, {words[1]} {', '.join(opponents)}",
            "url": f"/t/{tournament.slug}/c/{competitor.number}/soiree/",
            "tag": f"round-{drawn.pk}",
        }
        # Encrypted for the browser, signed with the site's key, as the push services ask.
        assert request.headers["content-encoding"] == "aes128gcm"
        assert request.headers["authorization"].startswith("vapid t=")
        assert request.headers["authorization"].endswith(f"k={vapid_keys().public}")  # type: ignore[union-attr]
        assert request.headers["urgency"] == "high"
        assert int(request.headers["ttl"]) == services.TTL_DRAWN
    wait_until(lambda: Notice.objects.count() == 2)
    # Run again (a task delivered twice): nobody is told twice.
    for subscription in Subscription.objects.all():
        assert services.round_drawn_deliver(subscription_id=subscription.pk, round_id=drawn.pk) is None
    assert push_service.pending() == []


@pytest.mark.django_db
def test_a_round_drawn_again_tells_the_new_table_once(push_service: LocalPushService) -> None:
    table = make_table(tables=2)
    rnd = table.round
    browser = subscribe(tournament_competitor(rnd, 1), push_service, "one")
    subscription = Subscription.objects.get()
    assert services.round_drawn_deliver(subscription_id=subscription.pk, round_id=rnd.pk) is Outcome.SENT
    assert browser.read(push_service.next().body)["body"] == "Ronde 1 : table 1, contre C2"
    assert services.round_drawn_deliver(subscription_id=subscription.pk, round_id=rnd.pk) is None
    rnd.drawn_at = rnd.drawn_at + datetime.timedelta(minutes=1)
    rnd.save(update_fields=["drawn_at"])
    assert services.round_drawn_deliver(subscription_id=subscription.pk, round_id=rnd.pk) is Outcome.SENT
    assert browser.read(push_service.next().body)["body"] == "Ronde 1 : table 1, contre C2"


def tournament_competitor(rnd: Round, number: int) -> Competitor:
    return rnd.tournament.competitors.get(number=number)


@pytest.mark.django_db
def test_a_subscription_the_push_service_says_is_gone_is_dropped(push_service: LocalPushService) -> None:
    table = make_table(tables=2)
    subscribe(tournament_competitor(table.round, 1), push_service, "gone")
    subscribe(tournament_competitor(table.round, 3), push_service, "missing")
    push_service.statuses = {"/push/gone": 410, "/push/missing": 404}
    for subscription in Subscription.objects.all():
        assert services.round_drawn_deliver(subscription_id=subscription.pk, round_id=table.round_id) is Outcome.GONE
    assert not Subscription.objects.exists()
    assert {push_service.next().path, push_service.next().path} == {"/push/gone", "/push/missing"}


@pytest.mark.django_db
def test_a_push_service_that_does_not_answer_is_given_up_after_the_timeout(
    push_service: LocalPushService, settings: Any
) -> None:
    table = make_table(tables=2)
    subscribe(tournament_competitor(table.round, 1), push_service, "slow")
    settings.PUSH_TIMEOUT = 1
    push_service.stall["/push/slow"] = 4
    subscription = Subscription.objects.get()
    outcome = services.round_drawn_deliver(subscription_id=subscription.pk, round_id=table.round_id)
    assert outcome is Outcome.FAILED
    # Kept, and not marked told: the task tries again.
    assert Subscription.objects.filter(pk=subscription.pk).exists()
    assert not Notice.objects.exists()
    push_service.stall.clear()
    assert services.round_drawn_deliver(subscription_id=subscription.pk, round_id=table.round_id) is Outcome.SENT


@pytest.mark.django_db
def test_a_refusing_push_service_is_not_asked_again_and_no_key_sends_nothing(
    push_service: LocalPushService, settings: Any
) -> None:
    table = make_table(tables=2)
    subscribe(tournament_competitor(table.round, 1), push_service, "bad")
    subscription = Subscription.objects.get()
    push_service.statuses = {"/push/bad": 400}
    assert services.round_drawn_deliver(subscription_id=subscription.pk, round_id=table.round_id) is Outcome.REFUSED
    push_service.statuses = {"/push/bad": 503}
    assert services.round_drawn_deliver(subscription_id=subscription.pk, round_id=table.round_id) is Outcome.FAILED
    assert len(push_service.pending()) == 2
    settings.PUSH_VAPID_KEY_FILE = ""
    assert services.round_drawn_deliver(subscription_id=subscription.pk, round_id=table.round_id) is Outcome.REFUSED
    assert push_service.pending() == []
    assert Subscription.objects.exists()


@pytest.mark.django_db
def test_a_subscription_by_a_withdrawn_or_renewed_link_ends_with_it(push_service: LocalPushService) -> None:
    table = make_table(tables=2)
    competitor = tournament_competitor(table.round, 1)
    browser = Browser()
    data = browser.subscription(push_service.endpoint("link"))
    subscribed = Subscribed(endpoint=data["endpoint"], p256dh=data["keys"]["p256dh"], auth=data["keys"]["auth"])
    services.subscription_save(competitor=competitor, subscribed=subscribed, language="fr", by_link=True)
    subscription = Subscription.objects.get()
    assert services.round_drawn_deliver(subscription_id=subscription.pk, round_id=table.round_id) is Outcome.SENT
    assert browser.read(push_service.next().body)["url"] == f"/soiree/{competitor.link_token}/"
    competitor.link_token = "renewed-token-0123456789abcdef"
    competitor.save(update_fields=["link_token"])
    table.round.drawn_at = timezone.now()
    table.round.save(update_fields=["drawn_at"])
    assert services.round_drawn_deliver(subscription_id=subscription.pk, round_id=table.round_id) is None
    assert not Subscription.objects.exists()
    assert push_service.pending() == []


@pytest.mark.django_db
def test_the_log_names_the_push_service_host_never_the_endpoint_nor_the_link(
    push_service: LocalPushService, caplog: pytest.LogCaptureFixture
) -> None:
    table = make_table(tables=2)
    competitor = tournament_competitor(table.round, 1)
    caplog.set_level(logging.DEBUG)
    browser = Browser()
    data = browser.subscription(push_service.endpoint("secret-browser-address"))
    subscribed = Subscribed(endpoint=data["endpoint"], p256dh=data["keys"]["p256dh"], auth=data["keys"]["auth"])
    services.subscription_save(competitor=competitor, subscribed=subscribed, language="fr", by_link=True)
    subscription = Subscription.objects.get()
    services.round_drawn_deliver(subscription_id=subscription.pk, round_id=table.round_id)
    push_service.statuses = {"/push/secret-browser-address": 410}
    table.round.drawn_at = timezone.now()
    table.round.save(update_fields=["drawn_at"])
    services.round_drawn_deliver(subscription_id=subscription.pk, round_id=table.round_id)
    text = "\n".join(record.getMessage() for record in caplog.records if record.name.startswith(("push", "pywebpush")))
    assert "127.0.0.1" in text
    assert "secret-browser-address" not in text
    assert competitor.link_token not in text


# -- the round's clock -------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_clock_started_with_five_minutes_left_tells_at_once(push_service: LocalPushService) -> None:
    table = make_table(tables=2)
    director = director_of(table.round.tournament)
    browser = subscribe(tournament_competitor(table.round, 1), push_service, "clock", language="en")
    round_clock_start(by=director, round=table.round, minutes=5)
    request = push_service.next()
    message = browser.read(request.body)
    assert message["body"] == "Round 1: 5 minutes left."
    assert message["tag"] == f"clock-{table.round_id}"
    assert int(request.headers["ttl"]) == services.TTL_CLOCK


@pytest.mark.django_db
def test_the_clock_warning_checks_the_clock_again_when_it_runs(push_service: LocalPushService) -> None:
    table = make_table(tables=2)
    rnd = table.round
    director = director_of(rnd.tournament)
    browser = subscribe(tournament_competitor(rnd, 1), push_service, "clock")
    subscription = Subscription.objects.get()
    start = timezone.now()
    rnd = round_clock_start(by=director, round=rnd, minutes=30, now=start)
    ends_at = rnd.clock_ends_at
    assert ends_at is not None

    def deliver(at: datetime.datetime, state: datetime.datetime = ends_at) -> Outcome | None:
        return services.clock_warning_deliver(subscription_id=subscription.pk, round_id=rnd.pk, ends_at=state, now=at)

    # Too early: 6 minutes left.
    assert deliver(ends_at - datetime.timedelta(minutes=6)) is None
    # Its time: 4 min 30 s left says 5 minutes; once only for this clock state.
    assert deliver(ends_at - datetime.timedelta(minutes=4, seconds=30)) is Outcome.SENT
    assert browser.read(push_service.next().body)["body"] == "Ronde 1 : plus que 5 minutes."
    assert deliver(ends_at - datetime.timedelta(minutes=4)) is None

    # The director gives 10 more minutes: the old state's task finds its state gone...
    rnd = round_clock_adjust(by=director, round=rnd, minutes=10)
    later = rnd.clock_ends_at
    assert later is not None and later != ends_at
    assert deliver(ends_at - datetime.timedelta(minutes=3)) is None
    # ...and the new state tells again when its own 5 minutes come.
    assert deliver(later - datetime.timedelta(minutes=7), later) is None
    assert deliver(later - datetime.timedelta(minutes=2, seconds=10), later) is Outcome.SENT
    assert browser.read(push_service.next().body)["body"] == "Ronde 1 : plus que 3 minutes."
    # Over: nothing, even for a state never told.
    rnd = round_clock_adjust(by=director, round=rnd, minutes=-1)
    shorter = rnd.clock_ends_at
    assert shorter is not None
    assert deliver(shorter + datetime.timedelta(seconds=1), shorter) is None
    # Stopped: nothing.
    round_clock_stop(by=director, round=rnd)
    assert deliver(shorter - datetime.timedelta(minutes=1), shorter) is None
    # Restarted for 5 minutes: a new state.
    restart = timezone.now()
    rnd = round_clock_start(by=director, round=rnd, minutes=5, now=restart)
    assert rnd.clock_ends_at is not None
    assert deliver(restart + datetime.timedelta(seconds=1), rnd.clock_ends_at) is Outcome.SENT
    assert browser.read(push_service.next().body)["body"] == "Ronde 1 : plus que 5 minutes."
    # A closed round: nothing.
    round_close(by=director, round=rnd, force=True)
    assert deliver(restart + datetime.timedelta(seconds=2), rnd.clock_ends_at) is None
    assert push_service.pending() == []


@pytest.mark.django_db
def test_the_clock_task_of_a_stale_state_queues_nothing(push_service: LocalPushService) -> None:
    table = make_table(tables=2)
    rnd = table.round
    director = director_of(rnd.tournament)
    subscribe(tournament_competitor(rnd, 1), push_service, "clock")
    rnd = round_clock_start(by=director, round=rnd, minutes=3)
    old = rnd.clock_ends_at
    assert old is not None
    rnd = round_clock_adjust(by=director, round=rnd, minutes=2)
    assert rnd.clock_ends_at is not None
    arguments = {"round_id": rnd.pk, "tournament_id": rnd.tournament_id}
    clock_warning.apply(kwargs={**arguments, "ends_at": old.isoformat()})
    assert push_service.pending() == []
    assert not Notice.objects.exists()
    clock_warning.apply(kwargs={**arguments, "ends_at": rnd.clock_ends_at.isoformat()})
    assert push_service.next().path == "/push/clock"
    clock_warning.apply(kwargs={**arguments, "ends_at": rnd.clock_ends_at.isoformat()})
    assert push_service.pending() == []


# -- the end ------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_final_ranking_is_told_then_the_subscriptions_are_gone(push_service: LocalPushService) -> None:
    table = make_table(tables=2)
    tournament = table.round.tournament
    director = director_of(tournament)
    browser = subscribe(tournament_competitor(table.round, 1), push_service, "final")
    subscribe(tournament_competitor(table.round, 2), push_service, "other", language="en")
    round_close(by=director, round=table.round, force=True)
    standings_rebuild(tournament_id=tournament.pk)
    prize_add(by=director, tournament=tournament, rank_from=1, text="Un jambon")

    tournament_set_status(by=director, tournament=tournament, status=Tournament.Status.FINISHED)

    received = {item.path: item for item in (push_service.next(), push_service.next())}
    message = browser.read(received["/push/final"].body)
    assert message["tag"] == f"final-{tournament.pk}"
    assert message["body"].startswith("Classement final : ")
    wait_until(lambda: not Subscription.objects.exists())
    assert not Notice.objects.exists()


@pytest.mark.django_db
def test_the_final_message_names_the_rank_and_the_lot(push_service: LocalPushService) -> None:
    table = make_table(tables=2)
    tournament = table.round.tournament
    director = director_of(tournament)
    round_close(by=director, round=table.round, force=True)
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    winner = next(row for row in snapshot.rows if row["rank"] == 1)
    prize_add(by=director, tournament=tournament, rank_from=1, text="Un jambon")
    browser = subscribe(tournament.competitors.get(number=winner["number"]), push_service, "winner")
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    subscription = Subscription.objects.get()
    assert services.final_deliver(subscription_id=subscription.pk, tournament_id=tournament.pk) is Outcome.SENT
    # No donne was played: the four are tied 1st and share the lot of place 1 (tournaments/palmares.py).
    assert (
        browser.read(push_service.next().body)["body"]
        == "Classement final : 1 · Lot : Un jambon, à partager entre les 4 ex aequo"
    )
    assert not Subscription.objects.exists()


@pytest.mark.django_db
def test_a_failed_final_message_is_tried_again_then_the_subscription_goes(push_service: LocalPushService) -> None:
    table = make_table(tables=2)
    tournament = table.round.tournament
    subscribe(tournament_competitor(table.round, 1), push_service, "down")
    push_service.statuses = {"/push/down": 502}
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    subscription = Subscription.objects.get()
    outcome = services.final_deliver(subscription_id=subscription.pk, tournament_id=tournament.pk, last_try=False)
    assert outcome is Outcome.FAILED
    assert Subscription.objects.exists()
    outcome = services.final_deliver(subscription_id=subscription.pk, tournament_id=tournament.pk, last_try=True)
    assert outcome is Outcome.FAILED
    assert not Subscription.objects.exists()


@pytest.mark.django_db
def test_subscriptions_die_with_the_tournament_and_the_sweep_clears_finished_ones(
    push_service: LocalPushService,
) -> None:
    kept = make_table(tables=2)
    finished = make_table(tables=2)
    for table, name in ((kept, "kept"), (finished, "finished")):
        subscribe(tournament_competitor(table.round, 1), push_service, name)
    # A tournament deleted (one not drawn yet: a drawn one keeps its seats) takes its subscriptions.
    registering = CompetitorFactory(tournament=TournamentFactory())
    subscribe(registering, push_service, "deleted")
    registering.tournament.delete()
    assert Subscription.objects.count() == 2
    Tournament.objects.filter(pk=finished.round.tournament_id).update(status=Tournament.Status.FINISHED)
    assert services.finished_subscriptions_drop() == 0
    later = timezone.now() + services.FINISHED_GRACE + datetime.timedelta(minutes=1)
    assert services.finished_subscriptions_drop(now=later) == 1
    assert list(Subscription.objects.values_list("endpoint", flat=True)) == [push_service.endpoint("kept")]
