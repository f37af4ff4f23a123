"""Every answer carries a Content-Security-Policy that allows no inline script and no eval,
and nothing the site or htmx does needs an inline style (tests/e2e/test_csp.py watches it
happen in a browser)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.conftest import ROOT

pytestmark = pytest.mark.django_db

# The attributes htmx 2 settles on an element it swaps, unless its configuration says otherwise.
HTMX_SETTLED_BY_DEFAULT = ["class", "style", "width", "height"]


def directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in header.split(";"):
        name, *values = part.split()
        parsed[name] = values
    return parsed


@pytest.mark.parametrize("path", ["/", "/login/", "/admin/login/", "/api/docs/", "/api/redoc/", "/no-such-page/"])
def test_pages_allow_scripts_from_the_site_only_without_inline_code_or_eval(client: Client, path: str) -> None:
    response = client.get(path)
    policy = directives(response.headers["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert not any("'unsafe-eval'" in values for values in policy.values())
    if path != "/api/redoc/":
        assert policy["style-src"] == ["'self'"]


def test_no_template_holds_an_inline_script_or_event_handler() -> None:
    for template in (ROOT / "templates").rglob("*.html"):
        text = without_comments(template.read_text(encoding="utf-8"))
        # Every <script> names its file; no attribute runs code (onclick=, onload=...).
        assert all(" src=" in tag for tag in re.findall(r"<script[^>]*>", text)), template
        assert not re.search(r"\son[a-z]+=", text), template


def without_comments(text: str) -> str:
    return re.sub(r"{% comment %}.*?{% endcomment %}", "", text, flags=re.S)


def test_no_template_holds_a_style_attribute_or_an_inline_style_sheet() -> None:
    # Redoc's page alone allows inline styles (api.urls), for the ones its bundle writes.
    for template in (ROOT / "templates").rglob("*.html"):
        text = without_comments(template.read_text(encoding="utf-8"))
        assert not re.search(r"\sstyle=", text), template
        assert "<style" not in text, template


def test_every_htmx_configuration_leaves_style_attributes_alone() -> None:
    # htmx would write its indicator styles as an inline <style>, and settle a swapped
    # element's style attribute with setAttribute: both refused by the policy.
    configs = {}
    for template in (ROOT / "templates").rglob("*.html"):
        text = without_comments(template.read_text(encoding="utf-8"))
        for content in re.findall(r"<meta name=\"htmx-config\" content='([^']*)'>", text):
            configs[template.relative_to(ROOT).as_posix()] = json.loads(content)
    assert {"templates/base.html", "templates/scoring/public/live_head.html"} <= set(configs)
    for template, config in configs.items():
        assert config.get("includeIndicatorStyles", True) is False, template
        settled = config.get("attributesToSettle", HTMX_SETTLED_BY_DEFAULT)
        assert "style" not in settled and "class" in settled, template
