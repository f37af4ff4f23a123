"""The referee who enters a donne with the keyboard (or a screen reader) lands on the answer:
the focus goes to the confirmation just shown, not back to the top of the page, and the
focus ring stands out at least 3:1 from what surrounds it."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import screenshot
from tests.e2e.test_referee import STORED_TIMEOUT, tap
from tests.scoring.tables import make_table


def luminance(css_color: str) -> float:
    """The relative luminance (WCAG) of a computed CSS colour, rgb() or rgba() (opaque)."""
    red, green, blue = (int(part) for part in re.findall(r"\d+(?:\.\d+)?", css_color)[:3])

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


# The focused element's ring, and the colours on either side of it: the element's own
# background and the first opaque background behind it (the ring sits 2 px outside).
FOCUS = """() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const opaque = (node) => {
    for (; node; node = node.parentElement) {
      const bg = getComputedStyle(node).backgroundColor;
      if (bg && bg !== "transparent" && !bg.endsWith(", 0)")) { return bg; }
    }
    return "rgb(255, 255, 255)";
  };
  return {
    inNotice: !!el.closest("#entry .notice"),
    text: el.innerText,
    visible: el.matches(":focus-visible"),
    outlineStyle: style.outlineStyle,
    outlineWidth: parseFloat(style.outlineWidth),
    outlineColor: style.outlineColor,
    inside: opaque(el),
    outside: opaque(el.parentElement),
    scrollY: window.scrollY,
  };
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_donne_sent_with_the_keyboard_leaves_the_focus_on_its_confirmation(phone_page, live_server) -> None:
    table = make_table(end_value=3)
    page = phone_page
    page.goto(f"{live_server.url}/r/{table.token}/")
    tap(page, "taker", "C1")
    tap(page, "contract", "cœur")
    page.locator("#id_points_taker").fill("102")
    page.locator("#hand-preview").get_by_text("Si vous envoyez : C1 102 · C2 60.").wait_for()
    # Sent with the keyboard: Tab from the last field to the Send button, then Enter.
    page.locator("#hand-form button[type=submit]").focus()
    page.keyboard.press("Enter")
    page.get_by_text("La donne 1 est enregistrée.").wait_for(timeout=STORED_TIMEOUT)
    page.wait_for_function("() => document.activeElement && document.activeElement !== document.body")

    focus = page.evaluate(FOCUS)
    assert focus["inNotice"], focus
    assert "La donne 1 est enregistrée." in focus["text"]
    assert focus["visible"] and focus["outlineStyle"] == "solid" and focus["outlineWidth"] >= 2
    assert contrast(focus["outlineColor"], focus["inside"]) >= 3, focus
    assert contrast(focus["outlineColor"], focus["outside"]) >= 3, focus
    screenshot(page, "referee-focus-on-confirmation")

    # The next donne's fields are one Tab away: the keyboard user goes on from there.
    page.keyboard.press("Tab")
    assert page.evaluate("() => !!document.activeElement.closest('#hand-form, #entry')")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_focus_ring_of_a_chip_and_a_button_stands_out_three_to_one(phone_page, live_server) -> None:
    table = make_table(end_value=3)
    page = phone_page
    page.goto(f"{live_server.url}/r/{table.token}/")
    page.locator("#hand-form button[type=submit]").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    button = page.evaluate(FOCUS)
    assert button["visible"] and button["outlineWidth"] >= 2
    assert contrast(button["outlineColor"], button["outside"]) >= 3, button
    # A chip's radio is hidden: its label's span wears the ring.
    page.locator("#f-taker input").first.focus()
    ring = page.evaluate(
        """() => {
          const span = document.activeElement.nextElementSibling;
          return { color: getComputedStyle(span).outlineColor, width: parseFloat(getComputedStyle(span).outlineWidth) };
        }"""
    )
    assert ring["width"] >= 2 and contrast(ring["color"], "rgb(255, 255, 255)") >= 3, ring
