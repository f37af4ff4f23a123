"""Who may call what in the API; every decision is delegated to the site's own gates.

- Anyone reads what the public pages show: a tournament is visible by the rule of
  `scoring.selectors.standings.visible_tournament` (public and past its draft, or to
  its own organisers).
- An *organiser* (tournaments.access) writes to their club's tournaments, logged in by
  session (the site's cookie, with its CSRF token) or by an API token
  (`Authorization: Token <key>`: a named token of the account page,
  api.authentication). The services check the club again; `organiser_tournament`
  checks it before anything is loaded further.
- A *referee* holds a table's secret and sends it in the `X-Table-Token` header. The
  decision is the referee pages' own (`scoring.access.referee_table`): the same shape
  check, the same revocation and closed-round refusals, and the same limiter of wrong
  tokens per client address, so guessing through the API costs what it costs on the
  web and counts against the same budget.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, permissions
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from scoring.access import referee_table
from tournaments.access import require_organiser
from tournaments.models import Table, Tournament

TABLE_TOKEN_HEADER = "X-Table-Token"


@dataclass(frozen=True, slots=True)
class TableAccess:
    """`request.auth` for a request authenticated by a table's secret."""

    table: Table


class TokenRefused(exceptions.APIException):
    """A table secret the referee gate turned down (revoked link, closed round)."""

    status_code = 403
    default_code = "table_refused"


def table_for_token(request: HttpRequest, token: str) -> Table:
    """The table whose secret is `token`, as the referee pages decide it; raises otherwise."""
    opened: list[Table] = []

    def accept(_request: HttpRequest, table: Table) -> HttpResponse:
        opened.append(table)
        return HttpResponse(status=204)

    answer = referee_table(accept)(request, token)
    if opened:
        return opened[0]
    if answer.status_code == 429:
        raise exceptions.Throttled(
            detail=_("Too many wrong table tokens came from this address. Wait a few minutes."),
            code="too_many_wrong_tokens",
        )
    if answer.status_code == 404:
        raise exceptions.AuthenticationFailed(_("This token does not open any table."), code="unknown_table_token")
    # The gate refused a table that exists: its link was withdrawn or its round is closed.
    revoked = Table.objects.filter(token=token).values_list("token_revoked", flat=True).first()
    if revoked:
        raise TokenRefused(_("The director has withdrawn this table's token."), code="token_revoked")
    raise TokenRefused(_("This table's round is closed: ask the director."), code="round_closed")


class TableTokenAuthentication(BaseAuthentication):
    """Authenticate a referee by the `X-Table-Token` header; no user account involved."""

    def authenticate(self, request: Request) -> tuple[AnonymousUser, TableAccess] | None:
        token = request.META.get("HTTP_X_TABLE_TOKEN", "")
        if not token:
            return None
        return AnonymousUser(), TableAccess(table_for_token(request._request, token))

    def authenticate_header(self, request: Request) -> str:
        # Tells a client that answers 401 which credential is wanted.
        return TABLE_TOKEN_HEADER


class HasTableToken(permissions.BasePermission):
    """The request carries a table secret the referee gate accepted."""

    message = gettext_lazy("Send the table's secret in the X-Table-Token header.")

    def has_permission(self, request: Request, view: Any) -> bool:
        return isinstance(request.auth, TableAccess)


def table_of(request: Request) -> Table:
    assert isinstance(request.auth, TableAccess), "HasTableToken guards this view"
    return request.auth.table


def organiser_tournament(request: Request, slug: str) -> Tournament:
    """The tournament at `slug` for writing: 404 if there is none, 403 for another club's."""
    tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    require_organiser(request.user, tournament.club)
    return tournament
