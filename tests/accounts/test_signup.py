"""Open sign-up: an account made at /signup/ waits, unable to log in, until the link e-mailed
to its address is opened; the link is signed, expires and works once; nothing says whether
an address has an account; sign-ups are throttled per address and per client; the site's
setting closes it, invitations still working."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts import signup
from accounts.models import SignUp
from tests.factories import ClubFactory, UserFactory
from tournaments.models import Membership

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "Une-belle-donne-42"
PER_ADDRESS = django_settings.SIGNUP_PER_ADDRESS
PER_CLIENT = django_settings.SIGNUP_PER_CLIENT


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    # The throttle's counts live in the cache: each test starts from none.
    cache.clear()
    yield
    cache.clear()


def sign_up(client: Client | None = None, username: str = "lucie", email: str = "lucie@example.org", **extra: str):
    form = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return (client or Client()).post(reverse("signup"), form, **extra)


def text(response) -> str:
    return html.unescape(response.content.decode())


def link_in(message) -> str:
    return re.search(r"https?://\S+/signup/confirm/\S+/", message.body).group(0)


def log_in(client: Client, username: str = "lucie", password: str = PASSWORD):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_a_sign_up_makes_an_account_that_logs_in_only_once_its_link_is_opened() -> None:
    response = sign_up()
    assert response.status_code == 302 and response["Location"] == reverse("signup_sent")
    user = User.objects.get(username="lucie")
    assert not user.is_active and user.email == "lucie@example.org" and user.check_password(PASSWORD)
    assert not user.is_staff and not user.is_superuser
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["lucie@example.org"]
    assert mail.outbox[0].subject == "Confirmez votre adresse e-mail sur Atout"

    # Before the link: the login says why, to whoever gave the right password only.
    client = Client()
    refused = text(log_in(client))
    assert "Votre adresse e-mail n’est pas encore confirmée" in refused
    assert reverse("signup_resend") in refused
    wrong = text(log_in(client, password="pas-le-bon-mot"))
    assert "pas encore confirmée" not in wrong

    link = link_in(mail.outbox[0])
    page = client.get(link)
    assert page.status_code == 200 and "Confirmer mon adresse" in text(page)
    # Opening the link (a mail scanner does) confirms nothing: the button does.
    assert not User.objects.get(pk=user.pk).is_active
    confirmed = client.post(link)
    assert confirmed.status_code == 302 and confirmed["Location"] == reverse("manage:clubs")
    assert User.objects.get(pk=user.pk).is_active
    assert SignUp.objects.get(user=user).confirmed_at is not None
    assert "Votre adresse est confirmée" in text(client.get(reverse("manage:clubs")))
    # Logged in by the link; and the password works from now on.
    assert log_in(Client()).status_code == 302


def test_a_link_works_once_and_a_bad_one_says_so() -> None:
    sign_up()
    link = link_in(mail.outbox[0])
    assert Client().post(link).status_code == 302
    used = Client().post(link)
    assert used.status_code == 410 and "Ce lien a déjà servi" in text(used)
    assert Client().get(link).status_code == 410
    forged = link.replace("/signup/confirm/", "/signup/confirm/x")
    bad = Client().get(forged)
    assert bad.status_code == 404 and "Ce lien de confirmation n’est pas valable" in text(bad)
    # Another value signed with the site's key, but not by sign-up: no link either.
    other = signing.dumps({"s": SignUp.objects.get().pk, "n": SignUp.objects.get().nonce})
    assert Client().post(reverse("signup_confirm", args=[other])).status_code == 404


def test_an_expired_link_confirms_nothing_and_a_new_one_can_be_asked(monkeypatch) -> None:
    sign_up()
    pending = SignUp.objects.get()
    # A link signed longer ago than its lifetime.
    past = time.time() - django_settings.SIGNUP_CONFIRM_LIFETIME.total_seconds() - 60
    with monkeypatch.context() as patch:
        patch.setattr(signing.time, "time", lambda: past)
        old = signup.confirmation_token(pending)
    expired = Client().post(reverse("signup_confirm", args=[old]))
    assert expired.status_code == 410 and "Ce lien de confirmation a expiré" in text(expired)
    assert not User.objects.get(username="lucie").is_active

    mail.outbox.clear()
    asked = Client().post(reverse("signup_resend"), {"email": "Lucie@example.org"})
    assert asked.status_code == 302 and asked["Location"] == reverse("signup_sent")
    assert len(mail.outbox) == 1
    assert Client().post(link_in(mail.outbox[0])).status_code == 302
    assert User.objects.get(username="lucie").is_active


def test_an_address_with_an_account_gets_an_e_mail_saying_so_and_the_page_says_nothing() -> None:
    UserFactory(username="lucie-ancienne", email="lucie@example.org")
    response = sign_up(username="lucie2", email="LUCIE@example.org")
    # The same answer as for a new address.
    assert response.status_code == 302 and response["Location"] == reverse("signup_sent")
    assert not User.objects.filter(username="lucie2").exists()
    assert len(mail.outbox) == 1 and mail.outbox[0].subject == "Vous avez déjà un compte Atout"
    assert "/login/" in mail.outbox[0].body and "/login/reset/" in mail.outbox[0].body
    assert "/signup/confirm/" not in mail.outbox[0].body
    # A resend for that address says the same; for an unknown one, nothing is sent.
    Client().post(reverse("signup_resend"), {"email": "lucie@example.org"})
    assert mail.outbox[-1].subject == "Vous avez déjà un compte Atout"
    count = len(mail.outbox)
    assert Client().post(reverse("signup_resend"), {"email": "personne@example.org"}).status_code == 302
    assert len(mail.outbox) == count


def test_signing_up_again_resends_the_waiting_link_without_changing_its_password() -> None:
    sign_up()
    form = {"username": "autre", "email": "lucie@example.org", "password1": "Un-autre-mot-77", "password2": "x"}
    form["password2"] = form["password1"]
    assert Client().post(reverse("signup"), form).status_code == 302
    assert list(User.objects.values_list("username", flat=True)) == ["lucie"]
    assert len(mail.outbox) == 2
    assert Client().post(link_in(mail.outbox[1])).status_code == 302
    assert User.objects.get(username="lucie").check_password(PASSWORD)


def test_a_stale_sign_up_gives_back_its_username_and_address() -> None:
    sign_up()
    SignUp.objects.update(created_at=SignUp.objects.get().created_at - django_settings.SIGNUP_CONFIRM_LIFETIME * 2)
    assert sign_up(email="lucie@example.net").status_code == 302
    assert User.objects.get(username="lucie").email == "lucie@example.net"


def test_bad_input_is_said_beside_its_field_and_kept() -> None:
    UserFactory(username="lucie")
    form = {"username": "Lucie", "email": "pas-une-adresse", "password1": "123", "password2": "124"}
    page = text(Client().post(reverse("signup"), form))
    assert "Saisissez une adresse e-mail valide." in page
    assert "Les deux mots de passe diffèrent" in page
    assert 'value="pas-une-adresse"' in page and 'value="Lucie"' in page
    taken = text(sign_up(username="Lucie", email="autre@example.org"))
    assert "Ce nom d’utilisateur est pris : choisissez-en un autre." in taken
    weak = {"username": "paul", "email": "paul@example.org", "password1": "12345678", "password2": "12345678"}
    assert "Ce mot de passe est trop courant." in text(Client().post(reverse("signup"), weak))
    assert not User.objects.filter(username="paul").exists() and mail.outbox == []


def test_sign_ups_are_throttled_per_address_and_per_client() -> None:
    statuses = [sign_up(username=f"l{n}", REMOTE_ADDR=f"192.0.2.{n}").status_code for n in range(1, 7)]
    assert statuses == [302] * PER_ADDRESS + [429] * (6 - PER_ADDRESS)
    assert len(mail.outbox) == PER_ADDRESS
    refused = text(sign_up(username="l9", REMOTE_ADDR="192.0.2.9"))
    assert "Trop d’e-mails demandés pour cette adresse : attendez 60 minutes" in refused
    assert 'value="lucie@example.org"' in refused

    cache.clear()
    statuses = [sign_up(username=f"c{n}", email=f"c{n}@example.org").status_code for n in range(PER_CLIENT + 1)]
    assert statuses == [302] * PER_CLIENT + [429]
    assert "Trop d’inscriptions depuis cette connexion" in text(sign_up(username="cx", email="cx@example.org"))
    # The resend form counts with the sign-ups.
    assert Client().post(reverse("signup_resend"), {"email": "c0@example.org"}).status_code == 429
    assert sign_up(username="d1", email="d1@example.org", REMOTE_ADDR="192.0.2.200").status_code == 302


def test_closed_sign_up_says_so_and_invitations_still_work(settings) -> None:
    settings.OPEN_SIGNUP = False
    for name in ("signup", "signup_sent", "signup_resend"):
        page = Client().get(reverse(name))
        assert page.status_code == 403 and "Les inscriptions sont fermées" in text(page)
    assert sign_up().status_code == 403 and not User.objects.exists()
    login = text(Client().get(reverse("login")))
    assert reverse("signup") not in login and reverse("signup") not in text(Client().get("/"))

    club = ClubFactory(name="Belote Club de Rodez")
    admin = UserFactory(username="presidente")
    club.organisers.add(admin, through_defaults={"role": "admin"})
    client = Client()
    client.force_login(admin)
    client.post(reverse("manage:members", args=[club.pk]), {"email": "lucie@example.org", "role": "organiser"})
    token = re.search(r"/invitation/([\w-]+)/", mail.outbox[-1].body).group(1)
    joined = Client().post(
        reverse("invitation", args=[token]), {"username": "lucie", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert joined.status_code == 302
    assert Membership.objects.get(club=club, user__username="lucie").role == "organiser"
    # An account, but no club of its own while sign-up is closed.
    lucie = Client()
    lucie.force_login(User.objects.get(username="lucie"))
    assert lucie.get(reverse("manage:club_create")).status_code == 403
    assert "Créer un club" not in text(lucie.get(reverse("manage:clubs")))


def test_open_links_show_on_the_login_and_home_pages() -> None:
    UserFactory(username="quelquun")
    assert reverse("signup") in text(Client().get(reverse("login")))
    assert reverse("signup") in text(Client().get("/"))
    english = Client().get(reverse("signup"), HTTP_ACCEPT_LANGUAGE="en")
    assert "Create an account" in text(english)


def test_a_confirmed_account_creates_its_club_and_is_its_first_administrator() -> None:
    sign_up()
    client = Client()
    client.post(link_in(mail.outbox[0]))
    clubs = text(client.get(reverse("manage:clubs")))
    assert "Créer un club" in clubs
    created = client.post(reverse("manage:club_create"), {"name": "Amicale de Millau", "town": "Millau"})
    membership = Membership.objects.get(user__username="lucie")
    assert created.status_code == 302
    assert created["Location"] == reverse("manage:members", args=[membership.club_id])
    assert (membership.club.name, membership.role) == ("Amicale de Millau", "admin")
    # Its invitation form proposes an organiser now: the club has its administrator.
    members = text(client.get(created["Location"]))
    assert re.search(r'<option value="organiser" selected>', members)
