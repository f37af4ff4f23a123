"""Every answer carries a Content-Security-Policy that allows no inline script and no eval."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.conftest import ROOT

pytestmark = pytest.mark.django_db


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
        text = re.sub(r"{% comment %}.*?{% endcomment %}", "", template.read_text(encoding="utf-8"), flags=re.S)
        # Every <script> names its file; no attribute runs code (onclick=, onload=...).
        assert all(" src=" in tag for tag in re.findall(r"<script[^>]*>", text)), template
        assert not re.search(r"\son[a-z]+=", text), template
