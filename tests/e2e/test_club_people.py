"""A club's people in a phone's browser: the site's administrator creates a club and
invites an organiser; the organiser opens the e-mailed link, sets a password, logs in,
makes an API token and revokes it."""

from __future__ import annotations

import io
import re

import pytest
from django.core import mail
from PIL import Image
from rest_framework.test import APIClient

from accounts.models import ApiToken
from tests.e2e.conftest import PHONE, screenshot
from tests.factories import UserFactory
from tournaments.models import Club, Membership


def logo_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (120, 60), "darkred").save(out, format="PNG")
    return out.getvalue()


def log_in(page, base: str, username: str, password: str) -> None:
    page.goto(base + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_club_is_created_an_organiser_invited_joins_and_makes_then_revokes_a_token(
    browser, phone_page, live_server
) -> None:
    UserFactory(username="federation", is_staff=True)
    page = phone_page
    log_in(page, live_server.url, "federation", "secret-pass-123")

    page.goto(live_server.url + "/manage/")
    page.get_by_role("link", name="Nouveau club").click()
    page.fill("input[name=name]", "Belote Club de Rodez")
    page.fill("input[name=town]", "Rodez")
    page.set_input_files(
        "input[name=logo]", files=[{"name": "logo.png", "mimeType": "image/png", "buffer": logo_png()}]
    )
    page.get_by_role("button", name="Créer le club").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Membres"
    club = Club.objects.get(name="Belote Club de Rodez")
    assert club.logo_version

    page.fill("input[name=email]", "lucie@example.org")
    page.select_option("select[name=role]", "organiser")
    page.get_by_role("button", name="Envoyer l’invitation").click()
    page.wait_for_load_state()
    assert page.get_by_text("lucie@example.org").count() >= 1
    screenshot(page, "club-members-invited")
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+/invitation/[\w-]+/", mail.outbox[0].body).group(0)

    # The organiser, on their own phone.
    context = browser.new_context(viewport=PHONE, locale="fr-FR", device_scale_factor=2, has_touch=True)
    phone = context.new_page()
    phone.set_default_timeout(10_000)
    phone.goto(link)
    assert "Rejoindre Belote Club de Rodez" in phone.locator("h1").inner_text()
    phone.fill("input[name=username]", "lucie")
    phone.fill("input[name=password1]", "Une-belle-donne-42")
    phone.fill("input[name=password2]", "Une-belle-donne-42")
    phone.get_by_role("button", name="Créer mon compte et rejoindre le club").click()
    phone.wait_for_load_state()
    assert phone.locator("h1").inner_text() == "Belote Club de Rodez"
    assert Membership.objects.get(club=club, user__username="lucie").role == "organiser"

    phone.get_by_role("button", name="Se déconnecter").click()
    phone.wait_for_load_state()
    log_in(phone, live_server.url, "lucie", "Une-belle-donne-42")
    phone.get_by_role("link", name="Mon compte").click()
    phone.wait_for_load_state()
    phone.fill("input[name=name]", "Tableur du club")
    phone.get_by_role("button", name="Créer un jeton").click()
    phone.wait_for_load_state()
    key = phone.locator("#new-token-key").inner_text().strip()
    assert re.fullmatch(r"[0-9a-f]{40}", key)
    screenshot(phone, "account-token-made")

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    new = {"club": club.slug, "name": "Concours de Noël", "date": "2026-12-19", "game": "belote_classique"}
    assert api.post("/api/v1/tournaments/", new, format="json").status_code == 201
    phone.reload()
    row = phone.locator(".tokens li", has_text="Tableur du club")
    assert "jamais" not in row.inner_text()
    assert phone.locator("#new-token-key").count() == 0

    row.get_by_role("button", name="Révoquer").click()
    phone.wait_for_load_state()
    assert phone.locator(".tokens").count() == 0
    assert not ApiToken.objects.exists()
    assert api.post("/api/v1/tournaments/", new, format="json").status_code == 401
    context.close()
