"""The dashboard is the director's hub: every page of the night is one tap away."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rounds.services import round_draw

pytestmark = pytest.mark.django_db


def test_the_dashboard_links_every_page_of_the_night_and_each_opens(organiser_client, running, organiser) -> None:
    tournament, _ = running(4)
    round_draw(by=organiser, tournament=tournament)
    html = organiser_client.get(reverse("manage:dashboard", args=[tournament.pk])).content.decode()
    slug = tournament.slug
    pages = [
        reverse("public:ranking", kwargs={"slug": slug}),
        reverse("public:projector", kwargs={"slug": slug}),
        reverse("draw:round", args=[slug, 1]),
        reverse("draw:seat", kwargs={"slug": slug}),
        reverse("public:poster", kwargs={"slug": slug}),
        reverse("public:ranking_csv", kwargs={"slug": slug}),
        reverse("public:ranking_pdf", kwargs={"slug": slug}),
        reverse("standings_manage:index", kwargs={"slug": slug}),
        reverse("hands:index", args=[slug]),
        reverse("hands:sheets", args=[slug]) + "?round=1",
        reverse("manage:round_print", args=[tournament.pk, 1]),
    ]
    for url in pages:
        assert f'href="{url}"' in html, url
        assert organiser_client.get(url).status_code == 200, url


def test_the_dashboard_speaks_of_no_seed_and_the_print_list_gives_the_draw_number(
    organiser_client, running, organiser
) -> None:
    tournament, _ = running(4)
    rnd = round_draw(by=organiser, tournament=tournament)
    dashboard = organiser_client.get(reverse("manage:dashboard", args=[tournament.pk])).content.decode()
    assert "graine" not in dashboard and str(rnd.seed) not in dashboard
    printed = organiser_client.get(reverse("manage:round_print", args=[tournament.pk, 1])).content.decode()
    assert f"Tirage n° {rnd.seed}" in printed
