"""The site's VAPID key pair: how the push services know the messages come from this site.

A browser subscribes with the site's public key (`applicationServerKey`), and the push
service then takes messages for that subscription only when they are signed with the
matching private key. So the pair is generated once and kept: a new pair would silence
every subscription made with the old one.

Where it comes from, first found wins:
- `ATOUT_VAPID_PRIVATE_KEY` (settings.PUSH_VAPID_PRIVATE_KEY): the private key itself,
  base64url (the raw 32 bytes, or DER) or PEM; what production gives its web and worker
  processes alike (`manage.py push_vapid_key` prints a new one);
- `ATOUT_VAPID_KEY_FILE` (settings.PUSH_VAPID_KEY_FILE): a PEM file, generated on the first
  use when missing, mode 600 (kit.secret_key's careful write). With DEBUG on it defaults to
  `.vapid-key` in the project folder, which venue mode names too (serving/venue.py): the
  subscriptions made under `./run` survive a move to venue mode.
Neither: push is off, and « Ma soirée » says notifications are unavailable.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid, b64urlencode

from kit.secret_key import load_or_create


@dataclass(frozen=True)
class VapidKeys:
    """The pair: `signer` signs the messages, `public` (base64url, the uncompressed point)
    is what the page hands PushManager.subscribe."""

    signer: Vapid
    public: str


def new_private_pem() -> str:
    """A new private key, PEM."""
    vapid = Vapid()
    vapid.generate_keys()
    return str(vapid.private_pem().decode("ascii"))


def signer_from_text(text: str) -> Vapid:
    """The key pair of a private key given as PEM or base64url (raw 32 bytes or DER)."""
    text = text.strip()
    if text.startswith("-----BEGIN"):
        return Vapid.from_pem(text.encode("ascii"))
    return Vapid.from_string(text)


def public_of(signer: Vapid) -> str:
    """The public key as `applicationServerKey` takes it: base64url of the uncompressed point."""
    point = signer.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return str(b64urlencode(point))


def private_raw(signer: Vapid) -> str:
    """The private key as ATOUT_VAPID_PRIVATE_KEY takes it: base64url of its 32 bytes."""
    return str(b64urlencode(signer.private_key.private_numbers().private_value.to_bytes(32, "big")))


@cache
def _load(given: str, file: str) -> VapidKeys | None:
    if given:
        signer = signer_from_text(given)
    elif file:
        signer = signer_from_text(load_or_create(Path(file), make=new_private_pem))
    else:
        return None
    return VapidKeys(signer=signer, public=public_of(signer))


def vapid_keys() -> VapidKeys | None:
    """The site's pair, or None when none is configured (push is then off)."""
    given = str(getattr(settings, "PUSH_VAPID_PRIVATE_KEY", "") or "")
    file = str(getattr(settings, "PUSH_VAPID_KEY_FILE", "") or "")
    return _load(given, file)
