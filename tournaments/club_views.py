"""Clubs and their people: a new club, its settings, its members and invitations, the
players' data rights, and the club's public page and logo.

Who may do what is tournaments.access's: a site administrator makes clubs, and any
account while the site's sign-up is open (becoming the club's administrator); a club's
administrator (or a site administrator) edits it, manages its people and anonymises its
players; an organiser of another club gets a 403. The invitation's page needs no login:
its link is the access, as long as it works.
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from kit.requests import UserRequest
from tournaments import access, selectors, services
from tournaments.forms import ClubForm, InvitationForm, RoleForm, add_service_errors
from tournaments.models import Club, ClubLogo, Invitation, Membership, Player
from tournaments.views import View

# The account an invitation creates logs in with the site's password check, not django-axes'.
PASSWORD_BACKEND = "django.contrib.auth.backends.ModelBackend"


def club_admin_view(view: View) -> View:
    @login_required
    @functools.wraps(view)
    def wrapper(request: HttpRequest, club_id: int, **kwargs: Any) -> HttpResponse:
        return view(request, access.club_admin_or_403(request.user, club_id), **kwargs)

    return wrapper


def _confirm(
    request: UserRequest, club: Club, *, title: str, consequences: list[str], button: str, back: str
) -> HttpResponse:
    """Ask before a destructive action (tournaments/confirm.html), with a way back to `back`."""
    context = {
        "club": club,
        "title": title,
        "consequences": consequences,
        "button": button,
        "action": request.path,
        "fields": (),
        "back_url": back,
        "back_label": _("Cancel"),
    }
    return render(request, "tournaments/confirm.html", context)


# -- the club ------------------------------------------------------------------------------


@login_required
def club_create(request: UserRequest) -> HttpResponse:
    """A new club: its creator is its first administrator. A site administrator may leave
    it without member instead (the box unticked), to invite its first administrator."""
    access.require_may_create_club(request.user)
    site_admin = access.is_site_admin(request.user)
    form = ClubForm(request.POST or None, request.FILES or None, offer_administer=site_admin)
    form.fields.pop("remove_logo")
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        administer = bool(data.get("administer")) if site_admin else True
        try:
            club = services.club_create(
                by=request.user, name=data["name"], town=data["town"], logo=data["logo"], administer=administer
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            if administer:
                messages.success(
                    request, _("Club created: you are its administrator. Invite the people who organise with you.")
                )
            else:
                messages.success(request, _("Club created. Invite its first administrator."))
            return redirect("manage:members", club_id=club.pk)
    return render(request, "tournaments/club_form.html", {"form": form, "club": None})


@club_admin_view
def club_settings(request: UserRequest, club: Club) -> HttpResponse:
    initial = {"name": club.name, "town": club.town}
    form = ClubForm(request.POST or None, request.FILES or None, initial=initial)
    if not club.logo_version:
        form.fields.pop("remove_logo")
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.club_update(
                by=request.user,
                club=club,
                name=data["name"],
                town=data["town"],
                logo=data["logo"],
                remove_logo=bool(data.get("remove_logo")),
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("Club saved."))
            return redirect("manage:club_settings", club_id=club.pk)
    return render(request, "tournaments/club_form.html", {"form": form, "club": club})


# -- members and invitations ---------------------------------------------------------------


def _members_page(request: UserRequest, club: Club, invite: InvitationForm, status: int = 200) -> HttpResponse:
    context = {
        "club": club,
        "members": club.memberships.select_related("user").order_by("user__username"),
        "invitations": club.invitations.filter(accepted_at__isnull=True).order_by("-created_at"),
        "invite": invite,
        "roles": Membership.Role.choices,
        "now": timezone.now(),
        "days": services.INVITATION_LIFETIME.days,
    }
    return render(request, "tournaments/members.html", context, status=status)


@club_admin_view
def members(request: UserRequest, club: Club) -> HttpResponse:
    """The club's members and pending invitations; the form posts a new invitation. A club
    with no administrator yet invites one by default."""
    no_admin = not club.memberships.filter(role=Membership.Role.ADMIN).exists()
    invite = InvitationForm(request.POST or None, initial={"role": Membership.Role.ADMIN} if no_admin else None)
    if request.method == "POST" and invite.is_valid():

        def link_for(token: str) -> str:
            return request.build_absolute_uri(reverse("invitation", kwargs={"invitation_token": token}))

        try:
            invitation = services.invitation_create(
                by=request.user, club=club, link_for=link_for, **invite.cleaned_data
            )
        except ValidationError as error:
            add_service_errors(invite, error)
        else:
            messages.success(request, _("Invitation sent to %(email)s.") % {"email": invitation.email})
            return redirect("manage:members", club_id=club.pk)
    return _members_page(request, club, invite)


def _membership(club: Club, membership_id: int) -> Membership:
    return get_object_or_404(Membership.objects.select_related("user", "club"), pk=membership_id, club=club)


@require_POST
@club_admin_view
def member_role(request: UserRequest, club: Club, membership_id: int) -> HttpResponse:
    membership = _membership(club, membership_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a role."))
        return redirect("manage:members", club_id=club.pk)
    try:
        services.member_set_role(by=request.user, membership=membership, role=form.cleaned_data["role"])
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("%(user)s’s role changed.") % {"user": membership.user.get_username()})
    if not access.is_club_admin(request.user, club):
        return redirect("manage:club", club_id=club.pk)
    return redirect("manage:members", club_id=club.pk)


@club_admin_view
def member_remove(request: UserRequest, club: Club, membership_id: int) -> HttpResponse:
    membership = _membership(club, membership_id)
    back = reverse("manage:members", kwargs={"club_id": club.pk})
    if request.method != "POST" or request.POST.get("confirmed") != "1":
        name = membership.user.get_username()
        return _confirm(
            request,
            club,
            title=_("Remove %(user)s from the club") % {"user": name},
            consequences=[
                _("%(user)s will no longer manage the club’s players and tournaments.") % {"user": name},
                _("Their account stays, and so does everything they made for the club."),
            ],
            button=_("Remove from the club"),
            back=back,
        )
    try:
        services.member_remove(by=request.user, membership=membership)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return redirect(back)
    messages.success(request, _("%(user)s removed from the club.") % {"user": membership.user.get_username()})
    if not access.is_organiser(request.user, club) and not access.is_club_admin(request.user, club):
        return redirect("manage:clubs")
    return redirect(back)


@require_POST
@club_admin_view
def invitation_cancel(request: UserRequest, club: Club, invitation_id: int) -> HttpResponse:
    invitation = get_object_or_404(Invitation, pk=invitation_id, club=club)
    services.invitation_cancel(by=request.user, invitation=invitation)
    messages.success(request, _("Invitation to %(email)s cancelled.") % {"email": invitation.email})
    return redirect("manage:members", club_id=club.pk)


def invitation(request: HttpRequest, invitation_token: str) -> HttpResponse:
    """The page an invitation's link opens: join with this account, or make one."""
    try:
        found = services.invitation_open(token=invitation_token)
    except ValidationError as error:
        status = 404 if error.code == "unknown" else 410
        title = _("Invitation not valid")
        return render(request, "notice.html", {"title": title, "message": error.messages[0]}, status=status)
    form: UserCreationForm[User] | None = (
        None if request.user.is_authenticated else UserCreationForm(request.POST or None)
    )
    if request.method == "POST":
        try:
            if form is None:
                services.invitation_accept(token=invitation_token, user=request.user)
            elif form.is_valid():
                user = services.invitation_accept_new_account(
                    token=invitation_token,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                )
                login(request, user, backend=PASSWORD_BACKEND)
            else:
                return _invitation_page(request, found, form)
        except ValidationError as error:
            if form is None or not hasattr(error, "error_dict"):
                return render(
                    request,
                    "notice.html",
                    {"title": _("Invitation not valid"), "message": error.messages[0]},
                    status=410,
                )
            add_service_errors(form, _password_errors_on_password2(error))
            return _invitation_page(request, found, form)
        messages.success(
            request,
            _("Welcome to %(club)s: you are now its %(role)s.")
            % {"club": found.club.name, "role": found.get_role_display().lower()},
        )
        return redirect("manage:club", club_id=found.club_id)
    return _invitation_page(request, found, form)


def _password_errors_on_password2(error: ValidationError) -> ValidationError:
    """The service names the password `password`; the form's field for it is `password2`."""
    return ValidationError(
        {("password2" if field == "password" else field): messages for field, messages in error.message_dict.items()}
    )


def _invitation_page(request: HttpRequest, found: Invitation, form: UserCreationForm[User] | None) -> HttpResponse:
    context = {"invitation": found, "form": form, "login_url": reverse("login") + "?next=" + request.path}
    return render(request, "tournaments/invitation.html", context)


# -- data rights -------------------------------------------------------------------------


@club_admin_view
def player_anonymise(request: UserRequest, club: Club, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id, club=club)
    back = reverse("manage:player_edit", kwargs={"club_id": club.pk, "player_id": player.pk})
    if player.anonymised_at is not None:
        messages.info(request, _("This player is already anonymised."))
        return redirect("manage:players", club_id=club.pk)
    if request.method != "POST" or request.POST.get("confirmed") != "1":
        return _confirm(
            request,
            club,
            title=_("Anonymise %(player)s") % {"player": player.full_name},
            consequences=[
                _("Their name becomes “%(name)s” in every tournament of the club.")
                % {"name": services.anonymous_name(player)},
                _("Their licence number, e-mail and phone are erased."),
                _("Their results stay, under that name, in the rankings of every round and season."),
                _("A team’s name is rebuilt from its players’ names."),
                _("This cannot be undone."),
            ],
            button=_("Anonymise for good"),
            back=back,
        )
    services.player_anonymise(by=request.user, player=player)
    messages.success(request, _("The player was anonymised."))
    return redirect("manage:players", club_id=club.pk)


# -- public pages --------------------------------------------------------------------------


@require_safe
def club_public(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    context = {"club": club, "tournaments": selectors.club_public_tournaments(club)}
    return render(request, "tournaments/club_public.html", context)


@require_safe
def club_logo(request: HttpRequest, slug: str) -> HttpResponse:
    """The logo's bytes, as Atout re-encoded them. Its URL carries the logo's version: asked
    with the current one, the answer may be kept for a year; otherwise for five minutes."""
    logo = ClubLogo.objects.filter(club__slug=slug).select_related("club").first()
    if logo is None:
        raise Http404("no logo")
    response = HttpResponse(bytes(logo.data), content_type=logo.content_type)
    current = request.GET.get("v") == logo.club.logo_version
    patch_cache_control(response, public=True, max_age=31_536_000 if current else 300, immutable=current)
    response["Content-Disposition"] = "inline"
    return response
