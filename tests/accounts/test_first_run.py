"""The first run: with no account at all, the login and management pages lead to /setup/,
which makes the site's first administrator in the browser, once: then, and as soon as any
account exists (./run's demo, createsuperuser), /setup/ is a 404 for good, and two forms
posted at once make one administrator."""

from __future__ import annotations

import html
import threading

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts import signup
from accounts.models import SiteSetup
from tests.factories import UserFactory

User = get_user_model()
PASSWORD = "Une-belle-donne-42"


def setup_form(username: str = "president", email: str = "") -> dict[str, str]:
    return {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}


@pytest.mark.django_db
def test_an_empty_site_leads_its_login_and_management_pages_to_the_setup() -> None:
    client = Client()
    for path in ("/login/", "/manage/", "/manage/account/", "/admin/"):
        response = client.get(path)
        assert (response.status_code, response["Location"]) == (302, reverse("setup")), path
    # The public pages stay as they are.
    assert client.get("/").status_code == 200
    page = html.unescape(client.get(reverse("setup")).content.decode())
    assert "Bienvenue sur Atout" in page and "Ce site n’a encore aucun compte" in page


@pytest.mark.django_db
def test_the_setup_makes_the_first_administrator_logs_them_in_and_closes_for_good() -> None:
    client = Client()
    refused = client.post(reverse("setup"), {**setup_form(), "password2": "autre-chose"})
    assert refused.status_code == 200 and not User.objects.exists() and not SiteSetup.objects.exists()
    assert 'value="president"' in refused.content.decode()

    made = client.post(reverse("setup"), setup_form(email="president@example.org"))
    assert made.status_code == 302 and made["Location"] == reverse("manage:clubs")
    admin = User.objects.get()
    assert (admin.username, admin.is_superuser, admin.is_staff, admin.is_active) == ("president", True, True, True)
    clubs = html.unescape(client.get(reverse("manage:clubs")).content.decode())
    assert "Vous êtes l’administrateur de ce site" in clubs and "Nouveau club" in clubs

    assert Client().get(reverse("setup")).status_code == 404
    assert Client().post(reverse("setup"), setup_form("intrus")).status_code == 404
    assert Client().get("/login/").status_code == 200
    # Forever: even with every account deleted afterwards.
    User.objects.all().delete()
    assert Client().get(reverse("setup")).status_code == 404
    assert Client().get("/login/").status_code == 200


@pytest.mark.django_db
def test_an_account_made_otherwise_closes_the_setup() -> None:
    UserFactory(username="demo", is_superuser=True, is_staff=True)
    assert Client().get(reverse("setup")).status_code == 404
    assert SiteSetup.objects.exists()
    with pytest.raises(PermissionDenied):
        signup.first_admin_create(username="autre", email="", password=PASSWORD)


def _first_run(name: str, start: threading.Barrier, outcomes: list[str]) -> None:
    """One first-run form, posted when the other one is (`start`), in a thread of its own."""
    try:
        start.wait()
        signup.first_admin_create(username=name, email="", password=PASSWORD)
        outcomes.append("made")
    except PermissionDenied:
        outcomes.append("refused")
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_two_setups_posted_at_once_make_one_administrator() -> None:
    for round_ in range(3):
        User.objects.all().delete()
        SiteSetup.objects.all().delete()
        start = threading.Barrier(2)
        outcomes: list[str] = []
        threads = [threading.Thread(target=_first_run, args=(f"admin{round_}{n}", start, outcomes)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(outcomes) == ["made", "refused"]
        assert User.objects.count() == 1 and SiteSetup.objects.count() == 1
