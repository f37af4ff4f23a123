"""The nginx configuration the tests and the benches run (serving/nginx.py): in front of
every site address given, the proxy headers docs/operating.md asks for, the live ranking's
location included from the one file production's docker/nginx.conf includes too, nothing
written outside its folder; nginx accepts it; its access log is read back. (Running it:
tests/production/test_nginx_live.py and tests/e2e/test_through_nginx.py.)"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from serving import nginx
from tests.conftest import ROOT


def conf_for(folder: Path, *, user: str | None = None, access_log: bool = False) -> str:
    return nginx.nginx_conf(
        folder, port=8080, sites=[9001, 9002], live_root=folder / "live", workers="2", files=4096, user=user,
        access_log=access_log,
    )  # fmt: skip


def test_the_site_upstream_has_every_address_and_the_proxy_headers_are_set_once(tmp_path):
    conf = conf_for(tmp_path)
    site = re.search(r"upstream atout_site \{([^}]*)\}", conf)
    assert site and re.findall(r"127\.0\.0\.1:(\d+)", site.group(1)) == ["9001", "9002"]
    assert re.findall(r"upstream (\S+) \{", conf) == ["atout_site"]
    assert "listen 127.0.0.1:8080" in conf and "worker_processes 2;" in conf
    # At the server level, where the live location's fallback inherits them, as in docker/nginx.conf.
    headers = dict(re.findall(r"^ {8}proxy_set_header (\S+) (\S+);", conf, re.M))
    assert headers == {
        "Host": "$http_host",
        "X-Forwarded-Proto": "$scheme",
        "X-Forwarded-For": "$proxy_add_x_forwarded_for",
        "X-Request-ID": "$request_id",
    }
    assert re.search(r"location / \{\s*proxy_pass http://atout_site;\s*\}", conf)
    assert "client_max_body_size 5m;" in conf


def test_the_live_location_is_productions_file_reading_the_live_root_given(tmp_path):
    conf = conf_for(tmp_path)
    assert nginx.LIVE_SNIPPET == ROOT / "docker" / "nginx-live.conf" and nginx.LIVE_SNIPPET.is_file()
    live_root = conf.index(f"set $atout_live_root {tmp_path / 'live'};")
    assert conf.index(f"include {nginx.LIVE_SNIPPET};") > live_root
    # Production's configuration includes the same file (mounted), with its own live root.
    production = (ROOT / "docker" / "nginx.conf").read_text()
    included = r"^\s*set \$atout_live_root /\S+;\n\s*include /etc/nginx/snippets/atout-live\.conf;"
    assert re.search(included, production, re.M)


def test_everything_of_its_own_is_in_its_folder(tmp_path):
    conf = conf_for(tmp_path, access_log=True)
    assert f"pid {tmp_path / 'nginx.pid'};" in conf and f"error_log {tmp_path / 'error.log'}" in conf
    assert f"proxy_temp_path {tmp_path / 'proxy'};" in conf and "/var/" not in conf
    assert f"access_log {tmp_path / 'access.log'} atout;" in conf
    assert "access_log off;" in conf_for(tmp_path)


def test_nginx_accepts_the_configuration(tmp_path):
    binary = nginx.nginx_binary()
    if binary is None:
        pytest.skip("nginx is not installed (./test installs it, scripts/setup.sh)")
    argv = nginx.write_config(
        binary, tmp_path / "nginx", conf_for(tmp_path / "nginx", user=nginx.worker_user(), access_log=True)
    )
    tmp_path.chmod(0o755)
    checked = subprocess.run([*argv, "-t"], capture_output=True, text=True, timeout=30, check=False)
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr
    assert nginx.worker_user() == ("nobody nogroup" if os.geteuid() == 0 else None)


def test_the_access_log_says_who_answered(tmp_path):
    log = tmp_path / "access.log"
    assert nginx.read_access_log(log) == []
    log.write_text(
        "1796459412.125 304 GET /live/nuit/fr-ranking.html 0 -\n"
        "1796459413.5 200 GET /t/nuit/?x=1 5120 127.0.0.1:9001\n"
        "1796459414.0 502 GET /live/nuit/en-ranking.html 157 127.0.0.1:9001, 127.0.0.1:9002\n"
        "garbled\n"
    )
    first, second, third = nginx.read_access_log(log)
    assert (first.status, first.uri, first.sent, first.by_nginx) == (304, "/live/nuit/fr-ranking.html", 0, True)
    assert (second.status, second.upstream, second.by_nginx) == (200, "127.0.0.1:9001", False)
    assert third.upstream == "127.0.0.1:9001, 127.0.0.1:9002" and third.at == 1796459414.0


def test_no_site_address_is_refused(tmp_path):
    with pytest.raises(ValueError, match="at least one"):
        nginx.nginx_conf(tmp_path, port=8080, sites=[], live_root=tmp_path)
