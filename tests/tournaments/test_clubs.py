"""Clubs and their people through the services: a club made and edited, roles, the last
administrator kept, invitations that work once and expire."""

from __future__ import annotations

import io
import smtplib
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone
from PIL import Image

from tests.factories import ClubFactory, UserFactory
from tournaments import access, services
from tournaments.logos import MAX_SIDE, read_logo
from tournaments.models import Club, ClubLogo, Invitation, Membership

pytestmark = pytest.mark.django_db
ADMIN, ORGANISER = Membership.Role.ADMIN, Membership.Role.ORGANISER


def image_bytes(kind: str = "PNG", size: tuple[int, int] = (60, 30), **save: object) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "darkgreen").save(out, format=kind, **save)
    return out.getvalue()


def member(club: Club, role: str = ORGANISER, username: str | None = None):
    user = UserFactory(**({"username": username} if username else {}))
    club.organisers.add(user, through_defaults={"role": role})
    return user


def invite(by, club: Club, email: str = "lucie@example.org", role: str = ORGANISER) -> tuple[Invitation, str]:
    """An invitation and the secret of its link, as the e-mail carries it."""
    links: list[str] = []
    invitation = services.invitation_create(
        by=by, club=club, email=email, role=role, link_for=lambda token: links.append(token) or f"/i/{token}/"
    )
    return invitation, links[0]


@pytest.fixture
def site_admin():
    return UserFactory(username="federation", is_staff=True)


# -- clubs ---------------------------------------------------------------------------------


def test_a_site_administrator_creates_a_club_with_its_town_and_a_unique_address(site_admin) -> None:
    first = services.club_create(by=site_admin, name="Belote Club de Rodez", town="Rodez", administer=False)
    assert (first.name, first.town, first.slug, first.logo_version) == (
        "Belote Club de Rodez",
        "Rodez",
        "belote-club-de-rodez",
        "",
    )
    ClubFactory(slug="amicale-belote")
    second = services.club_create(by=site_admin, name="Amicale Belote", administer=False)
    assert second.slug == "amicale-belote-2"
    assert not second.organisers.exists()
    # Or administers it themself.
    third = services.club_create(by=site_admin, name="Tarot de Millau")
    assert Membership.objects.get(club=third).user == site_admin and third.memberships.get().role == ADMIN


def test_any_account_creates_a_club_it_administers_while_sign_up_is_open(settings) -> None:
    lucie = UserFactory(username="lucie")
    # Never a club without an administrator, whatever is asked.
    club = services.club_create(by=lucie, name="Amicale de Millau", town="Millau", administer=False)
    assert [(m.user, m.role) for m in club.memberships.all()] == [(lucie, ADMIN)]
    assert access.is_club_admin(lucie, club)
    settings.OPEN_SIGNUP = False
    with pytest.raises(PermissionDenied):
        services.club_create(by=lucie, name="Autre club")
    inactive = UserFactory(username="en-attente", is_active=False)
    settings.OPEN_SIGNUP = True
    with pytest.raises(PermissionDenied):
        services.club_create(by=inactive, name="Club fantôme")


def test_with_sign_up_closed_only_a_site_administrator_creates_clubs_and_names_stay_unique(
    site_admin, settings
) -> None:
    settings.OPEN_SIGNUP = False
    club = ClubFactory(name="Belote Club de Rodez")
    with pytest.raises(PermissionDenied):
        services.club_create(by=member(club, ADMIN), name="Autre club")
    with pytest.raises(ValidationError) as refused:
        services.club_create(by=site_admin, name="belote club de rodez")
    assert "name" in refused.value.message_dict
    with pytest.raises(ValidationError):
        services.club_create(by=site_admin, name="   ")


def test_a_club_administrator_edits_the_club_and_an_organiser_or_another_club_cannot() -> None:
    club, other = ClubFactory(name="Rodez"), ClubFactory(name="Albi")
    admin = member(club, ADMIN)
    services.club_update(by=admin, club=club, name="Belote Club de Rodez", town="Rodez")
    club.refresh_from_db()
    assert (club.name, club.town) == ("Belote Club de Rodez", "Rodez")
    for intruder in (member(club, ORGANISER), member(other, ADMIN)):
        with pytest.raises(PermissionDenied):
            services.club_update(by=intruder, club=club, name="Pris", town="")
    assert Club.objects.get(pk=club.pk).name == "Belote Club de Rodez"


def test_a_logo_is_stored_re_encoded_with_its_version_and_can_be_removed() -> None:
    club = ClubFactory()
    admin = member(club, ADMIN)
    logo = read_logo(io.BytesIO(image_bytes("PNG", (2000, 1000))))
    services.club_update(by=admin, club=club, name=club.name, logo=logo)
    club.refresh_from_db()
    stored = ClubLogo.objects.get(club=club)
    assert (stored.content_type, stored.width, stored.height) == ("image/png", MAX_SIDE, MAX_SIDE // 2)
    assert club.logo_version == logo.version and club.logo_url.endswith(f"?v={logo.version}")
    services.club_update(by=admin, club=club, name=club.name, remove_logo=True)
    club.refresh_from_db()
    assert club.logo_version == "" and club.logo_url == "" and not ClubLogo.objects.filter(club=club).exists()


def test_a_jpeg_logo_loses_its_metadata() -> None:
    exif = Image.Exif()
    exif[0x010E] = "Photo prise chez Lucie, 12 rue des Lilas"
    logo = read_logo(io.BytesIO(image_bytes("JPEG", exif=exif.tobytes())))
    assert logo.content_type == "image/jpeg"
    assert b"rue des Lilas" not in logo.data
    with Image.open(io.BytesIO(logo.data)) as reread:
        assert reread.format == "JPEG" and not reread.getexif()


@pytest.mark.parametrize(
    "content",
    [
        b"GIF89a" + b"\x00" * 100,
        b"<svg xmlns='http://www.w3.org/2000/svg'></svg>",
        b"\x89PNG\r\n\x1a\n" + b"\x00" * 40,
        b"",
    ],
    ids=["gif", "svg", "png-signature-then-nothing", "empty"],
)
def test_a_file_that_is_not_a_png_or_jpeg_image_is_refused_for_the_logo_field(content: bytes) -> None:
    with pytest.raises(ValidationError) as refused:
        read_logo(io.BytesIO(content))
    assert refused.value.message_dict == {"logo": ["Ce fichier n’est pas une image PNG ou JPEG."]}


def test_a_truncated_image_or_an_oversized_file_is_refused() -> None:
    whole = image_bytes("PNG", (300, 300))
    with pytest.raises(ValidationError) as truncated:
        read_logo(io.BytesIO(whole[: len(whole) // 2]))
    assert "logo" in truncated.value.message_dict
    with pytest.raises(ValidationError) as big:
        read_logo(io.BytesIO(b"\x89PNG" + b"\x00" * (3 * 1024 * 1024)))
    assert "2 Mo" in big.value.message_dict["logo"][0]


# -- roles ---------------------------------------------------------------------------------


def test_a_club_administrator_is_also_an_organiser_and_an_added_organiser_is_not_an_administrator() -> None:
    club = ClubFactory()
    admin, organiser = member(club, ADMIN), UserFactory()
    club.organisers.add(organiser)
    assert access.is_organiser(admin, club) and access.is_club_admin(admin, club)
    assert access.is_organiser(organiser, club) and not access.is_club_admin(organiser, club)
    assert set(club.organisers.all()) == {admin, organiser}
    assert Membership.objects.get(club=club, user=organiser).role == ORGANISER


def test_a_site_administrator_administers_every_club_without_organising_it(site_admin) -> None:
    club = ClubFactory()
    assert access.is_club_admin(site_admin, club)
    assert not access.is_organiser(site_admin, club)


def test_a_club_administrator_changes_roles() -> None:
    club = ClubFactory()
    admin, organiser = member(club, ADMIN), member(club, ORGANISER)
    membership = Membership.objects.get(club=club, user=organiser)
    services.member_set_role(by=admin, membership=membership, role=ADMIN)
    assert access.is_club_admin(organiser, club)
    with pytest.raises(ValidationError):
        services.member_set_role(by=admin, membership=membership, role="president")


def test_the_last_administrator_can_be_neither_demoted_nor_removed() -> None:
    club = ClubFactory()
    admin = member(club, ADMIN, "presidente")
    own = Membership.objects.get(club=club, user=admin)
    with pytest.raises(ValidationError) as demoted:
        services.member_set_role(by=admin, membership=own, role=ORGANISER)
    assert "presidente" in demoted.value.messages[0]
    with pytest.raises(ValidationError):
        services.member_remove(by=admin, membership=own)
    assert Membership.objects.get(pk=own.pk).role == ADMIN


def test_with_a_second_administrator_the_first_may_step_down_or_leave() -> None:
    club = ClubFactory()
    first, second = member(club, ADMIN), member(club, ADMIN)
    services.member_set_role(by=first, membership=Membership.objects.get(club=club, user=first), role=ORGANISER)
    with pytest.raises(ValidationError):
        # Now `second` is the last administrator.
        services.member_remove(by=second, membership=Membership.objects.get(club=club, user=second))
    services.member_remove(by=second, membership=Membership.objects.get(club=club, user=first))
    assert list(club.organisers.all()) == [second]


def test_an_organiser_cannot_change_roles_or_remove_anyone_and_another_clubs_admin_neither() -> None:
    club, other = ClubFactory(), ClubFactory()
    admin, organiser, outsider = member(club, ADMIN), member(club, ORGANISER), member(other, ADMIN)
    target = Membership.objects.get(club=club, user=admin)
    for intruder in (organiser, outsider):
        with pytest.raises(PermissionDenied):
            services.member_set_role(by=intruder, membership=target, role=ORGANISER)
        with pytest.raises(PermissionDenied):
            services.member_remove(by=intruder, membership=target)
    assert Membership.objects.filter(club=club).count() == 2


# -- invitations ---------------------------------------------------------------------------


def test_an_invitation_is_sent_by_email_with_a_link_whose_secret_is_not_stored() -> None:
    club = ClubFactory(name="Belote Club de Rodez")
    admin = member(club, ADMIN, "presidente")
    invitation, token = invite(admin, club)
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["lucie@example.org"]
    assert "Belote Club de Rodez" in sent.subject
    assert f"/i/{token}/" in sent.body and "presidente" in sent.body
    assert token not in invitation.token_hash and len(invitation.token_hash) == 64
    assert invitation.expires_at - timezone.now() > timedelta(days=6)


def test_the_invitee_makes_an_account_and_joins_with_the_role_and_the_link_works_once() -> None:
    club = ClubFactory()
    admin = member(club, ADMIN)
    _invitation, token = invite(admin, club, role=ADMIN)
    user = services.invitation_accept_new_account(token=token, username="lucie", password="Une-belle-donne-42")
    assert user.email == "lucie@example.org" and user.check_password("Une-belle-donne-42")
    assert Membership.objects.get(club=club, user=user).role == ADMIN
    with pytest.raises(ValidationError) as again:
        services.invitation_accept_new_account(token=token, username="lucie2", password="Une-belle-donne-42")
    assert again.value.code == "used"
    with pytest.raises(ValidationError):
        services.invitation_accept(token=token, user=UserFactory())
    assert not get_user_model().objects.filter(username="lucie2").exists()


def test_an_expired_or_unknown_invitation_opens_nothing() -> None:
    club = ClubFactory()
    invitation, token = invite(member(club, ADMIN), club)
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ValidationError) as expired:
        services.invitation_accept(token=token, user=UserFactory())
    assert expired.value.code == "expired"
    for wrong in ("", "abc", token[:-1] + ("A" if token[-1] != "A" else "B"), "x" * 500):
        with pytest.raises(ValidationError) as unknown:
            services.invitation_open(token=wrong)
        assert unknown.value.code == "unknown"
    assert Membership.objects.filter(club=club).count() == 1


def test_a_new_invitation_to_the_same_address_replaces_the_pending_one() -> None:
    club = ClubFactory()
    admin = member(club, ADMIN)
    _first, old = invite(admin, club, email="Lucie@example.org")
    _second, new = invite(admin, club, email="lucie@example.org")
    with pytest.raises(ValidationError):
        services.invitation_open(token=old)
    assert services.invitation_open(token=new).club == club
    assert Invitation.objects.filter(club=club).count() == 1


def test_an_existing_user_accepts_with_their_account_and_a_member_is_raised_to_administrator() -> None:
    club = ClubFactory()
    admin, organiser, newcomer = member(club, ADMIN), member(club, ORGANISER), UserFactory()
    _i, token = invite(admin, club)
    services.invitation_accept(token=token, user=newcomer)
    assert Membership.objects.get(club=club, user=newcomer).role == ORGANISER
    _i, token = invite(admin, club, email="orga@example.org", role=ADMIN)
    services.invitation_accept(token=token, user=organiser)
    assert Membership.objects.get(club=club, user=organiser).role == ADMIN


def test_a_plain_organiser_or_another_clubs_admin_cannot_invite() -> None:
    club, other = ClubFactory(), ClubFactory()
    for intruder in (member(club, ORGANISER), member(other, ADMIN)):
        with pytest.raises(PermissionDenied):
            invite(intruder, club)
    assert not Invitation.objects.exists() and mail.outbox == []


def test_a_bad_address_or_role_is_refused_beside_its_field() -> None:
    club = ClubFactory()
    admin = member(club, ADMIN)
    with pytest.raises(ValidationError) as refused:
        invite(admin, club, email="pas une adresse", role="roi")
    assert set(refused.value.message_dict) == {"email", "role"}


def test_an_invitation_the_mail_server_refuses_is_not_kept(monkeypatch) -> None:
    club = ClubFactory()
    admin = member(club, ADMIN)

    def refuse(*args: object, **kwargs: object) -> None:
        raise smtplib.SMTPRecipientsRefused({"lucie@example.org": (550, b"no such user")})

    monkeypatch.setattr("tournaments.services.clubs.send_mail", refuse)
    with pytest.raises(ValidationError) as refused:
        invite(admin, club)
    assert "email" in refused.value.message_dict
    assert not Invitation.objects.exists()


def test_a_new_account_needs_a_free_username_and_a_sound_password() -> None:
    club = ClubFactory()
    admin = member(club, ADMIN, "presidente")
    _i, token = invite(admin, club)
    with pytest.raises(ValidationError) as taken:
        services.invitation_accept_new_account(token=token, username="Presidente", password="Une-belle-donne-42")
    assert "username" in taken.value.message_dict
    with pytest.raises(ValidationError) as weak:
        services.invitation_accept_new_account(token=token, username="lucie", password="123")
    assert "password" in weak.value.message_dict
    with pytest.raises(ValidationError) as odd:
        services.invitation_accept_new_account(token=token, username="lu cie/!", password="Une-belle-donne-42")
    assert "username" in odd.value.message_dict
    # Refusals use nothing up: the link still works.
    assert services.invitation_open(token=token).accepted_at is None
