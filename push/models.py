"""« Ma soirée »'s notifications: the browsers that asked to be told, and what each was told.

A `Subscription` is one browser's push subscription (what `PushManager.subscribe` gives:
the push service's endpoint and the browser's two keys) for one competitor. It dies with
the competitor, so with the tournament (CASCADE), and is deleted once the tournament's
final message was sent (push/services.py). A `Notice` records that one subscription was
told one thing (its `key`: the round drawn, the clock state, the final ranking), so that
a task run twice, or two tasks for the same state, tell it once.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Competitor


class Subscription(models.Model):
    competitor = models.ForeignKey(Competitor, on_delete=models.CASCADE, related_name="push_subscriptions")
    # The push service's address for this browser: a secret-ish value, logged by its host only.
    endpoint = models.TextField(_("push endpoint"))
    # The browser's P-256 public key and its 16-byte secret, base64url as the browser gives them.
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=32)
    # The language of the page the player subscribed from: the messages are written in it.
    language = models.CharField(max_length=8, default="fr")
    # The page a click on a message opens: the personal link's (holding its secret) or the public one.
    page = models.CharField(max_length=300)
    # True when subscribed from the personal link: a withdrawn or renewed link ends it.
    by_link = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["competitor", "endpoint"], name="push_one_subscription_per_endpoint"),
        ]

    def __str__(self) -> str:
        return f"push subscription {self.pk} of competitor {self.competitor_id}"


class Notice(models.Model):
    """One thing one subscription was told (`key`), so that it is never told twice."""

    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE, related_name="notices")
    key = models.CharField(max_length=100)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["subscription", "key"], name="push_told_once")]

    def __str__(self) -> str:
        return f"{self.key} to subscription {self.subscription_id}"
