"""Open sign-up in a browser, on a 390 px phone and on a laptop: someone signs up, opens the
e-mailed link (read from Django's test outbox), confirms their address, creates their club
(its first administrator) and invites someone; every page axe-clean. And the first run: an
empty site's login asks for its first administrator."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from django.core import mail

from tests.e2e.conftest import LAPTOP, PHONE, screenshot
from tests.e2e.test_accessibility import serious_violations
from tests.factories import UserFactory
from tournaments.models import Invitation, Membership

PASSWORD = "Une-belle-donne-42"


def clean(axe: Axe, page) -> None:
    assert serious_violations(axe, page) == [], page.url


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("laptop", LAPTOP)])
def test_someone_signs_up_confirms_creates_their_club_and_invites(browser, live_server, size, viewport) -> None:
    # A site in use (someone has an account): no first-run setup.
    UserFactory(username="federation", is_staff=True)
    axe = Axe()
    context = browser.new_context(viewport=viewport, locale="fr-FR", has_touch=size == "phone")
    page = context.new_page()
    page.set_default_timeout(10_000)

    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Créer un compte pour votre club").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Créer un compte"
    clean(axe, page)
    # A mistake first: the form says it beside the field and keeps the rest.
    page.fill("input[name=username]", "lucie")
    page.fill("input[name=email]", "lucie@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", "autre-chose-42")
    page.get_by_role("button", name="Créer mon compte").click()
    page.wait_for_load_state()
    assert "Les deux mots de passe diffèrent" in page.locator("#field-password2").inner_text()
    assert page.input_value("input[name=email]") == "lucie@example.org"
    screenshot(page, f"signup-error-{size}")
    clean(axe, page)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.get_by_role("button", name="Créer mon compte").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Consultez votre boîte e-mail"
    screenshot(page, f"signup-sent-{size}")
    clean(axe, page)

    # Not confirmed yet: the login says so and offers a new link.
    page.goto(live_server.url + "/login/")
    page.fill("input[name=username]", "lucie")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()
    assert "pas encore confirmée" in page.locator(".errors").inner_text()
    assert page.get_by_role("link", name="Pas d’e-mail, ou son lien a expiré ? Recevez un nouveau lien.").count() == 1
    screenshot(page, f"signup-login-unconfirmed-{size}")
    clean(axe, page)

    (confirmation,) = mail.outbox
    link = re.search(r"https?://\S+/signup/confirm/\S+/", confirmation.body).group(0)
    page.goto(link)
    assert page.locator("h1").inner_text() == "Confirmez votre adresse"
    screenshot(page, f"signup-confirm-{size}")
    clean(axe, page)
    page.get_by_role("button", name="Confirmer mon adresse").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Mes clubs"
    assert "Votre adresse est confirmée" in page.locator(".messages").inner_text()
    screenshot(page, f"signup-no-club-{size}")
    clean(axe, page)

    page.get_by_role("link", name="Créer un club").click()
    page.wait_for_load_state()
    # Only a site administrator may create a club for others.
    assert page.locator("input[name=administer]").count() == 0
    page.fill("input[name=name]", "Amicale de Millau")
    page.fill("input[name=town]", "Millau")
    clean(axe, page)
    page.get_by_role("button", name="Créer le club").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Membres"
    assert "vous en êtes l’administrateur" in page.locator(".messages").inner_text()
    membership = Membership.objects.get(user__username="lucie")
    assert (membership.club.name, membership.role) == ("Amicale de Millau", "admin")
    assert page.locator("select[name=role]").last.input_value() == "organiser"

    page.fill("input[name=email]", "marc@example.org")
    page.get_by_role("button", name="Envoyer l’invitation").click()
    page.wait_for_load_state()
    assert "Invitation envoyée à marc@example.org" in page.locator(".messages").inner_text()
    screenshot(page, f"signup-invited-{size}")
    clean(axe, page)
    invitation = Invitation.objects.get()
    assert (invitation.club, invitation.email, invitation.invited_by.username) == (
        membership.club,
        "marc@example.org",
        "lucie",
    )
    assert mail.outbox[-1].to == ["marc@example.org"]
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_empty_site_asks_for_its_first_administrator_in_the_browser(browser, live_server) -> None:
    axe = Axe()
    context = browser.new_context(viewport=PHONE, locale="fr-FR", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(live_server.url + "/login/")
    assert page.url == live_server.url + "/setup/"
    assert page.locator("h1").inner_text() == "Bienvenue sur Atout"
    screenshot(page, "setup-phone")
    clean(axe, page)
    page.fill("input[name=username]", "president")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.get_by_role("button", name="Créer l’administrateur").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Mes clubs"
    assert get_user_model().objects.get().is_superuser
    # The site administrator's club: they administer it themself, by default.
    page.get_by_role("link", name="Nouveau club").click()
    page.wait_for_load_state()
    assert page.locator("input[name=administer]").is_checked()
    page.fill("input[name=name]", "Club de la salle")
    page.get_by_role("button", name="Créer le club").click()
    page.wait_for_load_state()
    assert Membership.objects.get(user__username="president").role == "admin"
    assert page.goto(live_server.url + "/setup/").status == 404
    context.close()
