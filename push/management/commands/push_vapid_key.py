"""`manage.py push_vapid_key`: print a new VAPID key pair for production (docs/push.md).

Set the private key as ATOUT_VAPID_PRIVATE_KEY for the web and worker processes alike,
once: a new key silences every subscription made with the old one. Nothing is stored.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from push.keys import new_private_pem, private_raw, public_of, signer_from_text


class Command(BaseCommand):
    help = "Print a new VAPID private key (ATOUT_VAPID_PRIVATE_KEY) and its public key."

    def handle(self, *args: Any, **options: Any) -> None:
        signer = signer_from_text(new_private_pem())
        self.stdout.write(f"ATOUT_VAPID_PRIVATE_KEY={private_raw(signer)}")
        self.stdout.write(f"# its public key, which the pages hand the browsers: {public_of(signer)}")
