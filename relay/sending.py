"""The sender: the venue's outbox posted to the hosted site, in order, each item once.

`relay_pass` queues what changed (relay/outbox.py), then posts each tournament's unsent
items in the order they were queued, one call each, every call with RELAY_TIMEOUT. An
item is marked sent when the hosted site took it (or already had it: it says so); the
first one that cannot go stops that tournament's pass, so the next pass starts there
again (the cursor is the first unsent item). A network down, a hosted site away or
answering 5xx, a token refused (401, 403): the item stays and is sent again later. An
item the hosted site refuses as such (400, 404, 409, 413) would be refused again: it is
set aside with the answer, and the items after it go on.
"""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from archive.models import ArchiveIdentity
from relay import outbox
from relay.models import Outgoing, RelayCursor
from results.building import tournament_section
from tournaments.models import Tournament

log = logging.getLogger(__name__)

FORMAT = "atout-relay"
VERSION = 1
API_PATH = "/api/v1/relay/"
# Items a pass posts at most per tournament (the next pass goes on).
BATCH = 200
REFUSED = {400, 404, 409, 413, 422}


class RelayUnreachable(Exception):
    """The hosted site cannot take items now: the pass stops, the items stay queued."""


@dataclass
class PassReport:
    sent: int = 0
    set_aside: int = 0
    unreachable: bool = False


def envelope(item: Outgoing, tournament: Tournament, identity: str) -> dict[str, Any]:
    """What is posted: the item and the tournament it belongs to (enough to make it there)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": tournament.club.slug,
        "tournament": {"id": identity, "status": tournament.status, **tournament_section(tournament)},
        "kind": item.kind,
        "key": item.key,
        "digest": item.digest,
        "data": json.loads(item.body),
    }


def post(body: bytes) -> tuple[int, str]:
    """POST `body` to the hosted site: its status and answer; `RelayUnreachable` without one."""
    request = urllib.request.Request(
        settings.RELAY_URL + API_PATH,
        data=body,
        method="POST",
        headers={
            "Authorization": f"Token {settings.RELAY_TOKEN}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=settings.RELAY_TIMEOUT) as response:
            return int(response.status), response.read(4096).decode(errors="replace")
    except urllib.error.HTTPError as error:
        answer = error.read(4096).decode(errors="replace")
        if error.code in REFUSED:
            return int(error.code), answer
        raise RelayUnreachable(f"HTTP {error.code}: {answer[:200]}") from None
    except (OSError, ValueError) as error:  # URLError, timeouts, refused connections, a bad URL
        raise RelayUnreachable(str(error)[:200]) from None


def _note(tournament_id: int, **fields: Any) -> None:
    RelayCursor.objects.filter(tournament_id=tournament_id).update(last_attempt_at=timezone.now(), **fields)


def tournament_send(tournament_id: int, report: PassReport) -> None:
    """Post the tournament's unsent items in order until one cannot go."""
    tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
    identity = str(ArchiveIdentity.objects.get_or_create(tournament=tournament)[0].archive_id)
    pending = Outgoing.objects.filter(tournament=tournament, sent_at__isnull=True).order_by("pk")[:BATCH]
    for item in pending:
        body = json.dumps(envelope(item, tournament, identity), ensure_ascii=False).encode()
        try:
            status, answer = post(body)
        except RelayUnreachable as error:
            _note(tournament_id, last_error=str(error)[:300])
            report.unreachable = True
            raise
        with transaction.atomic():
            Outgoing.objects.filter(pk=item.pk).update(sent_at=timezone.now())
            if status >= 400:
                report.set_aside += 1
                log.warning("relay: %s %s of %s refused (%s): %s", item.kind, item.key, tournament_id, status, answer)
                _note(tournament_id, last_error=f"{item.kind} {item.key}: HTTP {status} {answer}"[:300])
            else:
                report.sent += 1
                _note(tournament_id, last_sent_at=timezone.now(), last_error="")


def relay_pass() -> PassReport:
    """One pass of the sender over every relayed tournament (module docstring)."""
    report = PassReport()
    if not outbox.relay_on():
        return report
    for tournament_id in outbox.open_tournaments():
        outbox.changes_queue(tournament_id=tournament_id)
    waiting = (
        Outgoing.objects.filter(sent_at__isnull=True).values_list("tournament_id", flat=True).distinct().order_by()
    )
    for tournament_id in sorted(set(waiting)):
        try:
            tournament_send(tournament_id, report)
        except RelayUnreachable as error:
            log.info("relay: the hosted site is out of reach (%s); trying again later", error)
            break
    return report
