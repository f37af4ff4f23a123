"""Writes of push/: subscribing, unsubscribing, and telling one subscription one thing.

Each `*_deliver` is what one task does for one subscription: it locks the subscription's
row (two tasks for the same thing queue there), skips what this subscription was already
told (`Notice`, by key), writes the message from what is stored now, sends it
(push/sender.py, a few seconds at most) and records it. So a task run twice, killed
half-way or sent twice for one state tells the browser once; a subscription the push
service says is gone (404, 410) is deleted. These run in a Celery worker, never on a
request's path (push/enqueue.py).
"""

from __future__ import annotations

import datetime
import logging

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from push import messages, sender
from push.messages import Message
from push.models import Notice, Subscription
from push.parsing import Subscribed, endpoint_host
from push.sender import Outcome
from tournaments.models import Competitor, Round, Seat, Tournament

log = logging.getLogger(__name__)

# A browser asks again at each visit; more than this many for one competitor is not a phone's doing.
MAX_PER_COMPETITOR = 20
# The warning before the round's time is up.
CLOCK_WARNING = datetime.timedelta(minutes=5)
# How long each message waits at the push service for a phone that is off (seconds).
TTL_DRAWN = 45 * 60
TTL_CLOCK = 5 * 60
TTL_FINAL = 12 * 3600
# A finished tournament's subscriptions left behind by a lost message: gone after this.
FINISHED_GRACE = datetime.timedelta(hours=1)


class TooManySubscriptions(Exception):
    """The competitor has MAX_PER_COMPETITOR subscriptions already."""


def page_of(competitor: Competitor, *, by_link: bool) -> str:
    """The « Ma soirée » page a message opens: the personal link's, or the public one."""
    if by_link:
        return reverse("soiree:page", args=[competitor.link_token])
    return reverse("public:soiree", kwargs={"slug": competitor.tournament.slug, "number": competitor.number})


@transaction.atomic
def subscription_save(*, competitor: Competitor, subscribed: Subscribed, language: str, by_link: bool) -> Subscription:
    """Keep (or renew) the browser's subscription for `competitor`: one per endpoint."""
    fields = {
        "p256dh": subscribed.p256dh,
        "auth": subscribed.auth,
        "language": language if language in {"fr", "en"} else "fr",
        "page": page_of(competitor, by_link=by_link),
        "by_link": by_link,
    }
    locked = Competitor.objects.select_for_update().get(pk=competitor.pk)
    kept = Subscription.objects.filter(competitor=locked, endpoint=subscribed.endpoint).first()
    if kept is None:
        if Subscription.objects.filter(competitor=locked).count() >= MAX_PER_COMPETITOR:
            raise TooManySubscriptions
        kept = Subscription.objects.create(competitor=locked, endpoint=subscribed.endpoint, **fields)
        log.info("push: competitor %s subscribed at %s", locked.pk, endpoint_host(subscribed.endpoint))
    else:
        for name, value in fields.items():
            setattr(kept, name, value)
        kept.save(update_fields=list(fields))
    return kept


@transaction.atomic
def subscription_drop(*, competitor: Competitor, endpoint: str) -> bool:
    """Forget the browser's subscription for `competitor`; whether there was one."""
    _total, kinds = Subscription.objects.filter(competitor=competitor, endpoint=endpoint).delete()
    deleted = kinds.get(Subscription._meta.label, 0)
    if deleted:
        log.info("push: competitor %s unsubscribed at %s", competitor.pk, endpoint_host(endpoint))
    return bool(deleted)


def subscription_ids(tournament_id: int) -> list[int]:
    """The subscriptions of a tournament's competitors."""
    return list(Subscription.objects.filter(competitor__tournament_id=tournament_id).values_list("pk", flat=True))


def _link_still_valid(subscription: Subscription) -> bool:
    """A subscription made by the personal link lives while that link does (not withdrawn nor renewed)."""
    competitor = subscription.competitor
    if not subscription.by_link:
        return True
    return not competitor.link_revoked and subscription.page == page_of(competitor, by_link=True)


def _deliver(subscription: Subscription, key: str, message: Message | None, *, ttl: int, urgency: str) -> Outcome:
    if message is None:
        return Outcome.REFUSED
    outcome = sender.send(subscription, message, ttl=ttl, urgency=urgency)
    if outcome is Outcome.SENT:
        Notice.objects.create(subscription=subscription, key=key)
    elif outcome is Outcome.GONE:
        subscription.delete()
    return outcome


def _locked(subscription_id: int, key: str) -> Subscription | None:
    """The subscription, locked, if it is to be told `key` (not told yet, its link alive)."""
    subscription = (
        Subscription.objects.select_for_update(of=("self",))
        .select_related("competitor__tournament")
        .filter(pk=subscription_id)
        .first()
    )
    if subscription is None or Notice.objects.filter(subscription=subscription, key=key).exists():
        return None
    if not _link_still_valid(subscription):
        log.info("push: subscription %s made by a withdrawn personal link: dropped", subscription.pk)
        subscription.delete()
        return None
    return subscription


def drawn_key(rnd: Round) -> str:
    """One draw of a round (a draw made again is another)."""
    return f"drawn:{rnd.pk}:{int(rnd.drawn_at.timestamp() * 1000)}"


@transaction.atomic
def round_drawn_deliver(*, subscription_id: int, round_id: int) -> Outcome | None:
    """Tell the subscription's player where they sit in the round drawn; None when there was nothing to do."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None or rnd.status != Round.Status.OPEN:
        return None
    key = drawn_key(rnd)
    subscription = _locked(subscription_id, key)
    if subscription is None:
        return None
    return _deliver(subscription, key, messages.round_drawn(subscription, rnd), ttl=TTL_DRAWN, urgency="high")


def clock_key(round_id: int, ends_at: datetime.datetime) -> str:
    """One state of a round's clock: when it says the time is up."""
    return f"clock:{round_id}:{int(ends_at.timestamp() * 1000)}"


def clock_warning_due(rnd: Round | None, ends_at: datetime.datetime, now: datetime.datetime) -> bool:
    """Whether the warning for the clock state `ends_at` is right to send at `now`: the round
    still open, its clock still saying `ends_at` (not stopped, restarted, given more or less
    time since), and CLOCK_WARNING or less left but not none."""
    return (
        rnd is not None
        and rnd.status == Round.Status.OPEN
        and rnd.clock_ends_at == ends_at
        and ends_at - CLOCK_WARNING <= now < ends_at
    )


@transaction.atomic
def clock_warning_deliver(
    *, subscription_id: int, round_id: int, ends_at: datetime.datetime, now: datetime.datetime | None = None
) -> Outcome | None:
    """Tell the subscription's player how many minutes are left, if the clock still says so."""
    now = now or timezone.now()
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None or not clock_warning_due(rnd, ends_at, now):
        return None
    key = clock_key(round_id, ends_at)
    subscription = _locked(subscription_id, key)
    if subscription is None or not Seat.objects.filter(round=rnd, competitor_id=subscription.competitor_id).exists():
        # Not playing this round (a bye, a late arrival): no clock to watch.
        return None
    return _deliver(subscription, key, messages.clock_warning(subscription, rnd, now), ttl=TTL_CLOCK, urgency="high")


@transaction.atomic
def final_deliver(*, subscription_id: int, tournament_id: int, last_try: bool = True) -> Outcome | None:
    """Tell the subscription's player their final rank, then delete the subscription (the
    tournament is over: nothing more to tell). A passing failure keeps it for another try,
    unless this is the last one."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.status != Tournament.Status.FINISHED:
        return None
    key = f"final:{tournament_id}"
    subscription = _locked(subscription_id, key)
    if subscription is None:
        Subscription.objects.filter(pk=subscription_id).delete()
        return None
    outcome = _deliver(
        subscription, key, messages.final_ranking(subscription, tournament), ttl=TTL_FINAL, urgency="normal"
    )
    if outcome is not Outcome.FAILED or last_try:
        Subscription.objects.filter(pk=subscription_id).delete()
    return outcome


def finished_subscriptions_drop(now: datetime.datetime | None = None) -> int:
    """Delete the subscriptions of tournaments finished more than FINISHED_GRACE ago (their
    final message lost with a broker restarted empty); how many. The workers' sweep asks."""
    now = now or timezone.now()
    _total, kinds = Subscription.objects.filter(
        competitor__tournament__status=Tournament.Status.FINISHED,
        competitor__tournament__updated_at__lt=now - FINISHED_GRACE,
    ).delete()
    return int(kinds.get(Subscription._meta.label, 0))
