"""The set-up the README's two commands share (scripts/setup.sh), run by bash for real.

`atout_setup` is called with the project's virtualenv already in place (its stamp
matches), so nothing is installed; the browser's installer is replaced by a function
that only says it was called, since apt cannot run inside the suite.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _setup_output(extras: str) -> str:
    script = f"""
        set -euo pipefail
        source scripts/setup.sh
        atout_chromium() {{ echo "BROWSER-INSTALLER-CALLED"; }}
        atout_setup {extras}
    """
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_test_set_up_installs_the_browser_the_tests_use() -> None:
    assert "BROWSER-INSTALLER-CALLED" in _setup_output("test")


def test_the_plain_set_up_of_run_installs_no_browser() -> None:
    assert "BROWSER-INSTALLER-CALLED" not in _setup_output("")
