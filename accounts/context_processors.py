"""What every page needs to know of the accounts: whether anyone may sign up (the links)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def signup(request: HttpRequest) -> dict[str, bool]:
    return {"open_signup": settings.OPEN_SIGNUP}
