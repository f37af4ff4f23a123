"""API tokens in the admin: listed and revocable (deleted); they are made on the account page."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from accounts.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # not subscriptable at run time
    list_display = ["name", "user", "prefix", "created_at", "last_used_at"]
    list_filter = ["created_at"]
    search_fields = ["name", "user__username"]
    readonly_fields = ["user", "name", "prefix", "created_at", "last_used_at"]
    exclude = ["key_hash"]

    def has_add_permission(self, request: HttpRequest, obj: ApiToken | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ApiToken | None = None) -> bool:
        return False
