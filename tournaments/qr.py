"""QR codes and printed links of the public pages: the poster, the projector, the sheets.

Every address a phone is meant to open (a QR code, a link printed on a table sheet or a
poster) is made by `public_url`: `settings.ATOUT_PUBLIC_URL` when it is set, the address
the director's browser used otherwise. That address is this computer itself when the
browser asked for 127.0.0.1, ::1 or localhost (`./run`, or a venue laptop opened on
itself): `only_this_computer` tells the pages that print codes, which then say so instead
of printing codes no phone can open.
"""

from __future__ import annotations

import io
import ipaddress
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.http import HttpRequest, HttpResponse


def public_url(request: HttpRequest, path: str) -> str:
    """The address of `path` (from `reverse`) as phones open it."""
    base = settings.ATOUT_PUBLIC_URL
    return f"{base}{path}" if base else request.build_absolute_uri(path)


def _loopback(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def only_this_computer(request: HttpRequest) -> bool:
    """Whether the codes and links of this page would open on this computer only: no
    `ATOUT_PUBLIC_URL`, and the page asked for at a loopback address."""
    if settings.ATOUT_PUBLIC_URL:
        return False
    return _loopback(urlsplit(f"//{request.get_host()}").hostname or "")


def qr_svg_response(url: str) -> HttpResponse:
    """The QR code of `url` as an SVG response that browsers and printers may keep an hour."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=8, border=2, xmldecl=False)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=3600"
    return response


def qr_svg_inline(url: str) -> str:
    """The QR code of `url` as inline SVG, for a page to print (no image file: it prints sharp)."""
    return str(segno.make(url, error="m").svg_inline(scale=4, border=2))
