"""The site's icon: every page names it, and /favicon.ico (asked by browsers regardless)
leads to it instead of a 404 in every browser console."""

from __future__ import annotations

from django.test import Client


def test_favicon_ico_leads_to_the_sites_icon(db) -> None:
    response = Client().get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("/img/favicon.svg")


def test_every_page_names_the_icon(db) -> None:
    assert b'rel="icon"' in Client().get("/").content
