"""A page's form sent back the way a browser sends it, for view tests that need no browser.

`form_as_sent(html, css_class=...)` reads the page's first `<form method="post">` of that
class (the header's logout and language forms are POST forms too) and returns what a
browser would post when its submit button is pressed untouched:

- disabled controls (or controls inside a disabled fieldset) are not sent;
- a checkbox or radio is sent only when checked (its value, else "on");
- a select sends its selected option, else its first option (a single select);
- an `<input type=date>` holds only an ISO date (`2026-03-14`): any other value
  (`14/03/2026`) is dropped by the browser and sent empty; a number input likewise
  holds only a number;
- buttons send nothing (the test presses a button without a name).

The answer is a list of (name, value) pairs, as a form body is.
"""

from __future__ import annotations

import datetime
import re
from html.parser import HTMLParser

_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def _browser_value(kind: str, value: str) -> str:
    """The value an input of this type holds once the browser has sanitised it."""
    if kind == "date":
        try:
            return datetime.date.fromisoformat(value).isoformat() if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) else ""
        except ValueError:
            return ""
    if kind == "number":
        return value if _NUMBER.match(value) else ""
    if kind in ("text", "search", "email", "tel", "url", "password"):
        return value.replace("\r", "").replace("\n", "")
    return value


class _FormReader(HTMLParser):
    def __init__(self, css_class: str) -> None:
        super().__init__(convert_charrefs=True)
        self.css_class = css_class
        self.pairs: list[tuple[str, str]] = []
        self.in_form = False
        self.done = False
        self.disabled_fieldsets = 0
        self.fieldsets: list[bool] = []
        # The select being read: its name, whether it is sent, its options and the chosen one.
        self.select: dict | None = None
        self.option: dict | None = None
        self.textarea: dict | None = None

    def handle_starttag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {name: (value if value is not None else "") for name, value in attrs_list}
        if self.done:
            return
        wanted = self.css_class in attrs.get("class", "").split()
        if tag == "form" and attrs.get("method", "").lower() == "post" and wanted and not self.in_form:
            self.in_form = True
            return
        if not self.in_form:
            return
        disabled = "disabled" in attrs or self.disabled_fieldsets > 0
        if tag == "fieldset":
            self.fieldsets.append("disabled" in attrs)
            self.disabled_fieldsets += "disabled" in attrs
        elif tag == "input":
            kind = attrs.get("type", "text").lower()
            name = attrs.get("name")
            if not name or disabled or kind in ("submit", "button", "reset", "image", "file"):
                return
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    self.pairs.append((name, attrs.get("value", "on") or "on"))
                return
            self.pairs.append((name, _browser_value(kind, attrs.get("value", ""))))
        elif tag == "select":
            self.select = {"name": attrs.get("name"), "sent": not disabled, "options": [], "chosen": None}
        elif tag == "option" and self.select is not None:
            self.option = {"value": attrs.get("value"), "text": "", "selected": "selected" in attrs}
        elif tag == "textarea":
            self.textarea = {"name": attrs.get("name"), "sent": not disabled, "text": ""}

    def handle_data(self, data: str) -> None:
        if self.option is not None:
            self.option["text"] += data
        if self.textarea is not None:
            self.textarea["text"] += data

    def _end_option(self) -> None:
        if self.option is not None and self.select is not None:
            value = self.option["value"] if self.option["value"] is not None else self.option["text"].strip()
            self.select["options"].append(value)
            if self.option["selected"]:
                self.select["chosen"] = value
        self.option = None

    def handle_endtag(self, tag: str) -> None:
        if not self.in_form or self.done:
            return
        if tag == "form":
            self.done = True
        elif tag == "fieldset" and self.fieldsets:
            self.disabled_fieldsets -= self.fieldsets.pop()
        elif tag == "option":
            self._end_option()
        elif tag == "select" and self.select is not None:
            self._end_option()
            select, self.select = self.select, None
            chosen = select["chosen"] if select["chosen"] is not None else next(iter(select["options"]), None)
            if select["name"] and select["sent"] and chosen is not None:
                self.pairs.append((select["name"], chosen))
        elif tag == "textarea" and self.textarea is not None:
            textarea, self.textarea = self.textarea, None
            if textarea["name"] and textarea["sent"]:
                self.pairs.append((textarea["name"], textarea["text"].removeprefix("\n")))


def form_as_sent(html: str, *, css_class: str) -> list[tuple[str, str]]:
    """The (name, value) pairs a browser posts for the page's POST form of `css_class`, untouched."""
    reader = _FormReader(css_class)
    reader.feed(html)
    reader.close()
    if not reader.in_form:
        raise AssertionError(f"the page has no POST form of class {css_class!r}")
    return reader.pairs


def as_post_data(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    """The pairs as the Django test client posts them (every value of a name kept)."""
    data: dict[str, list[str]] = {}
    for name, value in pairs:
        data.setdefault(name, []).append(value)
    return data
