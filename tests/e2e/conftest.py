"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live_server.

Never a downloaded browser: the executable is /usr/bin/chromium, installed by ./test.
Screenshots go to test-results/screenshots/. Every browser context a test opens is watched
for what the Content-Security-Policy refuses (`csp_watch`): one refusal, and the test fails.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, ROOT  # noqa: F401 (the browser tests import them from here)
from tests.nginx import live_root, nginx, site_requests  # noqa: F401 (fixtures: the tests through nginx)
from tests.push.conftest import push_service, use_local_push  # noqa: F401 (push_service: a fixture for the tests here)

SCREENSHOTS = ROOT / "test-results" / "screenshots"
PHONE = {"width": 390, "height": 844}

# Added to every page of a watched context before its own scripts: each violation the page
# sees goes to the test at once (a binding outlives navigations; a list in the page would not).
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  const element = event.target && event.target.outerHTML ? event.target.outerHTML.slice(0, 160) : "";
  window.atoutCspViolation(`${event.violatedDirective} at ${event.sourceFile}:${event.lineNumber} on ${element}`);
}, true);
"""


class CspWatch:
    """What the policy refused in a browser context, told by the console and by the pages'
    `securitypolicyviolation` events (`violations`), and the pages' script errors (`errors`)."""

    def __init__(self, context) -> None:
        self.context = context
        self.violations: list[str] = []
        self.errors: list[str] = []
        context.expose_binding("atoutCspViolation", lambda source, text: self.violations.append(f"event: {text}"))
        context.add_init_script(REPORT_VIOLATIONS)
        context.on("page", self.watch)
        for page in context.pages:
            self.watch(page)

    def close(self) -> None:
        """Close the context (and its pages), if the test has not."""
        from playwright.sync_api import Error as PlaywrightError

        with contextlib.suppress(PlaywrightError):  # the browser gone with it
            self.context.close()

    def watch(self, page) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def _console(self, message) -> None:
        text = message.text
        # "Refused to apply inline style ...", "Applying inline style violates the following
        # Content Security Policy directive ...", "Refused to execute inline script ...".
        if "Content Security Policy" in text or "Content-Security-Policy" in text or text.startswith("Refused to"):
            self.violations.append(f"console: {message.page.url if message.page else ''}: {text}")


def csp_watch(context) -> CspWatch:
    """The context's watch, started at its first call (the autouse fixture below makes it)."""
    watch = getattr(context, "_atout_csp_watch", None)
    if watch is None:
        watch = CspWatch(context)
        context._atout_csp_watch = watch
    return watch


@pytest.fixture(autouse=True)
def no_content_security_policy_violation(request: pytest.FixtureRequest) -> Iterator[None]:
    """Any browser test fails on a refusal of the policy in any context it opened."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    opened = browser.new_context
    watches: list[CspWatch] = []

    def new_context(*args: object, **kwargs: object) -> object:
        context = opened(*args, **kwargs)
        watches.append(csp_watch(context))
        return context

    browser.new_context = new_context
    try:
        yield
    finally:
        browser.new_context = opened
        # A context left open keeps its pages polling the session's live server, and a
        # later test counting the requests Django saw would count theirs.
        for watch in watches:
            watch.close()
    refused = [violation for watch in watches for violation in watch.violations]
    assert not refused, f"{len(refused)} refused by the Content-Security-Policy, first: {refused[:5]}"


@pytest.fixture
def phone_page(browser, live_server) -> Iterator[object]:
    """A fresh phone-sized page (a French phone: fr-FR) on the live server."""
    context = browser.new_context(viewport=PHONE, locale="fr-FR", device_scale_factor=2, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture(autouse=True)
def soiree_polls_as_the_ranking(settings) -> None:
    """« Ma soirée » polls every 3 s here, as the ranking does (10 s by default: a night's
    pace, settings.SOIREE_POLL_SECONDS), so the walks wait for it no longer than for the rest."""
    settings.SOIREE_POLL_SECONDS = 3


@pytest.fixture
def local_push(settings, tmp_path: Path) -> None:
    """Push notifications sent to a push service the test runs (tests/push/conftest.py)."""
    use_local_push(settings, tmp_path)


LAPTOP = {"width": 1366, "height": 900}


def director_desk(browser, live_server, tournament, username: str = "directrice", viewport: dict | None = None):
    """The director's dashboard of `tournament`, logged in on a French laptop (the
    factories' password); close it with `page.context.close()`."""
    desk = browser.new_context(viewport=viewport or LAPTOP, locale="fr-FR").new_page()
    desk.set_default_timeout(10_000)
    desk.goto(live_server.url + "/login/")
    desk.fill("input[name=username]", username)
    desk.fill("input[name=password]", "secret-pass-123")
    desk.locator("main button[type=submit]").click()
    desk.wait_for_load_state()
    desk.goto(f"{live_server.url}/manage/tournament/{tournament.pk}/")
    return desk


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
