"""Every write of an organiser's API tokens, keyword-only like tournaments.services.

- `api_token_create(by=, name=)`: a new token for `by`; the answer carries its key, which
  is never stored and never shown again.
- `api_token_revoke(by=, token=)`: the token stops working at once (its row is deleted).
- `api_token_user(key=)`: the user a key authenticates, recording the token's last use
  (api/authentication.py calls it for every request that sends `Authorization: Token`).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import cast

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import ApiToken

# A token's last use is written at most this often: an app polling the API every few
# seconds costs one write a minute, not one per request.
LAST_USED_PRECISION = timedelta(minutes=1)
NAME_MAX = cast(int, ApiToken._meta.get_field("name").max_length)  # a CharField: never None


@dataclass(frozen=True, slots=True)
class NewToken:
    """A token just made, with its key: the only moment the key is known."""

    token: ApiToken
    key: str


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _require_user(by: User | AnonymousUser) -> None:
    if not by.is_authenticated:
        raise PermissionDenied("log in first")


def api_token_create(*, by: User, name: str) -> NewToken:
    _require_user(by)
    name = name.strip()
    if not name:
        raise ValidationError({"name": [_("Give the token a name (the app or the computer that uses it).")]})
    if len(name) > NAME_MAX:
        raise ValidationError({"name": [_("At most %(count)s characters.") % {"count": NAME_MAX}]})
    if ApiToken.objects.filter(user=by, name=name).exists():
        raise ValidationError({"name": [_("You already have a token of that name.")]})
    key = secrets.token_hex(20)
    try:
        with transaction.atomic():
            token = ApiToken.objects.create(user=by, name=name, key_hash=key_hash(key), prefix=key[:6])
    except IntegrityError:
        # Two tokens of one name made at the same moment: the second is refused like the check above.
        raise ValidationError({"name": [_("You already have a token of that name.")]}) from None
    return NewToken(token, key)


def api_token_revoke(*, by: User, token: ApiToken) -> None:
    _require_user(by)
    if token.user_id != by.pk:
        raise PermissionDenied("not your token")
    ApiToken.objects.filter(pk=token.pk).delete()


def api_token_user(*, key: str) -> User | None:
    """The active user `key` authenticates (its token's last use recorded), or None."""
    token = ApiToken.objects.select_related("user").filter(key_hash=key_hash(key)).first()
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_PRECISION)
    ApiToken.objects.filter(stale, pk=token.pk).update(last_used_at=now)
    return token.user
