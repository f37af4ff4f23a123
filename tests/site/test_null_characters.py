"""Issue 26, item 10: a NUL character is refused wherever the site reads text, never a 500.

`?q=a%00b` on the player search answered 500, page and API: PostgreSQL refuses NUL in any
text. Every query string, form field, cookie, path and JSON string is now refused before
a view sees it: atout.middleware.RequestTextMiddleware (400, the API's error shape under
/api/) and the API's JSON parser (api.parsers, code `null_character`).

The searches and filters are found, not listed: the pages' query parameters are read from
the source of each view the URLconf routes to, the API's from its OpenAPI schema, the
admin's from its registered model admins; the forms and the API's writes are those of
tests/site/test_bad_requests.py (every form of the URLconf, every body of the schema).
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib import admin
from django.contrib.admin import SimpleListFilter
from django.db import DataError, connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from drf_spectacular.generators import SchemaGenerator

from tests.site.test_bad_requests import API_WRITES, FORM_ROUTES, World, effect, fill, form_fields
from tests.site.test_bad_requests import world as world  # the fixture, shared with the catalogue
from tournaments.models import Player

pytestmark = pytest.mark.django_db

NUL = "a\x00b"
# How a view reads a query parameter: request.GET.get("q"), request.GET["q"], query_params...
READS = re.compile(r"""(?:GET|query_params)(?:\.get|\.getlist)?[(\[]\s*["'](\w+)["']""")


def test_postgresql_refuses_nul_in_text() -> None:
    """Why a NUL must never reach a query: the database refuses it (the 500 of the audit)."""
    if connection.vendor != "postgresql":
        pytest.skip("the suite runs on PostgreSQL under ./test; SQLite takes NUL")
    with pytest.raises((ValueError, DataError)):
        list(Player.objects.filter(last_name__icontains=NUL))


# -- the searches and filters --------------------------------------------------------------


def _page_reads(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    """(route, query parameter) for each parameter a page's view may read from its query
    string: those read anywhere in its view's module (its helpers read some)."""
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if not route.startswith(("api/", "admin/")):
                yield from _page_reads(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and "^" not in route:
            module = inspect.getmodule(getattr(pattern.callback, "view_class", pattern.callback))
            source = inspect.getsource(module) if module is not None else ""
            for name in sorted(set(READS.findall(source))):
                yield route, name


PAGE_READS = sorted(set(_page_reads(get_resolver().url_patterns)))


def _api_reads() -> Iterator[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, operations in sorted(schema["paths"].items()):
        for parameter in operations.get("get", {}).get("parameters", []):
            if parameter["in"] == "query":
                yield path, parameter["name"]


API_READS = sorted(set(_api_reads()))


def _admin_reads() -> Iterator[tuple[str, str]]:
    for model, model_admin in admin.site._registry.items():
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist"
        if model_admin.search_fields:
            yield name, "q"
        for entry in model_admin.list_filter:
            if isinstance(entry, str):
                yield name, f"{entry}__exact"
            elif isinstance(entry, type) and issubclass(entry, SimpleListFilter):
                yield name, str(entry.parameter_name)


ADMIN_READS = sorted(set(_admin_reads()))


def test_the_searches_and_filters_are_found_in_every_part_of_the_site() -> None:
    assert {("manage/club/<int:club_id>/players/", "q"), ("t/<slug:slug>/seat/", "q")} <= set(PAGE_READS)
    assert {("manage/t/<slug:slug>/hands/", "round"), ("manage/club/<int:club_id>/tournaments/new/", "game")} <= set(
        PAGE_READS
    )
    assert {("/api/v1/clubs/{club}/players/", "q"), ("/api/v1/tournaments/", "game")} <= set(API_READS)
    assert ("/api/v1/tournaments/", "page") in API_READS
    assert ("admin:auth_user_changelist", "q") in ADMIN_READS
    assert len(PAGE_READS) >= 5 and len(API_READS) >= 20


def _nul_query(name: str) -> str:
    return f"{name}={quote(NUL)}"


def test_every_search_and_filter_of_the_pages_refuses_a_nul(world: World) -> None:
    client = Client()
    client.force_login(world.organiser)
    failures = []
    for route, name in PAGE_READS:
        response = client.get(f"{fill(route, world.values)}?{_nul_query(name)}")
        page = response.content.decode()
        if response.status_code != 400 or "caractère nul" not in page:
            failures.append((route, name, response.status_code))
    assert failures == []


def test_every_search_and_filter_of_the_api_refuses_a_nul(world: World) -> None:
    client = Client()
    failures = []
    for path, name in API_READS:
        url = re.sub(r"{(\w+)}", lambda match: str(world.values[match.group(1)]), path)
        response = client.get(f"{url}?{_nul_query(name)}", **world.api_headers)
        codes = [error["code"] for error in response.json().get("errors", [])] if response.status_code < 500 else []
        if response.status_code != 400 or codes != ["null_character"]:
            failures.append((path, name, response.status_code, response.content[:200]))
    assert failures == []


def test_every_search_and_filter_of_the_admin_refuses_a_nul(world: World) -> None:
    world.organiser.is_staff = world.organiser.is_superuser = True
    world.organiser.save()
    client = Client()
    client.force_login(world.organiser)
    failures = []
    for name, parameter in ADMIN_READS:
        response = client.get(f"{reverse(name)}?{_nul_query(parameter)}")
        if response.status_code != 400:
            failures.append((name, parameter, response.status_code))
    assert failures == []


# -- forms, JSON bodies, the address, cookies -------------------------------------------------


def test_every_form_refuses_a_nul_in_any_field_and_stores_nothing(world: World) -> None:
    client = Client()
    client.force_login(world.organiser)
    failures = []
    for route in FORM_ROUTES:
        url = fill(route, world.values)
        fields = form_fields(client, url) or {"text": "text"}
        for field in fields:
            body = f"{quote(field)}={quote(NUL)}".encode()
            bad = _Body(body, "application/x-www-form-urlencoded")
            response, change = effect(client, "POST", url, bad)
            if response.status_code != 400 or change:
                failures.append((route, field, response.status_code, change))
    assert failures == []


def test_a_multipart_form_with_a_nul_is_refused(world: World) -> None:
    client = Client()
    client.force_login(world.organiser)
    url = f"/manage/club/{world.values['club_id']}/players/add/"
    response = client.post(url, {"last_name": NUL, "first_name": "Renée"})  # multipart, as the test client sends
    assert response.status_code == 400 and "caractère nul" in response.content.decode()


class _Body:
    """A request body for test_bad_requests.effect."""

    def __init__(self, body: bytes, content_type: str) -> None:
        self.body, self.content_type = body, content_type


def test_every_api_write_refuses_a_nul_in_any_string_or_key_and_stores_nothing(world: World) -> None:
    client = Client()
    failures = []
    for method, path, properties in API_WRITES:
        url = re.sub(r"{(\w+)}", lambda match: str(world.values[match.group(1)]), path)
        for body in (
            dict.fromkeys(properties or ["name"], NUL),
            {name: {"nested": [NUL]} for name in properties or ["name"]},
            {"raw": {f"note{NUL}": 1}, f"key{NUL}": "x"},
        ):
            bad = _Body(json.dumps(body).encode(), "application/json")
            response, change = effect(client, method, url, bad, **world.api_headers)
            codes = [error["code"] for error in response.json().get("errors", [])] if response.status_code < 500 else []
            if response.status_code != 400 or codes != ["null_character"] or change:
                failures.append((method, path, response.status_code, change, response.content[:200]))
    assert failures == []


@pytest.mark.parametrize(
    "path",
    ["/r/a%00b/", "/invitation/a%00b/", "/t/x/seat/", "/api/v1/players/1/history/"],
)
def test_a_nul_in_the_address_or_a_cookie_is_refused(path: str) -> None:
    if "%00" in path:
        assert Client().get(path).status_code == 400
    # A cookie's value may be quoted with octal escapes, which Django decodes ("\000": NUL).
    client = Client()
    client.cookies["sessionid"] = "abcdefghijklmnop\x00"
    assert client.get(path.replace("%00", "")).status_code == 400
