"""The answer to a path under /api/ that names nothing: 404 in the API's error shape."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from api.errors import item


# No form posts here: a POST to a path that names nothing is a 404, never a CSRF page.
@csrf_exempt
def not_found(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"errors": [item(None, "not_found", _("Not found."))]}, status=404)
