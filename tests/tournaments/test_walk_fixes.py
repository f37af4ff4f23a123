"""Small things every player or director saw on the walk of issue 28: a refusal in the
site's own page, « 1 abandon » in the singular, the entry fee among the rules."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_a_refusal_is_the_sites_own_page_in_french_with_a_way_back(running, outsider_client) -> None:
    tournament, _competitors = running(4)
    came_from = "http://testserver" + reverse("manage:clubs")
    response = outsider_client.get(reverse("manage:dashboard", args=[tournament.pk]), HTTP_REFERER=came_from)
    assert response.status_code == 403
    html = response.content.decode()
    assert "Accès refusé" in html and "réservée aux organisateurs" in html
    assert f'href="{came_from}"' in html and f'href="{reverse("home")}"' in html
    assert '<link rel="stylesheet"' in html  # the site's page, not Django's bare text
    # A referer from another site is no way back.
    elsewhere = outsider_client.get(
        reverse("manage:dashboard", args=[tournament.pk]), HTTP_REFERER="https://evil.example/"
    )
    assert "evil.example" not in elsewhere.content.decode()


def test_a_refusal_in_english_for_an_english_reader(running, outsider_client) -> None:
    tournament, _competitors = running(4)
    response = outsider_client.get(reverse("manage:dashboard", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403 and "Access refused" in response.content.decode()


def test_one_withdrawal_is_said_in_the_singular_two_in_the_plural(running, organiser, organiser_client) -> None:
    tournament, competitors = running(4)
    dashboard = reverse("manage:dashboard", args=[tournament.pk])
    services.competitor_withdraw(by=organiser, competitor=competitors[0])
    html = " ".join(organiser_client.get(dashboard).content.decode().split())
    assert "· 1 abandon<" in html.replace(" <", "<") and "1 abandons" not in html
    services.competitor_withdraw(by=organiser, competitor=competitors[1])
    assert "2 abandons" in organiser_client.get(dashboard).content.decode()


def test_the_rules_summary_shows_the_entry_fee(running, organiser_client) -> None:
    tournament, _competitors = running(4)
    dashboard = reverse("manage:dashboard", args=[tournament.pk])
    html = " ".join(organiser_client.get(dashboard).content.decode().split())
    assert "<dt>Droit d’inscription</dt><dd>Gratuit</dd>" in html
    Tournament.objects.filter(pk=tournament.pk).update(entry_fee=Decimal("8.50"))
    html = " ".join(organiser_client.get(dashboard).content.decode().split())
    assert "<dt>Droit d’inscription</dt><dd>8,50 €</dd>" in html
