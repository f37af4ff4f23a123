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
