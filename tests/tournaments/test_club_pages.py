"""The clubs' pages through the test client, in French: who may open what, forms that
answer beside the field, the invitation's link, the logo, the public and privacy pages."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments import services as tournament_services
from tournaments.models import Club, ClubLogo, Invitation, Membership, Player

pytestmark = pytest.mark.django_db
User = get_user_model()


def page(response) -> str:
    return response.content.decode()


def png(size: tuple[int, int] = (80, 40)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "navy").save(out, format="PNG")
    return out.getvalue()


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def member(club: Club, role: str, username: str):
    user = UserFactory(username=username)
    club.organisers.add(user, through_defaults={"role": role})
    return user


@pytest.fixture
def rodez() -> Club:
    return ClubFactory(name="Belote Club de Rodez", slug="bc-rodez")


@pytest.fixture
def albi() -> Club:
    return ClubFactory(name="Tarot Club d’Albi", slug="tc-albi")


@pytest.fixture
def presidente(rodez):
    return member(rodez, "admin", "presidente")


def invitation_link() -> str:
    found = re.search(r"https?://\S+/invitation/[\w-]+/", mail.outbox[-1].body)
    assert found, mail.outbox[-1].body
    return found.group(0)


# -- who may open what -------------------------------------------------------------------------


def test_an_administrator_of_club_a_cannot_touch_club_b(presidente, rodez, albi) -> None:
    albi_admin = member(albi, "admin", "albi-admin")
    player = PlayerFactory(club=albi, last_name="Bérard")
    membership = Membership.objects.get(club=albi, user=albi_admin)
    client = logged_in(presidente)
    for url in (
        reverse("manage:members", args=[albi.pk]),
        reverse("manage:club_settings", args=[albi.pk]),
        reverse("manage:member_remove", args=[albi.pk, membership.pk]),
        reverse("manage:player_anonymise", args=[albi.pk, player.pk]),
    ):
        assert client.get(url).status_code == 403, url
        assert client.post(url, {"confirmed": "1", "email": "x@example.org", "name": "Pris"}).status_code == 403, url
    role = client.post(reverse("manage:member_role", args=[albi.pk, membership.pk]), {"role": "organiser"})
    assert role.status_code == 403
    # Rodez's membership id under Albi's address is not found: ids do not cross clubs.
    own = Membership.objects.get(club=rodez, user=presidente)
    assert (
        client.post(reverse("manage:member_role", args=[rodez.pk, own.pk + 1000]), {"role": "admin"}).status_code == 404
    )
    assert Membership.objects.get(pk=membership.pk).role == "admin"
    assert Player.objects.get(pk=player.pk).last_name == "Bérard"
    assert Club.objects.get(pk=albi.pk).name == "Tarot Club d’Albi" and mail.outbox == []


def test_a_plain_organiser_can_neither_invite_nor_manage_members_nor_anonymise(rodez, presidente) -> None:
    organiser = member(rodez, "organiser", "orga")
    player = PlayerFactory(club=rodez)
    client = logged_in(organiser)
    members = reverse("manage:members", args=[rodez.pk])
    assert client.get(members).status_code == 403
    assert client.post(members, {"email": "ami@example.org", "role": "admin"}).status_code == 403
    assert client.get(reverse("manage:club_settings", args=[rodez.pk])).status_code == 403
    assert (
        client.post(reverse("manage:player_anonymise", args=[rodez.pk, player.pk]), {"confirmed": "1"}).status_code
        == 403
    )
    assert not Invitation.objects.exists() and mail.outbox == []
    # Their club page offers none of it, nor the player's page the anonymisation.
    club_page = page(client.get(reverse("manage:club", args=[rodez.pk])))
    assert "Membres" not in club_page and "Réglages du club" not in club_page
    assert "Anonymiser" not in page(client.get(reverse("manage:player_edit", args=[rodez.pk, player.pk])))


def test_with_sign_up_closed_only_a_site_administrator_creates_a_club(rodez, presidente, settings) -> None:
    settings.OPEN_SIGNUP = False
    url = reverse("manage:club_create")
    assert logged_in(presidente).get(url).status_code == 403
    staff = UserFactory(username="federation", is_staff=True)
    client = logged_in(staff)
    assert "Nouveau club" in page(client.get(reverse("manage:clubs")))
    response = client.post(
        url, {"name": "Amicale de Millau", "town": "Millau", "logo": SimpleUploadedFile("l.png", png())}
    )
    club = Club.objects.get(name="Amicale de Millau")
    assert response.status_code == 302 and response["Location"] == reverse("manage:members", args=[club.pk])
    assert club.town == "Millau" and ClubLogo.objects.filter(club=club).exists()
    members = page(client.get(response["Location"]))
    assert "Personne ne gère encore ce club" in members
    # The club has no administrator yet: its first invitation proposes that role.
    assert '<option value="admin" selected>' in members


def test_the_breadcrumb_links_the_club_page_only_for_those_it_lets_in(rodez, presidente) -> None:
    """A site administrator who is no member administers the club (settings, members) but
    does not organise it: its page answers them 403, so the breadcrumb names it unlinked."""
    club_page = reverse("manage:club", args=[rodez.pk])
    staff = logged_in(UserFactory(username="federation", is_staff=True))
    assert staff.get(club_page).status_code == 403
    for url in (reverse("manage:club_settings", args=[rodez.pk]), reverse("manage:members", args=[rodez.pk])):
        staff_page = staff.get(url)
        assert staff_page.status_code == 200
        crumbs = re.search(r'<nav class="crumbs.*?</nav>', page(staff_page), re.S).group(0)
        assert "Belote Club de Rodez" in crumbs and f'href="{club_page}"' not in crumbs
        member_crumbs = re.search(r'<nav class="crumbs.*?</nav>', page(logged_in(presidente).get(url)), re.S).group(0)
        assert f'href="{club_page}"' in member_crumbs
    # A site administrator who is a member too gets the link: they may open the page.
    rodez.organisers.add(User.objects.get(username="federation"))
    assert f'href="{club_page}"' in page(staff.get(reverse("manage:club_settings", args=[rodez.pk])))


# -- forms answer beside the field ---------------------------------------------------------


def test_a_file_that_is_not_an_image_gets_an_error_beside_the_logo_field(rodez, presidente) -> None:
    client = logged_in(presidente)
    url = reverse("manage:club_settings", args=[rodez.pk])
    for upload in (
        SimpleUploadedFile("logo.png", b"%PDF-1.4 not a picture", content_type="image/png"),
        SimpleUploadedFile("logo.jpg", png()[:60], content_type="image/jpeg"),
    ):
        response = client.post(url, {"name": "Belote Club de Rodez", "logo": upload})
        assert response.status_code == 200
        field = re.search(r'<div class="field has-error" id="field-logo">.*?</div>', page(response), re.S)
        assert field and "PNG ou JPEG" in field.group(0)
    assert not ClubLogo.objects.exists()


def test_a_club_administrator_sets_the_logo_and_the_public_pages_show_it(client, rodez, presidente) -> None:
    tournament = TournamentFactory(club=rodez, status="running", is_public=True)
    admin = logged_in(presidente)
    response = admin.post(
        reverse("manage:club_settings", args=[rodez.pk]),
        {"name": "Belote Club de Rodez", "town": "Rodez", "logo": SimpleUploadedFile("logo.png", png())},
    )
    assert response.status_code == 302
    rodez.refresh_from_db()
    logo_url = rodez.logo_url
    assert logo_url.startswith("/club/bc-rodez/logo/?v=")
    public = page(client.get(reverse("club_public", args=["bc-rodez"])))
    assert logo_url in public and "Rodez" in public and tournament.name in public
    assert logo_url in page(client.get(reverse("public:ranking", kwargs={"slug": tournament.slug})))
    image = client.get(logo_url)
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    assert "immutable" in image["Cache-Control"] and "max-age=31536000" in image["Cache-Control"]
    assert image.content.startswith(b"\x89PNG")
    assert "max-age=300" in client.get(reverse("club_logo", args=["bc-rodez"]) + "?v=old")["Cache-Control"]
    pdf = client.get(reverse("public:ranking_pdf", kwargs={"slug": tournament.slug}))
    assert pdf.status_code == 200 and b"/Subtype /Image" in pdf.content
    assert client.get(reverse("club_logo", args=["nobody"])).status_code == 404


# -- members and invitations ---------------------------------------------------------------


def test_an_administrator_invites_and_the_invitee_makes_an_account_through_the_link(rodez, presidente) -> None:
    admin = logged_in(presidente)
    members = reverse("manage:members", args=[rodez.pk])
    response = admin.post(members, {"email": "lucie@example.org", "role": "organiser"})
    assert response.status_code == 302
    assert "lucie@example.org" in page(admin.get(members))
    link = invitation_link()

    invitee = Client()
    form = page(invitee.get(link))
    assert "Rejoindre Belote Club de Rodez" in form and "Organisateur" in form
    mismatch = invitee.post(link, {"username": "lucie", "password1": "Une-belle-donne-42", "password2": "autre"})
    assert mismatch.status_code == 200 and 'id="field-password2"' in page(mismatch)
    assert not Membership.objects.filter(user__username="lucie").exists()
    joined = invitee.post(
        link, {"username": "lucie", "password1": "Une-belle-donne-42", "password2": "Une-belle-donne-42"}
    )
    assert joined.status_code == 302 and joined["Location"] == reverse("manage:club", args=[rodez.pk])
    assert Membership.objects.get(user__username="lucie", club=rodez).role == "organiser"
    assert "Belote Club de Rodez" in page(invitee.get(reverse("manage:clubs")))
    used = Client().get(link)
    assert used.status_code == 410 and "déjà servi" in page(used)


def test_an_invitation_link_that_is_unknown_or_expired_says_so(rodez, presidente) -> None:
    assert Client().get("/invitation/pas-un-vrai-lien/").status_code == 404
    logged_in(presidente).post(reverse("manage:members", args=[rodez.pk]), {"email": "a@example.org", "role": "admin"})
    Invitation.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    expired = Client().post(
        invitation_link(), {"username": "a", "password1": "Une-belle-donne-42", "password2": "Une-belle-donne-42"}
    )
    assert expired.status_code == 410 and "expiré" in page(expired)
    assert not Membership.objects.filter(user__username="a").exists()


def test_a_logged_in_user_joins_with_their_account(rodez, presidente, albi) -> None:
    albi_admin = member(albi, "admin", "albi-admin")
    logged_in(presidente).post(
        reverse("manage:members", args=[rodez.pk]), {"email": "b@example.org", "role": "organiser"}
    )
    client = logged_in(albi_admin)
    link = invitation_link()
    assert "albi-admin" in page(client.get(link))
    assert client.post(link).status_code == 302
    assert Membership.objects.get(club=rodez, user=albi_admin).role == "organiser"


def test_a_link_used_by_someone_else_while_a_member_accepts_answers_gone(rodez, presidente, albi, monkeypatch) -> None:
    # The page opens the invitation, then the accept opens it again under a lock: another
    # account may have used it in between. The answer is the notice, gone (410), not a 200.
    albi_admin = member(albi, "admin", "albi-admin")
    logged_in(presidente).post(
        reverse("manage:members", args=[rodez.pk]), {"email": "b@example.org", "role": "organiser"}
    )
    link = invitation_link()
    real_accept = tournament_services.invitation_accept

    def accept_after_someone_else(*, token: str, user) -> Membership:
        Invitation.objects.update(accepted_at=timezone.now())
        return real_accept(token=token, user=user)

    monkeypatch.setattr(tournament_services, "invitation_accept", accept_after_someone_else)
    late = logged_in(albi_admin).post(link)
    assert late.status_code == 410 and "déjà servi" in page(late)
    assert late["Content-Type"].startswith("text/html")
    assert not Membership.objects.filter(club=rodez, user=albi_admin).exists()


def test_an_administrator_changes_a_role_and_cannot_remove_the_last_administrator(rodez, presidente) -> None:
    organiser = member(rodez, "organiser", "orga")
    client = logged_in(presidente)
    orga_membership = Membership.objects.get(club=rodez, user=organiser)
    own = Membership.objects.get(club=rodez, user=presidente)
    client.post(reverse("manage:member_role", args=[rodez.pk, orga_membership.pk]), {"role": "admin"})
    assert Membership.objects.get(pk=orga_membership.pk).role == "admin"
    client.post(reverse("manage:member_role", args=[rodez.pk, orga_membership.pk]), {"role": "organiser"})
    refused = client.post(reverse("manage:member_role", args=[rodez.pk, own.pk]), {"role": "organiser"}, follow=True)
    assert "dernier administrateur" in page(refused)
    assert Membership.objects.get(pk=own.pk).role == "admin"
    remove = reverse("manage:member_remove", args=[rodez.pk, orga_membership.pk])
    confirm = client.post(remove)
    assert confirm.status_code == 200 and "Retirer orga du club" in page(confirm)
    assert Membership.objects.filter(pk=orga_membership.pk).exists()
    client.post(remove, {"confirmed": "1"})
    assert not Membership.objects.filter(pk=orga_membership.pk).exists()
    last = client.post(reverse("manage:member_remove", args=[rodez.pk, own.pk]), {"confirmed": "1"}, follow=True)
    assert "dernier administrateur" in page(last) and Membership.objects.filter(pk=own.pk).exists()


def test_a_club_administrator_anonymises_a_player_after_confirming(rodez, presidente) -> None:
    player = PlayerFactory(club=rodez, last_name="Bérard", first_name="Jeanne")
    client = logged_in(presidente)
    assert "Anonymiser ce joueur" in page(client.get(reverse("manage:player_edit", args=[rodez.pk, player.pk])))
    url = reverse("manage:player_anonymise", args=[rodez.pk, player.pk])
    confirm = client.post(url)
    assert confirm.status_code == 200 and "Anonymiser Jeanne Bérard" in page(confirm)
    assert Player.objects.get(pk=player.pk).anonymised_at is None
    assert client.post(url, {"confirmed": "1"}).status_code == 302
    assert Player.objects.get(pk=player.pk).full_name == f"Joueur anonymisé {player.pk}"


# -- password reset and privacy ------------------------------------------------------------


def test_a_forgotten_password_is_reset_through_an_emailed_link(client) -> None:
    lucie = UserFactory(username="lucie", email="lucie@example.org")
    login = page(client.get(reverse("login")))
    assert reverse("password_reset") in login and "Mot de passe oublié" in login
    assert client.post(reverse("password_reset"), {"email": "lucie@example.org"}).status_code == 302
    assert len(mail.outbox) == 1 and "Atout" in mail.outbox[0].subject
    link = re.search(r"https?://\S+/login/reset/\S+/", mail.outbox[0].body).group(0)
    form = client.get(link, follow=True)
    assert "Choisissez un nouveau mot de passe" in page(form)
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": "Une-belle-donne-42", "new_password2": "Une-belle-donne-42"}
    )
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    lucie.refresh_from_db()
    assert lucie.check_password("Une-belle-donne-42")
    # An unknown address is told the same, and nothing is sent.
    client.post(reverse("password_reset"), {"email": "personne@example.org"})
    assert len(mail.outbox) == 1


def test_the_privacy_page_is_linked_from_every_page_and_says_what_is_kept(client) -> None:
    assert reverse("privacy") in page(client.get(reverse("home")))
    privacy = page(client.get(reverse("privacy")))
    assert "Ce qu’Atout conserve" in privacy and "anonymis" in privacy
