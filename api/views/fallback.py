"""The answer to a path under /api/ that names nothing: 404 in the API's error shape."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from api.errors import item


def not_found(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"errors": [item(None, "not_found", _("Not found."))]}, status=404)
