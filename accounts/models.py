"""An organiser's API tokens: several per user, each named, revocable, its last use kept.

The key is shown once, when the token is made; the database keeps only its SHA-256
(`key_hash`) and its first characters (`prefix`), to tell the tokens apart on the
account page. A stolen database opens no API.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=100)
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)
    # Recorded by the API's authentication (api/authentication.py), to the minute.
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        ordering = ["user", "-created_at"]
        constraints = [models.UniqueConstraint(fields=["user", "name"], name="api_token_name_unique")]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class SignUp(models.Model):
    """An account made at /signup/, and whether its e-mail address was confirmed.

    The account stays inactive (`is_active` off: it cannot log in) until its link is
    opened; `confirmed_at` then says the link was used, and it works no more. `nonce`
    is signed into the link, so that a link names this sign-up and no later one.
    Accounts made otherwise (an invitation, the first-run setup, the admin) have none.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="signup")
    nonce = models.CharField(max_length=32)
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")

    def __str__(self) -> str:
        return f"{self.user} ({'confirmed' if self.confirmed_at else 'waiting'})"


class SiteSetup(models.Model):
    """The one row that says the site's first administrator exists: /setup/ is closed.

    Its primary key can only be 1, so two first-run forms posted at once cannot both
    commit: the second insert fails and its account is rolled back with it. A database
    that had accounts before this row existed gets it from its migration.
    """

    SINGLETON = 1

    id = models.PositiveSmallIntegerField(primary_key=True, default=SINGLETON)
    done_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=models.Q(id=1), name="site_setup_singleton")]
        verbose_name = _("site setup")

    def __str__(self) -> str:
        return f"set up at {self.done_at:%Y-%m-%d %H:%M}"
