"""`manage.py relay_push [--loop]`: the relay's sender from the command line (relay/sending.py).

Once, or for ever with `--loop`: a pass every RELAY_EVERY seconds, waiting longer (up to
twelve times as long) while the hosted site is out of reach. Venue mode runs it beside gunicorn
when RELAY_URL is set (docs/relay.md)."""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from relay.sending import relay_pass

log = logging.getLogger("atout.relay")


class Command(BaseCommand):
    help = "Send the relay's outbox to the club's hosted site (RELAY_URL, RELAY_TOKEN)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", action="store_true", help="a pass every RELAY_EVERY seconds, for ever")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.RELAY_URL or not settings.RELAY_TOKEN:
            self.stderr.write("RELAY_URL and RELAY_TOKEN must both be set.")
            return
        wait = settings.RELAY_EVERY
        while True:
            close_old_connections()
            try:
                report = relay_pass()
            except Exception:
                # Looping beside the venue's web server: a pass that failed (the database
                # restarting, a bug) must not stop the relay, nor with it the venue.
                if not options["loop"]:
                    raise
                log.exception("relay: the pass failed; trying again in %ss", settings.RELAY_EVERY * 12)
                time.sleep(settings.RELAY_EVERY * 12)
                continue
            self.stdout.write(
                f"relay: {report.sent} sent, {report.set_aside} set aside"
                + (", the hosted site is out of reach" if report.unreachable else "")
            )
            self.stdout.flush()
            if not options["loop"]:
                return
            wait = min(settings.RELAY_EVERY * 12, wait * 2) if report.unreachable else settings.RELAY_EVERY
            time.sleep(wait)
