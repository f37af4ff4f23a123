"""Find the laptop's address on the room's network, for venue mode (`./run --venue`).

Nothing here sends a packet beyond the machine:
1. a UDP socket "connected" to an outside address: for UDP, connect() only asks the
   kernel which interface and source address it would route through, and sends nothing.
   That is the interface of the default route, usually the Wi-Fi. A room without
   internet may have no default route at all, hence the fallbacks;
2. the addresses of the interfaces, from `ip -4 -o addr show` (Linux);
3. `hostname -I` (Linux, older systems).
Loopback, link-local (169.254/16: no DHCP answered) and container bridges (docker0,
br-*, veth*, virbr*) are never chosen. Among the rest, a Wi-Fi interface comes first,
then private addresses (10/8, 172.16/12, 192.168/16), then the others.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# Any routable address will do: with UDP nothing is sent. This one is TEST-NET-3,
# reserved for documentation, so it cannot be a real host even by accident.
ROUTE_PROBE = ("203.0.113.1", 9)
_BRIDGES = re.compile(r"^(docker\d*|br-[0-9a-f]+|veth\w*|virbr\d*|cni\d*|flannel\.\d+|lxcbr\d*|tailscale\d*)$")
_WIFI = re.compile(r"^(wl\w*|wlan\d*|ath\d*|wifi\d*)$")
_IP_ADDR_LINE = re.compile(r"^\d+:\s+(?P<iface>[^\s:]+)\s+inet\s+(?P<address>\d+\.\d+\.\d+\.\d+)/\d+")


class NoLanAddress(RuntimeError):
    """The machine has no usable address on a local network."""


@dataclass(frozen=True)
class Candidate:
    address: str
    interface: str = ""


def usable(address: str) -> bool:
    """Can a phone on the same network reach the laptop at this address?"""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def rank(candidate: Candidate) -> tuple[int, int]:
    """Sort key: Wi-Fi first, then private addresses (lower is better)."""
    wifi = 0 if _WIFI.match(candidate.interface) else 1
    private = 0 if ipaddress.IPv4Address(candidate.address).is_private else 1
    return (wifi, private)


def parse_ip_addr(output: str) -> list[Candidate]:
    """The usable IPv4 addresses in `ip -4 -o addr show` output, bridges left out."""
    found = []
    for line in output.splitlines():
        match = _IP_ADDR_LINE.match(line.strip())
        if match is None:
            continue
        iface, address = match["iface"], match["address"]
        if _BRIDGES.match(iface) or not usable(address):
            continue
        found.append(Candidate(address, iface))
    return found


def parse_hostname_i(output: str) -> list[Candidate]:
    """The usable IPv4 addresses in `hostname -I` output (IPv6 ones are skipped)."""
    return [Candidate(word) for word in output.split() if usable(word)]


def route_address() -> str | None:
    """The source address of the default route, found without sending anything."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(ROUTE_PROBE)
        except OSError:
            # No route out (a room with no internet and no default gateway).
            return None
        address = str(sock.getsockname()[0])
    return address if usable(address) else None


def _command_output(argv: list[str]) -> str:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=5, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def interface_addresses(run: Callable[[list[str]], str] = _command_output) -> list[Candidate]:
    """Every usable address of the machine, best first (`ip`, else `hostname -I`)."""
    candidates = parse_ip_addr(run(["ip", "-4", "-o", "addr", "show"]))
    if not candidates:
        candidates = parse_hostname_i(run(["hostname", "-I"]))
    return sorted(candidates, key=rank)


def detect(
    route: Callable[[], str | None] = route_address,
    interfaces: Callable[[], Iterable[Candidate]] = interface_addresses,
) -> tuple[str, list[str]]:
    """The address to serve on, and the machine's other usable addresses (to print)."""
    others = [candidate.address for candidate in interfaces()]
    chosen = route() or (others[0] if others else None)
    if chosen is None:
        raise NoLanAddress(
            "No network address found: join the room's Wi-Fi (or start the laptop's hotspot), or give one with --host."
        )
    return chosen, [address for address in dict.fromkeys(others) if address != chosen]
