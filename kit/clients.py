"""Who sent a request: the client's address, seen through the proxies the site trusts.

`REMOTE_ADDR` is the other end of the connection. Behind a reverse proxy (the HTTPS proxy
of a deployment, a load balancer) that is the proxy, the same for every phone in the
room, so a limit keyed on it would throttle the whole room at once. The proxy names the
client in `X-Forwarded-For`, appending the address it received the request from to
whatever the header already held, and a client can put anything it likes at the start
of that header. So the header is read only when the connection comes from a trusted
proxy (`TRUSTED_PROXIES`: addresses or networks), and from the right: each trusted
proxy is skipped, and the first address that is not one is the client. Without a
trusted proxy the header is ignored and `REMOTE_ADDR` is the client.

The wrong-table-link limiter (scoring.access) and the login throttle (django-axes,
`AXES_CLIENT_IP_CALLABLE`) both key on `client_address`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    # A proxy may write IPv6 in brackets, or add the client's port ("[::1]:51000", "1.2.3.4:51000").
    if text.startswith("[") and "]" in text:
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _trusted(address: ipaddress.IPv4Address | ipaddress.IPv6Address | None, proxies: Iterable[Network]) -> bool:
    return address is not None and any(address in network for network in proxies)


def client_address(request: HttpRequest) -> str:
    """The address of whoever sent `request`, as far as trusted proxies vouch for it.

    "" when the request carries no address at all (one built in code, a Unix socket's).
    """
    peer_address = _address(str(request.META.get("REMOTE_ADDR") or ""))
    peer = "" if peer_address is None else str(peer_address)
    proxies: tuple[Network, ...] = tuple(getattr(settings, "TRUSTED_PROXIES", ()))
    if not proxies or not _trusted(peer_address, proxies):
        return peer
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR") or "")
    nearest = peer
    for hop in reversed([part for part in forwarded.split(",") if part.strip()]):
        address = _address(hop)
        if address is None:
            # Garbage passed on by a trusted proxy: nothing to its left can be believed.
            break
        if not _trusted(address, proxies):
            return str(address)
        nearest = str(address)
    # Every hop was a trusted proxy, or the header was missing or broken: the client is
    # the farthest proxy that can be believed.
    return nearest
