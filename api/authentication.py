"""The organiser's API token: `Authorization: Token <key>`, one of the named tokens made on
the account page (accounts.models.ApiToken). Each request records the token's last use.

It keeps DRF's TokenAuthentication for the header's parsing, its errors and the
`WWW-Authenticate: Token` challenge, and looks the key up among the named tokens.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from accounts.services import api_token_user


class ApiTokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, None]:
        user = api_token_user(key=key)
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        return user, None
