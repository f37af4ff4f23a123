"""nginx in front of the site as the tests and the benches run it, on loopback: the same
`/live/` location as production's proxy (docker/nginx.conf), from the one file both
include (docker/nginx-live.conf, `LIVE_SNIPPET`), around a configuration of their own.

- `nginx_conf`: the whole configuration, its pid, logs and temporary files in one folder
  (nothing written to /var), in front of the site's addresses on 127.0.0.1, serving the
  live ranking's files from a live root (settings.LIVE_ROOT of the site behind it);
- `write_config`: that configuration written to its folder, and the command that runs it;
- `nginx_binary`, `install_nginx`: Debian's nginx, installed with apt when missing (as
  scripts/setup.sh installs it for the tests);
- `read_access_log`: the access log's lines (`access_log=True`), each saying whether
  nginx answered it itself or passed it to the site.

Used by tests/nginx.py (the browser tests through nginx) and the benches (bench/night.py,
bench/federation.py). No Django here: the benches import it before starting Django.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

# The `/live/` location (and its fallback to the site), written once for every nginx.
LIVE_SNIPPET = Path(__file__).resolve().parent.parent / "docker" / "nginx-live.conf"
# Where Debian's package puts nginx when no PATH names it.
DEBIAN_NGINX = "/usr/sbin/nginx"
# The access log's format: the request's end, its status, method and address as sent,
# the body's bytes, then the site's address when nginx passed it on ("-": nginx answered
# it itself). The upstream's address comes last: a retried request names several.
ACCESS_LOG_FORMAT = "$msec $status $request_method $request_uri $body_bytes_sent $upstream_addr"
TEMPORARY_KINDS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def nginx_conf(
    folder: Path,
    *,
    port: int,
    sites: Sequence[int],
    live_root: Path,
    workers: str = "1",
    files: int = 1024,
    user: str | None = None,
    access_log: bool = False,
) -> str:
    """nginx's configuration: on 127.0.0.1:`port`, in front of the site on 127.0.0.1 at
    each port of `sites` (one upstream, `atout_site`), serving the live ranking's files
    from `live_root` (LIVE_SNIPPET); its pid, logs and temporary files in `folder`.

    As docs/operating.md's proxy: Host, X-Forwarded-Proto, X-Forwarded-For and X-Request-ID
    sent on, 5 MB bodies. `access_log`: every request logged to `folder`/access.log in
    ACCESS_LOG_FORMAT (a bench leaves it off: a line a poll, thousands a second). gunicorn's
    sync workers close every connection, so no keep-alive to the site. `user`: the
    workers' user when nginx starts as root (`worker_user`).
    """
    if not sites:
        raise ValueError("nginx_conf: at least one site address")
    servers = "".join(f"        server 127.0.0.1:{site} max_fails=0;\n" for site in sites)
    temporary = "".join(f"    {kind}_temp_path {folder / kind};\n" for kind in TEMPORARY_KINDS)
    logging = (
        f"    log_format atout '{ACCESS_LOG_FORMAT}';\n    access_log {folder / 'access.log'} atout;\n"
        if access_log
        else "    access_log off;\n"
    )
    return (
        f"{f'user {user};' if user else ''}\n"
        "daemon off;\n"
        "master_process on;\n"
        f"worker_processes {workers};\n"
        f"worker_rlimit_nofile {files};\n"
        f"pid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'} warn;\n"
        "events {\n"
        f"    worker_connections {max(1024, files // 2)};\n"
        "}\n"
        "http {\n"
        f"{logging}"
        "    server_tokens off;\n"
        "    sendfile on;\n"
        f"{temporary}"
        "    client_max_body_size 5m;\n"
        # A ranking page of 300 teams is held whole: nothing written to disk on the way.
        "    proxy_buffers 64 16k;\n"
        "    proxy_max_temp_file_size 0;\n"
        "    proxy_read_timeout 60s;\n"
        "    upstream atout_site {\n"
        f"{servers}"
        "    }\n"
        "    server {\n"
        f"        listen 127.0.0.1:{port} backlog=4096;\n"
        "        proxy_set_header Host $http_host;\n"
        "        proxy_set_header X-Forwarded-Proto $scheme;\n"
        "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n"
        "        proxy_set_header X-Request-ID $request_id;\n"
        f"        set $atout_live_root {live_root};\n"
        f"        include {LIVE_SNIPPET};\n"
        "        location / {\n"
        "            proxy_pass http://atout_site;\n"
        "        }\n"
        "    }\n"
        "}\n"
    )


def worker_user() -> str | None:
    """The workers' user: nobody when nginx starts as root (as a production nginx's workers
    run as a user of their own, which must be able to read the live files), else none (the
    workers stay the user who started it)."""
    return "nobody nogroup" if os.geteuid() == 0 else None


def write_config(binary: str, folder: Path, text: str) -> list[str]:
    """A configuration (`nginx_conf`'s `text` for this `folder`) written to
    `folder`/nginx.conf, the folder made readable by the workers' user; the command that
    runs that nginx in the foreground."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    path = folder / "nginx.conf"
    path.write_text(text)
    return [binary, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(path)]


def nginx_binary() -> str | None:
    """nginx's path, None when it is not installed."""
    found = shutil.which("nginx")
    if found:
        return found
    return DEBIAN_NGINX if os.access(DEBIAN_NGINX, os.X_OK) else None


def install_nginx(say: Callable[[str], object] = print) -> str:
    """Debian's nginx, installed with apt when missing (`sudo -n` when not root); its path.
    Debian's package would start its own nginx on port 80: in a container, policy-rc.d
    usually refuses, else it runs beside this one, which never touches it. Raises
    RuntimeError when it cannot."""
    found = nginx_binary()
    if found:
        return found
    say("==> nginx is missing: installing Debian's nginx with apt")
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    for argv in (
        [*sudo, "apt-get", "update", "-qq"],
        [*sudo, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", "nginx"],
    ):
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=900, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise RuntimeError(f"{' '.join(argv)}: {error}") from error
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed: {(done.stderr or done.stdout).strip()[-500:]}")
    found = nginx_binary()
    if not found:
        raise RuntimeError("apt installed nginx, yet no nginx binary was found")
    return found


@dataclass(frozen=True)
class Logged:
    """One line of the access log (ACCESS_LOG_FORMAT)."""

    at: float
    status: int
    method: str
    uri: str
    sent: int
    # The site's address(es) when nginx passed the request on, else None.
    upstream: str | None

    @property
    def by_nginx(self) -> bool:
        """Whether nginx answered it itself (a file, or a 304 for it), the site never asked."""
        return self.upstream is None


def read_access_log(path: Path) -> list[Logged]:
    """The access log's lines in ACCESS_LOG_FORMAT (none when it is missing)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return []
    lines = []
    for line in text.splitlines():
        parts = line.split(" ", 5)
        if len(parts) < 6:
            continue
        at, status, method, uri, sent, upstream = parts
        lines.append(Logged(float(at), int(status), method, uri, int(sent), None if upstream == "-" else upstream))
    return lines
