"""QR codes of the public pages, drawn as SVG for the poster, the projector and the sheets."""

from __future__ import annotations

import io

import segno
from django.http import HttpResponse


def qr_svg_response(url: str) -> HttpResponse:
    """The QR code of `url` as an SVG response that browsers and printers may keep an hour."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=8, border=2, xmldecl=False)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=3600"
    return response
