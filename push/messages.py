"""What each notification says, in the language the player subscribed in.

A message is a small JSON object the service worker (templates/push/sw.js) shows as it
is: `title` (the tournament's name), `body`, `url` (the « Ma soirée » page it opens on a
click) and `tag` (a newer message of the same kind replaces the older one on the phone).
The texts are the page's own (« Ronde 3 : table 12, contre … », « Classement final : 3 »),
read from what is stored when the message is sent: never what was true when it was asked.
"""

from __future__ import annotations

import datetime
import math
from typing import TypedDict

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from push.models import Subscription
from scoring.selectors import soiree as soiree_selectors
from scoring.selectors import standings as standings_selectors
from tournaments import treasury
from tournaments.models import Round, Tournament
from tournaments.palmares import euros, lots_text


class Message(TypedDict):
    title: str
    body: str
    url: str
    tag: str


def _message(subscription: Subscription, tournament: Tournament, body: str, tag: str) -> Message:
    return {"title": tournament.name, "body": body, "url": subscription.page, "tag": tag}


def round_drawn(subscription: Subscription, rnd: Round) -> Message | None:
    """« Ronde 3 : table 12, contre A, B » (or exempt); None when the competitor is not in the round."""
    with translation.override(subscription.language):
        seat = soiree_selectors.seating(subscription.competitor, rnd)
        if seat is None:
            return None
        if seat.exempt:
            body = _("Round %(number)s: exempt, you do not play it.") % {"number": rnd.number}
        else:
            body = _("Round %(number)s: table %(table)s") % {"number": rnd.number, "table": seat.table}
            if seat.opponents:
                body += ", " + _("against") + " " + ", ".join(opponent.name for opponent in seat.opponents)
        return _message(subscription, rnd.tournament, body, f"round-{rnd.pk}")


def clock_warning(subscription: Subscription, rnd: Round, now: datetime.datetime) -> Message | None:
    """« Ronde 3 : plus que 5 minutes » with the minutes the clock really has left at `now`."""
    ends_at = rnd.clock_ends_at
    if ends_at is None or ends_at <= now:
        return None
    minutes = max(1, math.ceil((ends_at - now).total_seconds() / 60))
    with translation.override(subscription.language):
        body = ngettext(
            "Round %(number)s: %(minutes)s minute left.",
            "Round %(number)s: %(minutes)s minutes left.",
            minutes,
        ) % {"number": rnd.number, "minutes": minutes}
        return _message(subscription, rnd.tournament, body, f"clock-{rnd.pk}")


def final_ranking(subscription: Subscription, tournament: Tournament) -> Message:
    """« Classement final : 3 » with the lot won, once the tournament is finished."""
    competitor = subscription.competitor
    with translation.override(subscription.language):
        snapshot = standings_selectors.live_snapshot(tournament)
        row = standings_selectors.row_of(snapshot, competitor.number)
        if row is None:
            body = _("The tournament is over.")
        else:
            body = _("Final ranking: %(rank)s") % {"rank": row.get("rank")}
            rank = row.get("rank")
            # A tie shares the prizes of the places it holds (tournaments/palmares.py).
            tied = sum(1 for other in (snapshot.rows if snapshot is not None else []) if other.get("rank") == rank)
            award = treasury.palmares_shown(tournament).award(rank, tied)
            if award is not None and award.money is not None:
                body += " · " + _("Prize money:") + " " + euros(award.money)
            if award is not None and award.lots:
                body += " · " + _("Lot:") + " " + lots_text(award)
        return _message(subscription, tournament, body, f"final-{tournament.pk}")
