"""The live ranking's files through nginx (docker/nginx-live.conf, in serving/nginx.py's
configuration, as production's docker/nginx.conf includes it): Debian's nginx in front of
Django's live server, the files written into its live root as the worker writes them (a
file and its gzip twin, one mtime, renamed into place, readable by nginx's workers).

- a file is answered by nginx itself, never by the site: 200 with its Last-Modified, no
  caching without revalidation, Vary: Accept-Encoding, UTF-8 HTML; the gzip twin to a
  client that accepts gzip; 304 to an If-Modified-Since of exactly its date, 200 to any
  other date;
- nginx and the site (scoring/live_files.py's `answer`, which serves the same address
  without nginx) answer every such request alike: status, headers, body;
- nothing else in the folder is ever served (state.json, the locks, the gzip twin by its
  own name, temporary files): those addresses go to the site, which 404s;
- a file missing: the very request goes to the site.

The fixtures `nginx` and `site_requests` are tests/nginx.py's (through this folder's conftest).
"""

from __future__ import annotations

import gzip
import http.client
import os
from email.utils import formatdate
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.nginx import NginxProxy

# Sat, 05 Dec 2026 08:30:12 GMT, a night's publication.
MTIME = 1_796_459_412
BODY = '<section id="ranking" data-version="17">Équipe 1 · 102</section>\n'
SECRET = '{"version": 17, "secret": "never served"}'


def publish(root: Path, slug: str, name: str, text: str, mtime: int) -> None:
    """`name` and its gzip twin in `root`/`slug`, as the worker writes them: one mtime,
    each renamed into place, readable by nginx's workers."""
    folder = root / slug
    folder.mkdir(parents=True, exist_ok=True)
    for suffix, data in (("", text.encode()), (".gz", gzip.compress(text.encode(), mtime=0))):
        temporary = folder / f".{name}{suffix}.tmp"
        temporary.write_bytes(data)
        temporary.chmod(0o644)
        os.utime(temporary, (mtime, mtime))
        os.replace(temporary, folder / f"{name}{suffix}")


def get(proxy: NginxProxy | int, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """GET `path` from nginx (or from a port: the live server's), as sent."""
    port = proxy if isinstance(proxy, int) else proxy.port
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers={"Host": f"127.0.0.1:{port}", **headers})
        answer = connection.getresponse()
        return answer.status, {name.lower(): value for name, value in answer.getheaders()}, answer.read()
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_a_published_file_is_answered_by_nginx_with_its_date_and_304_to_that_date_only(nginx, site_requests):
    publish(nginx.live_root, "nuit-01", "fr-ranking.html", BODY, MTIME)
    path = "/live/nuit-01/fr-ranking.html"

    status, headers, body = get(nginx, path)
    assert (status, body.decode()) == (200, BODY)
    assert headers["last-modified"] == formatdate(MTIME, usegmt=True) == "Sat, 05 Dec 2026 08:30:12 GMT"
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["cache-control"] == "no-cache"
    assert headers["vary"] == "Accept-Encoding"
    assert "content-encoding" not in headers
    # nginx's tag: the file's time and size, in hexadecimal.
    assert headers["etag"] == f'"{MTIME:x}-{len(BODY.encode()):x}"'

    status, headers, body = get(nginx, path, **{"Accept-Encoding": "gzip, deflate, br"})
    assert (status, headers["content-encoding"]) == (200, "gzip")
    assert body == (nginx.live_root / "nuit-01" / "fr-ranking.html.gz").read_bytes()
    assert gzip.decompress(body).decode() == BODY
    assert headers["last-modified"] == "Sat, 05 Dec 2026 08:30:12 GMT" and headers["vary"] == "Accept-Encoding"

    status, headers, body = get(nginx, path, **{"If-Modified-Since": "Sat, 05 Dec 2026 08:30:12 GMT"})
    assert (status, body) == (304, b"")
    assert headers["last-modified"] == "Sat, 05 Dec 2026 08:30:12 GMT" and headers["cache-control"] == "no-cache"
    # Only that very date is "not modified": a page a second behind (or ahead) gets the file.
    for other in (MTIME - 1, MTIME + 1):
        status, _headers, body = get(nginx, path, **{"If-Modified-Since": formatdate(other, usegmt=True)})
        assert (status, body.decode()) == (200, BODY), other

    # The next publication: a new file, a later date; the page's old date now gets it.
    publish(nginx.live_root, "nuit-01", "fr-ranking.html", BODY.replace("17", "18"), MTIME + 3)
    status, headers, body = get(nginx, path, **{"If-Modified-Since": "Sat, 05 Dec 2026 08:30:12 GMT"})
    assert (status, headers["last-modified"]) == (200, "Sat, 05 Dec 2026 08:30:15 GMT")
    assert 'data-version="18"' in body.decode()

    # Every one answered by nginx itself: the site never saw them.
    lines = nginx.logged_once(path, 6)
    assert len(lines) == 6 and all(line.by_nginx for line in lines), lines
    assert [line.status for line in lines] == [200, 200, 304, 200, 200, 200]
    assert not [seen for seen in site_requests if seen.startswith("/live/")]


@pytest.mark.django_db(transaction=True)
def test_nginx_and_the_site_answer_a_file_alike(nginx, live_server, site_requests):
    publish(nginx.live_root, "nuit-01", "en-projector.html", BODY, MTIME)
    path = "/live/nuit-01/en-projector.html"
    site = urlsplit(live_server.url).port
    assert site is not None
    compared = ("last-modified", "etag", "cache-control", "vary", "content-type", "content-encoding")
    for headers in (
        {},
        {"Accept-Encoding": "gzip"},
        {"If-Modified-Since": "Sat, 05 Dec 2026 08:30:12 GMT"},
        {"If-Modified-Since": "Sat, 05 Dec 2026 08:30:12 GMT", "Accept-Encoding": "gzip"},
        {"If-Modified-Since": "Sat, 05 Dec 2026 08:30:11 GMT", "Accept-Encoding": "gzip"},
    ):
        by_nginx, by_site = get(nginx, path, **headers), get(site, path, **headers)
        assert by_nginx[0] == by_site[0] and by_nginx[2] == by_site[2], headers
        assert {key: by_nginx[1].get(key) for key in compared} == {key: by_site[1].get(key) for key in compared}
    # The first five through nginx, answered by it; the next five asked of the site directly.
    assert all(line.by_nginx for line in nginx.logged_once(path, 5)) and site_requests.count(path) == 5


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "name",
    [
        "state.json",
        "lock",
        ".lock",
        "state.lock",
        "fr-ranking.html.gz",
        ".fr-ranking.html.tmp",
        "fr-ranking.html.tmp",
        "FR-ranking.html",
        "de-ranking.html",
        "fr-ranking.htm",
    ],
)
def test_nothing_else_in_a_tournaments_folder_is_ever_served(nginx, site_requests, name):
    publish(nginx.live_root, "nuit-01", "fr-ranking.html", BODY, MTIME)
    for other in {"state.json", "lock", ".lock", "state.lock", "fr-ranking.html.tmp", "FR-ranking.html"}:
        (nginx.live_root / "nuit-01" / other).write_text(SECRET)
        (nginx.live_root / "nuit-01" / other).chmod(0o644)
    status, _headers, body = get(nginx, f"/live/nuit-01/{name}", **{"Accept-Encoding": "gzip"})
    assert status == 404 and b"never served" not in body
    # The site answered it, nginx did not.
    (line,) = nginx.logged_once(f"/live/nuit-01/{name}")
    assert not line.by_nginx and line.status == 404
    assert f"/live/nuit-01/{name}" in site_requests


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "path",
    [
        "/live/nuit-01/../nuit-01/state.json",
        "/live/nuit-01/%2e%2e/nuit-01/state.json",
        "/live/nuit-01/state.json%00fr-ranking.html",
        "/live/nuit-01/fr-ranking.html/state.json",
        "/live/state.json",
        "/live/.locks/nuit-01",
        "/live/",
    ],
)
def test_no_address_reaches_the_folders_other_files(nginx, path):
    publish(nginx.live_root, "nuit-01", "fr-ranking.html", BODY, MTIME)
    (nginx.live_root / "nuit-01" / "state.json").write_text(SECRET)
    (nginx.live_root / "nuit-01" / "state.json").chmod(0o644)
    (nginx.live_root / "state.json").write_text(SECRET)
    (nginx.live_root / "state.json").chmod(0o644)
    # Where the site keeps the tournaments' locks (scoring/live_files.py).
    (nginx.live_root / ".locks").mkdir()
    (nginx.live_root / ".locks" / "nuit-01").write_text(SECRET)
    (nginx.live_root / ".locks" / "nuit-01").chmod(0o644)
    connection = http.client.HTTPConnection("127.0.0.1", nginx.port, timeout=30)
    try:
        # As typed: http.client sends the path untouched ("..", "%2e" and all).
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", f"127.0.0.1:{nginx.port}")
        connection.endheaders()
        answer = connection.getresponse()
        status, body = answer.status, answer.read()
    finally:
        connection.close()
    assert status in (400, 404) and b"never served" not in body, (status, body[:200])


@pytest.mark.django_db(transaction=True)
def test_a_missing_file_is_asked_of_the_site_by_the_same_address(nginx, site_requests):
    publish(nginx.live_root, "nuit-01", "fr-ranking.html", BODY, MTIME)
    # Another language, another tournament: no file yet. No such tournament either: the site 404s.
    for path in ("/live/nuit-01/en-projector.html", "/live/nuit-02/fr-ranking.html"):
        status, _headers, _body = get(nginx, path, **{"If-Modified-Since": "Sat, 05 Dec 2026 08:30:12 GMT"})
        assert status == 404, path
        (line,) = nginx.logged_once(path)
        assert not line.by_nginx, line
        assert site_requests.count(path) == 1
