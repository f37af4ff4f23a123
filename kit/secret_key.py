"""The site's SECRET_KEY when the environment gives none: generated once, kept in the project.

Sessions, the password reset links and every signed value hang on SECRET_KEY: a new key
logs everyone out. So `./run` (DEBUG on) and venue mode (serving.venue, DEBUG off) share
one key, generated on the first start of either and kept in `.secret-key` in the project
folder (git-ignored, mode 600, never readable by others): moving a night from `./run` to
venue mode, or restarting either, keeps everyone logged in. `SECRET_KEY_FILE` names
another file; `SECRET_KEY` in the environment wins over any file. Production never reads
the file: with DEBUG off the settings refuse to start without a real SECRET_KEY, and venue
mode hands its key over itself.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from collections.abc import Callable
from pathlib import Path

FILE_NAME = ".secret-key"
# Where venue mode kept its own key before it shared ./run's: adopted on the first start,
# so that a laptop upgraded between two nights keeps its logins.
OLD_VENUE_FILE = ".venue-secret"
# Shorter than Django's advice, or repeating too few characters: not one of ours.
MIN_LENGTH = 50
MIN_CHARACTERS = 5


def secret_file(base_dir: Path) -> Path:
    """Where the key is kept: SECRET_KEY_FILE, else `.secret-key` in `base_dir`."""
    named = os.environ.get("SECRET_KEY_FILE", "").strip()
    return Path(named) if named else base_dir / FILE_NAME


def project_secret(base_dir: Path) -> str:
    """The key of `./run` and venue mode in the project folder `base_dir`."""
    return load_or_create(secret_file(base_dir), adopt=base_dir / OLD_VENUE_FILE)


def load_or_create(path: Path, *, adopt: Path | None = None, make: Callable[[], str] | None = None) -> str:
    """The key kept at `path`; on the first start, `adopt`'s if it holds one, else a new one
    (`make()`, a random SECRET_KEY by default; « Ma soirée »'s VAPID key: push/keys.py).

    A file that holds no key of ours (empty, too short) is replaced. Several processes
    starting at once (a parallel test run, the development server's reloader) all end up
    with the one key that reached the file first.
    """
    kept = _read(path)
    if kept is not None:
        return kept
    secret = (_read(adopt) if adopt is not None else None) or (
        make() if make is not None else secrets.token_urlsafe(64)
    )
    _write(path, secret)
    return _read(path) or secret


def _read(path: Path) -> str | None:
    try:
        secret = path.read_text().strip()
    except FileNotFoundError:
        return None
    return secret if len(secret) >= MIN_LENGTH and len(set(secret)) >= MIN_CHARACTERS else None


def _write(path: Path, secret: str) -> None:
    """Write `secret` at `path`, mode 600 from the start, unless another process wrote a key first."""
    # mkstemp creates the file readable by its owner alone, in the same folder: linking it
    # to its name is atomic, and never replaces a key another process put there meanwhile.
    descriptor, name = tempfile.mkstemp(dir=path.parent, prefix=f"{path.name}.")
    temporary = Path(name)
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secret + "\n")
        try:
            os.link(temporary, path)
        except FileExistsError:
            if _read(path) is None:
                os.replace(temporary, path)
        except OSError:
            # A file system without hard links: a rename is atomic too.
            os.replace(temporary, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
