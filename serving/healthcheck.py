"""The container's health probe: `python -m serving.healthcheck` exits 0 when /healthz is green.

It asks gunicorn on the loopback interface, with a Host header the site accepts (the
first of ALLOWED_HOSTS) so that host validation does not turn a healthy site into a 400;
/healthz is exempt from the HTTPS redirect. Only the standard library: the probe runs
every few seconds and must start fast.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

TIMEOUT_SECONDS = 5


def probe_host() -> str:
    """A host name the site answers to, taken from ALLOWED_HOSTS (wildcards made concrete)."""
    for host in os.environ.get("ALLOWED_HOSTS", "").split(","):
        host = host.strip()
        if host == "*" or not host:
            continue
        # ".example.org" allows every subdomain: any one of them will do.
        return f"www{host}" if host.startswith(".") else host
    return "localhost"


def probe_url() -> str:
    port = os.environ.get("PORT", "").strip() or "8000"
    return f"http://127.0.0.1:{port}/healthz"


def main() -> int:
    request = urllib.request.Request(probe_url(), headers={"Host": probe_host()})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            status = response.status
            body = response.read(500).decode(errors="replace")
    except urllib.error.HTTPError as exc:
        status, body = exc.code, exc.read(500).decode(errors="replace")
    except OSError as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1
    if status != 200:
        print(f"unhealthy: HTTP {status} {body}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
