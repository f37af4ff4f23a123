"""The site's VAPID key pair: generated once and kept (mode 600), or given whole."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

from push.keys import private_raw, public_of, signer_from_text, vapid_keys
from serving import venue
from tests.conftest import ROOT


def test_the_key_is_generated_once_and_kept_readable_by_its_owner_alone(settings: Any, tmp_path: Path) -> None:
    path = tmp_path / "kept-key"
    settings.PUSH_VAPID_KEY_FILE = str(path)
    first = vapid_keys()
    assert first is not None
    assert path.read_text().startswith("-----BEGIN PRIVATE KEY-----")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # Another process (a new start, the worker) reads the same pair.
    probe = "import django; django.setup(); from push.keys import vapid_keys; print(vapid_keys().public)"
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "ATOUT_VAPID_KEY_FILE": str(path), "DJANGO_SETTINGS_MODULE": "atout.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == first.public
    # 65 bytes: an uncompressed P-256 point, as applicationServerKey wants it.
    assert len(first.public) == 87 and first.public.startswith("B")


def test_a_key_given_whole_wins_and_none_means_push_is_off(settings: Any, tmp_path: Path) -> None:
    signer = signer_from_text(_pem())
    settings.PUSH_VAPID_PRIVATE_KEY = private_raw(signer)
    settings.PUSH_VAPID_KEY_FILE = str(tmp_path / "unused")
    keys = vapid_keys()
    assert keys is not None and keys.public == public_of(signer)
    assert not (tmp_path / "unused").exists()
    settings.PUSH_VAPID_PRIVATE_KEY = ""
    settings.PUSH_VAPID_KEY_FILE = ""
    assert vapid_keys() is None


def _pem() -> str:
    from push.keys import new_private_pem

    return new_private_pem()


def test_venue_mode_keeps_the_key_run_keeps() -> None:
    services = venue.Services("sqlite:///db.sqlite3")
    found = venue.venue_environment(host="192.168.1.23", port=8000, secret="s" * 60, services=services)
    assert found["ATOUT_VAPID_KEY_FILE"] == str(ROOT / ".vapid-key")
