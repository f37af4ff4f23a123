"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live_server.

Never a downloaded browser: the executable is /usr/bin/chromium, installed by ./test.
Screenshots go to test-results/screenshots/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, ROOT  # noqa: F401 (the browser tests import them from here)

SCREENSHOTS = ROOT / "test-results" / "screenshots"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone_page(browser, live_server) -> Iterator[object]:
    """A fresh phone-sized page (a French phone: fr-FR) on the live server."""
    context = browser.new_context(viewport=PHONE, locale="fr-FR", device_scale_factor=2, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def register_and_check_in_eight_teams(page, first_family: str = "Arnaud", second_family: str = "Blanc") -> None:
    """From the dashboard: register eight teams of two, then check each one in (htmx)."""
    page.get_by_role("link", name="Inscrire", exact=True).click()
    for n in range(1, 9):
        page.fill("input[name=last_name_1]", f"{first_family}{n}")
        page.fill("input[name=first_name_1]", "Paul")
        page.fill("input[name=last_name_2]", f"{second_family}{n}")
        page.fill("input[name=first_name_2]", "Lucie")
        last = n == 8
        page.get_by_role("button", name="Inscrire" if last else "Inscrire et en ajouter un autre", exact=True).click()
        page.wait_for_load_state()
    competitors = page.locator("#competitors")
    for n in range(8):
        competitors.get_by_role("button", name="Pointer", exact=True).first.click()
        page.wait_for_function(
            # A function, not an expression: Playwright evaluates an expression with eval,
            # which the site's Content-Security-Policy refuses.
            f"() => document.querySelectorAll('#competitors button[aria-pressed=true]').length === {n + 1}"
        )
